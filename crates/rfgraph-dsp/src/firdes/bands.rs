//! GNU Radio's real window-method designs: low-pass, high-pass, band-pass,
//! band-reject, each with its window-derived tap count and its `_2`
//! attenuation-derived twin. Owns the ideal responses and GNU Radio's gain
//! normalisation (at DC, Nyquist, band centre, DC).

use super::{WinType, check_edge, check_order, compute_ntaps, compute_ntaps_windes};
use crate::DspError;
use core::f64::consts::PI;

/// Which ideal response, with edges as angular frequencies `2π f / fs`.
#[derive(Clone, Copy)]
pub(super) enum Shape {
    Low(f64),
    High(f64),
    Pass(f64, f64),
    Reject(f64, f64),
}

impl Shape {
    /// Tap `n` (from the centre) of the ideal response.
    fn ideal(self, n: f64) -> f64 {
        let lp = |w: f64| {
            if n == 0.0 {
                w / PI
            } else {
                (n * w).sin() / (n * PI)
            }
        };
        let delta = if n == 0.0 { 1.0 } else { 0.0 };
        match self {
            Shape::Low(w) => lp(w),
            Shape::High(w) => delta - lp(w),
            Shape::Pass(w0, w1) => lp(w1) - lp(w0),
            Shape::Reject(w0, w1) => delta + lp(w0) - lp(w1),
        }
    }

    /// The angular frequency whose gain is normalised to the requested one.
    fn reference(self) -> f64 {
        match self {
            Shape::Low(_) | Shape::Reject(..) => 0.0,
            Shape::High(_) => PI,
            Shape::Pass(w0, w1) => (w0 + w1) / 2.0,
        }
    }
}

/// The windowed `ntaps`-tap (odd) design of `shape`, scaled to `gain` at
/// its reference frequency. The band-reject's unit impulse is not windowed
/// (GNU Radio's choice; most windows are 1 at the centre anyway).
pub(super) fn design(
    shape: Shape,
    gain: f64,
    ntaps: usize,
    window: WinType,
    param: f64,
) -> Result<Vec<f32>, DspError> {
    DspError::finite("gain", gain)?;
    let w = window.build(ntaps, param)?;
    let mid = ntaps / 2;
    let taps: Vec<f64> = (0..ntaps)
        .map(|i| {
            let n = i as f64 - mid as f64;
            match shape {
                Shape::Reject(..) if i == mid => 1.0 + (shape.ideal(0.0) - 1.0) * w[i],
                _ => shape.ideal(n) * w[i],
            }
        })
        .collect();
    let wr = shape.reference();
    let at_ref: f64 = taps[mid]
        + (1..=mid)
            .map(|n| 2.0 * taps[mid + n] * (n as f64 * wr).cos())
            .sum::<f64>();
    let size: f64 = taps.iter().map(|t| t.abs()).sum();
    if !(at_ref.is_finite() && at_ref.abs() > 1e-12 * size) {
        return Err(DspError::InvalidSpec(format!(
            "design has no gain at its reference frequency {}",
            wr / (2.0 * PI)
        )));
    }
    let taps: Vec<f32> = taps.iter().map(|&t| (t * gain / at_ref) as f32).collect();
    if taps.iter().any(|t| !t.is_finite()) {
        return Err(DspError::OutOfRange {
            name: "gain",
            value: gain,
            expected: "the taps must fit f32",
        });
    }
    Ok(taps)
}

fn one_edge(sampling_freq: f64, cutoff_freq: f64, transition_width: f64) -> Result<f64, DspError> {
    DspError::positive("sampling_freq", sampling_freq)?;
    check_edge("cutoff_freq", sampling_freq, cutoff_freq)?;
    DspError::positive("transition_width", transition_width)?;
    Ok(2.0 * PI * cutoff_freq / sampling_freq)
}

fn two_edges(
    sampling_freq: f64,
    low: f64,
    high: f64,
    transition_width: f64,
) -> Result<(f64, f64), DspError> {
    DspError::positive("sampling_freq", sampling_freq)?;
    check_edge("low_cutoff_freq", sampling_freq, low)?;
    check_edge("high_cutoff_freq", sampling_freq, high)?;
    check_order(low, high)?;
    DspError::positive("transition_width", transition_width)?;
    let w = |f: f64| 2.0 * PI * f / sampling_freq;
    Ok((w(low), w(high)))
}

/// Low-pass, `gain` at DC, `cutoff_freq` in the middle of the transition
/// band (GNU Radio's `firdes.low_pass`).
///
/// ```
/// use rfgraph_dsp::firdes::{self, WinType};
/// let taps = firdes::low_pass(1.0, 48_000.0, 4_000.0, 1_000.0, WinType::Hamming, 6.76).unwrap();
/// assert_eq!(taps.len(), 115); // ⌊53 · 48000 / 22000⌋, odd
/// ```
///
/// Errors: non-positive rates or width, `cutoff_freq` not in `(0, fs/2]`,
/// invalid `param`, too many taps.
pub fn low_pass(
    gain: f64,
    sampling_freq: f64,
    cutoff_freq: f64,
    transition_width: f64,
    window: WinType,
    param: f64,
) -> Result<Vec<f32>, DspError> {
    let w = one_edge(sampling_freq, cutoff_freq, transition_width)?;
    let ntaps = compute_ntaps(sampling_freq, transition_width, window, param)?;
    design(Shape::Low(w), gain, ntaps, window, param)
}

