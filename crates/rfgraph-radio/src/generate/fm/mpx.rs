//! The stereo multiplex: audio, pilot, L−R on 38 kHz and RDS on 57 kHz,
//! summed at the multiplex rate by the formula in the `fm` module's docs.

use super::{FmGenError, FmStation, PILOT_HZ};
use std::f64::consts::TAU;

/// `n` multiplex samples of `station` at `rate`, from sample `start` on
/// (time `start / rate`), ±1 = the peak deviation.
pub(super) fn build(
    station: &FmStation,
    rate: f64,
    start: usize,
    n: usize,
) -> Result<Vec<f32>, FmGenError> {
    let pre = station.preemphasis;
    let left = station.left.render(pre, rate, start, n)?;
    let right = station.right.render(pre, rate, start, n)?;
    let rds = match &station.rds {
        Some(content) if station.levels.rds > 0.0 => {
            Some(super::rds::baseband(content, rate, start, n)?)
        }
        _ => None,
    };
    let levels = station.levels;
    let step = PILOT_HZ / rate;
    Ok((0..n)
        .map(|i| {
            let theta = TAU * ((start + i) as f64 * step).fract();
            let (l, r) = (left[i] as f64, right[i] as f64);
            let mut m = if station.stereo {
                levels.audio * (0.5 * (l + r) + 0.5 * (l - r) * (2.0 * theta).sin())
                    + levels.pilot * theta.sin()
            } else {
                levels.audio * 0.5 * (l + r)
            };
            if let Some(rds) = &rds {
                m += levels.rds * rds[i] as f64 * (3.0 * theta).sin();
            }
            m as f32
        })
        .collect())
}
