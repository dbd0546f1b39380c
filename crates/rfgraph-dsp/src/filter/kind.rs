//! The three FIR type combinations (`Fff`, `Ccf`, `Ccc`) and how each lays out
//! its taps for the SIMD dot products. Owns the tap layouts and where the taps
//! sit in a kernel's window; never the streaming logic.
//!
//! A prepared tap vector covers only its real taps: zeros that make phases of
//! a polyphase bank line up (or that a window has beyond a phase's taps) are
//! never stored, so the loops never multiply them by a sample. That keeps a
//! non-finite sample (`0 · ∞ = NaN`) out of every output whose taps do not
//! reach it.

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

    /// Lays out `taps` for a window of `window` samples in which `taps[i]`
    /// multiplies the sample `newest + i` places before the window's last
    /// one. Requires `window >= newest + taps.len()` and `window >= 1`.
    #[doc(hidden)]
    fn prepare_in(taps: &[Self::Tap], window: usize, newest: usize) -> Self::Prepared;

    /// Lays out `taps` for a window of exactly `taps.len()` samples.
    #[doc(hidden)]
    fn prepare(taps: &[Self::Tap]) -> Self::Prepared {
        Self::prepare_in(taps, taps.len().max(1), 0)
    }

    /// Window length in samples.
    #[doc(hidden)]
    fn window_len(p: &Self::Prepared) -> usize;

    /// The filter over a run of consecutive windows: `x` holds
    /// `out.len() + window − 1` samples and `out[k]` is the filter over
    /// `x[k..k + window]` (the streaming 1:1 FIR; may use a different
    /// summation order than `filter`, but always the same one for a given
    /// output).
    #[doc(hidden)]
    fn filter_stream(simd: Simd, p: &Self::Prepared, x: &[Self::Input], out: &mut [Self::Output]);

    /// `out[k]` is the filter over the window `x[k·stride..k·stride + window]`.
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

/// Where the taps sit in the window: `lead` samples of window come before
/// the oldest tap (and `window − lead − taps` after the newest).
#[derive(Debug, Clone, Copy)]
struct Placement {
    lead: usize,
    window: usize,
}

impl Placement {
    fn new(taps: usize, window: usize, newest: usize) -> Placement {
        debug_assert!(window >= 1 && window >= newest + taps);
        Placement {
            lead: window - newest - taps,
            window,
        }
    }
}

/// Real taps, reversed (so a dot product runs forward over the window), for
/// the dot-product loops (`dot`: as is for `Fff`, duplicated per complex lane
/// for `Ccf`) and for the streaming loops (`plain`).
#[derive(Debug, Clone)]
pub struct RealTaps {
    dot: AlignedF32,
    plain: AlignedF32,
    at: Placement,
}

fn reversed<T: Copy>(taps: &[T]) -> Vec<T> {
    taps.iter().rev().copied().collect()
}

fn duplicated(v: &[f32]) -> Vec<f32> {
    v.iter().flat_map(|&t| [t, t]).collect()
}

impl FirKind for Fff {
    type Input = f32;
    type Tap = f32;
    type Output = f32;
    const NAME: &'static str = "fff";
    type Prepared = RealTaps;

    fn prepare_in(taps: &[f32], window: usize, newest: usize) -> RealTaps {
        let plain = AlignedF32::new(&reversed(taps));
        RealTaps {
            dot: plain.clone(),
            plain,
            at: Placement::new(taps.len(), window, newest),
        }
    }

    fn window_len(p: &RealTaps) -> usize {
        p.at.window
    }

    fn filter_stream(simd: Simd, p: &RealTaps, x: &[f32], out: &mut [f32]) {
        simd::fir_fff_stream(simd, &x[p.at.lead..], p.plain.as_slice(), out);
    }

    fn filter(simd: Simd, p: &RealTaps, x: &[f32], out: &mut [f32], stride: usize) {
        simd::fir_fff(simd, &x[p.at.lead..], p.dot.as_slice(), out, stride);
    }
}

impl FirKind for Ccf {
    type Input = Complex32;
    type Tap = f32;
    type Output = Complex32;
    const NAME: &'static str = "ccf";
    type Prepared = RealTaps;

    fn prepare_in(taps: &[f32], window: usize, newest: usize) -> RealTaps {
        let plain = reversed(taps);
        RealTaps {
            dot: AlignedF32::new(&duplicated(&plain)),
            plain: AlignedF32::new(&plain),
            at: Placement::new(taps.len(), window, newest),
        }
    }

    fn window_len(p: &RealTaps) -> usize {
        p.at.window
    }

    fn filter_stream(simd: Simd, p: &RealTaps, x: &[Complex32], out: &mut [Complex32]) {
        let x = simd::as_f32(&x[p.at.lead..]);
        simd::fir_ccf_stream(simd, x, p.plain.as_slice(), out);
    }

    fn filter(simd: Simd, p: &RealTaps, x: &[Complex32], out: &mut [Complex32], stride: usize) {
        let x = simd::as_f32(&x[p.at.lead..]);
        simd::fir_ccf(simd, x, p.dot.as_slice(), out, stride);
    }
}

/// Complex taps, reversed: real and imaginary parts duplicated per complex
/// lane for the dot-product loops, and plain for the streaming loops.
#[derive(Debug, Clone)]
pub struct ComplexTaps {
    re_dup: AlignedF32,
    im_dup: AlignedF32,
    re: AlignedF32,
    im: AlignedF32,
    at: Placement,
}

impl FirKind for Ccc {
    type Input = Complex32;
    type Tap = Complex32;
    type Output = Complex32;
    const NAME: &'static str = "ccc";
    type Prepared = ComplexTaps;

    fn prepare_in(taps: &[Complex32], window: usize, newest: usize) -> ComplexTaps {
        let re: Vec<f32> = taps.iter().rev().map(|t| t.re).collect();
        let im: Vec<f32> = taps.iter().rev().map(|t| t.im).collect();
        ComplexTaps {
            re_dup: AlignedF32::new(&duplicated(&re)),
            im_dup: AlignedF32::new(&duplicated(&im)),
            re: AlignedF32::new(&re),
            im: AlignedF32::new(&im),
            at: Placement::new(taps.len(), window, newest),
        }
    }

    fn window_len(p: &ComplexTaps) -> usize {
        p.at.window
    }

    fn filter_stream(simd: Simd, p: &ComplexTaps, x: &[Complex32], out: &mut [Complex32]) {
        let x = simd::as_f32(&x[p.at.lead..]);
        simd::fir_ccc_stream(simd, x, p.re.as_slice(), p.im.as_slice(), out);
    }

    fn filter(simd: Simd, p: &ComplexTaps, x: &[Complex32], out: &mut [Complex32], stride: usize) {
        simd::fir_ccc(
            simd,
            simd::as_f32(&x[p.at.lead..]),
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
