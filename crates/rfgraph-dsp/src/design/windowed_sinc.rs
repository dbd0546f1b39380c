//! Windowed-sinc FIR design: low-pass, high-pass, band-pass, band-stop. Owns the
//! ideal impulse responses and the gain normalisation (unity gain at DC,
//! Nyquist or band centre).

use crate::error::DspError;
use crate::window::Window;
use core::f64::consts::PI;

/// Ideal low-pass impulse response `2 fc sinc(2 fc (n − M/2))` (fc in cycles per
/// sample), not windowed.
pub(crate) fn ideal_lowpass(num_taps: usize, fc: f64) -> Vec<f64> {
    let mid = (num_taps as f64 - 1.0) / 2.0;
    (0..num_taps)
        .map(|n| {
            let t = n as f64 - mid;
            if t == 0.0 {
                2.0 * fc
            } else {
                (2.0 * PI * fc * t).sin() / (PI * t)
            }
        })
        .collect()
}

/// The zero-phase amplitude `Σ h[n] cos(2π f (n − M/2))` of a symmetric
/// (linear-phase) response: its gain at `f` with its sign. `|H(f)|` loses
/// the sign, and a short band-stop whose band starts near DC has a negative
/// amplitude there.
pub(crate) fn amplitude_at(h: &[f64], f: f64) -> f64 {
    let mid = (h.len() as f64 - 1.0) / 2.0;
    h.iter()
        .enumerate()
        .map(|(n, &v)| v * (2.0 * PI * f * (n as f64 - mid)).cos())
        .sum()
}

/// Scales `h` (symmetric) to a gain of +1 at `f` and converts to `f32`.
pub(crate) fn normalise(h: Vec<f64>, f: f64) -> Result<Vec<f32>, DspError> {
    let g = amplitude_at(&h, f);
    if !(g.is_finite() && g.abs() > 1e-12) {
        return Err(DspError::InvalidSpec(format!(
            "designed filter has no gain at its reference frequency {f}"
        )));
    }
    Ok(h.into_iter().map(|v| (v / g) as f32).collect())
}

/// Validates a cutoff and returns it in cycles per sample.
pub(crate) fn normalised_freq(
    name: &'static str,
    sample_rate: f64,
    f: f64,
) -> Result<f64, DspError> {
    DspError::positive("sample_rate", sample_rate)?;
    DspError::positive(name, f)?;
    let fc = f / sample_rate;
    if fc >= 0.5 {
        return Err(DspError::OutOfRange {
            name,
            value: f,
            expected: "must be below sample_rate / 2",
        });
    }
    Ok(fc)
}

fn check_len(num_taps: usize, odd: bool) -> Result<(), DspError> {
    DspError::tap_count("num_taps", num_taps)?;
    if odd && num_taps.is_multiple_of(2) {
        return Err(DspError::InvalidSpec(format!(
            "this filter needs an odd number of taps, got {num_taps}"
        )));
    }
    Ok(())
}

fn apply(h: &mut [f64], window: &Window) -> Result<(), DspError> {
    let w = window.symmetric_f64(h.len())?;
    h.iter_mut().zip(w).for_each(|(v, w)| *v *= w);
    Ok(())
}

/// Windowed-sinc low-pass with `num_taps` taps and −6 dB point at `cutoff` Hz;
/// unity gain at DC.
///
/// ```
/// use rfgraph_dsp::{design, Window};
/// let taps = design::lowpass(63, 48_000.0, 4_000.0, Window::Hamming).unwrap();
/// assert_eq!(taps.len(), 63);
/// assert!((taps.iter().sum::<f32>() - 1.0).abs() < 1e-5);
/// ```
///
/// Errors: `num_taps == 0`, non-positive rates, `cutoff >= sample_rate / 2`,
/// invalid window.
pub fn lowpass(
    num_taps: usize,
    sample_rate: f64,
    cutoff: f64,
    window: Window,
) -> Result<Vec<f32>, DspError> {
    check_len(num_taps, false)?;
    let fc = normalised_freq("cutoff", sample_rate, cutoff)?;
    let mut h = ideal_lowpass(num_taps, fc);
    apply(&mut h, &window)?;
    normalise(h, 0.0)
}

/// Windowed-sinc high-pass (spectral inversion of a low-pass); unity gain at
/// Nyquist. `num_taps` must be odd.
pub fn highpass(
    num_taps: usize,
    sample_rate: f64,
    cutoff: f64,
    window: Window,
) -> Result<Vec<f32>, DspError> {
    check_len(num_taps, true)?;
    let fc = normalised_freq("cutoff", sample_rate, cutoff)?;
    let mut h: Vec<f64> = ideal_lowpass(num_taps, fc)
        .into_iter()
        .map(|v| -v)
        .collect();
    h[num_taps / 2] += 1.0;
    apply(&mut h, &window)?;
    normalise(h, 0.5)
}

fn check_band(sample_rate: f64, low: f64, high: f64) -> Result<(f64, f64), DspError> {
    let lo = normalised_freq("low", sample_rate, low)?;
    let hi = normalised_freq("high", sample_rate, high)?;
    if lo >= hi {
        return Err(DspError::InvalidSpec(format!(
            "band edges must satisfy low < high, got {low} and {high}"
        )));
    }
    Ok((lo, hi))
}

/// Windowed-sinc band-pass between `low` and `high` Hz; unity gain at the band
/// centre.
pub fn bandpass(
    num_taps: usize,
    sample_rate: f64,
    low: f64,
    high: f64,
    window: Window,
) -> Result<Vec<f32>, DspError> {
    check_len(num_taps, false)?;
    let (lo, hi) = check_band(sample_rate, low, high)?;
    let a = ideal_lowpass(num_taps, hi);
    let b = ideal_lowpass(num_taps, lo);
    let mut h: Vec<f64> = a.iter().zip(&b).map(|(a, b)| a - b).collect();
    apply(&mut h, &window)?;
    normalise(h, (lo + hi) / 2.0)
}

/// Windowed-sinc band-stop rejecting `low..high` Hz; unity gain at DC.
/// `num_taps` must be odd.
pub fn bandstop(
    num_taps: usize,
    sample_rate: f64,
    low: f64,
    high: f64,
    window: Window,
) -> Result<Vec<f32>, DspError> {
    check_len(num_taps, true)?;
    let (lo, hi) = check_band(sample_rate, low, high)?;
    let a = ideal_lowpass(num_taps, hi);
    let b = ideal_lowpass(num_taps, lo);
    let mut h: Vec<f64> = a.iter().zip(&b).map(|(a, b)| b - a).collect();
    h[num_taps / 2] += 1.0;
    apply(&mut h, &window)?;
    normalise(h, 0.0)
}
