//! The Viterbi decoder of the `cc` code: GNU Radio's
//! `fec::code::cc_decoder` (K = 7, rate 1/2) with the arithmetic of the
//! VOLK kernel it runs on x86 and ARM (`volk_8u_x4_conv_k7_r2_8u`,
//! `spiral`/`neonspiral`), so that the same soft input decodes to the
//! same bits, noise and ties included.
//!
//! Soft symbols are bytes: 255 is a sure 1, 0 a sure 0 (the extended
//! decoder maps a float `x` to `round(48·x + 128)`). The trellis
//! arithmetic is [`viterbi`](super::viterbi); this file owns the frame
//! modes: start and end states, the tail-biting wrap, the chain-back.

use super::cc_encoder::parity;
use super::coder::uchar_rounded;
use super::params::{CcMode, FecCodeParams};
use super::viterbi::{Branch, Decisions, Kernel, Metrics, STATES, decision_index, trellis};

/// The `k − 1` of the only supported code.
const TAIL: usize = 6;
/// Path metric of the states other than a known start state.
const BIASED: u8 = 63;
/// Path metric of every state when the start is unknown.
const UNBIASED: u8 = 31;

/// A `cc` Viterbi decoder (K = 7, rate 1/2).
#[derive(Clone, Debug)]
pub(crate) struct CcDecoder {
    /// GNU Radio's `Branchtab`.
    branch: Branch,
    /// The trellis kernel this CPU runs fastest.
    kernel: Kernel,
    mode: CcMode,
    padding: usize,
    frame_size: usize,
    max_frame_size: usize,
    /// Where a streaming frame starts: where the last one ended.
    start_chaining: i32,
    start_fixed: i32,
    /// The likeliest end state of the last frame.
    end_chaining: i32,
    /// The given end state of a terminated frame (−1: the likeliest).
    end_fixed: i32,
    /// The path metrics the next frame starts from.
    metrics: Metrics,
    decisions: Vec<Decisions>,
    /// A tail-biting frame with its first 36 steps' symbols appended.
    wrapped: Vec<u8>,
    /// The soft bytes of a frame given as floats (kept between frames).
    soft: Vec<u8>,
}

impl CcDecoder {
    /// The decoder `p` describes (checked by
    /// `FecCodeParams::check_decoder`: K = 7, two polynomials).
    pub(crate) fn new(p: &FecCodeParams) -> Self {
        let mut branch = [[0u8; STATES / 2]; 2];
        for (row, &poly) in branch.iter_mut().zip(&p.polys) {
            let (inv, poly) = (poly < 0, poly.unsigned_abs() as u32);
            for (state, b) in row.iter_mut().enumerate() {
                *b = if inv as u8 ^ parity((2 * state as u32) & poly) != 0 {
                    255
                } else {
                    0
                };
            }
        }
        let padding = if p.padding && p.mode == CcMode::Terminated {
            super::cc_encoder::padding_bits(2, 7)
        } else {
            0
        };
        let mut d = Self {
            branch: Branch::new(branch),
            kernel: Kernel::best(),
            mode: p.mode,
            padding,
            frame_size: p.frame_size,
            max_frame_size: p.frame_size,
            start_chaining: p.state_start as i32,
            start_fixed: p.state_start as i32,
            end_chaining: 0,
            end_fixed: p.state_end as i32,
            metrics: [0; STATES],
            decisions: Vec::new(),
            wrapped: Vec::new(),
            soft: Vec::new(),
        };
        match d.mode {
            CcMode::Streaming | CcMode::Tailbiting => d.init_unbiased(),
            CcMode::Truncated | CcMode::Terminated => d.init_biased(d.start_fixed),
        }
        d
    }

    fn init_biased(&mut self, start: i32) {
        self.metrics = [BIASED; STATES];
        self.metrics[(start & (STATES as i32 - 1)) as usize] = 0;
    }

    fn init_unbiased(&mut self) {
        self.metrics = [UNBIASED; STATES];
    }

