//! The `dummy` code: GNU Radio's `fec::code::dummy_encoder` (frames pass
//! unchanged, whole bytes) and `dummy_decoder` (soft values sliced at
//! zero: `x ≥ 0` gives 1, as VOLK's `binary_slicer`).

use super::params::FecCodeParams;

/// Frame bookkeeping shared by the dummy coders.
#[derive(Clone, Debug)]
pub(crate) struct Dummy {
    frame_size: usize,
    max_frame_size: usize,
}

impl Dummy {
    pub(crate) fn new(p: &FecCodeParams) -> Self {
        Self {
            frame_size: p.frame_size,
            max_frame_size: p.frame_size,
        }
    }

    /// Items per frame, in and out.
    pub(crate) fn frame_size(&self) -> usize {
        self.frame_size
    }

    pub(crate) fn set_frame_size(&mut self, bits: usize) -> bool {
        self.frame_size = bits.min(self.max_frame_size);
        bits <= self.max_frame_size
    }

    /// Copies one frame.
    pub(crate) fn encode(&self, input: &[u8], output: &mut [u8]) {
        let n = self.frame_size;
        output[..n].copy_from_slice(&input[..n]);
    }

    /// Slices one frame at zero.
    pub(crate) fn decode(&self, input: &[f32], output: &mut [u8]) {
        let n = self.frame_size;
        for (o, &x) in output[..n].iter_mut().zip(&input[..n]) {
            *o = (x >= 0.0) as u8;
        }
    }
}
