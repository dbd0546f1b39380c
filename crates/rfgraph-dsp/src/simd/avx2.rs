//! AVX2+FMA versions of the hot loops (x86-64 only). Every function here is
//! `#[target_feature(enable = "avx2,fma")]`; callers in `simd/mod.rs` reach them
//! only through a `Simd` token proving the CPU has both features.
//!
//! Partial vectors (call tails) go through small zero-padded stack buffers and
//! the same vector code, so a sample's result never depends on where a call
//! boundary fell.

use super::EdgeMasks;
use super::poly;
use core::arch::x86_64::*;
use num_complex::Complex32;

/// Sum of even lanes and sum of odd lanes of `v`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn reduce_pairs(v: __m256) -> (f32, f32) {
    let s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    (_mm_cvtss_f32(s), _mm_cvtss_f32(_mm_shuffle_ps(s, s, 1)))
}

/// The two edge masks as vectors.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn masks(m: &EdgeMasks) -> (__m256, __m256) {
    let (f, l) = m.lanes();
    // SAFETY: both arrays hold 8 u32 = 32 bytes; unaligned loads.
    unsafe {
        (
            _mm256_castsi256_ps(_mm256_loadu_si256(f.as_ptr().cast())),
            _mm256_castsi256_ps(_mm256_loadu_si256(l.as_ptr().cast())),
        )
    }
}

/// The 8 floats at `p`, the first block (`i == 0`) ANDed with `first` and the
/// last (`i == last_at`) with `last` when `MASKED` (so padding multiplies a
/// zero, never a sample); plain when not.
///
/// # Safety
/// `p` must be readable for 8 `f32`.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn block<const MASKED: bool>(
    p: *const f32,
    i: usize,
    last_at: usize,
    first: __m256,
    last: __m256,
) -> __m256 {
    // SAFETY: the caller guarantees 8 readable floats at p.
    let v = unsafe { _mm256_loadu_ps(p) };
    if !MASKED {
        v
    } else if i == 0 {
        _mm256_and_ps(v, first)
    } else if i == last_at {
        _mm256_and_ps(v, last)
    } else {
        v
    }
}

/// Lane-wise `Σ x[i] h[i]` over a padded window (`h.len()` a multiple of 8)
/// with four independent accumulators; `MASKED` masks the window's first and
/// last blocks (see [`block`]).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn dot_acc<const MASKED: bool>(x: &[f32], h: &[f32], first: __m256, last: __m256) -> __m256 {
    let n = h.len();
    let x = &x[..n];
    let (xp, hp) = (x.as_ptr(), h.as_ptr());
    let last_at = n.wrapping_sub(8);
    // SAFETY (for every `xb` below): called with i + 8 <= n == x.len().
    let xb = |i: usize| unsafe { block::<MASKED>(xp.add(i), i, last_at, first, last) };
    let (mut a0, mut a1, mut a2, mut a3) = (
        _mm256_setzero_ps(),
        _mm256_setzero_ps(),
        _mm256_setzero_ps(),
        _mm256_setzero_ps(),
    );
    let mut i = 0;
    while i + 32 <= n {
        // SAFETY: i + 32 <= n == x.len() == h.len(), so the four 8-lane loads at
        // i, i+8, i+16, i+24 stay inside both slices.
        unsafe {
            a0 = _mm256_fmadd_ps(xb(i), _mm256_loadu_ps(hp.add(i)), a0);
            a1 = _mm256_fmadd_ps(xb(i + 8), _mm256_loadu_ps(hp.add(i + 8)), a1);
            a2 = _mm256_fmadd_ps(xb(i + 16), _mm256_loadu_ps(hp.add(i + 16)), a2);
            a3 = _mm256_fmadd_ps(xb(i + 24), _mm256_loadu_ps(hp.add(i + 24)), a3);
        }
        i += 32;
    }
    while i + 8 <= n {
        // SAFETY: i + 8 <= n == x.len() == h.len().
        unsafe {
            a0 = _mm256_fmadd_ps(xb(i), _mm256_loadu_ps(hp.add(i)), a0);
        }
        i += 8;
    }
    _mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3))
}

/// The real dot product of window `w` with the padding masked off: the rare
/// path (see [`fir_fff`]), kept out of line so the hot loop stays small.
#[cold]
#[inline(never)]
#[target_feature(enable = "avx2,fma")]
fn masked_pairs(w: &[f32], h: &[f32], m: &EdgeMasks) -> (f32, f32) {
    let (first, last) = masks(m);
    reduce_pairs(dot_acc::<true>(w, h, first, last))
}

