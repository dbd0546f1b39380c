//! Portable scalar versions of the SIMD loops. They define the expected results
//! (the AVX2 loops must agree within float tolerance) and are the fallback on
//! CPUs without AVX2/FMA. Accumulation uses 8 lanes, like the vector code, so
//! rounding behaviour is close and the compiler can vectorise for the baseline
//! target.

use super::poly;
use num_complex::Complex32;

/// Lane-wise `Σ x[i] h[i]` over exactly `h.len()` floats, lane `i mod 8`
/// (the vector code's lanes; a short last block fills only its first lanes).
#[inline]
fn dot_lanes(x: &[f32], h: &[f32]) -> [f32; 8] {
    let x = &x[..h.len()];
    let mut acc = [0.0f32; 8];
    let xc = x.chunks_exact(8);
    let hc = h.chunks_exact(8);
    let (xr, hr) = (xc.remainder(), hc.remainder());
    for (xc, hc) in xc.zip(hc) {
        for j in 0..8 {
            acc[j] += xc[j] * hc[j];
        }
    }
    for (a, (x, h)) in acc.iter_mut().zip(xr.iter().zip(hr)) {
        *a += x * h;
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

pub(super) fn fir_fff(x: &[f32], h: &[f32], out: &mut [f32], stride: usize) {
    for (k, o) in out.iter_mut().enumerate() {
        let (e, od) = pairs(dot_lanes(&x[k * stride..], h));
        *o = e + od;
    }
}

pub(super) fn fir_ccf(x: &[f32], h: &[f32], out: &mut [Complex32], stride: usize) {
    for (k, o) in out.iter_mut().enumerate() {
        let (re, im) = pairs(dot_lanes(&x[2 * k * stride..], h));
        *o = Complex32::new(re, im);
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

pub(super) fn fir_ccc(x: &[f32], hr: &[f32], hi: &[f32], out: &mut [Complex32], stride: usize) {
    for (k, o) in out.iter_mut().enumerate() {
        let w = &x[2 * k * stride..];
        let (xr_hr, xi_hr) = pairs(dot_lanes(w, hr));
        let (xr_hi, xi_hi) = pairs(dot_lanes(w, hi));
        *o = Complex32::new(xr_hr - xi_hi, xi_hr + xr_hi);
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
