//! [`Agc2`]: GNU Radio's `agc2_cc` / `agc2_ff` automatic gain control with
//! separate attack and decay rates: each output is `gain·x`, then the
//! gain moves by `rate·(reference − |output|)`, with the attack rate when
//! the error exceeds the gain, the decay rate otherwise. As in GNU Radio,
//! the real version compares the error's magnitude (too loud or too
//! quiet), the complex one the signed error (too loud only).

use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};
use num_complex::Complex32;

/// A sample [`Agc2`] runs on (`f32`, [`Complex32`]).
pub trait Agc2Sample: Copy + Send + 'static {
    /// True when the attack rate applies to an error of either sign.
    const ATTACK_ON_MAGNITUDE: bool;
    /// `self · gain`.
    fn scaled(self, gain: f32) -> Self;
    /// The magnitude.
    fn magnitude(self) -> f32;
}

impl Agc2Sample for f32 {
    const ATTACK_ON_MAGNITUDE: bool = true;
    fn scaled(self, gain: f32) -> f32 {
        self * gain
    }
    fn magnitude(self) -> f32 {
        self.abs()
    }
}

impl Agc2Sample for Complex32 {
    const ATTACK_ON_MAGNITUDE: bool = false;
    fn scaled(self, gain: f32) -> Complex32 {
        self * gain
    }
    fn magnitude(self) -> f32 {
        (self.re * self.re + self.im * self.im).sqrt()
    }
}

/// Attack/decay AGC.
#[derive(Clone, Debug)]
pub struct Agc2<T: Agc2Sample> {
    /// Rate when the error exceeds the gain.
    pub attack_rate: f32,
    /// Rate otherwise.
    pub decay_rate: f32,
    /// Target magnitude.
    pub reference: f32,
    /// Largest gain (0: unlimited).
    pub max_gain: f32,
    gain: f32,
    gain0: f32,
    _t: std::marker::PhantomData<fn(T)>,
}

impl<T: Agc2Sample> Agc2<T> {
    /// An AGC starting at `gain`.
    pub fn new(
        attack_rate: f32,
        decay_rate: f32,
        reference: f32,
        gain: f32,
        max_gain: f32,
    ) -> Result<Self, DspError> {
        for (name, v) in [
            ("attack_rate", attack_rate),
            ("decay_rate", decay_rate),
            ("reference", reference),
            ("gain", gain),
            ("max_gain", max_gain),
        ] {
            DspError::finite(name, v as f64)?;
        }
        Ok(Self {
            attack_rate,
            decay_rate,
            reference,
            max_gain,
            gain,
            gain0: gain,
            _t: std::marker::PhantomData,
        })
    }

    /// The current gain.
    pub fn gain(&self) -> f32 {
        self.gain
    }

    /// Sets the current gain, from which the loop goes on (GNU Radio's
    /// `set_gain`).
    ///
    /// Errors: a non-finite gain (nothing changes).
    pub fn set_gain(&mut self, gain: f32) -> Result<(), DspError> {
        DspError::finite("gain", gain as f64)?;
        self.gain = gain;
        self.gain0 = gain;
        Ok(())
    }
}

impl<T: Agc2Sample> Kernel for Agc2<T> {
    type Input = T;
    type Output = T;

    fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        let n = input.len().min(output.len());
        for (o, &x) in output[..n].iter_mut().zip(&input[..n]) {
            let y = x.scaled(self.gain);
            *o = y;
            let err = y.magnitude() - self.reference;
            let rate = if (if T::ATTACK_ON_MAGNITUDE {
                err.abs()
            } else {
                err
            }) > self.gain
            {
                self.attack_rate
            } else {
                self.decay_rate
            };
            self.gain -= err * rate;
            if self.gain < 0.0 || !self.gain.is_finite() {
                self.gain = 10e-5;
            }
            if self.max_gain > 0.0 && self.gain > self.max_gain {
                self.gain = self.max_gain;
            }
        }
        (n, n)
    }

    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {
        self.gain = self.gain0;
    }
}
