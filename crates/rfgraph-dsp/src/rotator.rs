//! Frequency shifter (complex mixer): `y[n] = x[n] · e^{j2π f n}`. Owns only the
//! mixing; the oscillator phase rules are those of [`crate::nco`].

use crate::error::DspError;
use crate::isa::Isa;
use crate::kernel::{Kernel, Ratio};
use crate::nco::{freq_of, phase_step};
use crate::simd::{self, Simd};
use num_complex::Complex32;

/// Multiplies a complex stream by `e^{j2π f n}`, phase-continuous across calls
/// (bit-identical output whatever the call split).
#[derive(Debug, Clone)]
pub struct Rotator {
    phase: u32,
    step: u32,
    simd: Simd,
}

impl Rotator {
    /// A rotator shifting by `frequency` cycles per sample (`f_hz /
    /// sample_rate`; negative shifts down).
    ///
    /// Errors: non-finite frequency.
    pub fn new(frequency: f64) -> Result<Self, DspError> {
        Self::with_isa(frequency, Isa::detect())
    }

    /// As [`new`](Self::new), forced onto `isa` (scalar if the CPU lacks it).
    pub fn with_isa(frequency: f64, isa: Isa) -> Result<Self, DspError> {
        Ok(Rotator {
            phase: 0,
            step: phase_step(frequency)?,
            simd: Simd::new(isa),
        })
    }

    /// Changes the shift, keeping the phase continuous.
    ///
    /// Errors: non-finite frequency (the rotator is unchanged).
    pub fn set_frequency(&mut self, frequency: f64) -> Result<(), DspError> {
        self.step = phase_step(frequency)?;
        Ok(())
    }

    /// Current shift in cycles per sample, in `[-0.5, 0.5)`, as quantised.
    pub fn frequency(&self) -> f64 {
        freq_of(self.step)
    }

    /// The instruction set in use.
    pub fn isa(&self) -> Isa {
        self.simd.isa()
    }

    /// Rotates `min(input.len(), output.len())` samples; returns `(n, n)`.
    pub fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) -> (usize, usize) {
        let n = input.len().min(output.len());
        self.phase = simd::rotate(
            self.simd,
            &input[..n],
            &mut output[..n],
            self.phase,
            self.step,
        );
        (n, n)
    }

    /// Zeroes the phase.
    pub fn reset(&mut self) {
        self.phase = 0;
    }
}

impl Kernel for Rotator {
    type Input = Complex32;
    type Output = Complex32;

    fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) -> (usize, usize) {
        Rotator::process(self, input, output)
    }

    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {
        Rotator::reset(self);
    }
}
