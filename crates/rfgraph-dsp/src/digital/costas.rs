//! [`CostasLoop`]: carrier phase and frequency recovery for BPSK, QPSK and
//! 8PSK, with GNU Radio 3.10's `costas_loop_cc` phase detectors, second
//! order loop filter (damping √2/2) and limits, so the outputs match it.

use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};
use num_complex::Complex32;
use std::f32::consts::PI;

const TWO_PI: f32 = 2.0 * PI;

/// A Costas loop of order 2, 4 or 8: each sample is rotated by the loop's
/// phase, the detector's error (clipped to ±1) steers the loop, and the
/// frequency is held in ±1 rad/sample.
#[derive(Clone, Debug)]
pub struct CostasLoop {
    order: u32,
    loop_bw: f32,
    alpha: f32,
    beta: f32,
    phase: f32,
    freq: f32,
}

impl CostasLoop {
    /// A loop of `order` (2, 4 or 8) with `loop_bw` in rad/sample
    /// (GNU Radio's `2π/100` is typical).
    pub fn new(loop_bw: f32, order: u32) -> Result<Self, DspError> {
        if ![2, 4, 8].contains(&order) {
            return Err(DspError::OutOfRange {
                name: "order",
                value: order as f64,
                expected: "must be 2, 4 or 8",
            });
        }
        let mut k = Self {
            order,
            loop_bw: 0.0,
            alpha: 0.0,
            beta: 0.0,
            phase: 0.0,
            freq: 0.0,
        };
        k.set_loop_bandwidth(loop_bw)?;
        Ok(k)
    }

    /// Changes the loop bandwidth (rad/sample, ≥ 0), keeping the state.
    pub fn set_loop_bandwidth(&mut self, bw: f32) -> Result<(), DspError> {
        if !bw.is_finite() || bw < 0.0 {
            return Err(DspError::OutOfRange {
                name: "loop_bw",
                value: bw as f64,
                expected: "must be finite and >= 0",
            });
        }
        let damping = std::f32::consts::SQRT_2 / 2.0;
        let denom = 1.0 + 2.0 * damping * bw + bw * bw;
        self.loop_bw = bw;
        self.alpha = (4.0 * damping * bw) / denom;
        self.beta = (4.0 * bw * bw) / denom;
        Ok(())
    }

    /// The loop bandwidth in rad/sample.
    pub fn loop_bandwidth(&self) -> f32 {
        self.loop_bw
    }

    /// The current frequency estimate in rad/sample.
    pub fn frequency(&self) -> f32 {
        self.freq
    }

    /// The current phase in rad.
    pub fn phase(&self) -> f32 {
        self.phase
    }

    #[inline]
    fn detect(&self, s: Complex32) -> f32 {
        let sign = |x: f32| if x > 0.0 { 1.0 } else { -1.0 };
        match self.order {
            2 => s.re * s.im,
            4 => sign(s.re) * s.im - sign(s.im) * s.re,
            _ => {
                let k = std::f32::consts::SQRT_2 - 1.0;
                if s.re.abs() >= s.im.abs() {
                    sign(s.re) * s.im - sign(s.im) * s.re * k
                } else {
                    sign(s.re) * s.im * k - sign(s.im) * s.re
                }
            }
        }
    }

    /// Rotates one sample and advances the loop.
    #[inline]
    pub fn step(&mut self, x: Complex32) -> Complex32 {
        let (s, c) = (-self.phase).sin_cos();
        let y = x * Complex32::new(c, s);
        let error = self.detect(y).clamp(-1.0, 1.0);
        self.freq += self.beta * error;
        self.phase += self.freq + self.alpha * error;
        while self.phase > TWO_PI {
            self.phase -= TWO_PI;
        }
        while self.phase < -TWO_PI {
            self.phase += TWO_PI;
        }
        self.freq = self.freq.clamp(-1.0, 1.0);
        y
    }
}

impl Kernel for CostasLoop {
    type Input = Complex32;
    type Output = Complex32;

    fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) -> (usize, usize) {
        let n = input.len().min(output.len());
        for (o, &x) in output[..n].iter_mut().zip(&input[..n]) {
            *o = self.step(x);
        }
        (n, n)
    }

    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {
        self.phase = 0.0;
        self.freq = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locks_qpsk_with_a_frequency_offset() {
        let mut k = CostasLoop::new(2.0 * PI / 100.0, 4).unwrap();
        let offset = 0.01f32;
        let mut last = Complex32::new(0.0, 0.0);
        for i in 0..4000 {
            let sym = [1.0f32, -1.0][(i * 7 / 3) % 2];
            let x = Complex32::new(sym, -sym) * Complex32::from_polar(1.0, offset * i as f32 + 0.3);
            last = k.step(x);
        }
        assert!((k.frequency() - offset).abs() < 1e-3, "{}", k.frequency());
        assert!((last.re.abs() - last.im.abs()).abs() < 0.05, "{last}");
        assert!(CostasLoop::new(0.1, 3).is_err());
    }
}
