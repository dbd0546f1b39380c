//! [`Vco`]: a voltage-controlled oscillator, GNU Radio's `vco_f` / `vco_c`:
//! each output is `amplitude·cos(phase)` (or `amplitude·e^{j·phase}`),
//! then the phase advances by `sensitivity/sample_rate · input`.

use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};
use num_complex::Complex32;

/// An oscillator output: `f32` (cosine) or [`Complex32`] (phasor).
pub trait VcoOutput: Copy + Send + 'static {
    /// `amplitude` times the oscillator at `phase`.
    fn at(phase: f64, amplitude: f32) -> Self;
}

impl VcoOutput for f32 {
    fn at(phase: f64, amplitude: f32) -> f32 {
        amplitude * phase.cos() as f32
    }
}

impl VcoOutput for Complex32 {
    fn at(phase: f64, amplitude: f32) -> Complex32 {
        let (s, c) = phase.sin_cos();
        Complex32::new(c as f32, s as f32) * amplitude
    }
}

/// A VCO driven by a real control input.
#[derive(Clone, Debug)]
pub struct Vco<T: VcoOutput> {
    k: f64,
    amplitude: f32,
    phase: f64,
    _t: std::marker::PhantomData<fn() -> T>,
}

impl<T: VcoOutput> Vco<T> {
    /// `sensitivity` in rad/s per unit input at `sample_rate` Hz.
    pub fn new(sample_rate: f64, sensitivity: f64, amplitude: f32) -> Result<Self, DspError> {
        DspError::positive("sample_rate", sample_rate)?;
        DspError::finite("sensitivity", sensitivity)?;
        DspError::finite("amplitude", amplitude as f64)?;
        Ok(Self {
            k: sensitivity / sample_rate,
            amplitude,
            phase: 0.0,
            _t: std::marker::PhantomData,
        })
    }
}

impl<T: VcoOutput> Kernel for Vco<T> {
    type Input = f32;
    type Output = T;

    fn process(&mut self, input: &[f32], output: &mut [T]) -> (usize, usize) {
        let n = input.len().min(output.len());
        for (o, &x) in output[..n].iter_mut().zip(&input[..n]) {
            *o = T::at(self.phase, self.amplitude);
            let p = self.phase + self.k * x as f64;
            // Kept in (−2π, 2π); a non-finite input restarts the phase.
            self.phase = if p.is_finite() {
                p % std::f64::consts::TAU
            } else {
                0.0
            };
        }
        (n, n)
    }

    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {
        self.phase = 0.0;
    }
}
