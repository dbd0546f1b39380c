//! GNU Radio's successive cancellation decoders: `polar_decoder_sc`
//! (the decided bits at the information positions) and
//! `polar_decoder_sc_systematic` (the decided bits re-encoded, read at
//! the bit-reversed information positions).

use super::code::PolarCode;
use super::graph::Graph;

/// A successive cancellation decoder.
#[derive(Clone, Debug)]
pub(crate) struct ScDecoder {
    code: PolarCode,
    graph: Graph,
    systematic: bool,
    frame: Vec<u8>,
}

impl ScDecoder {
    pub(crate) fn new(code: PolarCode, systematic: bool) -> Self {
        let n = code.n;
        Self {
            graph: Graph::new(n),
            code,
            systematic,
            frame: vec![0; n],
        }
    }

    /// Decodes `N` soft values (positive for a 1) into `K` bits.
    pub(crate) fn decode(&mut self, input: &[f32], output: &mut [u8]) {
        let code = &self.code;
        let g = &mut self.graph;
        g.load(&input[..code.n]);
        let mut f = 0;
        for i in 0..code.n {
            let llr = g.bit_llr(i);
            let bit = if code.is_frozen[i] {
                f += 1;
                code.values[f - 1]
            } else {
                (llr < 0.0) as u8
            };
            g.set_bit(i, bit);
            g.propagate(i);
        }
        if self.systematic {
            let frame = &mut self.frame;
            frame.copy_from_slice(&g.sums[..code.n]);
            code.transform(frame);
            for (o, &r) in output.iter_mut().zip(&code.info_rev) {
                *o = frame[r];
            }
        } else {
            for (o, &i) in output.iter_mut().zip(&code.info) {
                *o = g.bit(i);
            }
        }
    }
}
