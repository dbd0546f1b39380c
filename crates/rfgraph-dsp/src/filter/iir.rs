//! IIR filtering: second-order sections ([`Biquad`]) with low-/high-pass design
//! helpers (RBJ cookbook, Butterworth), and a streaming cascade in transposed
//! direct form II. Owns the IIR state; never designs FIR filters.

use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};
use crate::sample::Sample;
use core::f64::consts::PI;
use num_complex::Complex64;

/// One second-order section `H(z) = (b0 + b1 z⁻¹ + b2 z⁻²) / (1 + a1 z⁻¹ + a2 z⁻²)`.
///
/// A first-order section has `b2 = a2 = 0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Biquad {
    /// Feed-forward coefficient of `x[n]`.
    pub b0: f32,
    /// Feed-forward coefficient of `x[n-1]`.
    pub b1: f32,
    /// Feed-forward coefficient of `x[n-2]`.
    pub b2: f32,
    /// Feedback coefficient of `y[n-1]` (sign as in the denominator).
    pub a1: f32,
    /// Feedback coefficient of `y[n-2]` (sign as in the denominator).
    pub a2: f32,
}

/// The RBJ cookbook's shared terms for a second-order section: `cos(w0)`
/// and `alpha = sin(w0) / 2q`, after checking the cutoff and `q`.
fn rbj_terms(sample_rate: f64, cutoff: f64, q: f64) -> Result<(f64, f64), DspError> {
    check_cutoff(sample_rate, cutoff)?;
    DspError::positive("q", q)?;
    let (s, c) = (2.0 * PI * cutoff / sample_rate).sin_cos();
    Ok((c, s / (2.0 * q)))
}

fn check_cutoff(sample_rate: f64, cutoff: f64) -> Result<(), DspError> {
    DspError::positive("sample_rate", sample_rate)?;
    DspError::positive("cutoff", cutoff)?;
    if cutoff >= sample_rate / 2.0 {
        return Err(DspError::OutOfRange {
            name: "cutoff",
            value: cutoff,
            expected: "must be below sample_rate / 2",
        });
    }
    Ok(())
}

impl Biquad {
    /// A section from normalised coefficients (`a0 = 1`).
    ///
    /// Errors: any coefficient not finite.
    pub fn new(b0: f32, b1: f32, b2: f32, a1: f32, a2: f32) -> Result<Self, DspError> {
        for (name, v) in [("b0", b0), ("b1", b1), ("b2", b2), ("a1", a1), ("a2", a2)] {
            DspError::finite(name, v as f64)?;
        }
        Ok(Biquad { b0, b1, b2, a1, a2 })
    }

    fn from_f64(b: [f64; 3], a: [f64; 3]) -> Self {
        Biquad {
            b0: (b[0] / a[0]) as f32,
            b1: (b[1] / a[0]) as f32,
            b2: (b[2] / a[0]) as f32,
            a1: (a[1] / a[0]) as f32,
            a2: (a[2] / a[0]) as f32,
        }
    }

    /// Second-order low-pass (RBJ cookbook, bilinear transform with the cutoff
    /// pre-warped); `q = 1/√2` gives a Butterworth section.
    ///
    /// Errors: non-positive rates, `cutoff >= sample_rate / 2`, `q <= 0`.
    pub fn lowpass(sample_rate: f64, cutoff: f64, q: f64) -> Result<Self, DspError> {
        let (c, alpha) = rbj_terms(sample_rate, cutoff, q)?;
        Ok(Self::from_f64(
            [(1.0 - c) / 2.0, 1.0 - c, (1.0 - c) / 2.0],
            [1.0 + alpha, -2.0 * c, 1.0 - alpha],
        ))
    }

    /// Second-order high-pass (RBJ cookbook).
    ///
    /// Errors: as [`Biquad::lowpass`].
    pub fn highpass(sample_rate: f64, cutoff: f64, q: f64) -> Result<Self, DspError> {
        let (c, alpha) = rbj_terms(sample_rate, cutoff, q)?;
        Ok(Self::from_f64(
            [(1.0 + c) / 2.0, -(1.0 + c), (1.0 + c) / 2.0],
            [1.0 + alpha, -2.0 * c, 1.0 - alpha],
        ))
    }

    /// First-order low-pass `1 / (1 + s/ωc)` by the bilinear transform, with
    /// the −3 dB point pre-warped to `cutoff`; unity gain at DC.
    ///
    /// Errors: non-positive rates, `cutoff >= sample_rate / 2`.
    pub fn first_order_lowpass(sample_rate: f64, cutoff: f64) -> Result<Self, DspError> {
        check_cutoff(sample_rate, cutoff)?;
        let k = (PI * cutoff / sample_rate).tan();
        Ok(Self::from_f64([k, k, 0.0], [1.0 + k, k - 1.0, 0.0]))
    }

    /// First-order high-pass, the complement of
    /// [`first_order_lowpass`](Self::first_order_lowpass); unity gain at Nyquist.
    pub fn first_order_highpass(sample_rate: f64, cutoff: f64) -> Result<Self, DspError> {
        check_cutoff(sample_rate, cutoff)?;
        let k = (PI * cutoff / sample_rate).tan();
        Ok(Self::from_f64([1.0, -1.0, 0.0], [1.0 + k, k - 1.0, 0.0]))
    }

    /// Frequency response at `freq` cycles per sample.
    pub fn response(&self, freq: f64) -> Complex64 {
        let z1 = Complex64::from_polar(1.0, -2.0 * PI * freq);
        let z2 = z1 * z1;
        let num = Complex64::new(self.b0 as f64, 0.0) + z1 * self.b1 as f64 + z2 * self.b2 as f64;
        let den = Complex64::new(1.0, 0.0) + z1 * self.a1 as f64 + z2 * self.a2 as f64;
        num / den
    }
}

/// A cascade of [`Biquad`] sections filtering `f32` or `Complex32` samples.
#[derive(Debug, Clone)]
pub struct BiquadCascade<T: Sample> {
    sections: Vec<Biquad>,
    state: Vec<[T; 2]>,
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

impl<T: Sample> BiquadCascade<T> {
    /// A cascade of the given sections (applied in order).
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
            state: vec![[T::ZERO; 2]; sections.len()],
        })
    }

    /// Butterworth low-pass of `order` (1..=32), −3 dB at `cutoff`.
    pub fn butterworth_lowpass(
        order: usize,
        sample_rate: f64,
        cutoff: f64,
    ) -> Result<Self, DspError> {
        Self::butterworth(order, sample_rate, cutoff, false)
    }

    /// Butterworth high-pass of `order` (1..=32), −3 dB at `cutoff`.
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
        Self::new(&sections)
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
        output[..n].copy_from_slice(&input[..n]);
        for (s, st) in self.sections.iter().zip(self.state.iter_mut()) {
            let [mut s1, mut s2] = *st;
            for v in output[..n].iter_mut() {
                let x = *v;
                let y = x * s.b0 + s1;
                s1 = x * s.b1 - y * s.a1 + s2;
                s2 = x * s.b2 - y * s.a2;
                *v = y;
            }
            *st = [s1, s2];
        }
        (n, n)
    }

    /// Zeroes the filter state.
    pub fn reset(&mut self) {
        self.state.fill([T::ZERO; 2]);
    }
}

impl<T: Sample> Kernel for BiquadCascade<T> {
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
