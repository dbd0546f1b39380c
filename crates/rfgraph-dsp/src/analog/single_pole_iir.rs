//! [`SinglePoleIir`]: `y[n] = α·x[n] + (1 − α)·y[n−1]`, GNU Radio's
//! `single_pole_iir_filter_ff` / `_cc` (each step computed in double
//! precision and stored as a sample, as GNU Radio does).

use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};
use num_complex::{Complex32, Complex64};

/// A sample the single-pole filter runs on (`f32`, [`Complex32`]).
pub trait SinglePoleSample: Copy + Send + 'static {
    /// The wide accumulator type.
    type Wide: Copy + Default + Send + std::fmt::Debug;
    /// One step: returns the new state (also the output).
    fn step(state: Self::Wide, x: Self, alpha: f64) -> Self::Wide;
    /// The state narrowed to a sample.
    fn narrow(w: Self::Wide) -> Self;
    /// A sample widened to the state type.
    fn widen(self) -> Self::Wide;
}

impl SinglePoleSample for f32 {
    type Wide = f64;
    fn step(y: f64, x: f32, a: f64) -> f64 {
        a * x as f64 + (1.0 - a) * y
    }
    fn narrow(w: f64) -> f32 {
        w as f32
    }
    fn widen(self) -> f64 {
        self as f64
    }
}

impl SinglePoleSample for Complex32 {
    type Wide = Complex64;
    fn step(y: Complex64, x: Complex32, a: f64) -> Complex64 {
        Complex64::new(x.re as f64, x.im as f64) * a + y * (1.0 - a)
    }
    fn narrow(w: Complex64) -> Complex32 {
        Complex32::new(w.re as f32, w.im as f32)
    }
    fn widen(self) -> Complex64 {
        Complex64::new(self.re as f64, self.im as f64)
    }
}

/// Single-pole IIR low-pass (an exponential average).
#[derive(Clone, Debug)]
pub struct SinglePoleIir<T: SinglePoleSample> {
    alpha: f64,
    state: T::Wide,
}

impl<T: SinglePoleSample> SinglePoleIir<T> {
    /// A filter with `alpha` in `[0, 1]`.
    pub fn new(alpha: f64) -> Result<Self, DspError> {
        let mut k = Self {
            alpha: 1.0,
            state: T::Wide::default(),
        };
        k.set_alpha(alpha)?;
        Ok(k)
    }

    /// Changes `alpha` (in `[0, 1]`), keeping the state.
    pub fn set_alpha(&mut self, alpha: f64) -> Result<(), DspError> {
        if !(0.0..=1.0).contains(&alpha) {
            return Err(DspError::OutOfRange {
                name: "alpha",
                value: alpha,
                expected: "must be in [0, 1]",
            });
        }
        self.alpha = alpha;
        Ok(())
    }
}

impl<T: SinglePoleSample> Kernel for SinglePoleIir<T> {
    type Input = T;
    type Output = T;

    fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        let n = input.len().min(output.len());
        for (o, &x) in output[..n].iter_mut().zip(&input[..n]) {
            let y = T::narrow(T::step(self.state, x, self.alpha));
            self.state = y.widen();
            *o = y;
        }
        (n, n)
    }

    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {
        self.state = T::Wide::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_toward_the_input() {
        let mut k = SinglePoleIir::<f32>::new(0.5).unwrap();
        let mut out = [0.0f32; 3];
        k.process(&[1.0, 1.0, 1.0], &mut out);
        assert_eq!(out, [0.5, 0.75, 0.875]);
        assert!(SinglePoleIir::<f32>::new(1.5).is_err());
    }
}