/// Real FIR over strided windows (see `simd::fir_fff`). Each output is
/// first summed over the whole padded window (padding times a finite sample
/// adds nothing); only a non-finite result, which padding times a
/// non-finite sample could have caused, is summed again with the padding
/// masked off.
#[target_feature(enable = "avx2,fma")]
pub(super) fn fir_fff(x: &[f32], h: &[f32], m: &EdgeMasks, out: &mut [f32], stride: usize) {
    let z = _mm256_setzero_ps();
    for (k, o) in out.iter_mut().enumerate() {
        let w = &x[k * stride..];
        let (e, od) = reduce_pairs(dot_acc::<false>(w, h, z, z));
        *o = e + od;
        if !o.is_finite() {
            let (e, od) = masked_pairs(w, h, m);
            *o = e + od;
        }
    }
}

/// Complex-input, real-tap FIR over strided windows (see `simd::fir_ccf`;
/// non-finite results are redone masked, as in [`fir_fff`]).
#[target_feature(enable = "avx2,fma")]
pub(super) fn fir_ccf(x: &[f32], h: &[f32], m: &EdgeMasks, out: &mut [Complex32], stride: usize) {
    let z = _mm256_setzero_ps();
    for (k, o) in out.iter_mut().enumerate() {
        let w = &x[2 * k * stride..];
        let (re, im) = reduce_pairs(dot_acc::<false>(w, h, z, z));
        *o = Complex32::new(re, im);
        if !o.is_finite() {
            let (re, im) = masked_pairs(w, h, m);
            *o = Complex32::new(re, im);
        }
    }
}

/// One complex-tap output over the padded window `w` (see [`dot_acc`] for
/// `MASKED`).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn ccc_dot<const MASKED: bool>(
    w: &[f32],
    hr: &[f32],
    hi: &[f32],
    first: __m256,
    last: __m256,
) -> Complex32 {
    let n = hr.len();
    let (w, hi) = (&w[..n], &hi[..n]);
    let (wp, hrp, hip) = (w.as_ptr(), hr.as_ptr(), hi.as_ptr());
    let last_at = n.wrapping_sub(8);
    // SAFETY (for every `xb` below): called with j + 8 <= n == w.len().
    let xb = |j: usize| unsafe { block::<MASKED>(wp.add(j), j, last_at, first, last) };
    let (mut r0, mut r1, mut i0, mut i1) = (
        _mm256_setzero_ps(),
        _mm256_setzero_ps(),
        _mm256_setzero_ps(),
        _mm256_setzero_ps(),
    );
    let mut j = 0;
    while j + 16 <= n {
        // SAFETY: j + 16 <= n == w.len() == hr.len() == hi.len().
        unsafe {
            let x0 = xb(j);
            let x1 = xb(j + 8);
            r0 = _mm256_fmadd_ps(x0, _mm256_loadu_ps(hrp.add(j)), r0);
            i0 = _mm256_fmadd_ps(x0, _mm256_loadu_ps(hip.add(j)), i0);
            r1 = _mm256_fmadd_ps(x1, _mm256_loadu_ps(hrp.add(j + 8)), r1);
            i1 = _mm256_fmadd_ps(x1, _mm256_loadu_ps(hip.add(j + 8)), i1);
        }
        j += 16;
    }
    while j + 8 <= n {
        // SAFETY: j + 8 <= n == w.len() == hr.len() == hi.len().
        unsafe {
            let x0 = xb(j);
            r0 = _mm256_fmadd_ps(x0, _mm256_loadu_ps(hrp.add(j)), r0);
            i0 = _mm256_fmadd_ps(x0, _mm256_loadu_ps(hip.add(j)), i0);
        }
        j += 8;
    }
    // r = [xr·hr, xi·hr, ..], i = [xr·hi, xi·hi, ..]; swap i's pairs and
    // addsub: even lanes xr·hr − xi·hi, odd lanes xi·hr + xr·hi.
    let r = _mm256_add_ps(r0, r1);
    let i = _mm256_add_ps(i0, i1);
    let c = _mm256_addsub_ps(r, _mm256_permute_ps(i, 0xB1));
    let (re, im) = reduce_pairs(c);
    Complex32::new(re, im)
}

