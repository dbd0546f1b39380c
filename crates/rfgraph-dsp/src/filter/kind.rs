//! The three FIR type combinations (`Fff`, `Ccf`, `Ccc`) and how each lays out
//! its taps for the SIMD dot products. Owns the tap layouts and where the taps
//! sit in a kernel's window; never the streaming logic.
//!
//! A window is padded to whole 8-float blocks (so the dot-product loops have
//! the same trip count for every phase of a bank and no tail), and the taps
//! sit in it with zeros around them: before the oldest tap (lane padding, a
//! polyphase phase shorter than the others) and after the newest (the
//! arbitrary resampler's phase 0). Those zeros never turn a non-finite
//! sample into a non-finite output (`0 · ∞ = NaN`): an output that comes out
//! non-finite is summed again with the window's first and last blocks masked
//! down to the real taps' span, so it stays non-finite only if a real tap
//! covers the bad sample. (A zero tap times a finite sample adds nothing, so
//! finite outputs need no second look.) The streaming loops take the real
//! taps only.

use crate::sample::Sample;
use crate::simd::aligned::AlignedF32;
use crate::simd::{self, EdgeMasks, Simd};
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

    /// Lays out `taps` for a window of at least `window` samples in which
    /// `taps[i]` multiplies the sample `newest + i` places before the
    /// window's last one. Requires `window >= newest + taps.len()` and
    /// `window >= 1`; the taps must fill the window but for at most one
    /// sample at its start and one at its end (the window is then padded).
    #[doc(hidden)]
    fn prepare_in(taps: &[Self::Tap], window: usize, newest: usize) -> Self::Prepared;

    /// Lays out `taps` for a window of `taps.len()` samples (padded).
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

/// Where the taps sit in the (padded) window: `lead` samples before the
/// oldest tap, `window` samples in all.
#[derive(Debug, Clone, Copy)]
struct Placement {
    lead: usize,
    window: usize,
}

impl Placement {
    /// `taps` real taps, the newest `newest` samples before the end of a
    /// window of `window` samples padded to whole blocks of `lanes` samples.
    fn new(taps: usize, window: usize, newest: usize, lanes: usize) -> Placement {
        debug_assert!(window >= 1 && window >= newest + taps);
        let window = window.div_ceil(lanes) * lanes;
        Placement {
            lead: window - newest - taps,
            window,
        }
    }

    /// The dot-product layout of `rev` (reversed taps, `per` floats per
    /// tap) in this window of `floats_per_sample` floats per sample: zeros
    /// around the taps, and the masks that keep only their span.
    fn layout(&self, rev: &[f32], floats_per_sample: usize) -> (AlignedF32, EdgeMasks) {
        let floats = self.window * floats_per_sample;
        let start = self.lead * floats_per_sample;
        let mut v = vec![0.0f32; floats];
        v[start..start + rev.len()].copy_from_slice(rev);
        let masks = EdgeMasks::new(floats, start, start + rev.len());
        (AlignedF32::new(&v), masks)
    }
}

/// Real taps, reversed (so a dot product runs forward over the window), laid
/// out in the padded window for the dot-product loops (`dot`: as is for
/// `Fff`, duplicated per complex lane for `Ccf`) and alone for the streaming
/// loops (`plain`).
#[derive(Debug, Clone)]
pub struct RealTaps {
    dot: AlignedF32,
    masks: EdgeMasks,
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
        let at = Placement::new(taps.len(), window, newest, 8);
        let rev = reversed(taps);
        let (dot, masks) = at.layout(&rev, 1);
        RealTaps {
            dot,
            masks,
            plain: AlignedF32::new(&rev),
            at,
        }
    }

    fn window_len(p: &RealTaps) -> usize {
        p.at.window
    }

    fn filter_stream(simd: Simd, p: &RealTaps, x: &[f32], out: &mut [f32]) {
        simd::fir_fff_stream(simd, &x[p.at.lead..], p.plain.as_slice(), out);
    }

    fn filter(simd: Simd, p: &RealTaps, x: &[f32], out: &mut [f32], stride: usize) {
        simd::fir_fff(simd, x, p.dot.as_slice(), &p.masks, out, stride);
    }
}

impl FirKind for Ccf {
    type Input = Complex32;
    type Tap = f32;
    type Output = Complex32;
    const NAME: &'static str = "ccf";
    type Prepared = RealTaps;

    fn prepare_in(taps: &[f32], window: usize, newest: usize) -> RealTaps {
        let at = Placement::new(taps.len(), window, newest, 4);
        let rev = reversed(taps);
        let (dot, masks) = at.layout(&duplicated(&rev), 2);
        RealTaps {
            dot,
            masks,
            plain: AlignedF32::new(&rev),
            at,
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
        let x = simd::as_f32(x);
        simd::fir_ccf(simd, x, p.dot.as_slice(), &p.masks, out, stride);
    }
}

/// Complex taps, reversed: real and imaginary parts duplicated per complex
/// lane and laid out in the padded window for the dot-product loops, and
/// alone for the streaming loops.
#[derive(Debug, Clone)]
pub struct ComplexTaps {
    re_dup: AlignedF32,
    im_dup: AlignedF32,
    masks: EdgeMasks,
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
        let at = Placement::new(taps.len(), window, newest, 4);
        let re: Vec<f32> = taps.iter().rev().map(|t| t.re).collect();
        let im: Vec<f32> = taps.iter().rev().map(|t| t.im).collect();
        let (re_dup, masks) = at.layout(&duplicated(&re), 2);
        let (im_dup, _) = at.layout(&duplicated(&im), 2);
        ComplexTaps {
            re_dup,
            im_dup,
            masks,
            re: AlignedF32::new(&re),
            im: AlignedF32::new(&im),
            at,
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
            simd::as_f32(x),
            p.re_dup.as_slice(),
            p.im_dup.as_slice(),
            &p.masks,
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
