//! The x86-64 vector kernels of the K = 7 Viterbi trellis
//! ([`viterbi`](super::viterbi) owns the arithmetic they reproduce and
//! the portable kernel): SSE2 (16 butterflies per register, two per
//! step) and AVX2 (all 32 butterflies in one register). Per step each
//! computes VOLK's branch metric `t = pavgb(s0 ^ b0, s1 ^ b1) >> 2`,
//! the four saturating sums, the two minima and their decisions as one
//! `movemask` each (bit `decision_index(state)` of a `u64`), interleaves
//! the minima into the new metrics, and renormalises when state 0's
//! metric passes 210, exactly as the portable step does.
//!
//! Both take the metrics as 64 bytes and run an even number of steps
//! (`decisions.len()`, two symbol pairs each taken from `syms`).

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::viterbi::{Branch, Metrics, RENORMALIZE};

/// SSE2 kernel. SSE2 is part of x86-64, so it always runs there.
#[cfg(target_arch = "x86_64")]
pub(crate) fn steps_sse2(branch: &Branch, m: &mut Metrics, syms: &[u8], decisions: &mut [u64]) {
    assert!(syms.len() >= 2 * decisions.len());
    // SAFETY: SSE2 is in every x86-64 target's baseline; the loads and
    // stores are unaligned ones on arrays of exactly 16 bytes each (the
    // metrics, 64 bytes, and the 32-byte branch rows), and the symbol
    // slice holds two bytes per step (checked above).
    unsafe {
        let p = m.as_mut_ptr() as *mut __m128i;
        let mut lo0 = _mm_loadu_si128(p);
        let mut lo1 = _mm_loadu_si128(p.add(1));
        let mut hi0 = _mm_loadu_si128(p.add(2));
        let mut hi1 = _mm_loadu_si128(p.add(3));
        let b = branch.rows();
        let b00 = _mm_loadu_si128(b[0].as_ptr() as *const __m128i);
        let b01 = _mm_loadu_si128(b[0].as_ptr().add(16) as *const __m128i);
        let b10 = _mm_loadu_si128(b[1].as_ptr() as *const __m128i);
        let b11 = _mm_loadu_si128(b[1].as_ptr().add(16) as *const __m128i);
        let mask3f = _mm_set1_epi8(0x3f);
        let max = _mm_set1_epi8(63);
        for (k, d) in decisions.iter_mut().enumerate() {
            let s0 = _mm_set1_epi8(*syms.get_unchecked(2 * k) as i8);
            let s1 = _mm_set1_epi8(*syms.get_unchecked(2 * k + 1) as i8);
            // One half of the butterflies: (even minima, odd minima,
            // even decisions, odd decisions).
            let half = |lo: __m128i, hi: __m128i, b0: __m128i, b1: __m128i| {
                let avg = _mm_avg_epu8(_mm_xor_si128(s0, b0), _mm_xor_si128(s1, b1));
                let t = _mm_and_si128(_mm_srli_epi16(avg, 2), mask3f);
                let u = _mm_sub_epi8(max, t);
                let m0 = _mm_adds_epu8(lo, t);
                let m1 = _mm_adds_epu8(hi, u);
                let m2 = _mm_adds_epu8(lo, u);
                let m3 = _mm_adds_epu8(hi, t);
                let ev = _mm_min_epu8(m0, m1);
                let od = _mm_min_epu8(m2, m3);
                let de = _mm_movemask_epi8(_mm_cmpeq_epi8(ev, m1)) as u32 as u64;
                let dd = _mm_movemask_epi8(_mm_cmpeq_epi8(od, m3)) as u32 as u64;
                (ev, od, de, dd)
            };
            let (ev0, od0, de0, dd0) = half(lo0, hi0, b00, b10);
            let (ev1, od1, de1, dd1) = half(lo1, hi1, b01, b11);
            *d = de0 | de1 << 16 | dd0 << 32 | dd1 << 48;
            lo0 = _mm_unpacklo_epi8(ev0, od0);
            lo1 = _mm_unpackhi_epi8(ev0, od0);
            hi0 = _mm_unpacklo_epi8(ev1, od1);
            hi1 = _mm_unpackhi_epi8(ev1, od1);
            if (_mm_cvtsi128_si32(lo0) & 0xff) as u8 > RENORMALIZE {
                let mut mn = _mm_min_epu8(_mm_min_epu8(lo0, lo1), _mm_min_epu8(hi0, hi1));
                mn = _mm_min_epu8(mn, _mm_srli_si128(mn, 8));
                mn = _mm_min_epu8(mn, _mm_srli_si128(mn, 4));
                mn = _mm_min_epu8(mn, _mm_srli_si128(mn, 2));
                mn = _mm_min_epu8(mn, _mm_srli_si128(mn, 1));
                let v = _mm_set1_epi8((_mm_cvtsi128_si32(mn) & 0xff) as u8 as i8);
                lo0 = _mm_sub_epi8(lo0, v);
                lo1 = _mm_sub_epi8(lo1, v);
                hi0 = _mm_sub_epi8(hi0, v);
                hi1 = _mm_sub_epi8(hi1, v);
            }
        }
        _mm_storeu_si128(p, lo0);
        _mm_storeu_si128(p.add(1), lo1);
        _mm_storeu_si128(p.add(2), hi0);
        _mm_storeu_si128(p.add(3), hi1);
    }
}