/// [`ccc_dot`] with the padding masked off, out of line (see
/// [`masked_pairs`]).
#[cold]
#[inline(never)]
#[target_feature(enable = "avx2,fma")]
fn ccc_masked(w: &[f32], hr: &[f32], hi: &[f32], m: &EdgeMasks) -> Complex32 {
    let (first, last) = masks(m);
    ccc_dot::<true>(w, hr, hi, first, last)
}

/// Complex FIR over strided windows (see `simd::fir_ccc`; non-finite results
/// are redone masked, as in [`fir_fff`]).
#[target_feature(enable = "avx2,fma")]
pub(super) fn fir_ccc(
    x: &[f32],
    hr: &[f32],
    hi: &[f32],
    m: &EdgeMasks,
    out: &mut [Complex32],
    stride: usize,
) {
    let z = _mm256_setzero_ps();
    for (k, o) in out.iter_mut().enumerate() {
        let w = &x[2 * k * stride..];
        *o = ccc_dot::<false>(w, hr, hi, z, z);
        if !o.is_finite() {
            *o = ccc_masked(w, hr, hi, m);
        }
    }
}

/// `(cos, sin)` of eight 32-bit phases (same polynomial as `poly::sincos`).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn sincos8(ph: __m256i) -> (__m256, __m256) {
    let q = _mm256_srli_epi32(_mm256_add_epi32(ph, _mm256_set1_epi32(1 << 29)), 30);
    let r = _mm256_sub_epi32(ph, _mm256_slli_epi32(q, 30));
    let x = _mm256_mul_ps(_mm256_cvtepi32_ps(r), _mm256_set1_ps(poly::RAD_PER_PHASE));
    let x2 = _mm256_mul_ps(x, x);
    let one = _mm256_set1_ps(1.0);
    let mut ps = _mm256_set1_ps(poly::SIN[3]);
    ps = _mm256_fmadd_ps(ps, x2, _mm256_set1_ps(poly::SIN[2]));
    ps = _mm256_fmadd_ps(ps, x2, _mm256_set1_ps(poly::SIN[1]));
    ps = _mm256_fmadd_ps(ps, x2, _mm256_set1_ps(poly::SIN[0]));
    ps = _mm256_fmadd_ps(ps, x2, one);
    let s = _mm256_mul_ps(x, ps);
    let mut pc = _mm256_set1_ps(poly::COS[3]);
    pc = _mm256_fmadd_ps(pc, x2, _mm256_set1_ps(poly::COS[2]));
    pc = _mm256_fmadd_ps(pc, x2, _mm256_set1_ps(poly::COS[1]));
    pc = _mm256_fmadd_ps(pc, x2, _mm256_set1_ps(poly::COS[0]));
    let c = _mm256_fmadd_ps(pc, x2, one);
    let swap = _mm256_castsi256_ps(_mm256_slli_epi32(q, 31));
    let cc = _mm256_blendv_ps(c, s, swap);
    let ss = _mm256_blendv_ps(s, c, swap);
    let two = _mm256_set1_epi32(2);
    let c_sign = _mm256_slli_epi32(
        _mm256_and_si256(_mm256_add_epi32(q, _mm256_set1_epi32(1)), two),
        30,
    );
    let s_sign = _mm256_slli_epi32(_mm256_and_si256(q, two), 30);
    (
        _mm256_xor_ps(cc, _mm256_castsi256_ps(c_sign)),
        _mm256_xor_ps(ss, _mm256_castsi256_ps(s_sign)),
    )
}

/// Phase offsets of the eight lanes, in the lane order `[0,1,4,5 | 2,3,6,7]`
/// that makes `unpacklo/unpackhi` yield samples 0–3 and 4–7 in order.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn lane_phases(phase: u32, step: u32) -> __m256i {
    let o = |k: u32| phase.wrapping_add(step.wrapping_mul(k)) as i32;
    _mm256_setr_epi32(o(0), o(1), o(4), o(5), o(2), o(3), o(6), o(7))
}

