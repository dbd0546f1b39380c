//! GNU Radio's pulse-shaping designs: root-raised cosine and Gaussian, with
//! GNU Radio's tap-count rules and normalisation (taps summing to `gain`).
//! Owns those two designs.

use crate::DspError;
use crate::design::rrc_at;
use core::f64::consts::PI;

/// Root-raised-cosine filter (GNU Radio's `firdes.root_raised_cosine`):
/// roll-off `alpha`, `sampling_freq / symbol_rate` samples per symbol,
/// `ntaps` made odd (`ntaps | 1`), taps summing to `gain`. Any number of
/// samples per symbol is accepted, as in GNU Radio.
///
/// Errors: non-finite gain, non-positive rates, `alpha` not in `(0, 1]`,
/// more than 2^24 taps, taps summing to 0.
pub fn root_raised_cosine(
    gain: f64,
    sampling_freq: f64,
    symbol_rate: f64,
    alpha: f64,
    ntaps: usize,
) -> Result<Vec<f32>, DspError> {
    DspError::finite("gain", gain)?;
    DspError::positive("sampling_freq", sampling_freq)?;
    DspError::positive("symbol_rate", symbol_rate)?;
    DspError::positive("alpha", alpha)?;
    if alpha > 1.0 {
        return Err(DspError::OutOfRange {
            name: "alpha",
            value: alpha,
            expected: "must be in (0, 1]",
        });
    }
    let ntaps = ntaps | 1;
    DspError::tap_count("ntaps", ntaps)?;
    let sps = sampling_freq / symbol_rate;
    let mid = (ntaps / 2) as f64;
    let h: Vec<f64> = (0..ntaps)
        .map(|i| rrc_at((i as f64 - mid) / sps, alpha))
        .collect();
    let scale: f64 = h.iter().sum();
    let size: f64 = h.iter().map(|v| v.abs()).sum();
    if !(scale.is_finite() && scale.abs() > 1e-12 * size) {
        return Err(DspError::InvalidSpec(
            "root-raised cosine taps sum to zero".into(),
        ));
    }
    Ok(h.iter().map(|&v| (v * gain / scale) as f32).collect())
}

/// Gaussian pulse filter (GNU Radio's `firdes.gaussian`, as used by GMSK):
/// `spb` samples per symbol, bandwidth-time product `bt`, `ntaps` taps
/// summing to `gain`. As in GNU Radio, tap `i` sits at `i + 1 − ntaps/2`
/// samples, so an odd length is centred and an even one is half a sample
/// late.
///
/// Errors: non-finite gain, non-positive `spb` or `bt`, `ntaps` not in
/// `1..=2^24`.
pub fn gaussian(gain: f64, spb: f64, bt: f64, ntaps: usize) -> Result<Vec<f32>, DspError> {
    DspError::finite("gain", gain)?;
    DspError::positive("spb", spb)?;
    DspError::positive("bt", bt)?;
    DspError::tap_count("ntaps", ntaps)?;
    // exp(−t² / 2σ²) with σ = √ln2 / (2π bt) symbols.
    let s = 2.0 * PI * bt / 2f64.ln().sqrt();
    let h: Vec<f64> = (0..ntaps)
        .map(|i| {
            let ts = s * ((i + 1) as f64 - ntaps as f64 / 2.0) / spb;
            (-0.5 * ts * ts).exp()
        })
        .collect();
    let sum: f64 = h.iter().sum();
    if !(sum.is_finite() && sum > 0.0) {
        return Err(DspError::InvalidSpec(
            "Gaussian taps underflow to zero".into(),
        ));
    }
    Ok(h.iter().map(|&v| (v * gain / sum) as f32).collect())
}
