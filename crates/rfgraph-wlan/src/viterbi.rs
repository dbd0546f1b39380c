//! The soft-decision Viterbi decoder of the K = 7 convolutional code
//! (generators 133 and 171 octal, output A first), IEEE 802.11-2016
//! 17.3.5.6, for a terminated frame: the encoder starts in state 0 and
//! the tail's six zeros bring it back there.
//!
//! The trellis runs on rfgraph's GNU Radio kernel
//! ([`rfgraph_blocks::fec::K7Trellis`]: 8-bit path metrics, AVX-512,
//! AVX2 or SSE2 chosen at run time, a portable path elsewhere) — the
//! same arithmetic gr-ieee802-11's decoder uses. This module owns the
//! frame: start metrics, an even number of steps, and the chain-back
//! from state 0.
//!
//! Soft bits are bytes: 0 a sure 0, 255 a sure 1, [`ERASED`] (128)
//! neutral (a punctured bit).

use crate::convolutional::{G0, G1};
use rfgraph_blocks::fec::{K7_STATES, K7Kernel, K7Trellis, k7_decision_index};

/// The generators [`G0`] (output A) and [`G1`] (B) in GNU Radio's
/// convention, bit `k` tapping the input `k` bits old: the standard's
/// 7-bit octal (current input most significant) reversed, 0x6d and 0x4f.
pub const POLYS: [u32; 2] = [reverse7(G0), reverse7(G1)];

const fn reverse7(g: u8) -> u32 {
    (g.reverse_bits() >> 1) as u32
}

/// The soft value of an erased (punctured) bit.
pub const ERASED: u8 = 128;

/// Bits the encoder needs to return to state 0 (K − 1).
pub const TAIL: usize = 6;

/// Path metric of the states other than 0 at the start (GNU Radio's
/// bias for a known start state).
const START_BIAS: u8 = 63;

/// A reusable Viterbi decoder (keeps its decision buffer between
/// frames).
#[derive(Clone, Debug)]
pub struct Viterbi {
    trellis: K7Trellis,
    decisions: Vec<u64>,
    /// The decisions of an odd frame's last two steps.
    extra: Vec<u64>,
}

impl Default for Viterbi {
    fn default() -> Self {
        Self::new()
    }
}

impl Viterbi {
    /// A decoder on the fastest kernel this CPU runs.
    pub fn new() -> Self {
        Self::with_kernel(K7Kernel::best())
    }

    /// A decoder on `kernel` (one of [`Viterbi::kernels`]).
    pub fn with_kernel(kernel: K7Kernel) -> Self {
        Self {
            trellis: K7Trellis::with_kernel(POLYS, kernel),
            decisions: Vec::new(),
            extra: Vec::new(),
        }
    }

    /// Every kernel this CPU runs.
    pub fn kernels() -> Vec<K7Kernel> {
        K7Kernel::available()
    }