    /// Trellis steps of a frame.
    fn steps(&self) -> usize {
        match self.mode {
            CcMode::Tailbiting => self.frame_size + 6 * TAIL,
            CcMode::Truncated => self.frame_size,
            CcMode::Streaming | CcMode::Terminated => self.frame_size + TAIL,
        }
    }

    /// Decoded bits per frame.
    pub(crate) fn output_size(&self) -> usize {
        self.frame_size
    }

    /// Soft symbols per frame (a streaming frame also reads the next
    /// [`history`](Self::history) ones).
    pub(crate) fn input_size(&self) -> usize {
        match self.mode {
            CcMode::Terminated => 2 * (self.frame_size + TAIL) + self.padding,
            _ => 2 * self.frame_size,
        }
    }

    /// Soft symbols a frame reads past its own (GNU Radio's
    /// `get_history`).
    pub(crate) fn history(&self) -> usize {
        if self.mode == CcMode::Streaming {
            2 * TAIL
        } else {
            0
        }
    }

    /// Sets the frame size (cut to the constructed one; false when cut).
    /// A padded terminated frame then loses `2 · padding` bits, as GNU
    /// Radio's does.
    pub(crate) fn set_frame_size(&mut self, bits: usize) -> bool {
        self.frame_size = bits.min(self.max_frame_size);
        if self.mode == CcMode::Terminated {
            self.frame_size = self.frame_size.saturating_sub(2 * self.padding);
        }
        bits <= self.max_frame_size
    }

    /// Runs the trellis over `steps` symbol pairs of `syms` from the
    /// current metrics; returns the index of the likeliest end state (the
    /// first of equals).
    fn update(&mut self, syms: &[u8], steps: usize) -> usize {
        let last = trellis(
            self.kernel,
            &self.branch,
            self.metrics,
            syms,
            steps,
            &mut self.decisions,
        );
        let mut best = 0;
        for (s, &m) in last.iter().enumerate() {
            if m < last[best] {
                best = s;
            }
        }
        best
    }

    /// Traces back from `end` through `bits` decisions past `tail`
    /// ones, writing bit `(n + tail − 6) mod frame_size` for each step
    /// `n + tail`; returns the state `frame_size − 6` bits back, the
    /// start of the next streaming frame.
    fn chainback(&self, out: &mut [u8], bits: usize, end: i32, tail: usize) -> i32 {
        let fs = self.frame_size;
        let dif = tail - TAIL;
        let state = (end as u32 as usize) & (STATES - 1);
        let decisions = &self.decisions[tail..tail + bits];
        // The walk tracks `r = decision_index(state)`, the bit to read,
        // rather than the state: one step back from state `s` to
        // `(s >> 1) | k << 5` (`k` the decision, the decoded bit) takes
        // `r` to `(r >> 1) & 15 | k << 4 | (r & 1) << 5`, a shorter chain
        // of dependent operations than finding the bit from the state.
        let mut r = decision_index(state);
        let back = |d: Decisions, r: &mut usize| -> u8 {
            let k4 = (((d >> *r) & 1) << 4) as usize;
            *r = ((*r >> 1) & 15) | k4 | ((*r & 1) << 5);
            (k4 >> 4) as u8
        };
        // The state of `r`.
        let state_of = |r: usize| ((r << 1) & (STATES - 1)) | (r >> 5);
        // The steps from `fs − 6` on also give the next frame's start
        // (none in a frame shorter than 6 bits).
        let stop = fs.checked_sub(TAIL).map_or(bits, |s| s.min(bits));
        let mut boundary = 0;
        if dif == 0 {
            // Bit n is step n + tail's: no wrap (all but tail-biting).
            let (head, rest) = out[..bits].split_at_mut(stop);
            for (o, &d) in rest.iter_mut().zip(&decisions[stop..]).rev() {
                *o = back(d, &mut r);
            }
            if stop < bits {
                boundary = state_of(r) as i32;
            }
            for (o, &d) in head.iter_mut().zip(&decisions[..stop]).rev() {
                *o = back(d, &mut r);
            }
        } else {
            // Tail-biting: bit (n + dif) mod fs.
            for n in (0..bits).rev() {
                let k = back(decisions[n], &mut r);
                if n >= stop {
                    boundary = state_of(r) as i32;
                }
                out[(n + dif) % fs] = k;
            }
        }
        boundary
    }

