//! SIMD-accelerated inner loops with run-time dispatch. Owns every `unsafe` block
//! of the crate (AVX2+FMA intrinsics) and the portable scalar twins that define
//! the expected results. Kernels outside this module never touch intrinsics.
//!
//! Dispatch goes through [`Simd`], a token that can only say "AVX2" when the CPU
//! was checked to support it, so every `unsafe` call below rests on that one
//! check.
//!
//! Layout conventions shared by the loops:
//! * complex data is passed as interleaved `f32` (`re, im, re, im, ...`);
//! * tap vectors are reversed (so a dot product runs forward over the input);
//!   for the dot-product ("horizontal") loops they are laid out in a window
//!   padded to a multiple of 8 `f32` (no tail, the same trip count for every
//!   phase of a bank). Padding times a finite sample adds nothing; an output
//!   that comes out non-finite (padding times a non-finite sample gives NaN,
//!   which would reach outputs whose taps do not cover it) is summed again
//!   with the window's first and last blocks masked to the taps
//!   ([`EdgeMasks`]), so only the rare bad outputs pay for the masking;
//! * the streaming 1:1 FIR loops (`fir_*_stream`, "vertical": many consecutive
//!   outputs per pass over the taps) finish a run with the same FMA chain in
//!   scalar form, so results never depend on where a call boundary fell.

pub(crate) mod aligned;
#[cfg(target_arch = "x86_64")]
mod avx2;
pub(crate) mod poly;
mod scalar;

use crate::isa::Isa;
use num_complex::Complex32;

/// A resolved instruction-set choice; `avx2` is true only if the CPU has AVX2
/// and FMA.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Simd {
    avx2: bool,
}

impl Simd {
    /// Resolves `isa` against the running CPU.
    pub(crate) fn new(isa: Isa) -> Simd {
        Simd {
            avx2: isa == Isa::Avx2Fma && isa.is_available(),
        }
    }

    /// The ISA actually in use.
    pub(crate) fn isa(self) -> Isa {
        if self.avx2 { Isa::Avx2Fma } else { Isa::Scalar }
    }
}

/// Interleaved view of complex samples.
#[inline]
pub(crate) fn as_f32(x: &[Complex32]) -> &[f32] {
    bytemuck::cast_slice(x)
}

/// Mutable interleaved view of complex samples.
#[inline]
pub(crate) fn as_f32_mut(x: &mut [Complex32]) -> &mut [f32] {
    bytemuck::cast_slice_mut(x)
}

/// Which floats of a padded window's first and last 8-float blocks the
/// masked dot products keep (all bits set) or zero (0) before multiplying:
/// the padding around the taps. Blocks in between are all taps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EdgeMasks {
    first: [u32; 8],
    last: [u32; 8],
}

impl EdgeMasks {
    /// Masks keeping floats `start..end` of a window of `floats` (a
    /// multiple of 8); every block but the first and last must lie inside.
    /// A one-block window's mask is all in `first`.
    pub(crate) fn new(floats: usize, start: usize, end: usize) -> EdgeMasks {
        debug_assert!(floats >= 8 && floats.is_multiple_of(8));
        debug_assert!(start <= 8 && end + 8 >= floats && start <= end);
        let keep = |f: usize| {
            if (start..end).contains(&f) {
                u32::MAX
            } else {
                0
            }
        };
        let first = core::array::from_fn(keep);
        let last = if floats > 8 {
            core::array::from_fn(|j| keep(floats - 8 + j))
        } else {
            [u32::MAX; 8]
        };
        EdgeMasks { first, last }
    }

    /// The first and last blocks' lane masks.
    pub(crate) fn lanes(&self) -> (&[u32; 8], &[u32; 8]) {
        (&self.first, &self.last)
    }
}

