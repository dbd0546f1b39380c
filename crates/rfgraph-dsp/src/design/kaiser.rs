//! Kaiser-window FIR design from a specification (stop-band attenuation in dB and
//! transition width). Owns Kaiser's empirical formulas for `beta` and the
//! filter length.

use super::windowed_sinc;
use crate::error::DspError;
use crate::window::Window;

/// Kaiser's `beta` for a stop-band attenuation of `atten_db` dB:
/// `0.1102 (A − 8.7)` above 50 dB, `0.5842 (A − 21)^0.4 + 0.07886 (A − 21)`
/// between 21 and 50 dB, `0` below.
pub fn kaiser_beta(atten_db: f64) -> f64 {
    if atten_db > 50.0 {
        0.1102 * (atten_db - 8.7)
    } else if atten_db >= 21.0 {
        0.5842 * (atten_db - 21.0).powf(0.4) + 0.07886 * (atten_db - 21.0)
    } else {
        0.0
    }
}

/// Number of taps (rounded up to odd) and `beta` for a Kaiser-window filter with
/// `atten_db` dB of stop-band attenuation and a transition band of
/// `transition_width` cycles per sample: `N = (A − 7.95) / (2.285 · 2π Δf) + 1`.
///
/// Errors: attenuation not in `(0, 300]` dB, transition width not in `(0, 0.5)`.
pub fn kaiser_order(atten_db: f64, transition_width: f64) -> Result<(usize, f64), DspError> {
    DspError::positive("atten_db", atten_db)?;
    DspError::positive("transition_width", transition_width)?;
    if atten_db > 300.0 {
        return Err(DspError::OutOfRange {
            name: "atten_db",
            value: atten_db,
            expected: "must be <= 300 dB",
        });
    }
    if transition_width >= 0.5 {
        return Err(DspError::OutOfRange {
            name: "transition_width",
            value: transition_width,
            expected: "must be below 0.5 cycles/sample",
        });
    }
    let n =
        ((atten_db - 7.95) / (2.285 * 2.0 * core::f64::consts::PI * transition_width)).ceil() + 1.0;
    let n = (n.max(3.0) as usize) | 1;
    if n > super::MAX_TAPS {
        return Err(DspError::InvalidSpec(format!(
            "Kaiser design needs {n} taps, too many"
        )));
    }
    Ok((n, kaiser_beta(atten_db)))
}

/// Kaiser low-pass: pass band up to `cutoff − transition/2`, stop band from
/// `cutoff + transition/2` with at least about `atten_db` dB of attenuation;
/// unity DC gain.
///
/// ```
/// use rfgraph_dsp::design;
/// let taps = design::kaiser_lowpass(1.0, 0.1, 0.05, 60.0).unwrap();
/// assert!(taps.len() % 2 == 1 && taps.len() > 50);
/// ```
///
/// Errors: as [`kaiser_order`], plus cutoff edges outside `(0, sample_rate/2)`.
pub fn kaiser_lowpass(
    sample_rate: f64,
    cutoff: f64,
    transition: f64,
    atten_db: f64,
) -> Result<Vec<f32>, DspError> {
    let (n, beta) = order_for(sample_rate, transition, atten_db)?;
    edges(sample_rate, cutoff, transition)?;
    windowed_sinc::lowpass(n, sample_rate, cutoff, Window::Kaiser { beta })
}

/// Kaiser high-pass: stop band below `cutoff − transition/2`, pass band above
/// `cutoff + transition/2`; unity gain at Nyquist.
pub fn kaiser_highpass(
    sample_rate: f64,
    cutoff: f64,
    transition: f64,
    atten_db: f64,
) -> Result<Vec<f32>, DspError> {
    let (n, beta) = order_for(sample_rate, transition, atten_db)?;
    edges(sample_rate, cutoff, transition)?;
    windowed_sinc::highpass(n, sample_rate, cutoff, Window::Kaiser { beta })
}

/// Kaiser band-pass between `low` and `high` (each edge the middle of a
/// transition band of width `transition`); unity gain at the band centre.
pub fn kaiser_bandpass(
    sample_rate: f64,
    low: f64,
    high: f64,
    transition: f64,
    atten_db: f64,
) -> Result<Vec<f32>, DspError> {
    let (n, beta) = order_for(sample_rate, transition, atten_db)?;
    edges(sample_rate, low, transition)?;
    edges(sample_rate, high, transition)?;
    windowed_sinc::bandpass(n, sample_rate, low, high, Window::Kaiser { beta })
}

fn order_for(sample_rate: f64, transition: f64, atten_db: f64) -> Result<(usize, f64), DspError> {
    DspError::positive("sample_rate", sample_rate)?;
    DspError::positive("transition", transition)?;
    kaiser_order(atten_db, transition / sample_rate)
}

fn edges(sample_rate: f64, f: f64, transition: f64) -> Result<(), DspError> {
    let lo = f - transition / 2.0;
    let hi = f + transition / 2.0;
    if !(lo > 0.0 && hi < sample_rate / 2.0) {
        return Err(DspError::InvalidSpec(format!(
            "transition band {lo}..{hi} Hz must lie inside 0..{} Hz",
            sample_rate / 2.0
        )));
    }
    Ok(())
}
