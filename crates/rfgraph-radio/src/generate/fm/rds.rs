//! The RDS baseband of the generator: the encoder's bits, differentially
//! encoded, as biphase half-symbols shaped by the standard's pulse,
//! sampled at the multiplex rate. The 57 kHz carrier is the multiplex's
//! business.

use crate::rds::pulse::{HALF_SYMBOL_RATE, PULSE_SPAN, shaping_pulse};
use crate::rds::{RdsContent, RdsContentError, RdsEncoder};

/// The largest `Σₖ |pulse(τ + k)|` over all `τ`: the peak the shaped
/// half-symbols could ever reach together, by which the waveform is
/// divided so that it stays within ±1 whatever the data.
fn peak_bound() -> f64 {
    let span = PULSE_SPAN as i64;
    (0..256)
        .map(|i| {
            let tau = i as f64 / 256.0;
            (-span - 1..=span + 1)
                .map(|k| shaping_pulse(tau + k as f64).abs())
                .sum::<f64>()
        })
        .fold(0.0, f64::max)
}

/// Table steps per half-symbol.
const TABLE_STEPS: usize = 1024;

/// The pulse tabulated every 1/1024 half-symbol over ±(span + 1): linear
/// interpolation in it is within 10⁻⁵ of the pulse, at a fraction of the
/// cost of evaluating it.
struct PulseTable(Vec<f64>);

impl PulseTable {
    fn new() -> Self {
        let half = (PULSE_SPAN + 1) * TABLE_STEPS;
        PulseTable(
            (0..=2 * half + 1)
                .map(|i| shaping_pulse((i as f64 - half as f64) / TABLE_STEPS as f64))
                .collect(),
        )
    }

    fn at(&self, x: f64) -> f64 {
        let half = ((PULSE_SPAN + 1) * TABLE_STEPS) as f64;
        let pos = x * TABLE_STEPS as f64 + half;
        let i = pos.floor();
        if i < 0.0 || i as usize + 1 >= self.0.len() {
            return 0.0;
        }
        let f = pos - i;
        let i = i as usize;
        self.0[i] * (1.0 - f) + self.0[i + 1] * f
    }
}

/// `n` samples at `rate` (from sample `start` on) of the shaped RDS
/// baseband of `content`, within ±1. Half-symbol `k` is centred at time
/// `(k + 0.5) / 2375` s: the first bit starts at time 0.
pub(super) fn baseband(
    content: &RdsContent,
    rate: f64,
    start: usize,
    n: usize,
) -> Result<Vec<f32>, RdsContentError> {
    let mut encoder = RdsEncoder::new(content)?;
    let end_time = (start + n) as f64 / rate;
    let bits_needed = (end_time * HALF_SYMBOL_RATE / 2.0).ceil() as usize + PULSE_SPAN + 2;
    // Differential coding: e(i) = d(i) xor e(i-1), starting from 0; then
    // biphase: a 1 is (+1, -1), a 0 is (-1, +1).
    let mut previous = false;
    let half_symbols: Vec<f64> = encoder
        .bits(bits_needed)
        .into_iter()
        .flat_map(|d| {
            let e = d ^ previous;
            previous = e;
            let a = if e { 1.0 } else { -1.0 };
            [a, -a]
        })
        .collect();
    let scale = 1.0 / peak_bound();
    let span = PULSE_SPAN as i64;
    let pulse = PulseTable::new();
    Ok((start..start + n)
        .map(|i| {
            // Time in half-symbols, relative to half-symbol 0's centre.
            let x = i as f64 / rate * HALF_SYMBOL_RATE - 0.5;
            let centre = x.round() as i64;
            let sum: f64 = (centre - span..=centre + span)
                .filter(|&k| k >= 0 && (k as usize) < half_symbols.len())
                .map(|k| half_symbols[k as usize] * pulse.at(x - k as f64))
                .sum();
            (sum * scale) as f32
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_matches_the_pulse() {
        let t = PulseTable::new();
        for i in -6900..6900 {
            let x = i as f64 / 997.0;
            assert!((t.at(x) - shaping_pulse(x)).abs() < 1e-5, "{x}");
        }
    }

    /// The waveform stays within ±1, uses a good part of it, and its
    /// half-symbol samples carry the biphase pattern (opposite signs in
    /// each bit).
    #[test]
    fn the_baseband_is_bounded_and_biphase() {
        let rate = 2375.0 * 16.0;
        let w = baseband(&RdsContent::default(), rate, 0, 40_000).unwrap();
        let peak = w.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        assert!(peak <= 1.0 && peak > 0.5, "peak {peak}");
        // Sample at half-symbol centres: 16 samples each, centre at 8.
        for bit in 10..1000 {
            let first = w[bit * 32 + 8];
            let second = w[bit * 32 + 24];
            assert!(first * second < 0.0, "bit {bit}: {first} {second}");
        }
    }
}
