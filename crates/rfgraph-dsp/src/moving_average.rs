//! Moving sum / average over a fixed number of samples. Owns the running sum and
//! its periodic exact recomputation: every `RECOMPUTE` samples (counted over the
//! whole stream, not per call) the sum is rebuilt from the window, so rounding
//! error cannot accumulate and the output does not depend on the call split.

use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};
use crate::sample::Sample;

const RECOMPUTE: u64 = 8192;

/// The longest window.
pub const MAX_MOVING_AVERAGE: usize = 1 << 24;

fn check_length(length: usize) -> Result<(), DspError> {
    DspError::nonzero("length", length)?;
    if length > MAX_MOVING_AVERAGE {
        return Err(DspError::OutOfRange {
            name: "length",
            value: length as f64,
            expected: "must be <= 2^24",
        });
    }
    Ok(())
}

/// `y[n] = scale · Σ_{k=0}^{L-1} x[n-k]` for `f32` or `Complex32`, with zero
/// history at start.
#[derive(Debug, Clone)]
pub struct MovingAverage<T: Sample> {
    ring: Vec<T>,
    pos: usize,
    sum: T,
    scale: f32,
    count: u64,
}

impl<T: Sample> MovingAverage<T> {
    /// A moving sum of `length` samples multiplied by `scale` (`1 / length` for
    /// an average).
    ///
    /// Errors: `length == 0` or above 2^24, non-finite scale.
    pub fn new(length: usize, scale: f32) -> Result<Self, DspError> {
        check_length(length)?;
        DspError::finite("scale", scale as f64)?;
        Ok(MovingAverage {
            ring: vec![T::ZERO; length],
            pos: 0,
            sum: T::ZERO,
            scale,
            count: 0,
        })
    }

    /// A plain average (`scale = 1 / length`).
    pub fn average(length: usize) -> Result<Self, DspError> {
        Self::new(length, 1.0 / length.max(1) as f32)
    }

    /// Window length.
    pub fn length(&self) -> usize {
        self.ring.len()
    }

    /// The factor applied to the sum.
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// Sums the last `length` samples from the next one on (GNU Radio's
    /// `set_length`): the most recent samples of the window stay in it; a
    /// longer window starts with zeros before the samples it kept.
    ///
    /// Errors: `length == 0` or above 2^24 (nothing changes).
    pub fn set_length(&mut self, length: usize) -> Result<(), DspError> {
        check_length(length)?;
        let old = self.ring.len();
        let keep = length.min(old);
        let mut ring = vec![T::ZERO; length];
        // The window oldest first is ring[pos..] then ring[..pos].
        let newest = self.ring[self.pos..].iter().chain(&self.ring[..self.pos]);
        for (dst, &x) in ring[length - keep..]
            .iter_mut()
            .zip(newest.skip(old - keep))
        {
            *dst = x;
        }
        let mut sum = T::ZERO;
        for &v in &ring {
            sum += v;
        }
        self.ring = ring;
        self.pos = 0;
        self.sum = sum;
        Ok(())
    }

    /// Multiplies the sum by `scale` from the next sample on.
    ///
    /// Errors: a non-finite scale (nothing changes).
    pub fn set_scale(&mut self, scale: f32) -> Result<(), DspError> {
        DspError::finite("scale", scale as f64)?;
        self.scale = scale;
        Ok(())
    }

    /// Averages `min(input.len(), output.len())` samples; returns `(n, n)`.
    pub fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        let n = input.len().min(output.len());
        let len = self.ring.len();
        for (o, &x) in output[..n].iter_mut().zip(input) {
            let old = self.ring[self.pos];
            self.ring[self.pos] = x;
            self.pos += 1;
            if self.pos == len {
                self.pos = 0;
            }
            self.count += 1;
            if self.count.is_multiple_of(RECOMPUTE) {
                let mut s = T::ZERO;
                for &v in &self.ring {
                    s += v;
                }
                self.sum = s;
            } else {
                self.sum = self.sum + x - old;
            }
            *o = self.sum * self.scale;
        }
        (n, n)
    }

    /// Zeroes the window.
    pub fn reset(&mut self) {
        self.ring.fill(T::ZERO);
        self.pos = 0;
        self.sum = T::ZERO;
        self.count = 0;
    }
}

impl<T: Sample> Kernel for MovingAverage<T> {
    type Input = T;
    type Output = T;

    fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        MovingAverage::process(self, input, output)
    }

    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {
        MovingAverage::reset(self);
    }
}
