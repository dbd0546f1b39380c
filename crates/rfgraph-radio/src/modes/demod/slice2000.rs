//! The 2 MS/s bit-slicer: preamble candidates and bit decisions at two
//! samples per bit.
//!
//! At 2 MS/s a half-bit (0.5 µs) is one sample, so a burst whose timing
//! falls between two samples smears each chip over both; half a sample
//! off, comparing a bit's two samples sees nothing at all. A candidate
//! passes three cheap gates (the vectorised preamble test, Mode S data
//! after it, and a preamble that fits the pulse model once its timing
//! and amplitude are estimated), then is sliced plainly (comparing the
//! halves of each bit, right for a burst on the sample grid) and, unless
//! that gave a certain frame, by maximum-likelihood sequence estimation
//! for its estimated timing ([`viterbi`]); then the same at the next
//! sample, unless the first was certain. The best-scoring slicing wins.
//! This module owns the arithmetic on magnitudes; the demodulator owns
//! the scan, and `score` the parity policy.

use super::Burst;
use super::score::{Judged, wanted_df};
use rfgraph_dsp::Isa;

/// Samples after a candidate's start that deciding it may read.
pub(crate) const WINDOW: usize = 16 + 2 * 112 + 8;

/// The largest [`misfit`] a candidate may have: every burst of the real
/// recording fits within 0.55, and generated ones down to 8 dB SNR decode
/// as well with this bound as without, while most data of other bursts
/// and Mode A/C replies that pass the preamble test fit worse.
const MAX_MISFIT: f32 = 1.0;

/// Flags candidate preambles among `flags.len()` positions from `start`
/// (see [`candidates_any`]), with the AVX2 build of the loop when `isa` says so.
///
/// Needs `m.len() >= start + flags.len() + 15`.
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

/// The preamble test: pulses at 0, 1, 3.5 and 4.5 µs (samples 0, 2, 7,
/// 9), each holding at least half a pulse whatever the burst's timing
/// within ±half a sample, against the samples quiet in every such timing
/// (4, 5, 11–14). The pulse samples' mean must be twice the quiet ones';
/// the weakest of the last three pulse samples 1.5 times the quiet mean
/// and half the pulse mean. The first pulse is left out of that test:
/// real replies arrive with it lost (the tail of another reply, or the
/// transponder's own rise), and their data still checks. Written to
/// vectorise: no branch in the loop.
#[inline(always)]
fn candidates_any(m: &[u16], start: usize, flags: &mut [u8]) {
    let n = flags.len();
    let w = &m[start..start + n + 15];
    let (m0, m2, m4, m5) = (&w[..n], &w[2..n + 2], &w[4..n + 4], &w[5..n + 5]);
    let (m7, m9, m11, m12) = (&w[7..n + 7], &w[9..n + 9], &w[11..n + 11], &w[12..n + 12]);
    let (m13, m14) = (&w[13..n + 13], &w[14..n + 14]);
    for k in 0..n {
        let p = u32::from(m0[k]) + u32::from(m2[k]) + u32::from(m7[k]) + u32::from(m9[k]);
        let q = u32::from(m4[k])
            + u32::from(m5[k])
            + u32::from(m11[k])
            + u32::from(m12[k])
            + u32::from(m13[k])
            + u32::from(m14[k]);
        let low = u32::from(m2[k].min(m7[k]).min(m9[k]));
        // 6p > 8q, 4·low > q, and 8·low > p (low over pulses 2–4).
        flags[k] = u8::from(3 * p > 4 * q) & u8::from(4 * low > q) & u8::from(8 * low > p);
    }
}

/// The ways of slicing a burst.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Way {
    /// Each bit's first sample against its second: right on the grid.
    Plain,
    /// Maximum-likelihood sequence estimation for a burst `tau` samples
    /// late (negative: early), pulses of amplitude `amp`, noise of RMS
    /// magnitude `noise`; see [`viterbi`].
    Sequence { tau: f32, amp: f32, noise: f32 },
}

/// Slices `bits` bits into `out` (bit 0 = most significant bit of
/// `out[0]`); `d[0]` is the sample before the first bit.
fn slice(d: &[u16], bits: usize, way: Way, out: &mut [u8; 14]) {
    // One byte per decision, packed at the end.
    let mut dec = [0u8; 112];
    match way {
        Way::Plain => {
            for (i, pair) in d[1..2 * bits + 1].chunks_exact(2).enumerate() {
                dec[i] = u8::from(pair[0] > pair[1]);
            }
        }
        Way::Sequence { tau, amp, noise } => viterbi(d, bits, tau, amp, noise, &mut dec),
    }
    pack(&dec, out);
}

