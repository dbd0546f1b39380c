//! The AVX-512 kernel of the K = 7 Viterbi trellis
//! ([`viterbi`](super::viterbi) owns the arithmetic it reproduces; the
//! AVX2 and SSE2 kernels are [`viterbi_simd`](super::viterbi_simd)). All
//! 64 path metrics live in one register, kept between steps as `[even
//! states | odd states]`, which is also the order of a step's decision
//! bits (bit [`decision_index`](super::viterbi::decision_index)): one
//! compare-to-mask gives the step's `u64`. Per step two byte
//! permutations (`vpermb`) gather the states `i` and `i + 32` each
//! butterfly adds to, and one in-lane shuffle spreads the step's four
//! branch metrics (one per combination of expected bits, computed for a
//! block of steps at a time beforehand) over the 64 sums. The results
//! are VOLK's, renormalisation included.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::viterbi::{Branch, Metrics, RENORMALIZE};

/// Butterflies per step.
const HALF: usize = 32;

/// True when this CPU runs [`steps_avx512`].
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_avx512() -> bool {
    static AVX512: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVX512.get_or_init(|| {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vbmi")
    })
}

/// Steps whose branch metrics are made at once, before their steps run.
const BLOCK: usize = 64;

/// The branch metrics of the symbol pairs in `syms` (two bytes a
/// step), one `u64` a step: bytes 0..4 the metric `t` of each
/// combination `c = e0 | e1 << 1` of expected bits (`e` 1 for 255),
/// bytes 4..8 `63 − t`. VOLK's `pavgb(x, y) >> 2` is `(x + y + 1) >> 3`,
/// and `x`, `y` are a symbol or its complement `255 − s`.
#[inline(always)]
fn branch_metrics(syms: &[u8], tabs: &mut [u64]) {
    for (pair, tab) in syms.chunks_exact(2).zip(tabs.iter_mut()) {
        let (a, b) = (pair[0] as u32, pair[1] as u32);
        let t0 = (a + b + 1) >> 3;
        let t1 = (256 + b - a) >> 3;
        let t2 = (256 + a - b) >> 3;
        let t3 = (511 - a - b) >> 3;
        let t = t0 | t1 << 8 | t2 << 16 | t3 << 24;
        *tab = t as u64 | ((0x3f3f_3f3f - t) as u64) << 32;
    }
}

/// AVX-512 (F, BW, VBMI) kernel.
///
/// # Safety
/// The CPU must support AVX-512 F, BW and VBMI ([`has_avx512`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(crate) unsafe fn steps_avx512(
    branch: &Branch,
    m: &mut Metrics,
    syms: &[u8],
    decisions: &mut [u64],
) {
    assert!(syms.len() >= 2 * decisions.len());
    let b = branch.rows();
    // Per butterfly i its combination c(i) (bytes 0..32) and 4 + c(i)
    // (bytes 32..64): the shuffle of a step's metric table into
    // `[t | u]`, the sums onto the lower-half states.
    let comb: [u8; 64] = std::array::from_fn(|j| {
        let i = j % HALF;
        (b[0][i] & 1) | (b[1][i] & 1) << 1 | if j < HALF { 0 } else { 4 }
    });
    // The step's new metrics are `[even states | odd states]` (byte i
    // state 2i, byte 32 + i state 2i + 1); the next step's butterflies
    // need states i (`lo`) and i + 32 (`hi`), twice over.
    let lo_of: [u8; 64] = std::array::from_fn(|j| {
        let i = (j % HALF) as u8;
        if i.is_multiple_of(2) {
            i / 2
        } else {
            32 + i / 2
        }
    });
    let hi_of: [u8; 64] = std::array::from_fn(|j| {
        let i = (j % HALF) as u8;
        if i.is_multiple_of(2) {
            16 + i / 2
        } else {
            48 + i / 2
        }
    });
    // State s at byte s of the metrics: from `[even | odd]`.
    let state_of: [u8; 64] = std::array::from_fn(|s| {
        let s = s as u8;
        if s.is_multiple_of(2) {
            s / 2
        } else {
            32 + s / 2
        }
    });
    let twice_lo: [u8; 64] = std::array::from_fn(|j| (j % HALF) as u8);
    let twice_hi: [u8; 64] = std::array::from_fn(|j| (HALF + j % HALF) as u8);
    // SAFETY: the caller guarantees AVX-512 F/BW/VBMI; every load and
    // store is an unaligned one of exactly 64 bytes on a 64-byte array,
    // and the symbol slice holds two bytes per step (checked above).
    unsafe {
        let ld = |a: &[u8; 64]| _mm512_loadu_si512(a.as_ptr() as *const _);
        let comb = ld(&comb);
        let lo_of = ld(&lo_of);
        let hi_of = ld(&hi_of);
        let max = _mm512_set1_epi8(63);
        let start = _mm512_loadu_si512(m.as_ptr() as *const _);
        let mut lo = _mm512_permutexvar_epi8(ld(&twice_lo), start);
        let mut hi = _mm512_permutexvar_epi8(ld(&twice_hi), start);
        let mut new = _mm512_setzero_si512();
        let mut tabs = [0u64; BLOCK];
        for (block, decs) in decisions.chunks_mut(BLOCK).enumerate() {
            let at = 2 * BLOCK * block;
            branch_metrics(&syms[at..at + 2 * decs.len()], &mut tabs);
            for (d, &tab) in decs.iter_mut().zip(&tabs) {
                // [t | u] onto the lower-half states, [u | t] the upper.
                let tl = _mm512_shuffle_epi8(_mm512_set1_epi64(tab as i64), comb);
                let th = _mm512_sub_epi8(max, tl);
                let from_lo = _mm512_adds_epu8(lo, tl);
                let from_hi = _mm512_adds_epu8(hi, th);
                new = _mm512_min_epu8(from_lo, from_hi);
                *d = _mm512_cmpeq_epi8_mask(new, from_hi);
                if (_mm_cvtsi128_si32(_mm512_castsi512_si128(new)) & 0xff) as u8 > RENORMALIZE {
                    new = _mm512_sub_epi8(new, _mm512_set1_epi8(hmin(new) as i8));
                }
                lo = _mm512_permutexvar_epi8(lo_of, new);
                hi = _mm512_permutexvar_epi8(hi_of, new);
            }
        }
        if !decisions.is_empty() {
            _mm512_storeu_si512(
                m.as_mut_ptr() as *mut _,
                _mm512_permutexvar_epi8(ld(&state_of), new),
            );
        }
    }
}

/// The smallest of 64 bytes.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn hmin(v: __m512i) -> u8 {
    let y = _mm256_min_epu8(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v));
    let x = _mm_min_epu8(_mm256_castsi256_si128(y), _mm256_extracti128_si256::<1>(y));
    // Each word's smaller byte in its low byte (the high one becomes 0).
    let x = _mm_min_epu8(x, _mm_srli_epi16::<8>(x));
    (_mm_cvtsi128_si32(_mm_minpos_epu16(x)) & 0xff) as u8
}