/// `out[k] = Σ_j x[k*stride + j] * h[j]` for real data over a padded window
/// (`h.len()` a multiple of 8), where a non-finite result is summed again
/// with the floats `masks` drop zeroed instead of multiplied; `x` holds
/// every window.
#[inline]
pub(crate) fn fir_fff(
    simd: Simd,
    x: &[f32],
    h: &[f32],
    masks: &EdgeMasks,
    out: &mut [f32],
    stride: usize,
) {
    debug_assert!(h.len() >= 8 && h.len().is_multiple_of(8));
    if out.is_empty() {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if simd.avx2 {
        // SAFETY: `simd.avx2` is only true when the CPU supports AVX2 and FMA
        // (checked in `Simd::new`).
        unsafe { avx2::fir_fff(x, h, masks, out, stride) };
        return;
    }
    let _ = simd;
    scalar::fir_fff(x, h, masks, out, stride);
}

/// Complex input, real taps duplicated per lane (`h = [t0, t0, t1, t1, ..]`);
/// `x` is interleaved complex and `stride` counts complex samples.
#[inline]
pub(crate) fn fir_ccf(
    simd: Simd,
    x: &[f32],
    h: &[f32],
    masks: &EdgeMasks,
    out: &mut [Complex32],
    stride: usize,
) {
    debug_assert!(h.len() >= 8 && h.len().is_multiple_of(8));
    if out.is_empty() {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if simd.avx2 {
        // SAFETY: `simd.avx2` is only true when the CPU supports AVX2 and FMA.
        unsafe { avx2::fir_ccf(x, h, masks, out, stride) };
        return;
    }
    let _ = simd;
    scalar::fir_ccf(x, h, masks, out, stride);
}

/// Complex input, complex taps given as duplicated real parts `hr` and
/// duplicated imaginary parts `hi`.
#[inline]
pub(crate) fn fir_ccc(
    simd: Simd,
    x: &[f32],
    hr: &[f32],
    hi: &[f32],
    masks: &EdgeMasks,
    out: &mut [Complex32],
    stride: usize,
) {
    debug_assert!(hr.len() >= 8 && hr.len().is_multiple_of(8) && hr.len() == hi.len());
    if out.is_empty() {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if simd.avx2 {
        // SAFETY: `simd.avx2` is only true when the CPU supports AVX2 and FMA.
        unsafe { avx2::fir_ccc(x, hr, hi, masks, out, stride) };
        return;
    }
    let _ = simd;
    scalar::fir_ccc(x, hr, hi, masks, out, stride);
}

/// Streaming real FIR over consecutive outputs, `out[k] = Σ_j x[k + j] · h[j]`.
///
/// `h` are the reversed taps (no padding); `x` holds `out.len() + h.len() −
/// 1` samples. Only real taps are multiplied (so a non-finite sample reaches
/// only the outputs whose span holds it); both paths run one sum per output,
/// the AVX2 one an FMA chain (bit-identical whatever the split). No taps
/// (a polyphase phase with none) gives zeros.
pub(crate) fn fir_fff_stream(simd: Simd, x: &[f32], h: &[f32], out: &mut [f32]) {
    if out.is_empty() {
        return;
    }
    if h.is_empty() {
        out.fill(0.0);
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if simd.avx2 {
        // SAFETY: `simd.avx2` is only true when the CPU supports AVX2 and FMA.
        unsafe { avx2::fir_real_taps_stream::<1>(x, h, out) };
        return;
    }
    scalar::fir_fff_stream(x, h, out);
}

/// Streaming complex-input, real-tap FIR over consecutive outputs (see
/// [`fir_fff_stream`]); `h` are the reversed taps and `x` is interleaved.
pub(crate) fn fir_ccf_stream(simd: Simd, x: &[f32], h: &[f32], out: &mut [Complex32]) {
    if out.is_empty() {
        return;
    }
    if h.is_empty() {
        out.fill(Complex32::new(0.0, 0.0));
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if simd.avx2 {
        // SAFETY: `simd.avx2` is only true when the CPU supports AVX2 and FMA.
        unsafe { avx2::fir_real_taps_stream::<2>(x, h, as_f32_mut(out)) };
        return;
    }
    scalar::fir_ccf_stream(x, h, out);
}

/// Streaming complex FIR over consecutive outputs (see [`fir_fff_stream`]);
/// `hr`/`hi` are the reversed parts and `x` is interleaved.
pub(crate) fn fir_ccc_stream(simd: Simd, x: &[f32], hr: &[f32], hi: &[f32], out: &mut [Complex32]) {
    if out.is_empty() {
        return;
    }
    if hr.is_empty() {
        out.fill(Complex32::new(0.0, 0.0));
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if simd.avx2 {
        // SAFETY: `simd.avx2` is only true when the CPU supports AVX2 and FMA.
        unsafe { avx2::fir_ccc_stream(x, hr, hi, out) };
        return;
    }
    scalar::fir_ccc_stream(x, hr, hi, out);
}

/// `out[n] = x[n] * e^{j 2π (phase + n*step) / 2^32}`; returns the phase after
/// the last sample.
pub(crate) fn rotate(
    simd: Simd,
    x: &[Complex32],
    out: &mut [Complex32],
    phase: u32,
    step: u32,
) -> u32 {
    let n = x.len().min(out.len());
    #[cfg(target_arch = "x86_64")]
    if simd.avx2 {
        // SAFETY: `simd.avx2` is only true when the CPU supports AVX2 and FMA.
        return unsafe { avx2::rotate(as_f32(&x[..n]), as_f32_mut(&mut out[..n]), phase, step) };
    }
    let _ = simd;
    scalar::rotate(&x[..n], &mut out[..n], phase, step)
}

/// `out[n] = e^{j 2π (phase + n*step) / 2^32}`; returns the phase after the last
/// sample.
pub(crate) fn nco(simd: Simd, out: &mut [Complex32], phase: u32, step: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if simd.avx2 {
        // SAFETY: `simd.avx2` is only true when the CPU supports AVX2 and FMA.
        return unsafe { avx2::nco(as_f32_mut(out), phase, step) };
    }
    let _ = simd;
    scalar::nco(out, phase, step)
}

/// `out[n] = gain * arg(x[n] * conj(x[n-1]))` with `x[-1] = prev`, over
/// `min(x.len(), out.len())` samples.
pub(crate) fn quad_demod(simd: Simd, prev: Complex32, x: &[Complex32], out: &mut [f32], gain: f32) {
    let n = x.len().min(out.len());
    #[cfg(target_arch = "x86_64")]
    if simd.avx2 {
        // SAFETY: `simd.avx2` is only true when the CPU supports AVX2 and FMA.
        unsafe { avx2::quad_demod(prev, &x[..n], &mut out[..n], gain) };
        return;
    }
    let _ = simd;
    scalar::quad_demod(prev, &x[..n], &mut out[..n], gain);
}

/// `out[n] = |x[n]|` over `min(x.len(), out.len())` samples.
pub(crate) fn magnitude(simd: Simd, x: &[Complex32], out: &mut [f32]) {
    let n = x.len().min(out.len());
    #[cfg(target_arch = "x86_64")]
    if simd.avx2 {
        // SAFETY: `simd.avx2` is only true when the CPU supports AVX2 and FMA.
        unsafe { avx2::magnitude::<true>(as_f32(&x[..n]), &mut out[..n]) };
        return;
    }
    let _ = simd;
    scalar::magnitude(&x[..n], &mut out[..n]);
}

/// `out[n] = |x[n]|²` over `min(x.len(), out.len())` samples.
pub(crate) fn magnitude_squared(simd: Simd, x: &[Complex32], out: &mut [f32]) {
    let n = x.len().min(out.len());
    #[cfg(target_arch = "x86_64")]
    if simd.avx2 {
        // SAFETY: `simd.avx2` is only true when the CPU supports AVX2 and FMA.
        unsafe { avx2::magnitude::<false>(as_f32(&x[..n]), &mut out[..n]) };
        return;
    }
    let _ = simd;
    scalar::magnitude_squared(&x[..n], &mut out[..n]);
}
