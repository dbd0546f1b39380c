//! Hilbert-transformer design. Owns the ideal 90° phase-shifter impulse response
//! `2 / (π k)` for odd `k` (zero for even `k`), windowed.

use crate::error::DspError;
use crate::window::Window;
use core::f64::consts::PI;

/// Type-III FIR Hilbert transformer of odd length `num_taps`: filtering
/// `cos(ωn)` gives `sin(ω(n − D))` with `D = (num_taps − 1) / 2`, for `ω` away
/// from DC and Nyquist.
///
/// Errors: even or zero `num_taps`, invalid window.
pub fn hilbert(num_taps: usize, window: Window) -> Result<Vec<f32>, DspError> {
    DspError::tap_count("num_taps", num_taps)?;
    if num_taps.is_multiple_of(2) {
        return Err(DspError::InvalidSpec(format!(
            "a Hilbert transformer needs an odd number of taps, got {num_taps}"
        )));
    }
    let w = window.symmetric_f64(num_taps)?;
    let mid = (num_taps / 2) as i64;
    Ok((0..num_taps)
        .map(|n| {
            let k = n as i64 - mid;
            if k % 2 == 0 {
                0.0
            } else {
                (2.0 / (PI * k as f64) * w[n]) as f32
            }
        })
        .collect())
}