/// [`low_pass`] with the tap count from `attenuation_db` instead of the
/// window (GNU Radio's `firdes.low_pass_2`).
///
/// Errors: as [`low_pass`], and a non-positive attenuation.
pub fn low_pass_2(
    gain: f64,
    sampling_freq: f64,
    cutoff_freq: f64,
    transition_width: f64,
    attenuation_db: f64,
    window: WinType,
    param: f64,
) -> Result<Vec<f32>, DspError> {
    let w = one_edge(sampling_freq, cutoff_freq, transition_width)?;
    let ntaps = compute_ntaps_windes(sampling_freq, transition_width, attenuation_db)?;
    design(Shape::Low(w), gain, ntaps, window, param)
}

/// High-pass, `gain` at Nyquist (GNU Radio's `firdes.high_pass`).
///
/// Errors: as [`low_pass`].
pub fn high_pass(
    gain: f64,
    sampling_freq: f64,
    cutoff_freq: f64,
    transition_width: f64,
    window: WinType,
    param: f64,
) -> Result<Vec<f32>, DspError> {
    let w = one_edge(sampling_freq, cutoff_freq, transition_width)?;
    let ntaps = compute_ntaps(sampling_freq, transition_width, window, param)?;
    design(Shape::High(w), gain, ntaps, window, param)
}

/// [`high_pass`] with the tap count from `attenuation_db` (GNU Radio's
/// `firdes.high_pass_2`).
///
/// Errors: as [`low_pass_2`].
pub fn high_pass_2(
    gain: f64,
    sampling_freq: f64,
    cutoff_freq: f64,
    transition_width: f64,
    attenuation_db: f64,
    window: WinType,
    param: f64,
) -> Result<Vec<f32>, DspError> {
    let w = one_edge(sampling_freq, cutoff_freq, transition_width)?;
    let ntaps = compute_ntaps_windes(sampling_freq, transition_width, attenuation_db)?;
    design(Shape::High(w), gain, ntaps, window, param)
}

/// Band-pass between `low_cutoff_freq` and `high_cutoff_freq`, `gain` at the
/// band centre (GNU Radio's `firdes.band_pass`).
///
/// Errors: as [`low_pass`] for both edges, and `low >= high`.
pub fn band_pass(
    gain: f64,
    sampling_freq: f64,
    low_cutoff_freq: f64,
    high_cutoff_freq: f64,
    transition_width: f64,
    window: WinType,
    param: f64,
) -> Result<Vec<f32>, DspError> {
    let (w0, w1) = two_edges(
        sampling_freq,
        low_cutoff_freq,
        high_cutoff_freq,
        transition_width,
    )?;
    let ntaps = compute_ntaps(sampling_freq, transition_width, window, param)?;
    design(Shape::Pass(w0, w1), gain, ntaps, window, param)
}

/// [`band_pass`] with the tap count from `attenuation_db` (GNU Radio's
/// `firdes.band_pass_2`).
///
/// Errors: as [`band_pass`], and a non-positive attenuation.
#[allow(clippy::too_many_arguments)] // GNU Radio's signature
pub fn band_pass_2(
    gain: f64,
    sampling_freq: f64,
    low_cutoff_freq: f64,
    high_cutoff_freq: f64,
    transition_width: f64,
    attenuation_db: f64,
    window: WinType,
    param: f64,
) -> Result<Vec<f32>, DspError> {
    let (w0, w1) = two_edges(
        sampling_freq,
        low_cutoff_freq,
        high_cutoff_freq,
        transition_width,
    )?;
    let ntaps = compute_ntaps_windes(sampling_freq, transition_width, attenuation_db)?;
    design(Shape::Pass(w0, w1), gain, ntaps, window, param)
}

/// Band-reject (notch) of `low_cutoff_freq..high_cutoff_freq`, `gain` at DC
/// (GNU Radio's `firdes.band_reject`).
///
/// Errors: as [`band_pass`].
pub fn band_reject(
    gain: f64,
    sampling_freq: f64,
    low_cutoff_freq: f64,
    high_cutoff_freq: f64,
    transition_width: f64,
    window: WinType,
    param: f64,
) -> Result<Vec<f32>, DspError> {
    let (w0, w1) = two_edges(
        sampling_freq,
        low_cutoff_freq,
        high_cutoff_freq,
        transition_width,
    )?;
    let ntaps = compute_ntaps(sampling_freq, transition_width, window, param)?;
    design(Shape::Reject(w0, w1), gain, ntaps, window, param)
}

/// [`band_reject`] with the tap count from `attenuation_db` (GNU Radio's
/// `firdes.band_reject_2`).
///
/// Errors: as [`band_pass_2`].
#[allow(clippy::too_many_arguments)] // GNU Radio's signature
pub fn band_reject_2(
    gain: f64,
    sampling_freq: f64,
    low_cutoff_freq: f64,
    high_cutoff_freq: f64,
    transition_width: f64,
    attenuation_db: f64,
    window: WinType,
    param: f64,
) -> Result<Vec<f32>, DspError> {
    let (w0, w1) = two_edges(
        sampling_freq,
        low_cutoff_freq,
        high_cutoff_freq,
        transition_width,
    )?;
    let ntaps = compute_ntaps_windes(sampling_freq, transition_width, attenuation_db)?;
    design(Shape::Reject(w0, w1), gain, ntaps, window, param)
}
