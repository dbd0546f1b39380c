//! GNU Radio's Hilbert transformer: taps `±1/k` at odd offsets `k`, windowed
//! and scaled to unit gain at `fs/4`. Owns that design (rfgraph's own
//! [`design::hilbert`](crate::design::hilbert) uses the `2/(πk)` ideal
//! response instead and is not rescaled).

use super::WinType;
use crate::DspError;

/// Odd-length Hilbert transformer (GNU Radio's `firdes.hilbert`, whose
/// defaults are 19 taps, [`WinType::Rectangular`] and
/// [`DEFAULT_PARAM`](super::DEFAULT_PARAM)): taps `w[k] / k` at odd offsets
/// `k` from the centre, zero at even ones, normalised to unit gain at a
/// quarter of the sample rate (where the response peaks for the odd-only
/// taps). Filtering `cos(ωn)` gives about `sin(ω(n − D))`, `D = (ntaps −
/// 1) / 2`.
///
/// Errors: `ntaps` even or below 3, invalid `param`, or a window that is 0
/// on every odd offset (no gain to normalise).
pub fn hilbert(ntaps: usize, window: WinType, param: f64) -> Result<Vec<f32>, DspError> {
    DspError::tap_count("ntaps", ntaps)?;
    if ntaps < 3 || ntaps.is_multiple_of(2) {
        return Err(DspError::InvalidSpec(format!(
            "a Hilbert transformer needs an odd number of taps, at least 3, got {ntaps}"
        )));
    }
    let w = window.build(ntaps, param)?;
    let h = ntaps / 2;
    let mut taps = vec![0.0f64; ntaps];
    // Gain at fs/4: |Σ over odd k of 2 t[h+k] sin(πk/2)|.
    let mut at_quarter = 0.0;
    for k in (1..=h).step_by(2) {
        taps[h + k] = w[h + k] / k as f64;
        taps[h - k] = -w[h - k] / k as f64;
        let sign = if (k / 2) % 2 == 0 { 1.0 } else { -1.0 };
        at_quarter += 2.0 * sign * taps[h + k];
    }
    let gain = at_quarter.abs();
    if !(gain.is_finite() && gain > 0.0) {
        return Err(DspError::InvalidSpec(format!(
            "Hilbert transformer with this window ({window:?}, {ntaps} taps) has no gain"
        )));
    }
    Ok(taps.iter().map(|&t| (t / gain) as f32).collect())
}