/// Rotates 8 interleaved complex samples at `xp` into `op` by the lane phases.
///
/// # Safety
/// `xp` must be readable and `op` writable for 16 `f32`.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn rotate8(xp: *const f32, op: *mut f32, ph: __m256i) {
    let (c, s) = sincos8(ph);
    let (c_lo, c_hi) = (_mm256_unpacklo_ps(c, c), _mm256_unpackhi_ps(c, c));
    let (s_lo, s_hi) = (_mm256_unpacklo_ps(s, s), _mm256_unpackhi_ps(s, s));
    // SAFETY: the caller guarantees 16 readable f32 at xp and 16 writable at op.
    unsafe {
        let x0 = _mm256_loadu_ps(xp);
        let x1 = _mm256_loadu_ps(xp.add(8));
        // (a + jb)(c + js): even lanes a·c − b·s, odd lanes b·c + a·s.
        let y0 = _mm256_fmaddsub_ps(x0, c_lo, _mm256_mul_ps(_mm256_permute_ps(x0, 0xB1), s_lo));
        let y1 = _mm256_fmaddsub_ps(x1, c_hi, _mm256_mul_ps(_mm256_permute_ps(x1, 0xB1), s_hi));
        _mm256_storeu_ps(op, y0);
        _mm256_storeu_ps(op.add(8), y1);
    }
}

/// Rotator over interleaved complex data (see `simd::rotate`).
#[target_feature(enable = "avx2,fma")]
pub(super) fn rotate(x: &[f32], out: &mut [f32], phase: u32, step: u32) -> u32 {
    let n = x.len().min(out.len()) / 2;
    let blocks = n / 8;
    let mut ph = lane_phases(phase, step);
    let step8 = _mm256_set1_epi32(step.wrapping_mul(8) as i32);
    for b in 0..blocks {
        // SAFETY: b < n / 8, so floats 16b..16b+16 lie inside x and out.
        unsafe { rotate8(x.as_ptr().add(16 * b), out.as_mut_ptr().add(16 * b), ph) };
        ph = _mm256_add_epi32(ph, step8);
    }
    let done = blocks * 8;
    let rest = n - done;
    if rest > 0 {
        let mut tin = [0.0f32; 16];
        let mut tout = [0.0f32; 16];
        tin[..2 * rest].copy_from_slice(&x[2 * done..2 * n]);
        // SAFETY: both stack buffers hold 16 f32.
        unsafe { rotate8(tin.as_ptr(), tout.as_mut_ptr(), ph) };
        out[2 * done..2 * n].copy_from_slice(&tout[..2 * rest]);
    }
    phase.wrapping_add(step.wrapping_mul(n as u32))
}

/// NCO output as interleaved complex (see `simd::nco`).
#[target_feature(enable = "avx2,fma")]
pub(super) fn nco(out: &mut [f32], phase: u32, step: u32) -> u32 {
    let n = out.len() / 2;
    let mut ph = lane_phases(phase, step);
    let step8 = _mm256_set1_epi32(step.wrapping_mul(8) as i32);
    let mut k = 0;
    while k < n {
        let (c, s) = sincos8(ph);
        let lo = _mm256_unpacklo_ps(c, s);
        let hi = _mm256_unpackhi_ps(c, s);
        if k + 8 <= n {
            // SAFETY: k + 8 <= n, so floats 2k..2k+16 lie inside out.
            unsafe {
                _mm256_storeu_ps(out.as_mut_ptr().add(2 * k), lo);
                _mm256_storeu_ps(out.as_mut_ptr().add(2 * k + 8), hi);
            }
        } else {
            let mut t = [0.0f32; 16];
            // SAFETY: t holds 16 f32.
            unsafe {
                _mm256_storeu_ps(t.as_mut_ptr(), lo);
                _mm256_storeu_ps(t.as_mut_ptr().add(8), hi);
            }
            out[2 * k..2 * n].copy_from_slice(&t[..2 * (n - k)]);
        }
        ph = _mm256_add_epi32(ph, step8);
        k += 8;
    }
    phase.wrapping_add(step.wrapping_mul(n as u32))
}