    /// Decodes the first `bits` encoder inputs from `soft`, rate-1/2
    /// soft bits (A, B per input; at least `2 * bits` of them; any
    /// beyond are ignored), the encoder in state 0 before the first and
    /// after the last (`bits >= 6`, the last six the tail). Writes the
    /// `bits` decoded bits (0 or 1) to `out` (cleared first); the last
    /// six are zero.
    pub fn decode(&mut self, soft: &[u8], bits: usize, out: &mut Vec<u8>) {
        assert!(soft.len() >= 2 * bits, "two soft bits per decoded bit");
        out.clear();
        out.resize(bits, 0);
        if bits == 0 {
            return;
        }
        let mut start = [START_BIAS; K7_STATES];
        start[0] = 0;
        // The kernel's odd last step is GNU Radio's generic one
        // (wrapping sums): run an even number of steps, an odd frame's
        // last one paired with an extra sure (0, 0) step (state 0 to
        // state 0; the chain-back starts before it).
        let even = bits & !1;
        let m = self
            .trellis
            .run(start, &soft[..2 * even], even, &mut self.decisions);
        if bits % 2 == 1 {
            let last = [soft[2 * even], soft[2 * even + 1], 0, 0];
            let _ = self.trellis.run(m, &last, 2, &mut self.extra);
            self.decisions.push(self.extra[0]);
        }
        // Chain back from state 0. A state's last input is its bit 0;
        // the decision says whether its predecessor had bit 5 set:
        // `s' = (s >> 1) | k << 5`. The walk keeps `r =
        // decision_index(s)` (s rotated right one place in 6 bits)
        // instead of `s`, a shorter chain of dependent operations:
        // `r' = (r >> 1) & 15 | k << 4 | (r & 1) << 5`, and s's bit 0 is
        // r's bit 5.
        let mut r = k7_decision_index(0);
        for (o, &d) in out.iter_mut().zip(&self.decisions).rev() {
            *o = (r >> 5) as u8;
            let k = ((d >> r) & 1) as usize;
            r = ((r >> 1) & 15) | (k << 4) | ((r & 1) << 5);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::annex_i;
    use crate::convolutional;
    use crate::rate::CodeRate;

    /// A tiny xorshift generator for reproducible tests.
    pub(crate) struct Rng(pub u64);
    impl Rng {
        pub(crate) fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        /// Uniform in [0, 1).
        pub(crate) fn uniform(&mut self) -> f32 {
            (self.next() >> 40) as f32 / (1u64 << 24) as f32
        }
        /// Standard normal (Box-Muller).
        pub(crate) fn gauss(&mut self) -> f32 {
            let u = self.uniform().max(1e-9);
            let v = self.uniform();
            (-2.0 * u.ln()).sqrt() * (std::f32::consts::TAU * v).cos()
        }
    }

    pub(crate) fn encode(bits: &[u8]) -> Vec<u8> {
        let mut out = vec![0; 2 * bits.len()];
        convolutional::encode(bits, &mut out);
        out
    }

    /// Straightforward reference: 64 `i64` path metrics, every state's
    /// two predecessors compared in full, the same branch metric as the
    /// kernel (`(x + y + 1) >> 3` of the distances) and the same tie
    /// rule (the predecessor with bit 5 set wins a tie); whole
    /// survivor paths kept per state.
    fn reference(soft: &[u8], bits: usize) -> Vec<u8> {
        let big = i64::MAX / 4;
        let mut metric = vec![START_BIAS as i64; 64];
        metric[0] = 0;
        let mut paths: Vec<Vec<u8>> = vec![Vec::new(); 64];
        let parity = |x: u32| (x.count_ones() & 1) as u8;
        for n in 0..bits {
            let (s0, s1) = (soft[2 * n] as i64, soft[2 * n + 1] as i64);
            let mut next = vec![big; 64];
            let mut next_paths = vec![Vec::new(); 64];
            for s in 0..64usize {
                let bit = (s & 1) as u8;
                let mut best: Option<(i64, usize)> = None;
                for pred in [s >> 1, (s >> 1) | 32] {
                    let reg = ((pred as u32) << 1) | bit as u32;
                    let (a, b) = (parity(reg & POLYS[0]), parity(reg & POLYS[1]));
                    let da = if a == 1 { 255 - s0 } else { s0 };
                    let db = if b == 1 { 255 - s1 } else { s1 };
                    let m = metric[pred].saturating_add((da + db + 1) >> 3);
                    if best.is_none_or(|(bm, _)| m <= bm) {
                        best = Some((m, pred));
                    }
                }
                let (m, pred) = best.unwrap();
                next[s] = m;
                let mut p = paths[pred].clone();
                p.push(bit);
                next_paths[s] = p;
            }
            metric = next;
            paths = next_paths;
        }
        paths[0].clone()
    }

    fn soft_of(bits: &[u8]) -> Vec<u8> {
        bits.iter().map(|&b| if b == 1 { 255 } else { 0 }).collect()
    }

    /// Annex I (Table I-8 → I-7): the SIGNAL field's 48 coded bits
    /// decode to its 24 bits, on every kernel.
    #[test]
    fn annex_i_signal_decodes() {
        let coded = annex_i::bits(&annex_i::SIGNAL_CODED);
        let want = annex_i::bits(&annex_i::SIGNAL_BITS);
        assert_eq!(POLYS, [0x6d, 0x4f]);
        assert_eq!(encode(&want), coded, "the encoder vs Annex I");
        for kernel in Viterbi::kernels() {
            let mut v = Viterbi::with_kernel(kernel);
            let mut out = Vec::new();
            v.decode(&soft_of(&coded), 24, &mut out);
            assert_eq!(out, want, "{kernel:?}");
        }
    }

    /// Random terminated frames of every puncturing, noisy (BPSK over
    /// AWGN, soft bits scaled as a demapper would) at several SNRs:
    /// every kernel gives the same bits; down to 3 dB they are the wide
    /// reference's, bit for bit; at 1 dB, where the 8-bit metrics
    /// saturate, the kernels make at most 10 % more bit errors than the
    /// reference; at 20 dB none.
    #[test]
    fn kernels_match_the_reference_on_noisy_punctured_frames() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let kernels = Viterbi::kernels();
        assert!(!kernels.is_empty());
        let rates = [CodeRate::Half, CodeRate::TwoThirds, CodeRate::ThreeQuarters];
        for snr_db in [20.0f32, 6.0, 3.0, 1.0] {
            let sigma = (10f32.powf(-snr_db / 10.0) / 2.0).sqrt();
            let (mut ref_errors, mut our_errors) = (0usize, 0usize);
            for rate in rates {
                for trial in 0..6 {
                    let n = 7 + (rng.next() % 400) as usize + trial;
                    let mut data: Vec<u8> = (0..n).map(|_| (rng.next() & 1) as u8).collect();
                    data.extend([0; TAIL]);
                    let coded = encode(&data);
                    let pattern = convolutional::puncture_pattern(rate);
                    // Puncture, add noise, quantise, depuncture.
                    let soft: Vec<u8> = coded
                        .iter()
                        .enumerate()
                        .map(|(i, &c)| {
                            if pattern[i % pattern.len()] == 0 {
                                return ERASED;
                            }
                            let x = if c == 1 { 1.0 } else { -1.0 } + sigma * rng.gauss();
                            let llr = 2.0 * x / (sigma * sigma);
                            (128.0 + 8.0 * llr).round().clamp(0.0, 255.0) as u8
                        })
                        .collect();
                    let want = reference(&soft, data.len());
                    let errors =
                        |bits: &[u8]| bits.iter().zip(&data).filter(|(a, b)| a != b).count();
                    ref_errors += errors(&want);
                    let mut first: Option<Vec<u8>> = None;
                    for &kernel in &kernels {
                        let mut out = Vec::new();
                        Viterbi::with_kernel(kernel).decode(&soft, data.len(), &mut out);
                        match &first {
                            None => {
                                our_errors += errors(&out);
                                first = Some(out.clone());
                            }
                            Some(f) => assert_eq!(&out, f, "{kernel:?} vs {:?}", kernels[0]),
                        }
                        if snr_db >= 3.0 {
                            assert_eq!(out, want, "{kernel:?}, {snr_db} dB, {rate:?}, n {n}");
                        }
                    }
                }
            }
            if snr_db >= 20.0 {
                assert_eq!(ref_errors, 0);
            }
            if snr_db <= 1.0 {
                assert!(ref_errors > 0, "1 dB must make errors");
                assert!(
                    our_errors * 10 <= ref_errors * 11,
                    "{our_errors} errors, reference {ref_errors}"
                );
            }
        }
    }

    /// Frames of every length parity (the odd one takes the extra
    /// step), including the shortest, decode on every kernel.
    #[test]
    fn every_length_parity_decodes() {
        let mut rng = Rng(42);
        for kernel in Viterbi::kernels() {
            let mut v = Viterbi::with_kernel(kernel);
            for n in 0..40 {
                let mut data: Vec<u8> = (0..n).map(|_| (rng.next() & 1) as u8).collect();
                data.extend([0; TAIL]);
                let mut out = Vec::new();
                v.decode(&soft_of(&encode(&data)), data.len(), &mut out);
                assert_eq!(out, data, "{kernel:?}, n {n}");
            }
        }
    }
}

#[cfg(test)]
mod speed {
    use super::tests::{Rng, encode};
    use super::*;

