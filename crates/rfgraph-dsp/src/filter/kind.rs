//! The three FIR type combinations (`Fff`, `Ccf`, `Ccc`) and how each lays out
//! its taps for the SIMD dot products. Owns the tap layouts; never the
//! streaming logic.

use crate::sample::Sample;
use crate::simd::aligned::AlignedF32;
use crate::simd::{self, Simd};
use num_complex::Complex32;

/// Selects the input, tap and output types of a FIR kernel.
///
/// Implemented by the marker types [`Fff`] (`f32` in, `f32` taps), [`Ccf`]
/// (`Complex32` in, `f32` taps) and [`Ccc`] (`Complex32` in, `Complex32` taps);
/// the trait is sealed.
pub trait FirKind: private::Sealed + Send + Sync + 'static {
    /// Input sample type.
    type Input: Sample;
    /// Tap type.
    type Tap: Sample;
    /// Output sample type.
    type Output: Sample;
    /// Short name in GNU Radio style (`"fff"`, `"ccf"`, `"ccc"`).
    const NAME: &'static str;

    /// Taps laid out for the dot-product loops.
    #[doc(hidden)]
    type Prepared: Clone + core::fmt::Debug + Send + Sync;

    /// Reverses and pads `taps`.
    #[doc(hidden)]
    fn prepare(taps: &[Self::Tap]) -> Self::Prepared;

    /// Window length in samples (taps plus zero padding).
    #[doc(hidden)]
    fn window_len(p: &Self::Prepared) -> usize;

    /// `out[k] = Σ_j x[k + j] · rev_taps[j]` for a run of consecutive outputs
    /// (the streaming 1:1 FIR; may use a different summation order than
    /// `filter`, but always the same one for a given output).
    #[doc(hidden)]
    fn filter_stream(simd: Simd, p: &Self::Prepared, x: &[Self::Input], out: &mut [Self::Output]);

    /// `out[k] = Σ_j x[k*stride + j] · rev_taps[j]`.
    #[doc(hidden)]
    fn filter(
        simd: Simd,
        p: &Self::Prepared,
        x: &[Self::Input],
        out: &mut [Self::Output],
        stride: usize,
    );
}

mod private {
    pub trait Sealed {}
    impl Sealed for super::Fff {}
    impl Sealed for super::Ccf {}
    impl Sealed for super::Ccc {}
}

/// `f32` input, `f32` taps, `f32` output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Fff;
/// `Complex32` input, `f32` taps, `Complex32` output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Ccf;
/// `Complex32` input, `Complex32` taps, `Complex32` output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Ccc;

/// Number of samples in a padded window: taps rounded up to a multiple of
/// `lanes` samples.
fn padded(n: usize, lanes: usize) -> usize {
    n.div_ceil(lanes) * lanes
}

/// Real taps, reversed: padded to a multiple of 8 lanes for the dot-product
/// loops (`padded`, possibly duplicated per complex lane) and plain (`plain`).
#[derive(Debug, Clone)]
pub struct RealTaps {
    padded: AlignedF32,
    plain: Vec<f32>,
    /// Zero taps in front of the reversed taps, in samples.
    lead: usize,
}

impl FirKind for Fff {
    type Input = f32;
    type Tap = f32;
    type Output = f32;
    const NAME: &'static str = "fff";
    type Prepared = RealTaps;

    fn prepare(taps: &[f32]) -> RealTaps {
        let plain: Vec<f32> = taps.iter().rev().copied().collect();
        let lead = padded(taps.len(), 8) - taps.len();
        RealTaps {
            padded: AlignedF32::with_lead(lead, &plain),
            plain,
            lead,
        }
    }

    fn window_len(p: &RealTaps) -> usize {
        p.padded.len()
    }

    fn filter_stream(simd: Simd, p: &RealTaps, x: &[f32], out: &mut [f32]) {
        simd::fir_fff_stream(simd, x, p.padded.as_slice(), p.lead, out);
    }

    fn filter(simd: Simd, p: &RealTaps, x: &[f32], out: &mut [f32], stride: usize) {
        simd::fir_fff(simd, x, p.padded.as_slice(), out, stride);
    }
}

impl FirKind for Ccf {
    type Input = Complex32;
    type Tap = f32;
    type Output = Complex32;
    const NAME: &'static str = "ccf";
    type Prepared = RealTaps;

    fn prepare(taps: &[f32]) -> RealTaps {
        let plain: Vec<f32> = taps.iter().rev().copied().collect();
        let dup: Vec<f32> = plain.iter().flat_map(|&t| [t, t]).collect();
        let lead = padded(taps.len(), 4) - taps.len();
        RealTaps {
            padded: AlignedF32::with_lead(2 * lead, &dup),
            plain,
            lead,
        }
    }

    fn window_len(p: &RealTaps) -> usize {
        p.padded.len() / 2
    }

    fn filter_stream(simd: Simd, p: &RealTaps, x: &[Complex32], out: &mut [Complex32]) {
        simd::fir_ccf_stream(simd, simd::as_f32(x), &p.plain, p.lead, out);
    }

    fn filter(simd: Simd, p: &RealTaps, x: &[Complex32], out: &mut [Complex32], stride: usize) {
        simd::fir_ccf(simd, simd::as_f32(x), p.padded.as_slice(), out, stride);
    }
}

/// Complex taps, reversed: real and imaginary parts duplicated and padded for
/// the dot-product loops, and plain.
#[derive(Debug, Clone)]
pub struct ComplexTaps {
    re_dup: AlignedF32,
    im_dup: AlignedF32,
    re: Vec<f32>,
    im: Vec<f32>,
    lead: usize,
}

impl FirKind for Ccc {
    type Input = Complex32;
    type Tap = Complex32;
    type Output = Complex32;
    const NAME: &'static str = "ccc";
    type Prepared = ComplexTaps;

    fn prepare(taps: &[Complex32]) -> ComplexTaps {
        let lead = padded(taps.len(), 4) - taps.len();
        let re: Vec<f32> = taps.iter().rev().map(|t| t.re).collect();
        let im: Vec<f32> = taps.iter().rev().map(|t| t.im).collect();
        let dup = |v: &[f32]| -> Vec<f32> { v.iter().flat_map(|&t| [t, t]).collect() };
        ComplexTaps {
            re_dup: AlignedF32::with_lead(2 * lead, &dup(&re)),
            im_dup: AlignedF32::with_lead(2 * lead, &dup(&im)),
            re,
            im,
            lead,
        }
    }

    fn window_len(p: &ComplexTaps) -> usize {
        p.re_dup.len() / 2
    }

    fn filter_stream(simd: Simd, p: &ComplexTaps, x: &[Complex32], out: &mut [Complex32]) {
        simd::fir_ccc_stream(simd, simd::as_f32(x), &p.re, &p.im, p.lead, out);
    }

    fn filter(simd: Simd, p: &ComplexTaps, x: &[Complex32], out: &mut [Complex32], stride: usize) {
        simd::fir_ccc(
            simd,
            simd::as_f32(x),
            p.re_dup.as_slice(),
            p.im_dup.as_slice(),
            out,
            stride,
        );
    }
}

/// Checks a user tap vector: non-empty and finite.
pub(crate) fn check_taps<T: Sample>(taps: &[T]) -> Result<(), crate::DspError> {
    if taps.is_empty() {
        return Err(crate::DspError::EmptyTaps);
    }
    if let Some(pos) = taps.iter().position(|t| !t.is_finite_sample()) {
        return Err(crate::DspError::InvalidSpec(format!(
            "tap {pos} is not finite"
        )));
    }
    Ok(())
}
