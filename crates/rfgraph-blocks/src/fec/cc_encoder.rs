//! The convolutional encoder of the `cc` code: GNU Radio's
//! `fec::code::cc_encoder`, value for value (its 8-bit shift register,
//! its four frame modes, its start state carried between frames).

use super::params::{CcMode, FecCodeParams};

/// The parity of `x`'s bits.
#[inline]
pub(crate) fn parity(x: u32) -> u8 {
    (x.count_ones() & 1) as u8
}

/// GNU Radio's byte padding of a terminated frame: the coded bits of
/// the `k − 1` tail steps rounded up to whole bytes.
pub(crate) fn padding_bits(rate: u32, k: u32) -> usize {
    let tail = rate * (k - 1);
    (8.0 * (tail as f32 / 8.0).ceil()) as usize - tail as usize
}

/// A `cc` encoder: frames of `frame_size` bits (one per byte, the low bit
/// counts) into `rate` coded bits per step.
#[derive(Clone, Debug)]
pub(crate) struct CcEncoder {
    k: u32,
    rate: usize,
    /// `(inverted, |poly|)` per coded bit.
    polys: Vec<(bool, u32)>,
    /// GNU Radio's `d_start_state`: the given start state, then the
    /// register where the last frame left it.
    start_state: i32,
    mode: CcMode,
    padding: usize,
    frame_size: usize,
    max_frame_size: usize,
}

impl CcEncoder {
    /// The encoder `p` describes (checked by `FecCodeParams::check_encoder`).
    pub(crate) fn new(p: &FecCodeParams) -> Self {
        let padding = if p.padding && p.mode == CcMode::Terminated {
            padding_bits(p.rate, p.k)
        } else {
            0
        };
        Self {
            k: p.k,
            rate: p.rate as usize,
            polys: p
                .polys
                .iter()
                .map(|&q| (q < 0, q.unsigned_abs() as u32))
                .collect(),
            start_state: p.state_start as i32,
            mode: p.mode,
            padding,
            frame_size: p.frame_size,
            max_frame_size: p.frame_size,
        }
    }

    pub(crate) fn input_size(&self) -> usize {
        self.frame_size
    }

    pub(crate) fn output_size(&self) -> usize {
        match self.mode {
            CcMode::Terminated => {
                self.rate * (self.frame_size + self.k as usize - 1) + self.padding
            }
            _ => self.rate * self.frame_size,
        }
    }

    pub(crate) fn rate(&self) -> f64 {
        self.rate as f64
    }

    /// Sets the frame size, at most the constructed one (to which a
    /// larger one is cut); false when cut.
    pub(crate) fn set_frame_size(&mut self, bits: usize) -> bool {
        self.frame_size = bits.min(self.max_frame_size);
        bits <= self.max_frame_size
    }

    /// The coded bits of `reg`, the register after a shift.
    #[inline]
    fn emit(&self, reg: u8, out: &mut [u8]) {
        for (o, &(inv, poly)) in out.iter_mut().zip(&self.polys) {
            *o = inv as u8 ^ parity(reg as u32 & poly);
        }
    }

    /// Encodes one frame: `input` holds `input_size()` bits, `output`
    /// `output_size()` coded bits (the padding bits are left as they
    /// are, as GNU Radio leaves them).
    pub(crate) fn encode(&mut self, input: &[u8], output: &mut [u8]) {
        let (fs, tail, rate) = (self.frame_size, self.k as usize - 1, self.rate);
        let mut reg = self.start_state as u8;
        if self.mode == CcMode::Tailbiting {
            // The register starts with the frame's last k − 1 bits
            // (bits before a frame shorter than that read as 0).
            for i in 0..tail {
                let bit = (fs + i)
                    .checked_sub(tail)
                    .and_then(|j| input.get(j))
                    .map_or(0, |b| b & 1);
                reg = (reg << 1) | bit;
            }
        }
        for (i, &bit) in input[..fs].iter().enumerate() {
            reg = (reg << 1) | (bit & 1);
            self.emit(reg, &mut output[i * rate..(i + 1) * rate]);
        }
        if self.mode == CcMode::Terminated {
            for i in 0..tail {
                let bit = (self.start_state >> (tail - 1 - i)) & 1;
                reg = (reg << 1) | bit as u8;
                let at = (fs + i) * rate;
                self.emit(reg, &mut output[at..at + rate]);
            }
        }
        if self.mode == CcMode::Truncated {
            reg = self.start_state as u8;
        }
        self.start_state = reg as i32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k7_terminated_frame_ends_in_the_start_state() {
        let mut p = FecCodeParams::cc(4, CcMode::Terminated);
        p.polys = vec![109, 79];
        let mut e = CcEncoder::new(&p);
        assert_eq!(e.output_size(), 2 * (4 + 6));
        let mut out = vec![9; e.output_size()];
        e.encode(&[1, 0, 0, 0], &mut out);
        // The impulse response of [109, 79] = [0b1101101, 0b1001111].
        let first: Vec<u8> = out.chunks(2).map(|c| c[0]).collect();
        let second: Vec<u8> = out.chunks(2).map(|c| c[1]).collect();
        assert_eq!(first, [1, 0, 1, 1, 0, 1, 1, 0, 0, 0]);
        assert_eq!(second, [1, 1, 1, 1, 0, 0, 1, 0, 0, 0]);
        assert_eq!(padding_bits(2, 7), 4);
        assert_eq!(padding_bits(3, 7), 6);
    }
}
