//! Automatic gain control: `y = g·x`, then `g += rate · (reference − |y|)`,
//! clamped to `[0, max_gain]`. Owns the gain state only.

use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};
use crate::sample::Sample;

/// Feedback AGC driving the output magnitude towards `reference`.
#[derive(Debug, Clone)]
pub struct Agc<T: Sample> {
    rate: f32,
    reference: f32,
    initial_gain: f32,
    gain: f32,
    max_gain: f32,
    _sample: core::marker::PhantomData<T>,
}

impl<T: Sample> Agc<T> {
    /// An AGC with adaptation `rate` (e.g. 1e-4), target output magnitude
    /// `reference`, starting `gain` and ceiling `max_gain`.
    ///
    /// Errors: non-finite or negative values, `rate` not in `(0, 1]`,
    /// `gain > max_gain`.
    pub fn new(rate: f32, reference: f32, gain: f32, max_gain: f32) -> Result<Self, DspError> {
        Self::check(rate, reference, gain, max_gain)?;
        Ok(Agc {
            rate,
            reference,
            initial_gain: gain,
            gain,
            max_gain,
            _sample: core::marker::PhantomData,
        })
    }

    /// The rules of [`new`](Self::new).
    fn check(rate: f32, reference: f32, gain: f32, max_gain: f32) -> Result<(), DspError> {
        for (name, v) in [
            ("rate", rate),
            ("reference", reference),
            ("max_gain", max_gain),
        ] {
            DspError::positive(name, v as f64)?;
        }
        DspError::finite("gain", gain as f64)?;
        if rate > 1.0 {
            return Err(DspError::OutOfRange {
                name: "rate",
                value: rate as f64,
                expected: "must be in (0, 1]",
            });
        }
        if !(0.0..=max_gain).contains(&gain) {
            return Err(DspError::OutOfRange {
                name: "gain",
                value: gain as f64,
                expected: "must be in [0, max_gain]",
            });
        }
        Ok(())
    }

    /// Changes the adaptation rate (GNU Radio's `set_rate`).
    pub fn set_rate(&mut self, rate: f32) -> Result<(), DspError> {
        Self::check(
            rate,
            self.reference,
            self.gain.min(self.max_gain),
            self.max_gain,
        )?;
        self.rate = rate;
        Ok(())
    }

    /// Changes the target output magnitude (`set_reference`).
    pub fn set_reference(&mut self, reference: f32) -> Result<(), DspError> {
        Self::check(
            self.rate,
            reference,
            self.gain.min(self.max_gain),
            self.max_gain,
        )?;
        self.reference = reference;
        Ok(())
    }

    /// Sets the current gain (`set_gain`), from which it adapts on.
    pub fn set_gain(&mut self, gain: f32) -> Result<(), DspError> {
        Self::check(self.rate, self.reference, gain, self.max_gain)?;
        self.gain = gain;
        Ok(())
    }

    /// Changes the ceiling (`set_max_gain`); a current gain above it
    /// drops to it.
    pub fn set_max_gain(&mut self, max_gain: f32) -> Result<(), DspError> {
        Self::check(self.rate, self.reference, self.gain.min(max_gain), max_gain)?;
        self.max_gain = max_gain;
        self.gain = self.gain.min(max_gain);
        Ok(())
    }

    /// The current gain.
    pub fn gain(&self) -> f32 {
        self.gain
    }

    /// Scales `min(input.len(), output.len())` samples; returns `(n, n)`.
    pub fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        let n = input.len().min(output.len());
        let mut g = self.gain;
        for (o, &x) in output[..n].iter_mut().zip(input) {
            let y = x * g;
            *o = y;
            let next = g + self.rate * (self.reference - y.magnitude());
            // A NaN/inf input must not poison the gain for the rest of the stream.
            if next.is_finite() {
                g = next.clamp(0.0, self.max_gain);
            }
        }
        self.gain = g;
        (n, n)
    }

    /// Restores the starting gain.
    pub fn reset(&mut self) {
        self.gain = self.initial_gain;
    }
}

impl<T: Sample> Kernel for Agc<T> {
    type Input = T;
    type Output = T;

    fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        Agc::process(self, input, output)
    }

    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {
        Agc::reset(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setters_keep_the_constructor_rules() {
        let mut agc = Agc::<f32>::new(1e-3, 1.0, 2.0, 10.0).unwrap();
        agc.set_gain(4.0).unwrap();
        assert_eq!(agc.gain(), 4.0);
        assert!(agc.set_gain(11.0).is_err(), "above the ceiling");
        assert!(agc.set_rate(0.0).is_err());
        assert!(agc.set_rate(2.0).is_err());
        agc.set_rate(0.5).unwrap();
        assert!(agc.set_reference(-1.0).is_err());
        agc.set_max_gain(3.0).unwrap();
        assert_eq!(agc.gain(), 3.0, "the gain drops to a lower ceiling");
        let mut out = [0.0f32; 1];
        agc.process(&[1.0], &mut out);
        assert_eq!(out[0], 3.0);
    }
}
