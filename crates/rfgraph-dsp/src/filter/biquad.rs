//! One IIR second-order section ([`Biquad`]): `f64` coefficients, the RBJ
//! cookbook low-/high-pass designs and first-order bilinear sections, its
//! frequency response and its stability test. Owns the section; the
//! streaming cascade lives in `iir.rs`.
//!
//! Everything is designed and kept in `f64`, as GNU Radio does: in `f32` a
//! low cutoff's poles round onto or outside the unit circle (a 2nd-order
//! low-pass at 10 Hz for 1 MHz blew up to NaN). A design that still cannot be
//! realised in `f64` (cutoff so low that its poles or its gain are lost to
//! rounding) is rejected with an error.

use crate::error::DspError;
use core::f64::consts::PI;
use num_complex::Complex64;

/// One second-order section `H(z) = (b0 + b1 z⁻¹ + b2 z⁻²) / (1 + a1 z⁻¹ + a2 z⁻²)`.
///
/// A first-order section has `b2 = a2 = 0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Biquad {
    /// Feed-forward coefficient of `x[n]`.
    pub b0: f64,
    /// Feed-forward coefficient of `x[n-1]`.
    pub b1: f64,
    /// Feed-forward coefficient of `x[n-2]`.
    pub b2: f64,
    /// Feedback coefficient of `y[n-1]` (sign as in the denominator).
    pub a1: f64,
    /// Feedback coefficient of `y[n-2]` (sign as in the denominator).
    pub a2: f64,
}

/// How far a designed section's gain at its reference frequency (DC for a
/// low-pass, Nyquist for a high-pass) may be from 1 once its coefficients are
/// rounded to `f64`; beyond it the design is lost to rounding.
pub(crate) const GAIN_TOLERANCE: f64 = 1e-4;

/// The RBJ cookbook's shared terms for a second-order section after checking
/// the cutoff and `q`: `cos(w0)`, `alpha = sin(w0) / 2q` and `sin²(w0 / 2)`
/// (which is `(1 − cos w0) / 2` without the cancellation at low cutoffs).
fn rbj_terms(sample_rate: f64, cutoff: f64, q: f64) -> Result<(f64, f64, f64), DspError> {
    check_cutoff(sample_rate, cutoff)?;
    DspError::positive("q", q)?;
    let w0 = 2.0 * PI * cutoff / sample_rate;
    let (s, c) = w0.sin_cos();
    let half = (w0 / 2.0).sin();
    Ok((c, s / (2.0 * q), half * half))
}

