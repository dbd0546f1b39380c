//! Bit timing and carrier phase of the RDS signal: from the biphase
//! matched filter's output at 16 samples per bit to one soft value per
//! bit.
//!
//! - **Timing** (feed-forward, Oerder & Meyr): the matched filter's power
//!   `|y|²` peaks at each bit's centre, so its component at the bit rate,
//!   `C = Σ |y[n]|² e^{−j2πn/16}` (averaged over the last ~32 bits), points
//!   at the centre: `p = −arg(C)·16/2π` samples into each 16-sample
//!   period. It needs no carrier phase, and the biphase code's half-bit
//!   ambiguity cannot fool it (the half-bit points carry half the power
//!   on average). A first-order loop moves the next strobe a tenth of the
//!   way towards `p` each bit, so strobes never jump or slip; the value at
//!   the strobe is linearly interpolated.
//! - **Level**: the strobes are divided by the running mean of their
//!   magnitude, so soft values are about ±1.
//! - **Carrier** (Costas loop, second order): the BPSK phase error
//!   `Im(z)·sign(Re(z))` of each strobe drives a phase and frequency
//!   estimate, with wider gains for the first 64 bits to acquire. The
//!   remaining 180° ambiguity is the differential code's to remove.
//!
//! The output is `Re(z·e^{−jφ})`: its sign is the transmitted
//! (differentially encoded) bit or its inverse, its magnitude the
//! confidence. Everything is sample by sample, so the output does not
//! depend on how the input is split.

use num_complex::{Complex32, Complex64};
use std::f64::consts::TAU;

/// Matched-filter samples per bit.
pub const SAMPLES_PER_BIT: usize = 16;

/// Timing loop gain: the share of the timing error corrected per bit.
const TIMING_GAIN: f64 = 0.1;
/// Bits before the first strobe (the timing average's warm-up).
const TIMING_WARMUP: u64 = 16;
/// The timing average's longest memory, in bits.
const TIMING_MEMORY: f64 = 32.0;
/// The level average's memory, in bits.
const LEVEL_MEMORY: f32 = 64.0;
/// Bits with the acquisition gains of the carrier loop.
const CARRIER_ACQUISITION: u64 = 64;

/// Costas loop gains `(proportional, integral)` for natural frequency
/// `wn` radians per bit and damping 0.707.
fn costas_gains(wn: f64) -> (f64, f64) {
    (2.0 * 0.707 * wn, wn * wn)
}

/// Timing and carrier recovery (see the module docs).
#[derive(Clone, Debug)]
pub struct SymbolSync {
    phasors: [Complex64; SAMPLES_PER_BIT],
    /// Sample counter.
    n: u64,
    /// The current bit period's Oerder–Meyr sum and the running average.
    period_sum: Complex64,
    average: Complex64,
    periods: u64,
    /// The previous sample, for interpolation.
    previous: Complex32,
    /// Absolute sample position of the next strobe, once timing started.
    next_strobe: Option<f64>,
    level: Option<f32>,
    phase: f64,
    frequency: f64,
    bits: u64,
}

impl Default for SymbolSync {
    fn default() -> Self {
        Self::new()
    }
}

impl SymbolSync {
    /// A fresh synchroniser.
    pub fn new() -> Self {
        let mut phasors = [Complex64::default(); SAMPLES_PER_BIT];
        for (i, p) in phasors.iter_mut().enumerate() {
            *p = Complex64::from_polar(1.0, -TAU * i as f64 / SAMPLES_PER_BIT as f64);
        }
        Self {
            phasors,
            n: 0,
            period_sum: Complex64::default(),
            average: Complex64::default(),
            periods: 0,
            previous: Complex32::default(),
            next_strobe: None,
            level: None,
            phase: 0.0,
            frequency: 0.0,
            bits: 0,
        }
    }

    /// The timing estimate: the bit centre's position in the 16-sample
    /// period, in samples.
    fn centre(&self) -> f64 {
        (-self.average.arg() * SAMPLES_PER_BIT as f64 / TAU).rem_euclid(SAMPLES_PER_BIT as f64)
    }

    /// Takes one matched-filter sample; returns a soft bit when a strobe
    /// fell between the previous sample and this one.
    pub fn push(&mut self, y: Complex32) -> Option<f32> {
        let y = if y.re.is_finite() && y.im.is_finite() {
            y
        } else {
            Complex32::default()
        };
        let n = self.n;
        let k = (n % SAMPLES_PER_BIT as u64) as usize;
        self.period_sum += self.phasors[k] * y.norm_sqr() as f64;
        if k == SAMPLES_PER_BIT - 1 {
            self.periods += 1;
            let alpha = (1.0 / self.periods as f64).max(1.0 / TIMING_MEMORY);
            self.average = self.average * (1.0 - alpha) + self.period_sum * alpha;
            self.period_sum = Complex64::default();
            if self.next_strobe.is_none() && self.periods >= TIMING_WARMUP {
                // The first strobe: the next bit centre after this sample.
                let base = (n + 1) as f64;
                let mut s = base - (base % SAMPLES_PER_BIT as f64) + self.centre();
                if s < base {
                    s += SAMPLES_PER_BIT as f64;
                }
                self.next_strobe = Some(s);
            }
        }
        let previous = std::mem::replace(&mut self.previous, y);
        self.n += 1;
        let strobe = self.next_strobe?;
        // The strobe lies in [n−1, n]: interpolate there.
        if strobe > n as f64 || n == 0 {
            return None;
        }
        let frac = (strobe - (n - 1) as f64) as f32;
        let z = previous * (1.0 - frac) + y * frac;
        // Timing: move the next strobe towards the estimated centre.
        let here = strobe.rem_euclid(SAMPLES_PER_BIT as f64);
        let half = SAMPLES_PER_BIT as f64 / 2.0;
        let error = (self.centre() - here + half).rem_euclid(SAMPLES_PER_BIT as f64) - half;
        self.next_strobe = Some(strobe + SAMPLES_PER_BIT as f64 + TIMING_GAIN * error);
        Some(self.carrier(z))
    }

