//! The `ccsds` encoder: GNU Radio's `fec::code::ccsds_encoder`, the
//! K = 7, rate 1/2 code with polynomials 0x6d and 0x4f (neither
//! inverted, as GNU Radio codes them) over packed bytes, most significant
//! bit first.

use super::cc_encoder::parity;
use super::params::{CcMode, FecCodeParams};

const POLY_A: u32 = 0x6d;
const POLY_B: u32 = 0x4f;

/// A `ccsds` encoder: frames of `frame_size / 8` packed bytes into
/// `2 · frame_size` coded bits (plus 12 for a terminated frame).
#[derive(Clone, Debug)]
pub(crate) struct CcsdsEncoder {
    /// The register the next frame starts from.
    start_state: u8,
    mode: CcMode,
    frame_size: usize,
    max_frame_size: usize,
}

impl CcsdsEncoder {
    pub(crate) fn new(p: &FecCodeParams) -> Self {
        Self {
            start_state: p.state_start as i32 as u8,
            mode: p.mode,
            frame_size: p.frame_size,
            max_frame_size: p.frame_size,
        }
    }

    /// Packed bytes per frame.
    pub(crate) fn input_size(&self) -> usize {
        self.frame_size / 8
    }

    pub(crate) fn output_size(&self) -> usize {
        match self.mode {
            CcMode::Terminated => 2 * (self.frame_size + 6),
            _ => 2 * self.frame_size,
        }
    }

    pub(crate) fn set_frame_size(&mut self, bits: usize) -> bool {
        self.frame_size = bits.min(self.max_frame_size);
        bits <= self.max_frame_size
    }

    #[inline]
    fn emit(reg: u8, out: &mut [u8]) {
        out[0] = parity(reg as u32 & POLY_A);
        out[1] = parity(reg as u32 & POLY_B);
    }

    /// Encodes one frame of `input_size()` bytes into `output_size()`
    /// bits (a frame size that is no multiple of 8 codes its whole bytes
    /// and leaves the rest of `output` as it is, as GNU Radio does).
    pub(crate) fn encode(&mut self, input: &[u8], output: &mut [u8]) {
        let bytes = &input[..self.input_size()];
        let mut reg = self.start_state;
        if self.mode == CcMode::Tailbiting
            && let Some(&last) = bytes.last()
        {
            for i in 0..6 {
                reg = (reg << 1) | ((last >> (5 - i)) & 1);
            }
        }
        let mut at = 0;
        for &byte in bytes {
            for i in (0..8).rev() {
                reg = (reg << 1) | ((byte >> i) & 1);
                Self::emit(reg, &mut output[at..at + 2]);
                at += 2;
            }
        }
        if self.mode == CcMode::Terminated {
            for i in 0..6 {
                reg = (reg << 1) | ((self.start_state >> (5 - i)) & 1);
                let at = (i + self.frame_size) * 2;
                Self::emit(reg, &mut output[at..at + 2]);
            }
        }
        if self.mode == CcMode::Truncated {
            reg = self.start_state;
        }
        self.start_state = reg;
    }
}