/// Four-quadrant arctangent of eight lanes (same polynomial as `poly::atan2`).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn atan2_8(y: __m256, x: __m256) -> __m256 {
    let abs = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fff_ffff));
    let sign = _mm256_castsi256_ps(_mm256_set1_epi32(i32::MIN));
    let ax = _mm256_and_ps(x, abs);
    let ay = _mm256_and_ps(y, abs);
    let mx = _mm256_max_ps(ax, ay);
    let mn = _mm256_min_ps(ax, ay);
    let t = _mm256_div_ps(mn, _mm256_max_ps(mx, _mm256_set1_ps(f32::MIN_POSITIVE)));
    let t2 = _mm256_mul_ps(t, t);
    let mut p = _mm256_set1_ps(poly::ATAN[7]);
    for &a in poly::ATAN[..7].iter().rev() {
        p = _mm256_fmadd_ps(p, t2, _mm256_set1_ps(a));
    }
    p = _mm256_fmadd_ps(p, t2, _mm256_set1_ps(1.0));
    let mut r = _mm256_mul_ps(t, p);
    let swap = _mm256_cmp_ps(ay, ax, _CMP_GT_OQ);
    r = _mm256_blendv_ps(
        r,
        _mm256_sub_ps(_mm256_set1_ps(core::f32::consts::FRAC_PI_2), r),
        swap,
    );
    let neg_x = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OQ);
    r = _mm256_blendv_ps(
        r,
        _mm256_sub_ps(_mm256_set1_ps(core::f32::consts::PI), r),
        neg_x,
    );
    _mm256_or_ps(r, _mm256_and_ps(y, sign))
}

/// Restores sample order after a `shuffle_ps(.., 0x88/0xDD)` deinterleave, which
/// leaves lanes as samples `[0,1,4,5 | 2,3,6,7]`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn reorder(v: __m256) -> __m256 {
    _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(v), 0xD8))
}

/// Quadrature demodulation of 8 samples: `cur` and `prv` point at 8 interleaved
/// complex samples (current and one-earlier).
///
/// # Safety
/// `cur` and `prv` must be readable and `op` writable for 16, 16 and 8 `f32`.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn demod8(cur: *const f32, prv: *const f32, op: *mut f32, gain: __m256) {
    // SAFETY: the caller guarantees the extents.
    unsafe {
        let a0 = _mm256_loadu_ps(cur);
        let a1 = _mm256_loadu_ps(cur.add(8));
        let b0 = _mm256_loadu_ps(prv);
        let b1 = _mm256_loadu_ps(prv.add(8));
        let ar = _mm256_shuffle_ps(a0, a1, 0x88);
        let ai = _mm256_shuffle_ps(a0, a1, 0xDD);
        let br = _mm256_shuffle_ps(b0, b1, 0x88);
        let bi = _mm256_shuffle_ps(b0, b1, 0xDD);
        // a · conj(b)
        let re = _mm256_fmadd_ps(ar, br, _mm256_mul_ps(ai, bi));
        let im = _mm256_fmsub_ps(ai, br, _mm256_mul_ps(ar, bi));
        let v = _mm256_mul_ps(gain, atan2_8(im, re));
        _mm256_storeu_ps(op, reorder(v));
    }
}

/// Quadrature demodulator (see `simd::quad_demod`).
#[target_feature(enable = "avx2,fma")]
pub(super) fn quad_demod(prev: Complex32, x: &[Complex32], out: &mut [f32], gain: f32) {
    let n = x.len().min(out.len());
    if n == 0 {
        return;
    }
    let g = _mm256_set1_ps(gain);
    let xf = super::as_f32(&x[..n]);
    // Head: samples 0..min(8, n) need `prev`, so stage them on the stack.
    let head = n.min(8);
    let mut cur = [0.0f32; 16];
    let mut prv = [0.0f32; 16];
    let mut res = [0.0f32; 8];
    cur[..2 * head].copy_from_slice(&xf[..2 * head]);
    prv[0] = prev.re;
    prv[1] = prev.im;
    prv[2..2 * head].copy_from_slice(&xf[..2 * head - 2]);
    // SAFETY: stack buffers of 16, 16 and 8 f32.
    unsafe { demod8(cur.as_ptr(), prv.as_ptr(), res.as_mut_ptr(), g) };
    out[..head].copy_from_slice(&res[..head]);
    let mut k = head;
    while k + 8 <= n {
        // SAFETY: k >= 8 and k + 8 <= n: floats 2k..2k+16 and 2k-2..2k+14 lie in
        // xf (2n floats), and out[k..k+8] lies in out.
        unsafe {
            demod8(
                xf.as_ptr().add(2 * k),
                xf.as_ptr().add(2 * k - 2),
                out.as_mut_ptr().add(k),
                g,
            )
        };
        k += 8;
    }
    let rest = n - k;
    if rest > 0 {
        let mut cur = [0.0f32; 16];
        let mut prv = [0.0f32; 16];
        cur[..2 * rest].copy_from_slice(&xf[2 * k..2 * n]);
        prv[..2 * rest].copy_from_slice(&xf[2 * k - 2..2 * n - 2]);
        // SAFETY: stack buffers of 16, 16 and 8 f32.
        unsafe { demod8(cur.as_ptr(), prv.as_ptr(), res.as_mut_ptr(), g) };
        out[k..n].copy_from_slice(&res[..rest]);
    }
}

