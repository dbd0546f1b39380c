//! Helpers shared by the integration tests: deterministic random data, tones,
//! reference (f64) convolution, power and frequency measurement, and a chunked
//! driver for any `Kernel`.
#![allow(dead_code)]

pub mod reference;

use num_complex::{Complex32, Complex64};
use rfgraph_dsp::{Fft, FftDirection, Kernel, Window};
use std::f64::consts::TAU;

/// Small deterministic generator (xorshift64*), enough for test signals.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in [-1, 1).
    pub fn f32(&mut self) -> f32 {
        ((self.next_u64() >> 40) as f32 / (1u64 << 23) as f32) - 1.0
    }
    pub fn c32(&mut self) -> Complex32 {
        Complex32::new(self.f32(), self.f32())
    }
    pub fn vec_f32(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| self.f32()).collect()
    }
    pub fn vec_c32(&mut self, n: usize) -> Vec<Complex32> {
        (0..n).map(|_| self.c32()).collect()
    }
}

/// `amp · e^{j 2π f n}`.
pub fn tone(n: usize, freq: f64, amp: f64) -> Vec<Complex32> {
    (0..n)
        .map(|k| {
            let p = (freq * k as f64).rem_euclid(1.0) * TAU;
            Complex32::new((amp * p.cos()) as f32, (amp * p.sin()) as f32)
        })
        .collect()
}

/// `amp · cos(2π f n)`.
pub fn real_tone(n: usize, freq: f64, amp: f64) -> Vec<f32> {
    (0..n)
        .map(|k| (amp * ((freq * k as f64).rem_euclid(1.0) * TAU).cos()) as f32)
        .collect()
}

/// Reference convolution `y[n] = Σ h[k] x[n-k]` in f64 (zero history).
pub fn conv_c(x: &[Complex32], h: &[Complex32]) -> Vec<Complex32> {
    (0..x.len())
        .map(|n| {
            let mut acc = Complex64::new(0.0, 0.0);
            for (k, t) in h.iter().enumerate() {
                if k > n {
                    break;
                }
                let xv = x[n - k];
                acc += Complex64::new(xv.re as f64, xv.im as f64)
                    * Complex64::new(t.re as f64, t.im as f64);
            }
            Complex32::new(acc.re as f32, acc.im as f32)
        })
        .collect()
}

/// Reference real convolution.
pub fn conv_f(x: &[f32], h: &[f32]) -> Vec<f32> {
    (0..x.len())
        .map(|n| {
            let mut acc = 0.0f64;
            for (k, t) in h.iter().enumerate() {
                if k > n {
                    break;
                }
                acc += x[n - k] as f64 * *t as f64;
            }
            acc as f32
        })
        .collect()
}

pub fn to_c(x: &[f32]) -> Vec<Complex32> {
    x.iter().map(|&v| Complex32::new(v, 0.0)).collect()
}

pub fn mean_power_c(x: &[Complex32]) -> f64 {
    x.iter().map(|v| v.norm_sqr() as f64).sum::<f64>() / x.len().max(1) as f64
}

pub fn mean_power_f(x: &[f32]) -> f64 {
    x.iter().map(|v| (*v as f64).powi(2)).sum::<f64>() / x.len().max(1) as f64
}

/// Frequency (cycles/sample) of a clean complex tone from its mean phase step.
pub fn tone_freq(x: &[Complex32]) -> f64 {
    let mut acc = Complex64::new(0.0, 0.0);
    for w in x.windows(2) {
        let a = Complex64::new(w[1].re as f64, w[1].im as f64);
        let b = Complex64::new(w[0].re as f64, w[0].im as f64);
        acc += a * b.conj();
    }
    acc.arg() / TAU
}

/// Frequency (cycles/sample, 0..0.5) of the strongest component of a real
/// signal: Hann-windowed FFT, zero-padded, with parabolic peak interpolation.
pub fn peak_freq_real(x: &[f32]) -> f64 {
    let n = 1 << 16;
    let len = x.len().min(n);
    let w = Window::Hann.coefficients(len).unwrap();
    let mut buf = vec![Complex32::new(0.0, 0.0); n];
    for i in 0..len {
        buf[i].re = x[i] * w[i];
    }
    let mut fft = Fft::new(n, FftDirection::Forward).unwrap();
    fft.transform(&mut buf).unwrap();
    let mag: Vec<f64> = buf[..n / 2]
        .iter()
        .map(|c| (c.norm() as f64).max(1e-30).ln())
        .collect();
    let k = (1..n / 2 - 1)
        .max_by(|&a, &b| mag[a].total_cmp(&mag[b]))
        .unwrap();
    let (a, b, c) = (mag[k - 1], mag[k], mag[k + 1]);
    let delta = 0.5 * (a - c) / (a - 2.0 * b + c);
    (k as f64 + delta) / n as f64
}

pub fn max_abs_diff_c(a: &[Complex32], b: &[Complex32]) -> f32 {
    assert_eq!(a.len(), b.len(), "length mismatch");
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).norm())
        .fold(0.0, f32::max)
}

pub fn max_abs_diff_f(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len(), "length mismatch");
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

/// Runs `kernel` over `input` in one call with ample output space.
pub fn one_shot<K: Kernel>(kernel: &mut K, input: &[K::Input], max_out: usize) -> Vec<K::Output>
where
    K::Output: Default + Clone,
{
    let mut out = vec![K::Output::default(); max_out];
    let (c, p) = kernel.process(input, &mut out);
    assert_eq!(c, input.len(), "one-shot call did not consume all input");
    out.truncate(p);
    out
}

/// Runs `kernel` over `input` with input chunks and output capacities taken
/// cyclically from `chunks` / `caps`; when a call makes no progress the
/// output capacity is raised so the stream always advances.
pub fn chunked<K: Kernel>(
    kernel: &mut K,
    input: &[K::Input],
    chunks: &[usize],
    caps: &[usize],
) -> Vec<K::Output>
where
    K::Output: Default + Clone,
{
    let mut result = Vec::new();
    let mut pos = 0;
    let mut i = 0;
    let mut stalls = 0;
    while pos < input.len() {
        let chunk = chunks[i % chunks.len()].max(1);
        let cap = if stalls > 0 {
            64 * stalls
        } else {
            caps[i % caps.len()]
        };
        let offered = &input[pos..(pos + chunk).min(input.len())];
        let mut out = vec![K::Output::default(); cap];
        let (c, p) = kernel.process(offered, &mut out);
        assert!(c <= offered.len() && p <= cap);
        pos += c;
        result.extend_from_slice(&out[..p]);
        if c == 0 && p == 0 {
            stalls += 1;
            assert!(stalls < 100, "kernel made no progress");
        } else {
            stalls = 0;
        }
        i += 1;
    }
    result
}
