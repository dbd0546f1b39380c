//! [`FrequencyModulator`]: `phase += sensitivity · x`, `out = e^{j·phase}`,
//! GNU Radio's `frequency_modulator_fc` (phase kept in `[−π, π)`).

use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};
use num_complex::Complex32;
use std::f32::consts::PI;

/// Frequency modulator: a real input steers the phase of a unit phasor.
#[derive(Clone, Debug)]
pub struct FrequencyModulator {
    sensitivity: f32,
    phase: f32,
}

impl FrequencyModulator {
    /// `sensitivity` in rad/sample per unit of input (GNU Radio's
    /// `2π·deviation/sample_rate`).
    pub fn new(sensitivity: f32) -> Result<Self, DspError> {
        let mut k = Self {
            sensitivity: 0.0,
            phase: 0.0,
        };
        k.set_sensitivity(sensitivity)?;
        Ok(k)
    }

    /// Changes the sensitivity (rad/sample per unit), keeping the phase.
    pub fn set_sensitivity(&mut self, sensitivity: f32) -> Result<(), DspError> {
        DspError::finite("sensitivity", sensitivity as f64)?;
        self.sensitivity = sensitivity;
        Ok(())
    }

    /// The sensitivity in rad/sample per unit.
    pub fn sensitivity(&self) -> f32 {
        self.sensitivity
    }
}

impl Kernel for FrequencyModulator {
    type Input = f32;
    type Output = Complex32;

    fn process(&mut self, input: &[f32], output: &mut [Complex32]) -> (usize, usize) {
        let n = input.len().min(output.len());
        for (o, &x) in output[..n].iter_mut().zip(&input[..n]) {
            let p = self.phase + self.sensitivity * x;
            // Wrap into [−π, π); a non-finite input restarts the phase.
            self.phase = if p.is_finite() {
                (p + PI).rem_euclid(2.0 * PI) - PI
            } else {
                0.0
            };
            let (s, c) = self.phase.sin_cos();
            *o = Complex32::new(c, s);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constant_input_is_a_tone() {
        let mut k = FrequencyModulator::new(0.1).unwrap();
        let mut out = [Complex32::new(0.0, 0.0); 100];
        k.process(&[1.0; 100], &mut out);
        for (i, o) in out.iter().enumerate() {
            let want = Complex32::from_polar(1.0, 0.1 * (i + 1) as f32);
            assert!((o - want).norm() < 1e-4, "{i}: {o} vs {want}");
        }
        assert!(FrequencyModulator::new(f32::NAN).is_err());
    }
}