/// `|x|` (`SQRT`) or `|x|²` of 8 interleaved complex samples.
///
/// # Safety
/// `xp` readable for 16 and `op` writable for 8 `f32`.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn mag8<const SQRT: bool>(xp: *const f32, op: *mut f32) {
    // SAFETY: the caller guarantees the extents.
    unsafe {
        let a0 = _mm256_loadu_ps(xp);
        let a1 = _mm256_loadu_ps(xp.add(8));
        let re = _mm256_shuffle_ps(a0, a1, 0x88);
        let im = _mm256_shuffle_ps(a0, a1, 0xDD);
        let mut m = _mm256_fmadd_ps(re, re, _mm256_mul_ps(im, im));
        if SQRT {
            m = _mm256_sqrt_ps(m);
        }
        _mm256_storeu_ps(op, reorder(m));
    }
}

/// Magnitude or squared magnitude (see `simd::magnitude`).
#[target_feature(enable = "avx2,fma")]
pub(super) fn magnitude<const SQRT: bool>(x: &[f32], out: &mut [f32]) {
    let n = (x.len() / 2).min(out.len());
    let mut k = 0;
    while k + 8 <= n {
        // SAFETY: k + 8 <= n: floats 2k..2k+16 lie in x, out[k..k+8] in out.
        unsafe { mag8::<SQRT>(x.as_ptr().add(2 * k), out.as_mut_ptr().add(k)) };
        k += 8;
    }
    let rest = n - k;
    if rest > 0 {
        let mut t = [0.0f32; 16];
        let mut r = [0.0f32; 8];
        t[..2 * rest].copy_from_slice(&x[2 * k..2 * n]);
        // SAFETY: stack buffers of 16 and 8 f32.
        unsafe { mag8::<SQRT>(t.as_ptr(), r.as_mut_ptr()) };
        out[k..n].copy_from_slice(&r[..rest]);
    }
}

/// Streaming ("vertical") real-tap FIR for consecutive outputs: float output
/// `f` is `Σ_j x[f + XS·j] · h[j]` (`XS = 1` for real data, `2` for
/// interleaved complex data with real taps), accumulated tap by tap in one
/// fused-multiply-add chain per output. Eight accumulators of 8 lanes give 64
/// independent chains per pass over the taps, each tap is broadcast once per
/// pass, and no horizontal reduction is needed. The last `< 8` floats use the
/// same FMA chain in scalar form, so every output is bit-identical however the
/// stream is split.
#[target_feature(enable = "avx2,fma")]
pub(super) fn fir_real_taps_stream<const XS: usize>(x: &[f32], h: &[f32], out: &mut [f32]) {
    let n = h.len();
    let count = out.len();
    if count == 0 || n == 0 {
        return;
    }
    // Every float read below has index < count + XS·(n − 1) − XS + XS ≤ x.len().
    let x = &x[..count + XS * (n - 1)];
    let (xp, hp, op) = (x.as_ptr(), h.as_ptr(), out.as_mut_ptr());
    let mut f = 0;
    while f + 64 <= count {
        let mut acc = [_mm256_setzero_ps(); 8];
        for j in 0..n {
            // SAFETY: j < n = h.len(); f + 64 <= count, so the eight loads read
            // floats f + XS·j .. f + XS·j + 64 <= count + XS·(n−1) = x.len().
            unsafe {
                let hj = _mm256_broadcast_ss(&*hp.add(j));
                let base = xp.add(f + XS * j);
                for (g, a) in acc.iter_mut().enumerate() {
                    *a = _mm256_fmadd_ps(_mm256_loadu_ps(base.add(8 * g)), hj, *a);
                }
            }
        }
        for (g, a) in acc.iter().enumerate() {
            // SAFETY: f + 8g + 8 <= f + 64 <= count = out.len().
            unsafe { _mm256_storeu_ps(op.add(f + 8 * g), *a) };
        }
        f += 64;
    }
    while f + 8 <= count {
        let mut acc = _mm256_setzero_ps();
        for j in 0..n {
            // SAFETY: j < n; f + 8 <= count so floats f + XS·j .. +8 are in x.
            unsafe {
                acc = _mm256_fmadd_ps(
                    _mm256_loadu_ps(xp.add(f + XS * j)),
                    _mm256_broadcast_ss(&*hp.add(j)),
                    acc,
                );
            }
        }
        // SAFETY: f + 8 <= count = out.len().
        unsafe { _mm256_storeu_ps(op.add(f), acc) };
        f += 8;
    }
    for (i, o) in out.iter_mut().enumerate().skip(f) {
        let mut acc = 0.0f32;
        for (j, &t) in h.iter().enumerate() {
            acc = x[i + XS * j].mul_add(t, acc);
        }
        *o = acc;
    }
}

