//! The `repetition` code: GNU Radio's `fec::code::repetition_encoder`
//! (each input byte written `rep` times) and `repetition_decoder` (a bit
//! is 1 when more than the fraction `prob` of its `rep` soft values are
//! positive, compared in `f32` as GNU Radio does).

use super::params::FecCodeParams;

/// A repetition encoder or decoder.
#[derive(Clone, Debug)]
pub(crate) struct Repetition {
    rep: usize,
    prob: f32,
    frame_size: usize,
    max_frame_size: usize,
}

impl Repetition {
    pub(crate) fn new(p: &FecCodeParams) -> Self {
        Self {
            rep: p.rep,
            prob: p.prob as f32,
            frame_size: p.frame_size,
            max_frame_size: p.frame_size,
        }
    }

    /// Bits per frame.
    pub(crate) fn frame_size(&self) -> usize {
        self.frame_size
    }

    /// Coded bits per frame.
    pub(crate) fn coded_size(&self) -> usize {
        self.frame_size * self.rep
    }

    pub(crate) fn rep(&self) -> usize {
        self.rep
    }

    pub(crate) fn set_frame_size(&mut self, bits: usize) -> bool {
        self.frame_size = bits.min(self.max_frame_size);
        bits <= self.max_frame_size
    }

    /// Repeats each byte of one frame `rep` times.
    pub(crate) fn encode(&self, input: &[u8], output: &mut [u8]) {
        let out = output[..self.coded_size()].chunks_exact_mut(self.rep);
        for (o, &b) in out.zip(&input[..self.frame_size]) {
            o.fill(b);
        }
    }

    /// Decides each bit of one frame from its `rep` soft values.
    pub(crate) fn decode(&self, input: &[f32], output: &mut [u8]) {
        let rep = self.rep as f32;
        let groups = input[..self.coded_size()].chunks_exact(self.rep);
        for (o, g) in output[..self.frame_size].iter_mut().zip(groups) {
            let ones = g.iter().filter(|&&x| x > 0.0).count() as f32;
            *o = (ones / rep > self.prob) as u8;
        }
    }
}
