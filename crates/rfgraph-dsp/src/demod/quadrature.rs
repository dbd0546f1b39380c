//! Quadrature (FM) discriminator `y[n] = gain · arg(x[n] · conj(x[n-1]))`. Owns
//! the one-sample history that makes it streaming.

use crate::error::DspError;
use crate::isa::Isa;
use crate::kernel::{Kernel, Ratio};
use crate::simd::{self, Simd};
use num_complex::Complex32;

/// Streaming FM discriminator: output is `gain` times the phase step between
/// consecutive samples (radians per sample).
#[derive(Debug, Clone)]
pub struct QuadratureDemod {
    gain: f32,
    prev: Complex32,
    simd: Simd,
}

impl QuadratureDemod {
    /// A discriminator with the given output `gain`.
    ///
    /// Errors: non-finite gain.
    pub fn new(gain: f32) -> Result<Self, DspError> {
        Self::with_isa(gain, Isa::detect())
    }

    /// The usual FM gain `sample_rate / (2π · max_deviation)`, so a deviation of
    /// `max_deviation` Hz demodulates to ±1.
    ///
    /// Errors: non-positive or non-finite arguments.
    pub fn for_fm(sample_rate: f64, max_deviation: f64) -> Result<Self, DspError> {
        DspError::positive("sample_rate", sample_rate)?;
        DspError::positive("max_deviation", max_deviation)?;
        Self::new((sample_rate / (core::f64::consts::TAU * max_deviation)) as f32)
    }

    /// As [`new`](Self::new), forced onto `isa` (scalar if the CPU lacks it).
    pub fn with_isa(gain: f32, isa: Isa) -> Result<Self, DspError> {
        DspError::finite("gain", gain as f64)?;
        Ok(QuadratureDemod {
            gain,
            prev: Complex32::new(0.0, 0.0),
            simd: Simd::new(isa),
        })
    }

    /// Changes the output gain from the next sample on (GNU Radio's
    /// `set_gain`).
    ///
    /// Errors: non-finite gain (the discriminator is unchanged).
    pub fn set_gain(&mut self, gain: f32) -> Result<(), DspError> {
        DspError::finite("gain", gain as f64)?;
        self.gain = gain;
        Ok(())
    }

    /// The output gain.
    pub fn gain(&self) -> f32 {
        self.gain
    }

    /// The instruction set in use.
    pub fn isa(&self) -> Isa {
        self.simd.isa()
    }

    /// Demodulates `min(input.len(), output.len())` samples; returns `(n, n)`.
    pub fn process(&mut self, input: &[Complex32], output: &mut [f32]) -> (usize, usize) {
        let n = input.len().min(output.len());
        if n == 0 {
            return (0, 0);
        }
        simd::quad_demod(
            self.simd,
            self.prev,
            &input[..n],
            &mut output[..n],
            self.gain,
        );
        self.prev = input[n - 1];
        (n, n)
    }

    /// Forgets the previous sample.
    pub fn reset(&mut self) {
        self.prev = Complex32::new(0.0, 0.0);
    }
}

impl Kernel for QuadratureDemod {
    type Input = Complex32;
    type Output = f32;

    fn process(&mut self, input: &[Complex32], output: &mut [f32]) -> (usize, usize) {
        QuadratureDemod::process(self, input, output)
    }

    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {
        QuadratureDemod::reset(self);
    }
}