/// The bits of a burst whose chips straddle two samples each, by a
/// two-state Viterbi search. A burst `tau` samples late puts `1 − tau` of
/// each chip into its own sample and `tau` into the next one (early:
/// into the previous one), so each sample depends on two consecutive
/// chips, that is on one bit and its neighbour: the sequence of bits
/// whose expected magnitudes are nearest (least squares) to the samples
/// wins. Half a sample off, where comparing the halves of a bit sees
/// nothing, this still separates the bits by a whole pulse over two
/// samples. `d[0]` is the sample before the first bit.
fn viterbi(d: &[u16], bits: usize, tau: f32, amp: f32, noise: f32, dec: &mut [u8; 112]) {
    let (w0, w1) = (amp * (1.0 - tau.abs()), amp * tau.abs());
    let late = tau >= 0.0;
    let d = &d[..2 * bits + 1];
    // The mean magnitude of signal e plus noise of power N is close to
    // √(e² + N) (exact for large e, 13 % high at e = 0): the expected
    // values include the noise floor.
    let n2 = noise * noise;
    let floor = |e: f32| (e * e + n2).sqrt();
    // Expected samples of bit b after bit p (the chips of bit b are b,
    // 1 − b; the quiet end of the preamble reads as a previous 1): late,
    // samples 2i and 2i + 1; early, 2i − 1 and 2i.
    let mut e = [[(0f32, 0f32); 2]; 2];
    for (p, row) in e.iter_mut().enumerate() {
        for (b, slot) in row.iter_mut().enumerate() {
            let (b, nb, np) = (b as f32, 1.0 - b as f32, 1.0 - p as f32);
            let (e0, e1) = if late {
                (w0 * b + w1 * np, w0 * nb + w1 * b)
            } else {
                (w0 * np + w1 * b, w0 * b + w1 * nb)
            };
            *slot = (floor(e0), floor(e1));
        }
    }
    // (x0 − e0)² + (x1 − e1)² less the x² terms every branch shares:
    // k − 2·(x0·e0 + x1·e1), with k = e0² + e1².
    let k = |p: usize, b: usize| e[p][b].0 * e[p][b].0 + e[p][b].1 * e[p][b].1;
    let (k00, k01, k10, k11) = (k(0, 0), k(0, 1), k(1, 0), k(1, 1));
    let (a00, b00) = (2.0 * e[0][0].0, 2.0 * e[0][0].1);
    let (a01, b01) = (2.0 * e[0][1].0, 2.0 * e[0][1].1);
    let (a10, b10) = (2.0 * e[1][0].0, 2.0 * e[1][0].1);
    let (a11, b11) = (2.0 * e[1][1].0, 2.0 * e[1][1].1);
    let first = usize::from(late);
    let (mut c0, mut c1) = (f32::INFINITY, 0.0f32);
    // Which previous bit each state came from, one bit per position.
    let (mut from0, mut from1) = (0u128, 0u128);
    for (i, pair) in d[first..first + 2 * bits].chunks_exact(2).enumerate() {
        let (x0, x1) = (f32::from(pair[0]), f32::from(pair[1]));
        let via00 = c0 + k00 - a00 * x0 - b00 * x1;
        let via10 = c1 + k10 - a10 * x0 - b10 * x1;
        let via01 = c0 + k01 - a01 * x0 - b01 * x1;
        let via11 = c1 + k11 - a11 * x0 - b11 * x1;
        from0 |= u128::from(via10 < via00) << i;
        from1 |= u128::from(via11 < via01) << i;
        (c0, c1) = (via00.min(via10), via01.min(via11));
    }
    if !late {
        // The last bit's second chip in the last sample, silence after.
        let x = f32::from(d[2 * bits]);
        let (e0, e1) = (floor(w0), floor(0.0));
        c0 += (x - e0) * (x - e0);
        c1 += (x - e1) * (x - e1);
    }
    let mut b = usize::from(c1 < c0);
    for i in (0..bits).rev() {
        dec[i] = b as u8;
        let from = if b == 1 { from1 } else { from0 };
        b = ((from >> i) & 1) as usize;
    }
}