    /// Decoded bits a second on each kernel (run in release with
    /// `--ignored --nocapture`), 12,000-bit frames.
    #[test]
    #[ignore = "a measurement; run in release with --ignored --nocapture"]
    fn viterbi_speed() {
        let mut rng = Rng(12);
        let mut data: Vec<u8> = (0..12_000).map(|_| (rng.next() & 1) as u8).collect();
        data.extend([0; TAIL]);
        let soft: Vec<u8> = encode(&data)
            .iter()
            .map(|&b| if b == 1 { 200 } else { 56 })
            .collect();
        for kernel in Viterbi::kernels() {
            let mut v = Viterbi::with_kernel(kernel);
            let mut out = Vec::new();
            let runs = 200;
            let t = std::time::Instant::now();
            for _ in 0..runs {
                v.decode(&soft, data.len(), &mut out);
            }
            let secs = t.elapsed().as_secs_f64();
            assert_eq!(out, data);
            let trellis = K7Trellis::with_kernel(POLYS, kernel);
            let mut decisions = Vec::new();
            let t = std::time::Instant::now();
            for _ in 0..runs {
                trellis.run([0; K7_STATES], &soft, data.len() & !1, &mut decisions);
            }
            let steps = t.elapsed().as_secs_f64();
            println!(
                "{kernel:?}: {:.0} Mbit/s ({:.2} ns a bit, {:.2} of them the trellis)",
                (data.len() * runs) as f64 / secs / 1e6,
                secs / (data.len() * runs) as f64 * 1e9,
                steps / (data.len() * runs) as f64 * 1e9,
            );
        }
    }
}
