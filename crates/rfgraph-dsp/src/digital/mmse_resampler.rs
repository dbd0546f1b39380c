//! [`MmseResampler`]: arbitrary-ratio resampling with the MMSE
//! interpolator, GNU Radio's `mmse_resampler_cc` / `_ff` (used by its
//! channel model for timing offsets): output `n` is `x(3 + phase +
//! n·ratio)`, so even a ratio of 1 delays by three samples.

use super::clock_recovery_mm::MmSample;
use super::mmse::{MmseInterpolator, NTAPS};
use super::skip::Skip;
use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};

/// Resamples by `1/ratio` (input samples per output sample = `ratio`).
#[derive(Clone, Debug)]
pub struct MmseResampler<T: MmSample> {
    interp: MmseInterpolator,
    ratio: f64,
    mu: f64,
    mu0: f64,
    skip: Skip,
    _t: std::marker::PhantomData<fn(T)>,
}

impl<T: MmSample> MmseResampler<T> {
    /// `phase_shift` in `[0, 1)` samples; `ratio` input samples per
    /// output (GNU Radio's `resamp_ratio`, the channel model's `epsilon`).
    pub fn new(phase_shift: f64, ratio: f64) -> Result<Self, DspError> {
        if !(0.0..1.0).contains(&phase_shift) {
            return Err(DspError::OutOfRange {
                name: "phase_shift",
                value: phase_shift,
                expected: "must be in [0, 1)",
            });
        }
        let mut k = Self {
            interp: MmseInterpolator::new(),
            ratio: 1.0,
            mu: phase_shift,
            mu0: phase_shift,
            skip: Skip::default(),
            _t: std::marker::PhantomData,
        };
        k.set_ratio(ratio)?;
        Ok(k)
    }

    /// Changes the ratio (in `(0, 1e6)`).
    pub fn set_ratio(&mut self, ratio: f64) -> Result<(), DspError> {
        if !(ratio.is_finite() && ratio > 0.0 && ratio < 1e6) {
            return Err(DspError::OutOfRange {
                name: "ratio",
                value: ratio,
                expected: "must be > 0",
            });
        }
        self.ratio = ratio;
        Ok(())
    }
}

impl<T: MmSample> Kernel for MmseResampler<T> {
    type Input = T;
    type Output = T;

    fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        let Some(mut ii) = self.skip.pay(input.len()) else {
            return (input.len(), 0);
        };
        let mut oo = 0;
        while oo < output.len() && ii + NTAPS <= input.len() {
            output[oo] = T::interpolate(&self.interp, &input[ii..ii + NTAPS], self.mu as f32);
            oo += 1;
            // GNU Radio keeps mu and the ratio in single precision.
            let s = (self.mu as f32) as f64 + (self.ratio as f32) as f64;
            let f = s.floor();
            self.mu = ((s - f) as f32) as f64;
            let step = f as usize;
            if !self.skip.advance(&mut ii, step, input.len()) {
                break;
            }
        }
        (ii, oo)
    }

    fn min_input(&self) -> usize {
        NTAPS
    }

    fn ratio(&self) -> Ratio {
        Ratio::approximate(1.0 / self.ratio)
    }

    fn reset(&mut self) {
        self.mu = self.mu0;
        self.skip.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_one_delays_by_three() {
        let mut k = MmseResampler::<f32>::new(0.0, 1.0).unwrap();
        let x: Vec<f32> = (0..20).map(|i| i as f32).collect();
        let mut y = [0.0f32; 20];
        let (n, m) = k.process(&x, &mut y);
        assert_eq!((n, m), (13, 13));
        for (i, v) in y[..m].iter().enumerate() {
            assert!((v - (i + 3) as f32).abs() < 1e-3, "{i}: {v}");
        }
    }
}