/// How far the burst at `m[j]` is off the sample grid, its pulse
/// amplitude, and the noise's RMS magnitude, from the preamble: a late
/// burst leaks its pulses into samples 1, 3, 8 and 10, an early one into
/// −1, 1, 6 and 8; samples 4, 5 and 11 to 14 are quiet either way. Needs
/// `j >= 1`.
fn timing(m: &[u16], j: usize) -> (f32, f32, f32) {
    let s = |k: usize| f32::from(m[j + k]);
    let before = f32::from(m[j - 1]);
    let main = s(0) + s(2) + s(7) + s(9);
    let late = s(1) + s(3) + s(8) + s(10);
    let early = before + s(1) + s(6) + s(8);
    // Mean magnitude of noise alone is √(πN/4).
    let quiet = (s(4) + s(5) + s(11) + s(12) + s(13) + s(14)) / 6.0;
    let noise = quiet * (4.0 / std::f32::consts::PI).sqrt();
    if s(3) + s(10) >= before + s(6) {
        let tau = (late / (main + late).max(1.0)).min(0.5);
        (tau, (main + late) / 4.0, noise)
    } else {
        let tau = -(early / (main + early).max(1.0)).min(0.5);
        (tau, (main + early) / 4.0, noise)
    }
}

/// How badly the preamble at `m[j]` fits the model the sequence slicer
/// assumes (pulses at 0, 1, 3.5 and 4.5 µs, late or early by `tau`, of
/// amplitude `amp`, over noise): the squared residual over samples −1 to
/// 15, over the squared amplitude.
fn misfit(m: &[u16], j: usize, tau: f32, amp: f32, noise: f32) -> f32 {
    // Which of the chips a sample straddles are on, for samples −1..16:
    // its own (bit 1) and its neighbour's (bit 0), late and early.
    // 0: both off; 1: the neighbour's; 2: its own; 3: both.
    const LATE: [u8; 17] = [0, 2, 1, 2, 1, 0, 0, 0, 2, 1, 2, 1, 0, 0, 0, 0, 0];
    const EARLY: [u8; 17] = [1, 2, 1, 2, 0, 0, 0, 1, 2, 1, 2, 0, 0, 0, 0, 0, 0];
    let (w0, w1) = (amp * (1.0 - tau.abs()), amp * tau.abs());
    let n2 = noise * noise;
    let floor = |e: f32| (e * e + n2).sqrt();
    let expected = [floor(0.0), floor(w1), floor(w0), floor(w0 + w1)];
    let pattern = if tau >= 0.0 { &LATE } else { &EARLY };
    let mut r = 0.0f32;
    for (k, &c) in pattern.iter().enumerate() {
        let x = f32::from(m[j + k - 1]);
        let e = expected[usize::from(c)];
        r += (x - e) * (x - e);
    }
    r / (amp * amp).max(1.0)
}

/// True when the first ten bits after the preamble at `m[j]` look like
/// Mode S data: every bit has a pulse in one half, so the stronger sample
/// of each pair averages at least twice the quiet preamble samples and
/// half the preamble's pulse samples (half a sample off, either sample
/// still holds half a pulse). Lone pulses and Mode A/C replies fail it.
fn pulsing(m: &[u16], j: usize) -> bool {
    let quiet: u32 = [4, 5, 11, 12, 13, 14]
        .iter()
        .map(|&k| u32::from(m[j + k]))
        .sum();
    let data: u32 = (0..10)
        .map(|i| u32::from(m[j + 16 + 2 * i].max(m[j + 17 + 2 * i])))
        .sum();
    let pulses = u32::from(m[j]) + u32::from(m[j + 2]) + u32::from(m[j + 7]) + u32::from(m[j + 9]);
    // data / 10 > 2 · quiet / 6, and data / 10 > half the mean pulse.
    3 * data > 10 * quiet && 4 * data > 5 * pulses
}

/// Packs 112 decisions (one 0/1 byte each) into 14 bytes, first
/// decision in the most significant bit: the multiply gathers byte k of
/// each group of eight into bit 7 − k of its top byte.
#[inline]
fn pack(dec: &[u8; 112], out: &mut [u8; 14]) {
    for (o, group) in out.iter_mut().zip(dec.chunks_exact(8)) {
        let x = u64::from_le_bytes(group.try_into().unwrap_or([0; 8]));
        *o = (x.wrapping_mul(0x8040_2010_0804_0201) >> 56) as u8;
    }
}

/// Mean power of the stronger half of each bit, relative to full scale.
fn power(d: &[u16], bits: usize) -> f32 {
    let sum: f64 = (0..bits)
        .map(|i| {
            let x = f64::from(d[2 * i].max(d[2 * i + 1])) / 65535.0;
            x * x
        })
        .sum();
    (sum / bits as f64) as f32
}

