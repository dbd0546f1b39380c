//! The 2 MS/s bit-slicer: preamble candidates and bit decisions at two
//! samples per bit.
//!
//! At 2 MS/s a half-bit (0.5 µs) is one sample, so a burst whose timing
//! falls between two samples smears each chip over both. Every candidate
//! is therefore sliced three ways (plain comparison of the two half-bits;
//! dump1090's forward correction for a burst that starts late within the
//! sample; its mirror, corrected from the last bit backwards, for one that
//! starts early), and at the following sample too unless the first
//! slicing was already perfect; the best-scoring slicing wins.
//! This module owns the arithmetic on magnitudes; the demodulator owns
//! the scan, and `score` the parity policy.

use super::Burst;
use super::score::{Judged, wanted_df};

/// Samples after a candidate's start that deciding it may read.
pub(crate) const WINDOW: usize = 16 + 2 * 112 + 8;

/// Flags candidate preambles among `flags.len()` positions from `start`:
/// pulses at 0, 1, 3.5 and 4.5 µs (samples 0, 2, 7, 9) whose weakest is
/// 1.5 times the strongest of the samples that are quiet whatever the
/// burst's timing within ±half a sample (4, 5, 11–14). Written to
/// vectorise: no branch in the loop.
///
/// Needs `m.len() >= start + flags.len() + 15`.
pub(crate) fn candidates(m: &[u16], start: usize, flags: &mut [u8]) {
    let n = flags.len();
    let w = &m[start..start + n + 15];
    let (m0, m2, m4, m5) = (&w[..n], &w[2..n + 2], &w[4..n + 4], &w[5..n + 5]);
    let (m7, m9, m11, m12) = (&w[7..n + 7], &w[9..n + 9], &w[11..n + 11], &w[12..n + 12]);
    let (m13, m14) = (&w[13..n + 13], &w[14..n + 14]);
    for k in 0..n {
        let p = m0[k].min(m2[k]).min(m7[k]).min(m9[k]);
        let q = m4[k]
            .max(m5[k])
            .max(m11[k])
            .max(m12[k])
            .max(m13[k])
            .max(m14[k]);
        flags[k] = u8::from(2 * u32::from(p) > 3 * u32::from(q));
    }
}

/// The ways of slicing a burst.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Way {
    Plain,
    Forward,
    Backward,
    /// For a burst half a sample off: each sample then holds half of two
    /// chips, so the first sample of a bit less the second is +½ pulse
    /// when the bit rises from the previous one, −½ when it falls, and
    /// nought when it repeats it (dump1090's "delta < 256" rule, with the
    /// threshold at a quarter pulse instead of a fixed level).
    Differential(u32),
}

