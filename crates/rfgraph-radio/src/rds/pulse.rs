//! The RDS data-shaping pulse and the physical layer's constants: the
//! bit rate (57 kHz / 48), the biphase half-symbol, and the transmitter's
//! shaping filter `H_T(f) = cos(π f t_d / 4)` for `f ≤ 2/t_d` (IEC 62106
//! / EN 50067 §1.6), whose impulse response [`shaping_pulse`] gives.
//!
//! Each data bit becomes an odd pair of impulses half a bit apart (+ then
//! − for a 1, − then + for a 0), each shaped by the pulse; the receiver's
//! identical filter makes the whole response `cos²`: a raised cosine of
//! roll-off 1 over half-symbols of `t_d / 2`. The transmit pulse is
//! therefore the root-raised cosine of roll-off 1 at 2375 half-symbols
//! per second, which is what this module computes.

use std::f64::consts::PI;

/// The RDS subcarrier, Hz (three times the pilot).
pub const SUBCARRIER_HZ: f64 = 57e3;

/// Bits per second: 57 kHz / 48.
pub const BIT_RATE: f64 = SUBCARRIER_HZ / 48.0;

/// Biphase half-symbols per second (two per bit).
pub const HALF_SYMBOL_RATE: f64 = 2.0 * BIT_RATE;

/// The shaping pulse at `x` half-symbols from its centre: the
/// root-raised cosine of roll-off 1, `cos(2πx) / (1 − 16x²)`, scaled to
/// 1 at `x = 0` (`π/4` at `x = ±1/4`, where the formula is 0/0).
pub fn shaping_pulse(x: f64) -> f64 {
    let d = 1.0 - 16.0 * x * x;
    if d.abs() < 1e-9 {
        PI / 4.0
    } else {
        (2.0 * PI * x).cos() / d
    }
}

/// Half-symbols each side of a pulse's centre beyond which it is
/// neglected (its value there is below 0.2 % of its peak).
pub const PULSE_SPAN: usize = 6;

#[cfg(test)]
mod tests {
    use super::*;

    /// Sampled at its own rate, the pulse's spectrum is `cos(π f T / 2)`
    /// (the standard's `cos(π f t_d / 4)` with `T = t_d/2`) up to `1/T`
    /// and zero beyond: checked by numerical Fourier transform.
    #[test]
    fn the_pulse_has_the_standards_spectrum() {
        let os = 64.0; // samples per half-symbol
        let n = (40.0 * os) as i64;
        let h: Vec<(f64, f64)> = (-n..=n)
            .map(|i| (i as f64 / os, shaping_pulse(i as f64 / os)))
            .collect();
        let ft = |f: f64| -> f64 {
            h.iter()
                .map(|&(t, v)| v * (2.0 * PI * f * t).cos())
                .sum::<f64>()
                / os
        };
        let h0 = ft(0.0);
        for f in [0.1, 0.3, 0.5, 0.7, 0.9] {
            let want = (PI * f / 2.0).cos();
            assert!(
                (ft(f) / h0 - want).abs() < 2e-3,
                "f={f}: {} vs {want}",
                ft(f) / h0
            );
        }
        for f in [1.1, 1.5, 2.0] {
            assert!((ft(f) / h0).abs() < 2e-3, "f={f}: {}", ft(f) / h0);
        }
        // Continuous through x = 1/4.
        assert!((shaping_pulse(0.25 + 1e-6) - PI / 4.0).abs() < 1e-4);
        assert!(shaping_pulse(PULSE_SPAN as f64).abs() < 2e-3);
    }
}
