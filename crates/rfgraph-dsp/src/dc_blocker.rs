//! DC blocker: the one-pole, one-zero high-pass `y[n] = x[n] − x[n−1] + p·y[n−1]`.
//! Owns its two state values.

use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};
use crate::sample::Sample;

/// Removes the DC component of an `f32` or `Complex32` stream. The −3 dB corner
/// is about `(1 − pole) / 2π` cycles per sample.
#[derive(Debug, Clone)]
pub struct DcBlocker<T: Sample> {
    pole: f32,
    x1: T,
    y1: T,
}

impl<T: Sample> DcBlocker<T> {
    /// A blocker with `pole` in `(0, 1)`; closer to 1 means a narrower notch.
    ///
    /// Errors: `pole` outside `(0, 1)`.
    pub fn new(pole: f32) -> Result<Self, DspError> {
        DspError::finite("pole", pole as f64)?;
        if !(pole > 0.0 && pole < 1.0) {
            return Err(DspError::OutOfRange {
                name: "pole",
                value: pole as f64,
                expected: "must be in (0, 1)",
            });
        }
        Ok(DcBlocker {
            pole,
            x1: T::ZERO,
            y1: T::ZERO,
        })
    }

    /// Filters `min(input.len(), output.len())` samples; returns `(n, n)`.
    pub fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        let n = input.len().min(output.len());
        output[..n].copy_from_slice(&input[..n]);
        self.process_in_place(&mut output[..n]);
        (n, n)
    }

    /// Filters `buf` in place.
    pub fn process_in_place(&mut self, buf: &mut [T]) {
        let (mut x1, mut y1) = (self.x1, self.y1);
        for v in buf.iter_mut() {
            let x = *v;
            let y = x - x1 + y1 * self.pole;
            x1 = x;
            y1 = y;
            *v = y;
        }
        self.x1 = x1;
        self.y1 = y1;
    }

    /// Zeroes the state.
    pub fn reset(&mut self) {
        self.x1 = T::ZERO;
        self.y1 = T::ZERO;
    }
}

impl<T: Sample> Kernel for DcBlocker<T> {
    type Input = T;
    type Output = T;

    fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        DcBlocker::process(self, input, output)
    }

    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {
        DcBlocker::reset(self);
    }
}