/// True when this CPU runs [`steps_avx2`].
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_avx2() -> bool {
    static AVX2: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVX2.get_or_init(|| std::arch::is_x86_feature_detected!("avx2"))
}

/// AVX2 kernel.
///
/// # Safety
/// The CPU must support AVX2 ([`has_avx2`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn steps_avx2(
    branch: &Branch,
    m: &mut Metrics,
    syms: &[u8],
    decisions: &mut [u64],
) {
    assert!(syms.len() >= 2 * decisions.len());
    // SAFETY: the caller guarantees AVX2; the loads and stores are
    // unaligned ones on exactly 32 bytes each (the two halves of the
    // 64-byte metrics, the 32-byte branch rows), and the symbol slice
    // holds two bytes per step (checked above).
    unsafe {
        let p = m.as_mut_ptr() as *mut __m256i;
        let mut lo = _mm256_loadu_si256(p);
        let mut hi = _mm256_loadu_si256(p.add(1));
        let b = branch.rows();
        let b0 = _mm256_loadu_si256(b[0].as_ptr() as *const __m256i);
        let b1 = _mm256_loadu_si256(b[1].as_ptr() as *const __m256i);
        let mask3f = _mm256_set1_epi8(0x3f);
        let max = _mm256_set1_epi8(63);
        for (k, d) in decisions.iter_mut().enumerate() {
            let s0 = _mm256_set1_epi8(*syms.get_unchecked(2 * k) as i8);
            let s1 = _mm256_set1_epi8(*syms.get_unchecked(2 * k + 1) as i8);
            let avg = _mm256_avg_epu8(_mm256_xor_si256(s0, b0), _mm256_xor_si256(s1, b1));
            let t = _mm256_and_si256(_mm256_srli_epi16(avg, 2), mask3f);
            let u = _mm256_sub_epi8(max, t);
            let m0 = _mm256_adds_epu8(lo, t);
            let m1 = _mm256_adds_epu8(hi, u);
            let m2 = _mm256_adds_epu8(lo, u);
            let m3 = _mm256_adds_epu8(hi, t);
            let ev = _mm256_min_epu8(m0, m1);
            let od = _mm256_min_epu8(m2, m3);
            let de = _mm256_movemask_epi8(_mm256_cmpeq_epi8(ev, m1)) as u32 as u64;
            let dd = _mm256_movemask_epi8(_mm256_cmpeq_epi8(od, m3)) as u32 as u64;
            *d = de | dd << 32;
            // Per 128-bit lane: states 0..16 and 32..48 (low), 16..32
            // and 48..64 (high).
            let l = _mm256_unpacklo_epi8(ev, od);
            let h = _mm256_unpackhi_epi8(ev, od);
            lo = _mm256_permute2x128_si256(l, h, 0x20);
            hi = _mm256_permute2x128_si256(l, h, 0x31);
            if (_mm_cvtsi128_si32(_mm256_castsi256_si128(lo)) & 0xff) as u8 > RENORMALIZE {
                let both = _mm256_min_epu8(lo, hi);
                let mut mn = _mm_min_epu8(
                    _mm256_castsi256_si128(both),
                    _mm256_extracti128_si256(both, 1),
                );
                mn = _mm_min_epu8(mn, _mm_srli_si128(mn, 8));
                mn = _mm_min_epu8(mn, _mm_srli_si128(mn, 4));
                mn = _mm_min_epu8(mn, _mm_srli_si128(mn, 2));
                mn = _mm_min_epu8(mn, _mm_srli_si128(mn, 1));
                let v = _mm256_set1_epi8((_mm_cvtsi128_si32(mn) & 0xff) as u8 as i8);
                lo = _mm256_sub_epi8(lo, v);
                hi = _mm256_sub_epi8(hi, v);
            }
        }
        _mm256_storeu_si256(p, lo);
        _mm256_storeu_si256(p.add(1), hi);
    }
}
