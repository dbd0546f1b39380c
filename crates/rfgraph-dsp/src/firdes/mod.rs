//! GNU Radio's `filter.firdes`, for flowgraphs ported from GNU Radio (the GRC
//! importer maps GNU Radio's filter-design calls here): the same functions,
//! argument order, units (Hz with a sample rate) and tap-count rules, so a
//! design gives the taps GNU Radio 3.10 gives (to `f32` rounding; checked
//! against GNU Radio's own output in `tests/firdes.rs`).
//!
//! Owns the GNU Radio conventions only; rfgraph's own designers are in
//! [`crate::design`]. The differences from GNU Radio are on purpose:
//! everything is computed in `f64`, and specifications GNU Radio accepts but
//! turns into NaN or meaningless taps are errors ([`DspError`]): a cutoff
//! above `sampling_freq / 2` (GNU Radio rejects those too), `low >= high`, non-positive widths, a
//! gain or parameter that is not finite, more than 2^24 taps. And
//! [`complex_band_reject_2`] returns its design's taps only, where GNU Radio
//! 3.10 appends zeros up to the window rule's count (same response).
//!
//! Tap counts: the window designs ([`low_pass`], [`high_pass`],
//! [`band_pass`], [`band_reject`], the complex ones) take
//! [`compute_ntaps`]: `⌊A · fs / (22 · transition_width)⌋` with `A` the
//! window's [`max_attenuation`](WinType::max_attenuation), made odd; the
//! `_2` variants take `A` from their `attenuation_db` argument instead
//! ([`compute_ntaps_windes`]).

mod bands;
mod complex_bands;
mod hilbert;
mod pulses;
mod window;

pub use bands::{
    band_pass, band_pass_2, band_reject, band_reject_2, high_pass, high_pass_2, low_pass,
    low_pass_2,
};
pub use complex_bands::{
    complex_band_pass, complex_band_pass_2, complex_band_reject, complex_band_reject_2,
};
pub use hilbert::hilbert;
pub use pulses::{gaussian, root_raised_cosine};
pub use window::{WinType, window};

use crate::DspError;

/// GNU Radio's default window parameter (the Kaiser β of its signatures).
pub const DEFAULT_PARAM: f64 = 6.76;

/// The tap count of a window design: `⌊A · sampling_freq / (22 ·
/// transition_width)⌋` made odd, `A` the window's
/// [`max_attenuation`](WinType::max_attenuation) (fred harris' rule of
/// thumb, as GNU Radio applies it).
///
/// Errors: non-positive rates or width, invalid `param`, more than 2^24 taps.
pub fn compute_ntaps(
    sampling_freq: f64,
    transition_width: f64,
    window: WinType,
    param: f64,
) -> Result<usize, DspError> {
    let a = window.max_attenuation(param)?;
    ntaps_for(a, sampling_freq, transition_width)
}

/// The tap count of a `_2` design: as [`compute_ntaps`] with the
/// attenuation given in dB.
///
/// Errors: non-positive rates, width or attenuation, more than 2^24 taps.
pub fn compute_ntaps_windes(
    sampling_freq: f64,
    transition_width: f64,
    attenuation_db: f64,
) -> Result<usize, DspError> {
    DspError::positive("attenuation_db", attenuation_db)?;
    ntaps_for(attenuation_db, sampling_freq, transition_width)
}

fn ntaps_for(atten: f64, sampling_freq: f64, transition_width: f64) -> Result<usize, DspError> {
    DspError::positive("sampling_freq", sampling_freq)?;
    DspError::positive("transition_width", transition_width)?;
    let n = atten * sampling_freq / (22.0 * transition_width);
    if n.is_nan() || n >= crate::design::MAX_TAPS as f64 {
        return Err(DspError::InvalidSpec(format!(
            "design needs {n} taps, more than 2^24"
        )));
    }
    // Truncated like GNU Radio's int conversion, then made odd.
    Ok(n as usize | 1)
}

/// Checks a band edge `0 < f <= sampling_freq / 2` (GNU Radio's
/// `0 < fa <= sampling_freq / 2`: the edge may sit at Nyquist itself).
fn check_edge(name: &'static str, sampling_freq: f64, f: f64) -> Result<(), DspError> {
    DspError::positive(name, f)?;
    if f > sampling_freq / 2.0 {
        return Err(DspError::OutOfRange {
            name,
            value: f,
            expected: "must be at most sampling_freq / 2",
        });
    }
    Ok(())
}

/// Checks `low < high`.
fn check_order(low: f64, high: f64) -> Result<(), DspError> {
    if low < high {
        Ok(())
    } else {
        Err(DspError::InvalidSpec(format!(
            "band edges must satisfy low < high, got {low} and {high}"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cutoff_at_nyquist_is_accepted_and_above_it_rejected() {
        // GNU Radio 3.10: firdes.low_pass(1, 1000, 500, 100) is 25 taps,
        // a unit impulse in the middle (all-pass), up to rounding.
        let taps = low_pass(1.0, 1000.0, 500.0, 100.0, WinType::Hamming, 6.76).unwrap();
        assert_eq!(taps.len(), 25);
        for (i, t) in taps.iter().enumerate() {
            let want = if i == 12 { 1.0 } else { 0.0 };
            assert!((t - want).abs() < 1e-6, "tap {i}: {t}");
        }
        assert!(high_pass(1.0, 1000.0, 500.0, 100.0, WinType::Hamming, 6.76).is_ok());
        assert!(band_pass(1.0, 1000.0, 100.0, 500.0, 100.0, WinType::Hamming, 6.76).is_ok());
        assert!(low_pass(1.0, 1000.0, 500.1, 100.0, WinType::Hamming, 6.76).is_err());
    }
}