/// Streaming complex-tap FIR for consecutive outputs over interleaved complex
/// data; `hr`/`hi` are the (non-duplicated) real and imaginary tap parts.
/// Same structure and bit-exactness rule as [`fir_real_taps_stream`]: per
/// output four FMA chains `Σ a·hr`, `Σ b·hr`, `Σ a·hi`, `Σ b·hi`, combined at
/// the end as `re = Σa·hr − Σb·hi`, `im = Σb·hr + Σa·hi`.
#[target_feature(enable = "avx2,fma")]
pub(super) fn fir_ccc_stream(x: &[f32], hr: &[f32], hi: &[f32], out: &mut [Complex32]) {
    let n = hr.len();
    let hi = &hi[..n];
    let count = out.len();
    if count == 0 || n == 0 {
        return;
    }
    let x = &x[..2 * (count + n - 1)];
    let (xp, hrp, hip) = (x.as_ptr(), hr.as_ptr(), hi.as_ptr());
    let of = super::as_f32_mut(out);
    let op = of.as_mut_ptr();
    let floats = 2 * count;
    let mut f = 0;
    while f + 32 <= floats {
        let mut ar = [_mm256_setzero_ps(); 4];
        let mut ai = [_mm256_setzero_ps(); 4];
        for j in 0..n {
            // SAFETY: j < n; f + 32 <= 2·count, so the loads read floats
            // f + 2j .. f + 2j + 32 <= 2·(count + n − 1) = x.len().
            unsafe {
                let r = _mm256_broadcast_ss(&*hrp.add(j));
                let i = _mm256_broadcast_ss(&*hip.add(j));
                let base = xp.add(f + 2 * j);
                for g in 0..4 {
                    let v = _mm256_loadu_ps(base.add(8 * g));
                    ar[g] = _mm256_fmadd_ps(v, r, ar[g]);
                    ai[g] = _mm256_fmadd_ps(v, i, ai[g]);
                }
            }
        }
        for g in 0..4 {
            let c = _mm256_addsub_ps(ar[g], _mm256_permute_ps(ai[g], 0xB1));
            // SAFETY: f + 8g + 8 <= f + 32 <= 2·count = of.len().
            unsafe { _mm256_storeu_ps(op.add(f + 8 * g), c) };
        }
        f += 32;
    }
    while f + 8 <= floats {
        let mut ar = _mm256_setzero_ps();
        let mut ai = _mm256_setzero_ps();
        for j in 0..n {
            // SAFETY: j < n; f + 8 <= 2·count, so floats f + 2j .. +8 are in x.
            unsafe {
                let v = _mm256_loadu_ps(xp.add(f + 2 * j));
                ar = _mm256_fmadd_ps(v, _mm256_broadcast_ss(&*hrp.add(j)), ar);
                ai = _mm256_fmadd_ps(v, _mm256_broadcast_ss(&*hip.add(j)), ai);
            }
        }
        let c = _mm256_addsub_ps(ar, _mm256_permute_ps(ai, 0xB1));
        // SAFETY: f + 8 <= 2·count = of.len().
        unsafe { _mm256_storeu_ps(op.add(f), c) };
        f += 8;
    }
    for k in f / 2..count {
        let (mut a_hr, mut b_hr, mut a_hi, mut b_hi) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
        for j in 0..n {
            let (a, b) = (x[2 * (k + j)], x[2 * (k + j) + 1]);
            a_hr = a.mul_add(hr[j], a_hr);
            b_hr = b.mul_add(hr[j], b_hr);
            a_hi = a.mul_add(hi[j], a_hi);
            b_hi = b.mul_add(hi[j], b_hi);
        }
        of[2 * k] = a_hr - b_hi;
        of[2 * k + 1] = b_hr + a_hi;
    }
}
