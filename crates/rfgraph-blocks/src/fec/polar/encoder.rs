//! GNU Radio's polar encoders: `polar_encoder` (unpacked: VOLK's
//! `volk_8u_x3_encodepolar_8u_x2`; packed: its byte-wise encoder, here
//! on unpacked bits with the same XOR insertion) and
//! `polar_encoder_systematic`.

use super::code::{PolarCode, bit_reverse, butterflies};

/// A polar encoder.
#[derive(Clone, Debug)]
pub(crate) struct PolarEncoder {
    code: PolarCode,
    packed: bool,
    systematic: bool,
    temp: Vec<u8>,
}

impl PolarEncoder {
    pub(crate) fn new(code: PolarCode, packed: bool, systematic: bool) -> Self {
        let n = code.n;
        Self {
            code,
            packed,
            systematic,
            temp: vec![0; n],
        }
    }

    /// Input items per block: `K` bits, or `K / 8` packed bytes.
    pub(crate) fn input_size(&self) -> usize {
        if self.packed {
            self.code.k() / 8
        } else {
            self.code.k()
        }
    }

    /// Coded bits per block (`N`; a packed encoder's bytes unpacked, most
    /// significant bit first, as GNU Radio's extended encoder unpacks
    /// them).
    pub(crate) fn output_size(&self) -> usize {
        self.code.n
    }

    pub(crate) fn packed(&self) -> bool {
        self.packed
    }

    /// Coded bits per information bit.
    pub(crate) fn rate(&self) -> f64 {
        self.code.n as f64 / self.code.k().max(1) as f64
    }

    /// Encodes one block.
    pub(crate) fn encode(&mut self, input: &[u8], output: &mut [u8]) {
        let code = &self.code;
        let out = &mut output[..code.n];
        if self.packed {
            // GNU Radio XORs each frozen value and information bit into a
            // zeroed packed block at its bit-reversed place, most
            // significant bit first (a frozen value above 1 spills into
            // the bits after it, as there).
            let mut bytes = vec![0u8; code.n / 8];
            for (&p, &v) in code.frozen.iter().zip(&code.values) {
                let r = bit_reverse(p, code.power);
                bytes[r >> 3] ^= ((v as u32) << (7 - (r & 7))) as u8;
            }
            for (j, &r) in code.info_rev.iter().enumerate() {
                let bit = (input[j / 8] >> (7 - j % 8)) & 1;
                bytes[r >> 3] ^= bit << (7 - (r & 7));
            }
            for (i, o) in out.iter_mut().enumerate() {
                *o = (bytes[i >> 3] >> (7 - (i & 7))) & 1;
            }
            butterflies(out);
            return;
        }
        code.insert(input, out);
        code.transform(out);
        if self.systematic {
            // `bit_reverse_and_reset_frozen_bits`, then the transform again.
            let t = &mut self.temp;
            t.fill(0);
            for (&i, &r) in code.info.iter().zip(&code.info_rev) {
                t[i] = out[r];
            }
            out.copy_from_slice(t);
            code.transform(out);
        }
    }
}
