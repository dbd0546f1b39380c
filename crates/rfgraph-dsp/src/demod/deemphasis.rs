//! FM de-emphasis: the single-pole low-pass `1 / (1 + sτ)` (τ = 75 µs in the
//! Americas, 50 µs elsewhere), discretised with the bilinear transform and its
//! corner pre-warped, unity gain at DC. Owns the one-pole state.

use crate::error::DspError;
use crate::filter::Biquad;
use crate::kernel::{Kernel, Ratio};

/// FM de-emphasis filter (`f64` coefficients and state, like the other IIR
/// filters).
#[derive(Debug, Clone)]
pub struct Deemphasis {
    b0: f64,
    b1: f64,
    a1: f64,
    x1: f64,
    y1: f64,
}

impl Deemphasis {
    /// Time constant used in North and South America and Korea (75 µs).
    pub const TAU_75US: f64 = 75e-6;
    /// Time constant used in Europe and most other regions (50 µs).
    pub const TAU_50US: f64 = 50e-6;

    /// De-emphasis with time constant `tau` seconds at `sample_rate`.
    ///
    /// Errors: non-positive arguments, or a corner `1/(2πτ)` at or above Nyquist.
    pub fn new(sample_rate: f64, tau: f64) -> Result<Self, DspError> {
        DspError::positive("tau", tau)?;
        let corner = 1.0 / (core::f64::consts::TAU * tau);
        let s = Biquad::first_order_lowpass(sample_rate, corner)?;
        Ok(Deemphasis {
            b0: s.b0,
            b1: s.b1,
            a1: s.a1,
            x1: 0.0,
            y1: 0.0,
        })
    }

    /// Filters `min(input.len(), output.len())` samples; returns `(n, n)`.
    pub fn process(&mut self, input: &[f32], output: &mut [f32]) -> (usize, usize) {
        let n = input.len().min(output.len());
        let (mut x1, mut y1) = (self.x1, self.y1);
        for (o, &x) in output[..n].iter_mut().zip(input) {
            let x = x as f64;
            let y = self.b0 * x + self.b1 * x1 - self.a1 * y1;
            x1 = x;
            y1 = y;
            *o = y as f32;
        }
        self.x1 = x1;
        self.y1 = y1;
        (n, n)
    }

    /// Zeroes the state.
    pub fn reset(&mut self) {
        self.x1 = 0.0;
        self.y1 = 0.0;
    }
}

impl Kernel for Deemphasis {
    type Input = f32;
    type Output = f32;

    fn process(&mut self, input: &[f32], output: &mut [f32]) -> (usize, usize) {
        Deemphasis::process(self, input, output)
    }

    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {
        Deemphasis::reset(self);
    }
}