    /// [`decode`](Self::decode) of soft floats, each made the byte
    /// [`uchar_rounded`] makes (in a buffer kept between frames).
    pub(crate) fn decode_float(&mut self, input: &[f32], output: &mut [u8]) {
        let n = self.input_size() + self.history();
        let mut soft = std::mem::take(&mut self.soft);
        soft.clear();
        soft.extend(input[..n].iter().map(|&x| uchar_rounded(x)));
        self.decode(&soft, output);
        self.soft = soft;
    }

    /// Decodes one frame: `input` holds `input_size() + history()` soft
    /// symbols (a tail-biting frame shorter than 36 bits reads up to 72
    /// when `input` has them, as GNU Radio reads its buffer), `output`
    /// receives `output_size()` bits.
    pub(crate) fn decode(&mut self, input: &[u8], output: &mut [u8]) {
        let fs = self.frame_size;
        if fs == 0 {
            return;
        }
        match self.mode {
            CcMode::Tailbiting => {
                // The frame and again the symbols of its first 36 steps.
                // GNU Radio reads those from its buffer even past a
                // shorter frame: so do we where `input` goes on, and
                // around the frame where it does not.
                let mut wrapped = std::mem::take(&mut self.wrapped);
                wrapped.clear();
                wrapped.extend_from_slice(&input[..2 * fs]);
                wrapped.extend(
                    (0..2 * 6 * TAIL).map(|j| input.get(j).copied().unwrap_or(input[j % (2 * fs)])),
                );
                let end = self.update(&wrapped, self.steps()) as i32;
                self.wrapped = wrapped;
                self.end_chaining = end;
                self.chainback(output, fs, end, 6 * TAIL);
                self.init_unbiased();
            }
            CcMode::Truncated => {
                let end = self.update(input, self.steps()) as i32;
                self.end_chaining = end;
                for i in 0..TAIL.min(fs) {
                    output[fs - 1 - i] = ((end >> i) & 1) as u8;
                }
                if fs > TAIL {
                    self.start_chaining = self.chainback(output, fs - TAIL, end, TAIL);
                }
                self.init_biased(self.start_fixed);
            }
            CcMode::Streaming | CcMode::Terminated => {
                self.end_chaining = self.update(input, self.steps()) as i32;
                let end = if self.mode == CcMode::Terminated && self.end_fixed != -1 {
                    self.end_fixed
                } else {
                    self.end_chaining
                };
                self.start_chaining = self.chainback(output, fs, end, TAIL);
                let start = if self.mode == CcMode::Streaming {
                    self.start_chaining
                } else {
                    self.start_fixed
                };
                self.init_biased(start);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::cc_encoder::CcEncoder;
    use super::*;

    fn soft(bits: &[u8]) -> Vec<u8> {
        bits.iter().map(|&b| if b == 1 { 255 } else { 0 }).collect()
    }

    #[test]
    fn clean_frames_decode_in_every_mode() {
        let bits: Vec<u8> = (0..203u32).map(|i| ((i * 7919) >> 3) as u8 & 1).collect();
        for mode in [
            CcMode::Terminated,
            CcMode::Truncated,
            CcMode::Tailbiting,
            CcMode::Streaming,
        ] {
            let p = FecCodeParams::cc(bits.len(), mode);
            let mut enc = CcEncoder::new(&p);
            let mut dec = CcDecoder::new(&p);
            let mut coded = vec![0; enc.output_size()];
            enc.encode(&bits, &mut coded);
            let mut syms = soft(&coded);
            syms.resize(dec.input_size() + dec.history(), 128);
            let mut out = vec![9; dec.output_size()];
            dec.decode(&syms, &mut out);
            let n = if mode == CcMode::Streaming {
                bits.len() - TAIL
            } else {
                bits.len()
            };
            assert_eq!(out[..n], bits[..n], "{mode:?}");
        }
    }
}
