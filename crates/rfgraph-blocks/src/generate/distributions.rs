//! Random bits to samples, a block at a time: uniform and Gaussian `f32`
//! and complex values of unit scale, and the branch-free natural logarithm
//! the Gaussian needs. Owns the numerics of the noise sources; never
//! draws bits itself beyond what it is handed a generator for.
//!
//! Every transform is a straight loop over a fixed-size block with no
//! branch per sample (comparisons compile to selects) and no library call
//! (`ln` here, `sincos` from the NCO's polynomial, `sqrt` is an
//! instruction), so the compiler vectorises it.
//!
//! - Uniform: 24 bits per value on a grid symmetric about zero,
//!   `(2k + 1 − 2^24) / 2^24` for `k` in `0..2^24`: values in `(−1, 1)`,
//!   mean exactly 0, variance 1/3.
//! - Laplacian and impulse: transforms of the uniform values.
//! - Gaussian: Box–Muller on 64 bits per pair, 31 for the radius
//!   (`u1 = (k + ½) / 2^31`, so |z| stays below 6.66, which a true normal
//!   exceeds with probability 3·10⁻¹¹) and 32 for the angle (a phase word
//!   for the NCO's `sincos`).

use super::rng::Xoshiro256PlusPlus;
use num_complex::Complex32;
use rfgraph_dsp::nco::sincos;

/// Samples per generated block: the unit of the stream, so a seed gives
/// the same samples however the output is split into calls.
pub(crate) const BLOCK: usize = 256;

/// `1/√2`, the per-component scale of unit-power complex noise.
const FRAC_1_SQRT_2: f32 = std::f32::consts::FRAC_1_SQRT_2;

/// A uniform value in `(−1, 1)` from the top 24 bits of `x`.
#[inline(always)]
fn uniform(x: u32) -> f32 {
    let k = (x >> 8) as i32;
    (2 * k + 1 - (1 << 24)) as f32 * (1.0 / 16_777_216.0)
}

/// Natural logarithm of a positive, normal `x` (relative error below
/// 3·10⁻⁷), without branches or library calls.
#[inline(always)]
pub(crate) fn ln(x: f32) -> f32 {
    const SQRT_2: f32 = std::f32::consts::SQRT_2;
    const LN_2: f32 = std::f32::consts::LN_2;
    let bits = x.to_bits();
    let e = ((bits >> 23) & 0xFF) as i32 - 127;
    let m = f32::from_bits((bits & 0x007F_FFFF) | 0x3F80_0000);
    // Mantissa into [√½, √2), so that x near 1 keeps e = 0 and loses no
    // digits to cancellation.
    let big = m > SQRT_2;
    let m = if big { 0.5 * m } else { m };
    let e = e + big as i32;
    // ln m = 2 atanh(s), s = (m − 1)/(m + 1), |s| ≤ 0.172: five odd terms
    // leave a truncation error below 1e-9.
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let series = 1.0 + s2 * (1.0 / 3.0 + s2 * (1.0 / 5.0 + s2 * (1.0 / 7.0 + s2 * (1.0 / 9.0))));
    e as f32 * LN_2 + 2.0 * s * series
}

/// The Box–Muller pair for one 64-bit word: radius from the top 31 bits,
/// angle from the low 32.
#[inline(always)]
fn box_muller(w: u64) -> (f32, f32) {
    let u1 = ((w >> 33) as i32 as f32 + 0.5) * (1.0 / 2_147_483_648.0);
    let r = (-2.0 * ln(u1)).sqrt();
    let (c, s) = sincos(w as u32);
    (r * c, r * s)
}

/// Uniform `f32` in `(−1, 1)`: two values per word.
pub(crate) fn uniform_f32(rng: &mut Xoshiro256PlusPlus, out: &mut [f32; BLOCK]) {
    let mut words = [0u64; BLOCK / 2];
    rng.fill(&mut words);
    for (pair, w) in out.as_chunks_mut::<2>().0.iter_mut().zip(words) {
        pair[0] = uniform(w as u32);
        pair[1] = uniform((w >> 32) as u32);
    }
}

/// Standard normal `f32`: one Box–Muller pair per word.
pub(crate) fn gaussian_f32(rng: &mut Xoshiro256PlusPlus, out: &mut [f32; BLOCK]) {
    let mut words = [0u64; BLOCK / 2];
    rng.fill(&mut words);
    for (pair, w) in out.as_chunks_mut::<2>().0.iter_mut().zip(words) {
        let (a, b) = box_muller(w);
        pair[0] = a;
        pair[1] = b;
    }
}

