//! Arithmetic the feedback loops of this module share: GNU Radio's
//! control-loop gains from a loop bandwidth, and the filter-arm dot
//! product that feeds their error detectors.

use num_complex::Complex32;
use std::ops::Mul;

/// GNU Radio's `control_loop` gains `(alpha, beta)` for loop bandwidth
/// `bw` (rad/sample) and damping factor `damping`: the phase (or timing)
/// gain and the frequency (or rate) gain of a second-order loop.
pub(crate) fn loop_gains(damping: f32, bw: f32) -> (f32, f32) {
    let denom = 1.0 + 2.0 * damping * bw + bw * bw;
    ((4.0 * damping * bw) / denom, (4.0 * bw * bw) / denom)
}

/// `Σ x[k]·taps[k]` over the shorter of the two, summed in order (as
/// GNU Radio's scalar filters do), for real or complex taps.
pub(crate) fn dot<T: Copy>(taps: &[T], x: &[Complex32]) -> Complex32
where
    Complex32: Mul<T, Output = Complex32>,
{
    let mut acc = Complex32::new(0.0, 0.0);
    for (&t, &s) in taps.iter().zip(x) {
        acc += s * t;
    }
    acc
}