/// The best slicing of the burst starting at `m[j]`, judged by `judge`.
/// Needs `1 <= j` and `m.len() >= j + WINDOW`.
fn at(
    m: &[u16],
    j: usize,
    judge: &mut dyn FnMut(&mut [u8; 14]) -> Option<Judged>,
) -> Option<Burst> {
    let d = &m[j + 15..j + WINDOW];
    let (tau, amp, noise) = timing(m, j);
    let misfit = misfit(m, j, tau, amp, noise);
    if misfit > MAX_MISFIT {
        return None;
    }
    let mut best: Option<Burst> = None;
    for way in [Way::Plain, Way::Sequence { tau, amp, noise }] {
        let mut frame = [0u8; 14];
        // The format field first: most candidates end here.
        slice(d, 5, way, &mut frame);
        let df = frame[0] >> 3;
        if !wanted_df(df) {
            continue;
        }
        slice(d, crate::modes::frame::frame_bits(df), way, &mut frame);
        let Some(judged) = judge(&mut frame) else {
            continue;
        };
        if best.as_ref().is_none_or(|b| judged.score > b.judged.score) {
            let certain = judged.certain;
            best = Some(Burst {
                bytes: frame,
                judged,
                power: power(&d[1..], usize::from(judged.bits)),
                quality: -misfit,
                start: j,
            });
            if certain {
                break;
            }
        }
    }
    best
}

/// The best burst at `j`, when Mode S data follows its preamble (the
/// demodulator compares an uncertain one with `j + 1`'s). Needs
/// `1 <= j` and `m.len() >= j + WINDOW`.
pub(crate) fn decode(
    m: &[u16],
    j: usize,
    judge: &mut dyn FnMut(&mut [u8; 14]) -> Option<Judged>,
) -> Option<Burst> {
    if !pulsing(m, j) {
        return None;
    }
    at(m, j, judge)
}

/// Samples from a burst's start to where the scan resumes after it: the
/// burst's end less one preamble, so that a frame overlapping its last
/// bits is still found.
pub(crate) fn skip(bits: usize) -> usize {
    2 * bits
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An ideal burst `late` samples after sample 1 (linear in between),
    /// preamble then Manchester bits, `hi` for a pulse.
    fn burst(frame: &[u8], hi: f32, late: f32) -> Vec<u16> {
        let mut chips = vec![0.0f32; 16];
        for k in [0, 2, 7, 9] {
            chips[k] = 1.0;
        }
        for i in 0..frame.len() * 8 {
            let bit = (frame[i / 8] >> (7 - i % 8)) & 1 == 1;
            chips.extend(if bit { [1.0, 0.0] } else { [0.0, 1.0] });
        }
        let mut m = vec![0u16; chips.len() + WINDOW + 20];
        for (c, &on) in chips.iter().enumerate() {
            m[1 + c] += (on * (1.0 - late) * hi) as u16;
            m[2 + c] += (on * late * hi) as u16;
        }
        m
    }

    fn judge(fr: &mut [u8; 14]) -> Option<Judged> {
        crate::modes::demod::score::judge(fr, |_| false, true)
    }

    #[test]
    fn ideal_bursts_at_any_timing() {
        let f = crate::modes::frame::parse_hex("8D4840D6202CC371C32CE0576098").unwrap();
        for late in [0.0, 0.2, 0.5, 0.8] {
            let m = burst(&f, 20000.0, late);
            let mut flags = vec![0u8; 32];
            candidates(&m, 0, &mut flags, Isa::detect());
            let j = if late <= 0.5 { 1 } else { 2 };
            assert_eq!(flags[j], 1, "late {late}: {flags:?}");
            let b = decode(&m, j, &mut judge).unwrap();
            assert_eq!(&b.bytes[..], &f[..], "late {late}");
            assert_eq!(b.judged.corrected, 0);
        }
        // Half a sample off, the plain slicing cannot see the bits, the
        // sequence slicing can.
        let m = burst(&f, 20000.0, 0.5);
        let mut out = [0u8; 14];
        slice(&m[16..], 112, Way::Plain, &mut out);
        assert_ne!(&out[..], &f[..]);
        let (tau, amp, noise) = timing(&m, 1);
        assert!(
            (tau - 0.5).abs() < 0.01 && (amp - 20000.0).abs() < 10.0,
            "{tau} {amp}"
        );
        slice(&m[16..], 112, Way::Sequence { tau, amp, noise }, &mut out);
        assert_eq!(&out[..], &f[..]);
        let m = burst(&f, 1000.0, 0.0);
        let b = decode(&m, 1, &mut judge).unwrap();
        assert!((b.power - (1000.0f32 / 65535.0).powi(2)).abs() < 1e-9);
    }

    #[test]
    fn packing() {
        let mut dec = [0u8; 112];
        dec[0] = 1;
        dec[9] = 1;
        dec[111] = 1;
        let mut out = [0u8; 14];
        pack(&dec, &mut out);
        assert_eq!(out[0], 0x80);
        assert_eq!(out[1], 0x40);
        assert_eq!(out[13], 0x01);
    }
}
