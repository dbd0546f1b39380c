//! Portable scalar versions of the SIMD loops. They define the expected results
//! (the AVX2 loops must agree within float tolerance) and are the fallback on
//! CPUs without AVX2/FMA. Accumulation uses 8 lanes, like the vector code, so
//! rounding behaviour is close and the compiler can vectorise for the baseline
//! target.

use super::EdgeMasks;
use super::poly;
use num_complex::Complex32;

/// `x` with the bits `mask` drops cleared (a dropped float reads `+0.0`).
#[inline]
fn keep(x: f32, mask: u32) -> f32 {
    f32::from_bits(x.to_bits() & mask)
}

/// Lane-wise `Σ x[i] h[i]` over a padded window (`h.len()` a multiple of 8),
/// lane `i mod 8` like the vector code; `MASKED` masks the window's first and
/// last blocks first (see `EdgeMasks`).
#[inline]
fn dot_lanes<const MASKED: bool>(x: &[f32], h: &[f32], m: &EdgeMasks) -> [f32; 8] {
    let x = &x[..h.len()];
    let blocks = h.len() / 8;
    let (first, last) = m.lanes();
    let mut acc = [0.0f32; 8];
    for (b, (xc, hc)) in x.chunks_exact(8).zip(h.chunks_exact(8)).enumerate() {
        let mask = match b {
            0 if MASKED => first,
            b if MASKED && b + 1 == blocks => last,
            _ => &[u32::MAX; 8],
        };
        for j in 0..8 {
            let v = if MASKED { keep(xc[j], mask[j]) } else { xc[j] };
            acc[j] += v * hc[j];
        }
    }
    acc
}

#[inline]
fn pairs(acc: [f32; 8]) -> (f32, f32) {
    (
        (acc[0] + acc[4]) + (acc[2] + acc[6]),
        (acc[1] + acc[5]) + (acc[3] + acc[7]),
    )
}

/// Real FIR over strided windows: summed over the whole padded window, and
/// again with the padding masked off only where that gave a non-finite
/// result (as the AVX2 twin does).
pub(super) fn fir_fff(x: &[f32], h: &[f32], m: &EdgeMasks, out: &mut [f32], stride: usize) {
    for (k, o) in out.iter_mut().enumerate() {
        let w = &x[k * stride..];
        let (e, od) = pairs(dot_lanes::<false>(w, h, m));
        *o = e + od;
        if !o.is_finite() {
            let (e, od) = pairs(dot_lanes::<true>(w, h, m));
            *o = e + od;
        }
    }
}

/// Complex-input, real-tap FIR over strided windows (see [`fir_fff`]).
pub(super) fn fir_ccf(x: &[f32], h: &[f32], m: &EdgeMasks, out: &mut [Complex32], stride: usize) {
    for (k, o) in out.iter_mut().enumerate() {
        let w = &x[2 * k * stride..];
        let (re, im) = pairs(dot_lanes::<false>(w, h, m));
        *o = Complex32::new(re, im);
        if !o.is_finite() {
            let (re, im) = pairs(dot_lanes::<true>(w, h, m));
            *o = Complex32::new(re, im);
        }
    }
}

/// Streaming real FIR over exactly the taps `h`, one sum per output like the
/// AVX2 streaming path: `out[k] = Σ_j x[k + j] · h[j]`.
pub(super) fn fir_fff_stream(x: &[f32], h: &[f32], out: &mut [f32]) {
    for (k, o) in out.iter_mut().enumerate() {
        *o = x[k..k + h.len()].iter().zip(h).map(|(a, b)| a * b).sum();
    }
}

/// [`fir_fff_stream`] on interleaved complex samples with real taps `h`.
pub(super) fn fir_ccf_stream(x: &[f32], h: &[f32], out: &mut [Complex32]) {
    for (k, o) in out.iter_mut().enumerate() {
        let w = x[2 * k..2 * (k + h.len())].chunks_exact(2);
        *o = w.zip(h).fold(Complex32::new(0.0, 0.0), |acc, (v, &t)| {
            acc + Complex32::new(v[0] * t, v[1] * t)
        });
    }
}

/// [`fir_fff_stream`] on interleaved complex samples with complex taps
/// `hr + j·hi`.
pub(super) fn fir_ccc_stream(x: &[f32], hr: &[f32], hi: &[f32], out: &mut [Complex32]) {
    for (k, o) in out.iter_mut().enumerate() {
        let w = x[2 * k..2 * (k + hr.len())].chunks_exact(2);
        *o = w
            .zip(hr.iter().zip(hi))
            .fold(Complex32::new(0.0, 0.0), |acc, (v, (&r, &i))| {
                acc + Complex32::new(v[0], v[1]) * Complex32::new(r, i)
            });
    }
}

/// Complex FIR over strided windows (see [`fir_fff`]).
pub(super) fn fir_ccc(
    x: &[f32],
    hr: &[f32],
    hi: &[f32],
    m: &EdgeMasks,
    out: &mut [Complex32],
    stride: usize,
) {
    fn one<const MASKED: bool>(w: &[f32], hr: &[f32], hi: &[f32], m: &EdgeMasks) -> Complex32 {
        let (xr_hr, xi_hr) = pairs(dot_lanes::<MASKED>(w, hr, m));
        let (xr_hi, xi_hi) = pairs(dot_lanes::<MASKED>(w, hi, m));
        Complex32::new(xr_hr - xi_hi, xi_hr + xr_hi)
    }
    for (k, o) in out.iter_mut().enumerate() {
        let w = &x[2 * k * stride..];
        *o = one::<false>(w, hr, hi, m);
        if !o.is_finite() {
            *o = one::<true>(w, hr, hi, m);
        }
    }
}

pub(super) fn rotate(x: &[Complex32], out: &mut [Complex32], mut phase: u32, step: u32) -> u32 {
    for (o, &v) in out.iter_mut().zip(x) {
        let (c, s) = poly::sincos(phase);
        *o = Complex32::new(v.re * c - v.im * s, v.im * c + v.re * s);
        phase = phase.wrapping_add(step);
    }
    phase
}

pub(super) fn nco(out: &mut [Complex32], mut phase: u32, step: u32) -> u32 {
    for o in out.iter_mut() {
        let (c, s) = poly::sincos(phase);
        *o = Complex32::new(c, s);
        phase = phase.wrapping_add(step);
    }
    phase
}

pub(super) fn quad_demod(mut prev: Complex32, x: &[Complex32], out: &mut [f32], gain: f32) {
    for (o, &v) in out.iter_mut().zip(x) {
        let re = v.re * prev.re + v.im * prev.im;
        let im = v.im * prev.re - v.re * prev.im;
        *o = gain * poly::atan2(im, re);
        prev = v;
    }
}

pub(super) fn magnitude(x: &[Complex32], out: &mut [f32]) {
    for (o, v) in out.iter_mut().zip(x) {
        *o = (v.re * v.re + v.im * v.im).sqrt();
    }
}

pub(super) fn magnitude_squared(x: &[Complex32], out: &mut [f32]) {
    for (o, v) in out.iter_mut().zip(x) {
        *o = v.re * v.re + v.im * v.im;
    }
}
