//! Channel impairments for tests and `rfgraph gen wlan`: additive white
//! Gaussian noise at an SNR relative to the signal's mean power, a
//! carrier frequency offset, and multipath with an exponential
//! power-delay profile. Deterministic for a seed (a small PCG32 and
//! Box–Muller; no external RNG crate).
//!
//! Not part of IEEE 802.11; the exponential profile is the usual
//! indoor model (e.g. IEEE 802.11-98/156, Chayat).

use num_complex::Complex32;
use std::f64::consts::TAU;

/// PCG32 (O'Neill, XSH RR): small, fast, reproducible.
#[derive(Clone, Debug)]
pub struct Pcg32 {
    state: u64,
    inc: u64,
}

impl Pcg32 {
    pub fn new(seed: u64) -> Self {
        let mut r = Self {
            state: 0,
            inc: (seed << 1) | 1,
        };
        r.next_u32();
        r.state = r.state.wrapping_add(seed ^ 0x853c_49e6_748f_ea9b);
        r.next_u32();
        r
    }

    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(self.inc);
        let xs = (((old >> 18) ^ old) >> 27) as u32;
        xs.rotate_right((old >> 59) as u32)
    }

    /// Uniform in (0, 1].
    pub fn uniform(&mut self) -> f64 {
        (self.next_u32() as f64 + 1.0) / 4_294_967_296.0
    }

    /// A circular complex Gaussian of variance `var` (var / 2 per axis).
    pub fn complex_gaussian(&mut self, var: f32) -> Complex32 {
        let r = (-(var as f64) * self.uniform().ln()).sqrt();
        let t = TAU * self.uniform();
        Complex32::new((r * t.cos()) as f32, (r * t.sin()) as f32)
    }
}

/// Mean power of `x`.
pub fn mean_power(x: &[Complex32]) -> f32 {
    if x.is_empty() {
        return 0.0;
    }
    (x.iter().map(|c| c.norm_sqr() as f64).sum::<f64>() / x.len() as f64) as f32
}

/// Adds noise of power `signal_power / 10^(snr_db/10)`.
pub fn add_awgn(x: &mut [Complex32], snr_db: f32, signal_power: f32, rng: &mut Pcg32) {
    let var = signal_power / 10f32.powf(snr_db / 10.0);
    for s in x {
        *s += rng.complex_gaussian(var);
    }
}

/// Rotates `x` by a carrier offset of `cfo_hz` at `sample_rate`,
/// starting at phase 0.
pub fn apply_cfo(x: &mut [Complex32], cfo_hz: f64, sample_rate: f64) {
    let w = TAU * cfo_hz / sample_rate;
    for (n, s) in x.iter_mut().enumerate() {
        let ph = w * n as f64;
        *s *= Complex32::new(ph.cos() as f32, ph.sin() as f32);
    }
}

/// Mean tap powers ∝ exp(-n / rms_delay_samples), n = 0…taps-1,
/// summing to 1.
pub fn exponential_profile(taps: usize, rms_delay_samples: f32) -> Vec<f32> {
    let p: Vec<f32> = (0..taps.max(1))
        .map(|n| (-(n as f32) / rms_delay_samples.max(1e-3)).exp())
        .collect();
    let sum: f32 = p.iter().sum();
    p.iter().map(|v| v / sum).collect()
}

/// `taps` independent Rayleigh taps, one per sample, drawn with the
/// powers of [`exponential_profile`] (mean total energy 1).
pub fn exponential_taps(taps: usize, rms_delay_samples: f32, rng: &mut Pcg32) -> Vec<Complex32> {
    exponential_profile(taps, rms_delay_samples)
        .into_iter()
        .map(|p| rng.complex_gaussian(p))
        .collect()
}

/// The convolution of `x` with `taps` (length x + taps - 1).
pub fn convolve(x: &[Complex32], taps: &[Complex32]) -> Vec<Complex32> {
    let mut y = vec![Complex32::default(); x.len() + taps.len().saturating_sub(1)];
    for (k, &h) in taps.iter().enumerate() {
        for (o, &s) in y[k..].iter_mut().zip(x) {
            *o += h * s;
        }
    }
    y
}

