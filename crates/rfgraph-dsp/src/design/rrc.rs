//! Root-raised-cosine pulse-shaping filter design. Owns the RRC impulse response
//! formula including its two removable singularities.

use crate::error::DspError;
use core::f64::consts::PI;

/// Root-raised-cosine filter with roll-off `alpha` for `symbol_rate` symbols/s at
/// `sample_rate` samples/s, `num_taps` taps centred on the middle tap, scaled so
/// that the taps sum to `gain` (DC gain).
///
/// Two RRC filters in cascade make a raised-cosine (Nyquist) pulse: zero
/// inter-symbol interference at multiples of the symbol period.
///
/// Errors: `alpha` not in `(0, 1]`, non-positive rates, fewer than 2 samples
/// per symbol, `num_taps == 0`, non-finite gain.
pub fn root_raised_cosine(
    gain: f64,
    sample_rate: f64,
    symbol_rate: f64,
    alpha: f64,
    num_taps: usize,
) -> Result<Vec<f32>, DspError> {
    DspError::finite("gain", gain)?;
    DspError::positive("sample_rate", sample_rate)?;
    DspError::positive("symbol_rate", symbol_rate)?;
    DspError::tap_count("num_taps", num_taps)?;
    DspError::finite("alpha", alpha)?;
    if !(alpha > 0.0 && alpha <= 1.0) {
        return Err(DspError::OutOfRange {
            name: "alpha",
            value: alpha,
            expected: "must be in (0, 1]",
        });
    }
    let sps = sample_rate / symbol_rate;
    if sps < 2.0 {
        return Err(DspError::InvalidSpec(format!(
            "root-raised cosine needs at least 2 samples per symbol, got {sps}"
        )));
    }
    let mid = (num_taps as f64 - 1.0) / 2.0;
    let h: Vec<f64> = (0..num_taps)
        .map(|n| rrc_at((n as f64 - mid) / sps, alpha))
        .collect();
    let sum: f64 = h.iter().sum();
    if sum.abs() < 1e-12 {
        return Err(DspError::InvalidSpec(
            "root-raised cosine taps sum to zero".into(),
        ));
    }
    Ok(h.into_iter().map(|v| (v * gain / sum) as f32).collect())
}

/// The root-raised-cosine impulse response at `t` symbol periods for roll-off
/// `alpha` (peak `1 − α + 4α/π` at 0), with its removable singularities at
/// `t = 0` and `|t| = 1 / 4α` filled in by their limits.
pub(crate) fn rrc_at(t: f64, alpha: f64) -> f64 {
    if t.abs() < 1e-9 {
        1.0 - alpha + 4.0 * alpha / PI
    } else if ((4.0 * alpha * t).abs() - 1.0).abs() < 1e-9 {
        let a = PI / (4.0 * alpha);
        alpha / 2f64.sqrt() * ((1.0 + 2.0 / PI) * a.sin() + (1.0 - 2.0 / PI) * a.cos())
    } else {
        let num = (PI * t * (1.0 - alpha)).sin() + 4.0 * alpha * t * (PI * t * (1.0 + alpha)).cos();
        let den = PI * t * (1.0 - (4.0 * alpha * t).powi(2));
        num / den
    }
}
