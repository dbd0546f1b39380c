//! Streaming IIR filtering: a cascade of [`Biquad`] sections in transposed
//! direct form II, and Butterworth designs built from them. Owns the
//! cascade's state, kept in `f64` (`Complex64` for complex samples) like the
//! coefficients; only the input and output are `f32`. Never designs FIR
//! filters.

use super::biquad::{Biquad, GAIN_TOLERANCE};
use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};
use crate::sample::WideSample;
use core::f64::consts::PI;
use num_complex::Complex64;

/// A cascade of [`Biquad`] sections filtering `f32` or `Complex32` samples.
///
/// Each sample runs through every section in `f64` before it is rounded
/// back to `f32`, so no precision is lost between sections.
#[derive(Debug, Clone)]
pub struct BiquadCascade<T: WideSample> {
    sections: Vec<Biquad>,
    state: Vec<[T::Wide; 2]>,
}

/// Q factors of the second-order sections of an `order`-th order Butterworth
/// filter (plus whether a first-order section is needed).
fn butterworth_qs(order: usize) -> (Vec<f64>, bool) {
    let n = order as f64;
    // Poles at s_k = e^{jπ(2k + n − 1)/(2n)}, k = 1..=n; each conjugate pair
    // gives a section with Q = −1 / (2 cos θ_k).
    let qs = (1..=order / 2)
        .map(|k| -1.0 / (2.0 * (PI * (2 * k + order - 1) as f64 / (2.0 * n)).cos()))
        .collect();
    (qs, order % 2 == 1)
}

impl<T: WideSample> BiquadCascade<T> {
    /// A cascade of the given sections (applied in order). Sections are not
    /// checked for stability (see [`Biquad::is_stable`]).
    ///
    /// Errors: no sections.
    pub fn new(sections: &[Biquad]) -> Result<Self, DspError> {
        if sections.is_empty() {
            return Err(DspError::InvalidSpec(
                "a biquad cascade needs at least one section".into(),
            ));
        }
        Ok(BiquadCascade {
            sections: sections.to_vec(),
            state: vec![[T::Wide::default(); 2]; sections.len()],
        })
    }

    /// Butterworth low-pass of `order` (1..=32), −3 dB at `cutoff`, unity
    /// gain at DC.
    ///
    /// Errors: `order` out of range, non-positive rates, `cutoff >=
    /// sample_rate / 2`, or a cutoff too low to realise in `f64` (a section
    /// unstable or its DC gain lost to rounding): below about `2.5e-7 ·
    /// sample_rate` from order 2 on, `2e-13 · sample_rate` for order 1.
    pub fn butterworth_lowpass(
        order: usize,
        sample_rate: f64,
        cutoff: f64,
    ) -> Result<Self, DspError> {
        Self::butterworth(order, sample_rate, cutoff, false)
    }

    /// Butterworth high-pass of `order` (1..=32), −3 dB at `cutoff`, unity
    /// gain at Nyquist.
    ///
    /// Errors: as [`butterworth_lowpass`](Self::butterworth_lowpass), with a
    /// cutoff too close to Nyquist.
    pub fn butterworth_highpass(
        order: usize,
        sample_rate: f64,
        cutoff: f64,
    ) -> Result<Self, DspError> {
        Self::butterworth(order, sample_rate, cutoff, true)
    }

    fn butterworth(
        order: usize,
        sample_rate: f64,
        cutoff: f64,
        high: bool,
    ) -> Result<Self, DspError> {
        if !(1..=32).contains(&order) {
            return Err(DspError::OutOfRange {
                name: "order",
                value: order as f64,
                expected: "must be in 1..=32",
            });
        }
        let (qs, first) = butterworth_qs(order);
        let mut sections = Vec::with_capacity(qs.len() + 1);
        for q in qs {
            sections.push(if high {
                Biquad::highpass(sample_rate, cutoff, q)?
            } else {
                Biquad::lowpass(sample_rate, cutoff, q)?
            });
        }
        if first {
            sections.push(if high {
                Biquad::first_order_highpass(sample_rate, cutoff)?
            } else {
                Biquad::first_order_lowpass(sample_rate, cutoff)?
            });
        }
        let cascade = Self::new(&sections)?;
        // Each section passed its own checks; the whole must still be the
        // Butterworth response: −3.01 dB at the cutoff.
        let at_cutoff = cascade.response(cutoff / sample_rate).norm_sqr();
        if (at_cutoff - 0.5).abs() > GAIN_TOLERANCE {
            return Err(DspError::InvalidSpec(format!(
                "Butterworth order {order}: |H|² = {at_cutoff} at the cutoff instead of 0.5; \
                 cutoff {cutoff} Hz cannot be realised at {sample_rate} Hz"
            )));
        }
        Ok(cascade)
    }

    /// The sections.
    pub fn sections(&self) -> &[Biquad] {
        &self.sections
    }

    /// Frequency response of the whole cascade at `freq` cycles per sample.
    pub fn response(&self, freq: f64) -> Complex64 {
        self.sections
            .iter()
            .fold(Complex64::new(1.0, 0.0), |acc, s| acc * s.response(freq))
    }

    /// Filters `min(input.len(), output.len())` samples; returns `(n, n)`.
    pub fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        let n = input.len().min(output.len());
        for (o, &x) in output[..n].iter_mut().zip(&input[..n]) {
            let mut v = x.widen();
            for (s, st) in self.sections.iter().zip(self.state.iter_mut()) {
                let y = v * s.b0 + st[0];
                st[0] = v * s.b1 - y * s.a1 + st[1];
                st[1] = v * s.b2 - y * s.a2;
                v = y;
            }
            *o = T::narrow(v);
        }
        (n, n)
    }

    /// Zeroes the filter state.
    pub fn reset(&mut self) {
        self.state.fill([T::Wide::default(); 2]);
    }
}

impl<T: WideSample> Kernel for BiquadCascade<T> {
    type Input = T;
    type Output = T;

    fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        BiquadCascade::process(self, input, output)
    }

    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {
        BiquadCascade::reset(self);
    }
}
