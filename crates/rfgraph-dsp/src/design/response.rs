//! Frequency response of a real tap vector, measured with the FFT (zero-padded).
//! Owns nothing but this measurement; used by tests and by callers checking a
//! design.

use crate::error::DspError;
use crate::fft::{Fft, FftDirection};
use num_complex::Complex32;

/// `|H(f)|` at `f = k / fft_size` cycles per sample for `k = 0..=fft_size/2`.
///
/// Errors: `fft_size` smaller than the number of taps, or zero.
pub fn magnitude_response(taps: &[f32], fft_size: usize) -> Result<Vec<f32>, DspError> {
    if fft_size == 0 || fft_size < taps.len() {
        return Err(DspError::InvalidSpec(format!(
            "fft_size {fft_size} must be at least the number of taps {}",
            taps.len()
        )));
    }
    let mut fft = Fft::new(fft_size, FftDirection::Forward)?;
    let mut buf = vec![Complex32::new(0.0, 0.0); fft_size];
    for (b, &t) in buf.iter_mut().zip(taps) {
        b.re = t;
    }
    fft.transform(&mut buf)?;
    Ok(buf[..=fft_size / 2].iter().map(|c| c.norm()).collect())
}

/// [`magnitude_response`] in dB (`20 log10 |H|`, floored at −300 dB).
pub fn magnitude_response_db(taps: &[f32], fft_size: usize) -> Result<Vec<f32>, DspError> {
    Ok(magnitude_response(taps, fft_size)?
        .into_iter()
        .map(|m| 20.0 * m.max(1e-15).log10())
        .collect())
}