    /// Level and carrier phase of one strobe; the soft bit.
    fn carrier(&mut self, z: Complex32) -> f32 {
        let m = z.norm();
        let level = match self.level {
            None => m.max(f32::MIN_POSITIVE),
            Some(l) => l + (m - l) / LEVEL_MEMORY,
        };
        self.level = Some(level);
        let z = z / level.max(f32::MIN_POSITIVE);
        let (s, c) = self.phase.sin_cos();
        let r = Complex64::new(z.re as f64, z.im as f64) * Complex64::new(c, -s);
        let decision = if r.re >= 0.0 { 1.0 } else { -1.0 };
        let error = (r.im * decision).clamp(-1.0, 1.0);
        let wn = if self.bits < CARRIER_ACQUISITION {
            0.1
        } else {
            0.03
        };
        let (kp, ki) = costas_gains(wn);
        self.frequency += ki * error;
        self.phase = (self.phase + self.frequency + kp * error).rem_euclid(TAU);
        self.bits += 1;
        r.re.clamp(-8.0, 8.0) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rds::pulse::shaping_pulse;

    /// The biphase matched filter's response to one bit centred at time
    /// 0, tabulated every 1/200 bit over ±5 bits: the autocorrelation of
    /// `g(2u + 1/2) − g(2u − 1/2)` (`u` in bits, `g` the shaping pulse).
    fn bit_response_table() -> Vec<f64> {
        let t = |u: f64| shaping_pulse(2.0 * u + 0.5) - shaping_pulse(2.0 * u - 0.5);
        let template: Vec<f64> = (-800..=800).map(|i| t(i as f64 / 100.0)).collect();
        (-1000..=1000)
            .map(|j| {
                let x = j as f64 / 200.0;
                (-400..400)
                    .map(|i| {
                        let u = i as f64 / 100.0;
                        let k = ((u - x) * 100.0).round() as i64 + 800;
                        template[(i + 800) as usize]
                            * template.get(k as usize).copied().unwrap_or(0.0)
                    })
                    .sum::<f64>()
                    / 100.0
            })
            .collect()
    }

    /// Random bits through a perfect channel with a timing offset, a
    /// carrier phase and a small frequency error come out right (up to
    /// the 180° ambiguity).
    #[test]
    fn recovers_bits_timing_and_phase() {
        let table = bit_response_table();
        for (offset, phase, freq_hz) in [(0.0, 0.3, 0.0), (5.3, 2.5, 4.0), (11.7, -1.0, -6.0)] {
            let mut state = 12345u64;
            let bits: Vec<bool> = (0..600)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state & 1 == 1
                })
                .collect();
            let rate = 19_000.0;
            let samples = bits.len() * SAMPLES_PER_BIT;
            let mut sync = SymbolSync::new();
            let bit_response = |x: f64| {
                let j = x * 200.0 + 1000.0;
                let i = j.floor();
                if !(0.0..2000.0).contains(&i) {
                    return 0.0;
                }
                let f = j - i;
                table[i as usize] * (1.0 - f) + table[i as usize + 1] * f
            };
            let mut out = Vec::new();
            for n in 0..samples {
                let t_bits = (n as f64 - offset) / SAMPLES_PER_BIT as f64;
                let centre = t_bits.round() as i64;
                let v: f64 = (centre - 4..=centre + 4)
                    .filter(|&k| k >= 0 && (k as usize) < bits.len())
                    .map(|k| {
                        let a = if bits[k as usize] { 1.0 } else { -1.0 };
                        a * bit_response(t_bits - k as f64)
                    })
                    .sum();
                let rot = phase + TAU * freq_hz * n as f64 / rate;
                let y = Complex64::from_polar(v, rot);
                if let Some(s) = sync.push(Complex32::new(y.re as f32, y.im as f32)) {
                    out.push(s);
                }
            }
            // Align the output with the bits (the first strobe's bit), then
            // compare after the acquisition, allowing the 180° ambiguity.
            let skip = 100;
            let best = (0..40)
                .map(|lag| {
                    let agree = out[skip..out.len() - 5]
                        .iter()
                        .enumerate()
                        .filter(|&(i, &s)| {
                            let b = bits.get(skip + i + lag).copied().unwrap_or(false);
                            (s > 0.0) == b
                        })
                        .count();
                    let total = out.len() - 5 - skip;
                    agree.max(total - agree) as f64 / total as f64
                })
                .fold(0.0, f64::max);
            assert!(best == 1.0, "offset {offset}: best agreement {best}");
            // Soft values near ±1 once settled.
            let mean = out[skip..].iter().map(|s| s.abs()).sum::<f32>() / (out.len() - skip) as f32;
            assert!((mean - 1.0).abs() < 0.15, "mean |soft| {mean}");
        }
    }
}