/// Checks `0 < cutoff < sample_rate / 2` (both finite).
pub(crate) fn check_cutoff(sample_rate: f64, cutoff: f64) -> Result<(), DspError> {
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
    /// A section from normalised coefficients (`a0 = 1`). It is not checked
    /// for stability (see [`is_stable`](Self::is_stable)).
    ///
    /// Errors: any coefficient not finite.
    pub fn new(b0: f64, b1: f64, b2: f64, a1: f64, a2: f64) -> Result<Self, DspError> {
        for (name, v) in [("b0", b0), ("b1", b1), ("b2", b2), ("a1", a1), ("a2", a2)] {
            DspError::finite(name, v)?;
        }
        Ok(Biquad { b0, b1, b2, a1, a2 })
    }

    fn normalised(b: [f64; 3], a: [f64; 3]) -> Self {
        Biquad {
            b0: b[0] / a[0],
            b1: b[1] / a[0],
            b2: b[2] / a[0],
            a1: a[1] / a[0],
            a2: a[2] / a[0],
        }
    }

    /// Whether both poles lie strictly inside the unit circle (the stability
    /// triangle `|a2| < 1`, `|a1| < 1 + a2`).
    pub fn is_stable(&self) -> bool {
        self.a2.abs() < 1.0 && self.a1.abs() < 1.0 + self.a2
    }

    /// The largest pole magnitude (below 1 for a stable section).
    pub fn pole_radius(&self) -> f64 {
        // Poles of z² + a1 z + a2.
        let disc = Complex64::new(self.a1 * self.a1 - 4.0 * self.a2, 0.0).sqrt();
        let p1 = (-self.a1 + disc) / 2.0;
        let p2 = (-self.a1 - disc) / 2.0;
        p1.norm().max(p2.norm())
    }

    /// Rejects a design that rounding has made unstable or whose gain at
    /// `reference` (cycles per sample) is no longer 1.
    fn realised(self, what: &str, reference: f64) -> Result<Self, DspError> {
        let gain = self.response(reference).norm();
        if self.is_stable() && (gain - 1.0).abs() <= GAIN_TOLERANCE {
            Ok(self)
        } else {
            Err(DspError::InvalidSpec(format!(
                "{what}: cutoff too close to 0 or Nyquist to realise in f64 \
                 (pole radius {}, gain {gain} instead of 1)",
                self.pole_radius()
            )))
        }
    }

    /// Second-order low-pass (RBJ cookbook, bilinear transform with the cutoff
    /// pre-warped); `q = 1/√2` gives a Butterworth section. Unity gain at DC.
    ///
    /// Errors: non-positive rates, `cutoff >= sample_rate / 2`, `q <= 0`, or a
    /// cutoff too low to realise (DC gain or stability lost to rounding).
    pub fn lowpass(sample_rate: f64, cutoff: f64, q: f64) -> Result<Self, DspError> {
        let (c, alpha, half2) = rbj_terms(sample_rate, cutoff, q)?;
        let one_minus_c = 2.0 * half2;
        Self::normalised(
            [one_minus_c / 2.0, one_minus_c, one_minus_c / 2.0],
            [1.0 + alpha, -2.0 * c, 1.0 - alpha],
        )
        .realised("low-pass section", 0.0)
    }

    /// Second-order high-pass (RBJ cookbook). Unity gain at Nyquist.
    ///
    /// Errors: as [`Biquad::lowpass`] (a cutoff too close to Nyquist).
    pub fn highpass(sample_rate: f64, cutoff: f64, q: f64) -> Result<Self, DspError> {
        let (c, alpha, half2) = rbj_terms(sample_rate, cutoff, q)?;
        let one_plus_c = 2.0 - 2.0 * half2;
        Self::normalised(
            [one_plus_c / 2.0, -one_plus_c, one_plus_c / 2.0],
            [1.0 + alpha, -2.0 * c, 1.0 - alpha],
        )
        .realised("high-pass section", 0.5)
    }

    /// First-order low-pass `1 / (1 + s/ωc)` by the bilinear transform, with
    /// the −3 dB point pre-warped to `cutoff`; unity gain at DC.
    ///
    /// Errors: non-positive rates, `cutoff >= sample_rate / 2`, or a cutoff
    /// too low to realise.
    pub fn first_order_lowpass(sample_rate: f64, cutoff: f64) -> Result<Self, DspError> {
        check_cutoff(sample_rate, cutoff)?;
        let k = (PI * cutoff / sample_rate).tan();
        Self::normalised([k, k, 0.0], [1.0 + k, k - 1.0, 0.0]).realised("first-order low-pass", 0.0)
    }

    /// First-order high-pass, the complement of
    /// [`first_order_lowpass`](Self::first_order_lowpass); unity gain at Nyquist.
    ///
    /// Errors: as [`first_order_lowpass`](Self::first_order_lowpass).
    pub fn first_order_highpass(sample_rate: f64, cutoff: f64) -> Result<Self, DspError> {
        check_cutoff(sample_rate, cutoff)?;
        let k = (PI * cutoff / sample_rate).tan();
        Self::normalised([1.0, -1.0, 0.0], [1.0 + k, k - 1.0, 0.0])
            .realised("first-order high-pass", 0.5)
    }

    /// Frequency response at `freq` cycles per sample.
    pub fn response(&self, freq: f64) -> Complex64 {
        let z1 = Complex64::from_polar(1.0, -2.0 * PI * freq);
        let z2 = z1 * z1;
        let num = Complex64::new(self.b0, 0.0) + z1 * self.b1 + z2 * self.b2;
        let den = Complex64::new(1.0, 0.0) + z1 * self.a1 + z2 * self.a2;
        num / den
    }
}