/// A channel: multipath, then carrier offset, then noise.
#[derive(Clone, Debug)]
pub struct Channel {
    /// SNR in dB against the input's mean power; `None` for no noise.
    pub snr_db: Option<f32>,
    /// Carrier offset in Hz.
    pub cfo_hz: f64,
    pub sample_rate: f64,
    /// Multipath taps; `[1]` for none.
    pub taps: Vec<Complex32>,
    pub seed: u64,
}

impl Channel {
    /// No impairment at 20 MS/s.
    pub fn ideal(seed: u64) -> Self {
        Self {
            snr_db: None,
            cfo_hz: 0.0,
            sample_rate: 20e6,
            taps: vec![Complex32::new(1.0, 0.0)],
            seed,
        }
    }

    /// Applies the channel; the noise power refers to `x`'s mean power
    /// over its nonzero samples' span (the whole input).
    pub fn apply(&self, x: &[Complex32]) -> Vec<Complex32> {
        let mut rng = Pcg32::new(self.seed);
        let p = mean_power(x);
        let mut y = convolve(x, &self.taps);
        if self.cfo_hz != 0.0 {
            apply_cfo(&mut y, self.cfo_hz, self.sample_rate);
        }
        if let Some(snr) = self.snr_db {
            add_awgn(&mut y, snr, p, &mut rng);
        }
        y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_power_matches_snr_and_is_reproducible() {
        let x = vec![Complex32::new(1.0, 0.0); 100_000];
        let mut y = x.clone();
        add_awgn(&mut y, 10.0, 1.0, &mut Pcg32::new(5));
        let noise: Vec<Complex32> = y.iter().zip(&x).map(|(a, b)| a - b).collect();
        let p = mean_power(&noise);
        assert!((p - 0.1).abs() < 0.003, "noise power {p}");
        let m: Complex32 = noise.iter().sum::<Complex32>() / noise.len() as f32;
        assert!(m.norm() < 0.01);
        let mut z = x.clone();
        add_awgn(&mut z, 10.0, 1.0, &mut Pcg32::new(5));
        assert_eq!(y, z);
        let mut w = x.clone();
        add_awgn(&mut w, 10.0, 1.0, &mut Pcg32::new(6));
        assert_ne!(y, w);
    }

    #[test]
    fn cfo_rotates_at_the_asked_rate_and_taps_follow_the_profile() {
        let mut x = vec![Complex32::new(1.0, 0.0); 1000];
        apply_cfo(&mut x, 100e3, 20e6);
        // Phase step 2π · 100 kHz / 20 MHz per sample.
        let step = (x[501] * x[500].conj()).arg();
        assert!((step - (TAU * 100e3 / 20e6) as f32).abs() < 1e-5);
        // Average over many draws: tap power ∝ exp(-n / 2).
        let mut rng = Pcg32::new(1);
        let mut acc = [0f32; 4];
        let draws = 20_000;
        for _ in 0..draws {
            let h = exponential_taps(4, 2.0, &mut rng);
            for (a, c) in acc.iter_mut().zip(&h) {
                *a += c.norm_sqr();
            }
        }
        let energy = acc.iter().sum::<f32>() / draws as f32;
        assert!((energy - 1.0).abs() < 0.03, "mean energy {energy}");
        for n in 1..4 {
            let ratio = acc[n] / acc[n - 1];
            assert!(
                (ratio - (-0.5f32).exp()).abs() < 0.05,
                "tap {n}: ratio {ratio}"
            );
        }
        // Convolution with a delay tap shifts.
        let y = convolve(
            &[Complex32::new(1.0, 0.0), Complex32::new(2.0, 0.0)],
            &[Complex32::default(), Complex32::new(0.5, 0.0)],
        );
        assert_eq!(
            y,
            vec![
                Complex32::default(),
                Complex32::new(0.5, 0.0),
                Complex32::new(1.0, 0.0)
            ]
        );
        // An ideal channel is the identity.
        let s = vec![Complex32::new(0.3, -0.2); 5];
        assert_eq!(Channel::ideal(0).apply(&s), s);
    }
}