/// Laplacian `f32` of unit scale from uniform values `u` in `(0, 1)`:
/// `ln 2u` up to ½, `−ln 2(1 − u)` above (GNU Radio's transform).
pub(crate) fn laplacian_f32(rng: &mut Xoshiro256PlusPlus, out: &mut [f32; BLOCK]) {
    uniform_f32(rng, out);
    for x in out.iter_mut() {
        let u = 0.5 * (*x + 1.0);
        *x = if u > 0.5 {
            -ln(2.0 * (1.0 - u))
        } else {
            ln(2.0 * u)
        };
    }
}

/// GNU Radio's impulse noise of unit scale: `−√2·ln u` of a uniform `u`
/// in `(0, 1)` where that exceeds 9, else 0.
pub(crate) fn impulse_f32(rng: &mut Xoshiro256PlusPlus, out: &mut [f32; BLOCK]) {
    uniform_f32(rng, out);
    for x in out.iter_mut() {
        let z = -std::f32::consts::SQRT_2 * ln(0.5 * (*x + 1.0));
        *x = if z > 9.0 { z } else { 0.0 };
    }
}

/// Complex values with independent uniform components in `(−1/√2, 1/√2)`
/// (GNU Radio's `noise_source_c` scaling): one word per value.
pub(crate) fn uniform_c32(rng: &mut Xoshiro256PlusPlus, out: &mut [Complex32; BLOCK]) {
    let mut words = [0u64; BLOCK];
    rng.fill(&mut words);
    for (o, w) in out.iter_mut().zip(words) {
        *o = Complex32::new(
            FRAC_1_SQRT_2 * uniform(w as u32),
            FRAC_1_SQRT_2 * uniform((w >> 32) as u32),
        );
    }
}

/// Circular complex Gaussian of unit power (each component of variance
/// ½): one Box–Muller pair per value.
pub(crate) fn gaussian_c32(rng: &mut Xoshiro256PlusPlus, out: &mut [Complex32; BLOCK]) {
    let mut words = [0u64; BLOCK];
    rng.fill(&mut words);
    for (o, w) in out.iter_mut().zip(words) {
        let (a, b) = box_muller(w);
        *o = Complex32::new(FRAC_1_SQRT_2 * a, FRAC_1_SQRT_2 * b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_is_accurate_over_the_range_box_muller_uses() {
        let mut worst = 0.0f64;
        // Every binade from 2^-32 to 1, 4096 points each, and 1 itself.
        for e in -32..0 {
            for i in 0..4096 {
                let x = 2f32.powi(e) * (1.0 + i as f32 / 4096.0);
                let exact = (x as f64).ln();
                let err = (ln(x) as f64 - exact).abs() / exact.abs().max(1e-3);
                worst = worst.max(err);
            }
        }
        assert!(worst < 3e-7, "worst relative error {worst}");
        assert_eq!(ln(1.0), 0.0);
        // Just below 1, where a mantissa in [1, 2) would cancel.
        let x = 1.0 - f32::EPSILON / 2.0;
        let exact = (x as f64).ln();
        assert!(((ln(x) as f64 - exact) / exact).abs() < 1e-6);
    }

    #[test]
    fn uniform_grid_is_symmetric_and_inside_the_open_interval() {
        assert_eq!(uniform(0), -1.0 + 1.0 / 16_777_216.0);
        assert_eq!(uniform(u32::MAX), 1.0 - 1.0 / 16_777_216.0);
        assert_eq!(uniform(0), -uniform(u32::MAX));
        assert_eq!(uniform(0x8000_0000), 1.0 / 16_777_216.0);
        assert_eq!(uniform(0x7FFF_FFFF), -1.0 / 16_777_216.0);
    }

    #[test]
    fn box_muller_extremes_are_finite_and_bounded() {
        for w in [0u64, u64::MAX, 1 << 33, (u64::MAX >> 31) << 31] {
            let (a, b) = box_muller(w);
            assert!(a.is_finite() && b.is_finite());
            assert!(a.hypot(b) < 6.67, "{w:#x}: {a} {b}");
        }
        // The smallest u1 gives the largest radius, √(2·32·ln 2).
        let (a, _) = box_muller(0);
        assert!((a as f64 - (64.0 * 2f64.ln()).sqrt()).abs() < 1e-5, "{a}");
    }
}
