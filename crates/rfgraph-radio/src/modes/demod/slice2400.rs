//! The 2.4 MS/s bit-slicer: preamble candidates and bit decisions at 2.4
//! samples per bit, the rate of dump1090-mutability and readsb
//! recordings.
//!
//! A half-bit lasts 1.2 samples, so its boundaries fall on fifths of a
//! sample. For a burst starting at sample `j` plus `f` fifths (`f` in
//! 0..5), half-bit `k` covers the fifths `[5j + f + 6k, 5j + f + 6k + 6)`:
//! its energy is `(5 − r)·m[s] + (r + 1)·m[s + 1]` with
//! `s = j + (f + 6k) / 5` and `r = (f + k) mod 5`, the exact integral of
//! the sampled magnitude over the half-bit. A candidate's preamble is
//! fitted at the five phases; unless Mode S data follows the best fit it
//! is dropped, else it is sliced at the two best-fitting phases and the
//! best-scoring slicing wins.
//! This module owns the arithmetic on magnitudes; the demodulator owns
//! the scan, and `score` the parity policy.

use super::Burst;
use super::score::{Judged, wanted_df};
use rfgraph_dsp::Isa;

/// Samples after a candidate's start that deciding it may read.
pub(crate) const WINDOW: usize = 300;

/// Flags candidate preambles among `flags.len()` positions from `start`
/// (see [`candidates_any`]), with the AVX2 build of the loop when `isa` says so.
///
/// Needs `m.len() >= start + flags.len() + 17`.
pub(crate) fn candidates(m: &[u16], start: usize, flags: &mut [u8], isa: Isa) {
    #[cfg(target_arch = "x86_64")]
    if isa == Isa::Avx2Fma {
        // SAFETY: an `Isa` other than `Scalar` reaches the demodulator
        // only through `Isa::resolve`, which checked that this CPU runs
        // AVX2.
        unsafe { candidates_avx2(m, start, flags) };
        return;
    }
    let _ = isa;
    candidates_any(m, start, flags);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn candidates_avx2(m: &[u16], start: usize, flags: &mut [u8]) {
    candidates_any(m, start, flags);
}

/// The preamble test: for a burst starting up to 0.8 samples after the
/// position, each of the four pulses fills most of one of samples {0,1},
/// {2,3}, {8,9}, {11,12}, and samples 5–7 and 13–16 are quiet. A
/// candidate's weakest pulse among the last three must be 1.25 times its
/// strongest quiet sample (1.5 loses a tenth of the replies that check
/// in noise 22 dB below full scale, 1.0 triples the candidates for few
/// more). The first pulse is not tested: real replies
/// arrive with it lost (on dump1090's recording, a tenth of the replies
/// that check), and `decode`'s fit over all four still ranks the
/// phases. Branch-free, to vectorise.
#[inline(always)]
fn candidates_any(m: &[u16], start: usize, flags: &mut [u8]) {
    let n = flags.len();
    let w = &m[start..start + n + 17];
    let s = |k: usize| &w[k..k + n];
    let (m2, m3, m5, m6, m7) = (s(2), s(3), s(5), s(6), s(7));
    let (m8, m9, m11, m12, m13, m14, m15, m16) =
        (s(8), s(9), s(11), s(12), s(13), s(14), s(15), s(16));
    for k in 0..n {
        let p = m2[k]
            .max(m3[k])
            .min(m8[k].max(m9[k]))
            .min(m11[k].max(m12[k]));
        let q = m5[k]
            .max(m6[k])
            .max(m7[k])
            .max(m13[k])
            .max(m14[k])
            .max(m15[k])
            .max(m16[k]);
        flags[k] = u8::from(4 * u32::from(p) > 5 * u32::from(q));
    }
}

/// Six times the mean magnitude of half-bit `k` of a burst at `j` + `f`
/// fifths.
#[inline(always)]
fn energy(m: &[u16], j: usize, f: usize, k: usize) -> u32 {
    let s = j + (f + 6 * k) / 5;
    let r = ((f + k) % 5) as u32;
    (5 - r) * u32::from(m[s]) + (r + 1) * u32::from(m[s + 1])
}

/// How well the preamble at `j` + `f` fifths fits: pulse energy less the
/// energy of the half-bits between and after the pulses.
fn fit(m: &[u16], j: usize, f: usize) -> i64 {
    let w = &m[j..j + 18];
    match f {
        0 => fit_at::<0>(w),
        1 => fit_at::<1>(w),
        2 => fit_at::<2>(w),
        3 => fit_at::<3>(w),
        _ => fit_at::<4>(w),
    }
}

/// [`fit`] at phase `F` over the preamble's samples `w`: every sample
/// and weight a constant.
#[inline(always)]
fn fit_at<const F: usize>(w: &[u16]) -> i64 {
    let e = |k: usize| {
        let s = (F + 6 * k) / 5;
        let r = ((F + k) % 5) as i64;
        (5 - r) * i64::from(w[s]) + (r + 1) * i64::from(w[s + 1])
    };
    let pulses = e(0) + e(2) + e(7) + e(9);
    let quiet = e(1) + e(3) + e(4) + e(5) + e(6) + e(8) + e(10) + e(11) + e(12) + e(13);
    2 * pulses - quiet
}

/// Slices `bits` bits at `j` + `f` fifths into `out`, and returns the
/// sum of the squared stronger half-bit energies of those bits (the
/// burst's power, see [`power`]).
fn slice(m: &[u16], j: usize, f: usize, bits: usize, out: &mut [u8; 14]) -> u64 {
    match f {
        0 => slice_at::<0>(m, j, bits, out),
        1 => slice_at::<1>(m, j, bits, out),
        2 => slice_at::<2>(m, j, bits, out),
        3 => slice_at::<3>(m, j, bits, out),
        _ => slice_at::<4>(m, j, bits, out),
    }
}

/// [`slice`] at phase `F`. Five bits (ten half-bits) span exactly twelve
/// samples, so within each group of five bits the samples and weights of
/// every half-bit are constants of the phase: the loop body is unrolled
/// into fixed arithmetic, with no division per half-bit.
#[inline(always)]
fn slice_at<const F: usize>(m: &[u16], j: usize, bits: usize, out: &mut [u8; 14]) -> u64 {
    debug_assert!(bits <= 112 && m.len() >= j + WINDOW);
    let mut word = 0u128;
    let mut power = 0u64;
    for g in 0..bits.div_ceil(5) {
        // Half-bits 16 + 10g onwards start at sample j + 12g + (F + 96) / 5.
        let w = &m[j + 12 * g..j + 12 * g + 32];
        let e = |h: usize| {
            let k = 16 + h;
            let s = (F + 6 * k) / 5;
            let r = ((F + k) % 5) as u32;
            (5 - r) * u32::from(w[s]) + (r + 1) * u32::from(w[s + 1])
        };
        for b in 0..5 {
            let (e0, e1) = (e(2 * b), e(2 * b + 1));
            let keep = 5 * g + b < bits;
            word = (word << u32::from(keep)) | u128::from(keep && e0 > e1);
            let strong = u64::from(e0.max(e1)) * u64::from(keep);
            power += strong * strong;
        }
    }
    let word = word << (128 - bits);
    *out = [0; 14];
    out.copy_from_slice(&word.to_be_bytes()[..14]);
    power
}

/// The mean squared magnitude, full scale 1, of a burst whose `bits`
/// bits' stronger half-bit energies squared sum to `sum` (from
/// [`slice`]).
fn power(sum: u64, bits: usize) -> f32 {
    let full = 6.0 * 65535.0;
    (sum as f64 / (full * full) / bits as f64) as f32
}

/// True when the first ten bits after the preamble at `j` + `f` fifths
/// look like Mode S data: the stronger half of each bit averages at least
/// half the preamble's pulses and twice its quiet half-bits (lone pulses
/// and Mode A/C replies fail it).
fn pulsing(m: &[u16], j: usize, f: usize) -> bool {
    let e = |k| energy(m, j, f, k);
    let pulses = e(0) + e(2) + e(7) + e(9);
    let quiet = e(4) + e(5) + e(11) + e(12) + e(13) + e(14);
    let data: u32 = (0..10).map(|i| e(16 + 2 * i).max(e(17 + 2 * i))).sum();
    // data / 10 ≥ pulses / 8 and data / 10 > 2 · quiet / 6.
    4 * data >= 5 * pulses && 3 * data > 10 * quiet
}

/// The best burst starting at `j` (at the two phases its preamble fits
/// best), judged by `judge`. Needs `m.len() >= j + WINDOW`.
pub(crate) fn decode(
    m: &[u16],
    j: usize,
    judge: &mut dyn FnMut(&mut [u8; 14]) -> Option<Judged>,
) -> Option<Burst> {
    let mut phases: [(i64, usize); 5] = [(0, 0); 5];
    for (f, p) in phases.iter_mut().enumerate() {
        *p = (fit(m, j, f), f);
    }
    // Best fit first; equal fits keep the earlier phase.
    phases.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    if !pulsing(m, j, phases[0].1) {
        return None;
    }
    let mut best: Option<Burst> = None;
    // The two best-fitting phases: the burst's timing lies between them.
    for &(fit, f) in &phases[..2] {
        if fit <= 0 {
            break;
        }
        let mut frame = [0u8; 14];
        slice(m, j, f, 5, &mut frame);
        if !wanted_df(frame[0] >> 3) {
            continue;
        }
        let bits = crate::modes::frame::frame_bits(frame[0] >> 3);
        let energy = slice(m, j, f, bits, &mut frame);
        let Some(judged) = judge(&mut frame) else {
            continue;
        };
        if best.as_ref().is_none_or(|b| judged.score > b.judged.score) {
            let perfect = judged.certain;
            best = Some(Burst {
                bytes: frame,
                judged,
                power: power(energy, bits),
                quality: fit as f32,
                start: j,
            });
            if perfect {
                break;
            }
        }
    }
    best
}

/// Samples from a burst's start to where the scan resumes after it: the
/// burst's end less one preamble.
pub(crate) fn skip(bits: usize) -> usize {
    bits * 12 / 5
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A burst at 2.4 MS/s starting `f` fifths after sample 20: each
    /// sample the mean of its five fifths.
    fn burst(frame: &[u8], hi: u16, f: usize) -> Vec<u16> {
        let mut chips = vec![false; 16];
        for k in [0, 2, 7, 9] {
            chips[k] = true;
        }
        for i in 0..frame.len() * 8 {
            let bit = (frame[i / 8] >> (7 - i % 8)) & 1 == 1;
            chips.extend([bit, !bit]);
        }
        let fifths = 100 + f + chips.len() * 6 + 5 * WINDOW;
        let on: Vec<bool> = (0..fifths)
            .map(|t| t >= 100 + f && chips.get((t - 100 - f) / 6).copied().unwrap_or(false))
            .collect();
        on.chunks(5)
            .map(|c| (c.iter().filter(|&&x| x).count() as u32 * u32::from(hi) / 5) as u16)
            .collect()
    }

    #[test]
    fn every_phase() {
        let f = crate::modes::frame::parse_hex("8D4840D6202CC371C32CE0576098").unwrap();
        for phase in 0..5 {
            let m = burst(&f, 5000, phase);
            let mut flags = vec![0u8; 40];
            candidates(&m, 0, &mut flags, Isa::detect());
            assert_eq!(flags[20], 1, "phase {phase}: {flags:?}");
            let mut judge =
                |fr: &mut [u8; 14]| crate::modes::demod::score::judge(fr, |_| false, false);
            let b = decode(&m, 20, &mut judge).unwrap();
            assert_eq!(&b.bytes[..], &f[..], "phase {phase}");
        }
    }
}