/// Slices `bits` bits of the burst whose data starts at `d[0]` into `out`
/// (bit 0 = most significant bit of `out[0]`).
fn slice(d: &[u16], bits: usize, way: Way, out: &mut [u8; 14]) {
    let d = &d[..2 * bits];
    // One byte per decision, packed at the end.
    let mut dec = [0u8; 112];
    let mut put = |i: usize, bit: bool| dec[i] = u8::from(bit);
    match way {
        Way::Plain => {
            for (i, pair) in d.chunks_exact(2).enumerate() {
                put(i, pair[0] > pair[1]);
            }
        }
        Way::Forward => {
            // A late burst leaks each bit's second half into the next
            // bit's first: after a 1 (quiet second half) the next first
            // half reads low, after a 0 high. The first half is scaled by
            // n/m, compared as n·a > m·b.
            let (mut n, mut m) = (1u32, 1u32);
            for i in 0..bits {
                let bit = n * u32::from(d[2 * i]) > m * u32::from(d[2 * i + 1]);
                put(i, bit);
                (n, m) = if bit { (5, 4) } else { (4, 5) };
            }
        }
        Way::Backward => {
            // An early burst leaks each bit's first half back into the
            // previous bit's second: decided from the last bit backwards,
            // the second half scaled by n/m, compared as m·a > n·b.
            let (mut n, mut m) = (1u32, 1u32);
            for i in (0..bits).rev() {
                let bit = m * u32::from(d[2 * i]) > n * u32::from(d[2 * i + 1]);
                put(i, bit);
                (n, m) = if bit { (4, 5) } else { (5, 4) };
            }
        }
        Way::Differential(threshold) => {
            // Before the first bit the preamble is quiet, as after a 1.
            let t = i32::try_from(threshold).unwrap_or(i32::MAX);
            let mut prev = true;
            for i in 0..bits {
                let diff = i32::from(d[2 * i]) - i32::from(d[2 * i + 1]);
                let bit = if diff > t {
                    true
                } else if diff < -t {
                    false
                } else {
                    prev
                };
                put(i, bit);
                prev = bit;
            }
        }
    }
    pack(&dec, out);
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
/// Needs `m.len() >= j + WINDOW`.
fn at(
    m: &[u16],
    j: usize,
    judge: &mut dyn FnMut(&mut [u8; 14]) -> Option<Judged>,
) -> Option<Burst> {
    let d = &m[j + 16..j + WINDOW];
    // A quarter of a whole pulse: half the mean of the preamble's pulse
    // samples, which hold half a pulse each when the burst is half a
    // sample off.
    let pulses = u32::from(m[j]) + u32::from(m[j + 2]) + u32::from(m[j + 7]) + u32::from(m[j + 9]);
    let mut best: Option<Burst> = None;
    let ways = [
        Way::Plain,
        Way::Forward,
        Way::Differential(pulses / 8),
        Way::Backward,
    ];
    // The format field, sliced each way but backwards (which needs the
    // whole frame): a burst none of them gives a wanted format is
    // dropped before any full slicing.
    let mut wanted = [false; 4];
    for (w, &way) in wanted.iter_mut().zip(&ways[..3]) {
        let mut f = [0u8; 14];
        slice(d, 5, way, &mut f);
        *w = wanted_df(f[0] >> 3);
    }
    if !wanted[..3].iter().any(|&w| w) {
        return None;
    }
    wanted[3] = true;
    for (&way, _) in ways.iter().zip(wanted).filter(|(_, w)| *w) {
        let mut frame = [0u8; 14];
        slice(d, 112, way, &mut frame);
        let bits = crate::modes::frame::frame_bits(frame[0] >> 3);
        if bits == 56 && way == Way::Backward {
            // Sliced again from its own last bit.
            slice(d, 56, way, &mut frame);
        }
        let Some(judged) = judge(&mut frame) else {
            continue;
        };
        if best.as_ref().is_none_or(|b| judged.score > b.judged.score) {
            let perfect = judged.corrected == 0;
            best = Some(Burst {
                bytes: frame,
                judged,
                power: power(d, usize::from(judged.bits)),
                start: j,
            });
            if perfect {
                break;
            }
        }
    }
    best
}

/// The best burst at `j` or, unless `j`'s was perfect, at `j + 1`. Needs
/// `m.len() >= j + 1 + WINDOW`.
pub(crate) fn decode(
    m: &[u16],
    j: usize,
    judge: &mut dyn FnMut(&mut [u8; 14]) -> Option<Judged>,
) -> Option<Burst> {
    let here = at(m, j, judge);
    if here.as_ref().is_none_or(|b| b.judged.corrected == 0) {
        return here;
    }
    let next = at(m, j + 1, judge);
    match (here, next) {
        (Some(h), Some(n)) if n.judged.score > h.judged.score => Some(n),
        (Some(h), _) => Some(h),
        (None, n) => n,
    }
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

    /// An ideal burst: preamble then Manchester bits, `hi` for a pulse.
    pub(crate) fn ideal(frame: &[u8], hi: u16) -> Vec<u16> {
        let mut m = vec![0u16; 16];
        for k in [0, 2, 7, 9] {
            m[k] = hi;
        }
        for i in 0..frame.len() * 8 {
            let bit = (frame[i / 8] >> (7 - i % 8)) & 1 == 1;
            m.extend(if bit { [hi, 0] } else { [0, hi] });
        }
        m.resize(m.len() + WINDOW + 16, 0);
        m
    }

    #[test]
    fn ideal_burst_all_ways() {
        let f = crate::modes::frame::parse_hex("8D4840D6202CC371C32CE0576098").unwrap();
        let m = ideal(&f, 1000);
        let mut flags = vec![0u8; 32];
        candidates(&m, 0, &mut flags);
        assert_eq!(flags[0], 1);
        for way in [Way::Plain, Way::Forward, Way::Backward] {
            let mut out = [0u8; 14];
            slice(&m[16..], 112, way, &mut out);
            assert_eq!(&out[..], &f[..], "{way:?}");
        }
        let mut judge = |fr: &mut [u8; 14]| crate::modes::demod::score::judge(fr, |_| false, true);
        let b = decode(&m, 0, &mut judge).unwrap();
        assert_eq!(&b.bytes[..], &f[..]);
        assert_eq!(b.start, 0);
        assert!((b.power - (1000.0f32 / 65535.0).powi(2)).abs() < 1e-9);
    }
}
