//! GNU Radio's complex band designs: a real low-pass (band-pass) or high-pass
//! (band-reject) of half the band's width, shifted to the band's centre, so
//! the band may sit anywhere in `−fs/2..fs/2`, negative frequencies included.
//! Owns the shift.

use super::{WinType, check_order, high_pass, high_pass_2, low_pass, low_pass_2};
use crate::DspError;
use core::f64::consts::PI;
use num_complex::{Complex32, Complex64};

/// Checks `−fs/2 <= low < high <= fs/2` and returns the band's half-width.
fn band(sampling_freq: f64, low: f64, high: f64) -> Result<f64, DspError> {
    DspError::positive("sampling_freq", sampling_freq)?;
    for (name, f) in [("low_cutoff_freq", low), ("high_cutoff_freq", high)] {
        DspError::finite(name, f)?;
        if f.abs() > sampling_freq / 2.0 {
            return Err(DspError::OutOfRange {
                name,
                value: f,
                expected: "must be within ±sampling_freq / 2",
            });
        }
    }
    check_order(low, high)?;
    Ok((high - low) / 2.0)
}

/// `proto[i] · e^{j 2π fc (i − mid) / fs}`, `fc` the band centre.
fn shift(proto: Vec<f32>, sampling_freq: f64, low: f64, high: f64) -> Vec<Complex32> {
    let step = PI * (high + low) / sampling_freq;
    let mid = (proto.len() / 2) as f64;
    proto
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            let v = Complex64::from_polar(t as f64, step * (i as f64 - mid));
            Complex32::new(v.re as f32, v.im as f32)
        })
        .collect()
}

/// Complex band-pass of `low_cutoff_freq..high_cutoff_freq` (either may be
/// negative), `gain` at the band centre (GNU Radio's
/// `firdes.complex_band_pass`).
///
/// Errors: edges outside `±fs/2`, `low >= high`, and as
/// [`low_pass`](super::low_pass) for the half-width prototype.
pub fn complex_band_pass(
    gain: f64,
    sampling_freq: f64,
    low_cutoff_freq: f64,
    high_cutoff_freq: f64,
    transition_width: f64,
    window: WinType,
    param: f64,
) -> Result<Vec<Complex32>, DspError> {
    let half = band(sampling_freq, low_cutoff_freq, high_cutoff_freq)?;
    let proto = low_pass(gain, sampling_freq, half, transition_width, window, param)?;
    Ok(shift(
        proto,
        sampling_freq,
        low_cutoff_freq,
        high_cutoff_freq,
    ))
}

/// [`complex_band_pass`] with the tap count from `attenuation_db` (GNU
/// Radio's `firdes.complex_band_pass_2`).
///
/// Errors: as [`complex_band_pass`], and a non-positive attenuation.
#[allow(clippy::too_many_arguments)] // GNU Radio's signature
pub fn complex_band_pass_2(
    gain: f64,
    sampling_freq: f64,
    low_cutoff_freq: f64,
    high_cutoff_freq: f64,
    transition_width: f64,
    attenuation_db: f64,
    window: WinType,
    param: f64,
) -> Result<Vec<Complex32>, DspError> {
    let half = band(sampling_freq, low_cutoff_freq, high_cutoff_freq)?;
    let proto = low_pass_2(
        gain,
        sampling_freq,
        half,
        transition_width,
        attenuation_db,
        window,
        param,
    )?;
    Ok(shift(
        proto,
        sampling_freq,
        low_cutoff_freq,
        high_cutoff_freq,
    ))
}

/// Complex band-reject of `low_cutoff_freq..high_cutoff_freq` (either may be
/// negative), `gain` away from the band (GNU Radio's
/// `firdes.complex_band_reject`).
///
/// Errors: as [`complex_band_pass`].
pub fn complex_band_reject(
    gain: f64,
    sampling_freq: f64,
    low_cutoff_freq: f64,
    high_cutoff_freq: f64,
    transition_width: f64,
    window: WinType,
    param: f64,
) -> Result<Vec<Complex32>, DspError> {
    let half = band(sampling_freq, low_cutoff_freq, high_cutoff_freq)?;
    let proto = high_pass(gain, sampling_freq, half, transition_width, window, param)?;
    Ok(shift(
        proto,
        sampling_freq,
        low_cutoff_freq,
        high_cutoff_freq,
    ))
}

/// [`complex_band_reject`] with the tap count from `attenuation_db` (GNU
/// Radio's `firdes.complex_band_reject_2`).
///
/// Errors: as [`complex_band_pass_2`].
#[allow(clippy::too_many_arguments)] // GNU Radio's signature
pub fn complex_band_reject_2(
    gain: f64,
    sampling_freq: f64,
    low_cutoff_freq: f64,
    high_cutoff_freq: f64,
    transition_width: f64,
    attenuation_db: f64,
    window: WinType,
    param: f64,
) -> Result<Vec<Complex32>, DspError> {
    let half = band(sampling_freq, low_cutoff_freq, high_cutoff_freq)?;
    let proto = high_pass_2(
        gain,
        sampling_freq,
        half,
        transition_width,
        attenuation_db,
        window,
        param,
    )?;
    Ok(shift(
        proto,
        sampling_freq,
        low_cutoff_freq,
        high_cutoff_freq,
    ))
}
