//! AM envelope detector: `|x[n]|`, optionally followed by DC removal so the
//! carrier level does not appear in the audio. Owns nothing but that pairing.

use crate::dc_blocker::DcBlocker;
use crate::error::DspError;
use crate::isa::Isa;
use crate::kernel::{Kernel, Ratio};
use crate::simd::{self, Simd};
use num_complex::Complex32;

/// AM demodulator (envelope detector).
#[derive(Debug, Clone)]
pub struct AmDemod {
    dc: Option<DcBlocker<f32>>,
    simd: Simd,
}

impl AmDemod {
    /// Envelope only.
    pub fn new() -> Self {
        Self::with_isa(Isa::detect())
    }

    /// Envelope followed by a [`DcBlocker`] with pole `dc_pole` (e.g. 0.999).
    ///
    /// Errors: `dc_pole` outside `(0, 1)`.
    pub fn with_dc_removal(dc_pole: f32) -> Result<Self, DspError> {
        let mut d = Self::new();
        d.dc = Some(DcBlocker::new(dc_pole)?);
        Ok(d)
    }

    /// Envelope only, forced onto `isa` (scalar if the CPU lacks it).
    pub fn with_isa(isa: Isa) -> Self {
        AmDemod {
            dc: None,
            simd: Simd::new(isa),
        }
    }

    /// Demodulates `min(input.len(), output.len())` samples; returns `(n, n)`.
    pub fn process(&mut self, input: &[Complex32], output: &mut [f32]) -> (usize, usize) {
        let n = input.len().min(output.len());
        simd::magnitude(self.simd, &input[..n], &mut output[..n]);
        if let Some(dc) = &mut self.dc {
            dc.process_in_place(&mut output[..n]);
        }
        (n, n)
    }

    /// Clears the DC blocker state.
    pub fn reset(&mut self) {
        if let Some(dc) = &mut self.dc {
            dc.reset();
        }
    }
}

impl Default for AmDemod {
    fn default() -> Self {
        Self::new()
    }
}

impl Kernel for AmDemod {
    type Input = Complex32;
    type Output = f32;

    fn process(&mut self, input: &[Complex32], output: &mut [f32]) -> (usize, usize) {
        AmDemod::process(self, input, output)
    }

    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {
        AmDemod::reset(self);
    }
}
