//! Window functions for filter design and spectral analysis. Owns the window
//! formulas and the modified Bessel function `I0` used by the Kaiser window.

use crate::error::DspError;
use core::f64::consts::PI;

/// A window function.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Window {
    /// All ones.
    Rectangular,
    /// `0.5 − 0.5 cos(2πn/M)`.
    Hann,
    /// `0.54 − 0.46 cos(2πn/M)`.
    Hamming,
    /// `0.42 − 0.5 cos(2πn/M) + 0.08 cos(4πn/M)`.
    Blackman,
    /// Four-term Blackman–Harris (≈ 92 dB side lobes).
    BlackmanHarris,
    /// Kaiser window with shape parameter `beta` (≥ 0).
    Kaiser {
        /// Shape parameter; see [`crate::design::kaiser_beta`].
        beta: f64,
    },
}

/// Zeroth-order modified Bessel function of the first kind (power series).
pub(crate) fn bessel_i0(x: f64) -> f64 {
    let q = x * x / 4.0;
    let mut term = 1.0;
    let mut sum = 1.0;
    for k in 1..500 {
        term *= q / (k as f64 * k as f64);
        sum += term;
        if term < sum * 1e-17 {
            break;
        }
    }
    sum
}

impl Window {
    /// Checks the window's parameters.
    pub fn validate(&self) -> Result<(), DspError> {
        if let Window::Kaiser { beta } = *self {
            DspError::finite("beta", beta)?;
            if beta < 0.0 {
                return Err(DspError::OutOfRange {
                    name: "beta",
                    value: beta,
                    expected: "must be >= 0",
                });
            }
        }
        Ok(())
    }

    /// Value at position `n` of a window whose period parameter is `m`
    /// (`m = len - 1` symmetric, `m = len` periodic).
    fn value(&self, n: f64, m: f64) -> f64 {
        let x = 2.0 * PI * n / m;
        match *self {
            Window::Rectangular => 1.0,
            Window::Hann => 0.5 - 0.5 * x.cos(),
            Window::Hamming => 0.54 - 0.46 * x.cos(),
            Window::Blackman => 0.42 - 0.5 * x.cos() + 0.08 * (2.0 * x).cos(),
            Window::BlackmanHarris => {
                0.35875 - 0.48829 * x.cos() + 0.14128 * (2.0 * x).cos() - 0.01168 * (3.0 * x).cos()
            }
            Window::Kaiser { beta } => {
                let r = 2.0 * n / m - 1.0;
                bessel_i0(beta * (1.0 - r * r).max(0.0).sqrt()) / bessel_i0(beta)
            }
        }
    }

    /// Symmetric window of `len` points (for FIR design), in `f64`.
    pub fn symmetric_f64(&self, len: usize) -> Result<Vec<f64>, DspError> {
        self.validate()?;
        if len <= 1 {
            return Ok(vec![1.0; len]);
        }
        let m = (len - 1) as f64;
        Ok((0..len).map(|n| self.value(n as f64, m)).collect())
    }

    /// Symmetric window of `len` points (for FIR design).
    ///
    /// Errors: invalid Kaiser `beta`.
    pub fn coefficients(&self, len: usize) -> Result<Vec<f32>, DspError> {
        Ok(self
            .symmetric_f64(len)?
            .into_iter()
            .map(|v| v as f32)
            .collect())
    }

    /// Periodic window of `len` points (for spectral analysis with an FFT of
    /// size `len`).
    ///
    /// Errors: invalid Kaiser `beta`.
    pub fn periodic(&self, len: usize) -> Result<Vec<f32>, DspError> {
        self.validate()?;
        let m = len as f64;
        Ok((0..len).map(|n| self.value(n as f64, m) as f32).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        let h = Window::Hann.coefficients(5).unwrap();
        assert!((h[0]).abs() < 1e-7 && (h[2] - 1.0).abs() < 1e-7 && (h[1] - 0.5).abs() < 1e-7);
        let m = Window::Hamming.coefficients(3).unwrap();
        assert!((m[0] - 0.08).abs() < 1e-6 && (m[1] - 1.0).abs() < 1e-6);
        let b = Window::Blackman.coefficients(3).unwrap();
        assert!(b[0].abs() < 1e-6 && (b[1] - 1.0).abs() < 1e-6);
        let bh = Window::BlackmanHarris.coefficients(3).unwrap();
        assert!((bh[1] - 1.0).abs() < 1e-6 && bh[0] < 1e-4);
        let r = Window::Rectangular.coefficients(4).unwrap();
        assert_eq!(r, vec![1.0; 4]);
        let k = Window::Kaiser { beta: 0.0 }.coefficients(4).unwrap();
        assert!(k.iter().all(|v| (v - 1.0).abs() < 1e-7));
        let k = Window::Kaiser { beta: 8.0 }.coefficients(9).unwrap();
        assert!((k[4] - 1.0).abs() < 1e-7 && (k[0] - k[8]).abs() < 1e-7 && k[0] < 0.01);
        assert!(Window::Kaiser { beta: -1.0 }.coefficients(4).is_err());
        assert_eq!(Window::Hann.coefficients(1).unwrap(), vec![1.0]);
        assert!(Window::Hann.coefficients(0).unwrap().is_empty());
    }

    #[test]
    fn bessel() {
        assert!((bessel_i0(0.0) - 1.0).abs() < 1e-15);
        assert!((bessel_i0(1.0) - 1.266_065_877_752_008_4).abs() < 1e-12);
        assert!((bessel_i0(5.0) - 27.239_871_823_604_45).abs() < 1e-9);
    }

    #[test]
    fn periodic_hann_sums_to_half() {
        let w = Window::Hann.periodic(64).unwrap();
        let s: f32 = w.iter().sum();
        assert!((s - 32.0).abs() < 1e-4);
    }
}
