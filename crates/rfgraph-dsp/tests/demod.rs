//! Demodulators and small helpers: FM round trip (SNR ≥ 40 dB, directly and
//! through a channel filter), AM envelope, DC blocker, AGC, moving average,
//! complex magnitude and conjugate multiply.

mod common;

use common::*;
use num_complex::Complex32;
use rfgraph_dsp::complex_ops::{self, ComplexToMag, ComplexToMagSquared, MultiplyConjugate};
use rfgraph_dsp::{
    Agc, AmDemod, Ccf, DcBlocker, FreqXlatingFir, Kernel, MovingAverage, QuadratureDemod, design,
};
use std::f64::consts::TAU;

/// FM-modulates `m` (|m| ≤ 1) with peak deviation `dev` Hz at `fs`, on a
/// carrier at `fc` Hz.
fn fm_modulate(m: &[f64], fs: f64, dev: f64, fc: f64) -> Vec<Complex32> {
    let mut phase = 0.0f64;
    m.iter()
        .enumerate()
        .map(|(n, &v)| {
            phase = (phase + TAU * dev / fs * v).rem_euclid(TAU);
            let p = phase + TAU * (fc / fs * n as f64).rem_euclid(1.0);
            Complex32::new(p.cos() as f32, p.sin() as f32)
        })
        .collect()
}

fn snr_db(signal: &[f64], got: &[f32]) -> f64 {
    let s: f64 = signal.iter().map(|v| v * v).sum();
    let e: f64 = signal
        .iter()
        .zip(got)
        .map(|(a, &b)| (a - b as f64).powi(2))
        .sum();
    10.0 * (s / e).log10()
}

#[test]
fn fm_round_trip_snr_at_least_40_db() {
    let fs = 240_000.0;
    let dev = 5_000.0;
    let fm = 1_000.0;
    let n = 24_000;
    let m: Vec<f64> = (0..n).map(|k| (TAU * fm / fs * k as f64).sin()).collect();
    let x = fm_modulate(&m, fs, dev, 0.0);
    let mut demod = QuadratureDemod::for_fm(fs, dev).unwrap();
    let y = one_shot(&mut demod, &x, n);
    // Skip sample 0 (its "previous" sample is the zero history).
    let snr = snr_db(&m[1..], &y[1..]);
    println!("FM round trip SNR {snr:.1} dB");
    assert!(snr >= 40.0);
}

#[test]
fn fm_through_channel_filter_snr_at_least_40_db() {
    // Carrier at +50 kHz, brought to DC and decimated by 2 with a
    // frequency-translating FIR, then demodulated at 120 kHz.
    let fs = 240_000.0;
    let dev = 5_000.0;
    let fm = 1_000.0;
    let fc = 50_000.0;
    let n = 48_000;
    let m: Vec<f64> = (0..n).map(|k| (TAU * fm / fs * k as f64).sin()).collect();
    let x = fm_modulate(&m, fs, dev, fc);
    let taps = design::kaiser_lowpass(fs, 20_000.0, 10_000.0, 70.0).unwrap();
    let d = (taps.len() - 1) / 2; // group delay, input samples
    let dec = 2;
    let mut chan = FreqXlatingFir::<Ccf>::new(&taps, dec, fc / fs).unwrap();
    let bb = one_shot(&mut chan, &x, n / dec + 1);
    let mut demod = QuadratureDemod::for_fm(fs / dec as f64, dev).unwrap();
    let y = one_shot(&mut demod, &bb, bb.len());
    // Output k covers input instants (k−1)·2 − d .. k·2 − d: the mean of m over
    // that span, i.e. m at k·2 − d − 0.5.
    let start = taps.len() / dec + 4;
    let expect: Vec<f64> = (start..y.len())
        .map(|k| (TAU * fm / fs * ((k * dec) as f64 - d as f64 - 0.5)).sin())
        .collect();
    let snr = snr_db(&expect, &y[start..]);
    println!("FM through channel filter SNR {snr:.1} dB");
    assert!(snr >= 40.0);
}

#[test]
fn quadrature_demod_gain_and_errors() {
    let x = tone(100, 0.1, 1.0);
    let mut q = QuadratureDemod::new(2.0).unwrap();
    assert_eq!(q.gain(), 2.0);
    let y = one_shot(&mut q, &x, 100);
    for v in &y[1..] {
        assert!((v - 2.0 * (TAU * 0.1) as f32).abs() < 1e-5);
    }
    assert!(QuadratureDemod::new(f32::NAN).is_err());
    assert!(QuadratureDemod::for_fm(0.0, 1.0).is_err());
    assert!(QuadratureDemod::for_fm(1.0, -1.0).is_err());
}

#[test]
fn am_envelope() {
    let n = 20_000;
    let x: Vec<Complex32> = tone(n, 0.2, 1.0)
        .iter()
        .enumerate()
        .map(|(k, c)| c * (1.0 + 0.5 * (TAU * 0.002 * k as f64).cos() as f32))
        .collect();
    let mut am = AmDemod::new();
    let y = one_shot(&mut am, &x, n);
    for (k, v) in y.iter().enumerate() {
        let e = 1.0 + 0.5 * (TAU * 0.002 * k as f64).cos();
        assert!((*v as f64 - e).abs() < 1e-5);
    }
    let mut am = AmDemod::with_dc_removal(0.999).unwrap();
    let y = one_shot(&mut am, &x, n);
    let tail = &y[10_000..];
    let mean: f32 = tail.iter().sum::<f32>() / tail.len() as f32;
    assert!(mean.abs() < 0.02, "DC left: {mean}");
    let p = mean_power_f(tail);
    assert!((p - 0.125).abs() < 0.01, "audio power {p}");
    Kernel::reset(&mut am);
    assert!(AmDemod::with_dc_removal(1.5).is_err());
}

#[test]
fn dc_blocker_removes_dc_keeps_tone() {
    let n = 20_000;
    let x: Vec<f32> = real_tone(n, 0.05, 1.0).iter().map(|v| v + 3.0).collect();
    let mut dc = DcBlocker::<f32>::new(0.999).unwrap();
    let y = one_shot(&mut dc, &x, n);
    let tail = &y[15_000..];
    let mean: f32 = tail.iter().sum::<f32>() / tail.len() as f32;
    assert!(mean.abs() < 1e-2, "mean {mean}");
    assert!((mean_power_f(tail) - 0.5).abs() < 0.01);
    let mut dcc = DcBlocker::<Complex32>::new(0.99).unwrap();
    let xc = vec![Complex32::new(1.0, -2.0); 3000];
    let yc = one_shot(&mut dcc, &xc, 3000);
    assert!(yc[2999].norm() < 1e-3);
    assert!(DcBlocker::<f32>::new(1.0).is_err());
    assert!(DcBlocker::<f32>::new(0.0).is_err());
    assert!(DcBlocker::<f32>::new(f32::NAN).is_err());
}

#[test]
fn agc_converges_to_reference() {
    // Loop time constant ≈ 1 / (rate · input level) = 1000 samples.
    let x = tone(20_000, 0.03, 0.1);
    let mut agc = Agc::<Complex32>::new(1e-2, 1.0, 1.0, 1e4).unwrap();
    let y = one_shot(&mut agc, &x, x.len());
    let tail = &y[15_000..];
    let p = mean_power_c(tail).sqrt();
    assert!((p - 1.0).abs() < 0.01, "output level {p}");
    assert!((agc.gain() - 10.0).abs() < 0.1);
    let mut agr = Agc::<f32>::new(1e-3, 0.5, 1.0, 10.0).unwrap();
    let big = vec![100.0f32; 5000];
    let y = one_shot(&mut agr, &big, big.len());
    assert!((y[4999] - 0.5).abs() < 0.01);
    // NaN input must not poison the gain.
    let mut out = [0.0f32; 3];
    agr.process(&[f32::NAN, 1.0, 1.0], &mut out);
    assert!(agr.gain().is_finite());
    Kernel::reset(&mut agr);
    assert_eq!(agr.gain(), 1.0);
    assert!(Agc::<f32>::new(0.0, 1.0, 1.0, 10.0).is_err());
    assert!(Agc::<f32>::new(0.1, 1.0, 20.0, 10.0).is_err());
}

#[test]
fn moving_average_matches_direct_sum() {
    let mut rng = Rng::new(31);
    let x = rng.vec_f32(20_000);
    for len in [1usize, 3, 16, 100] {
        let mut ma = MovingAverage::<f32>::average(len).unwrap();
        assert_eq!(ma.length(), len);
        let y = one_shot(&mut ma, &x, x.len());
        for n in (0..x.len()).step_by(97) {
            let s: f64 = (0..len).filter(|&k| k <= n).map(|k| x[n - k] as f64).sum();
            assert!(
                (y[n] as f64 - s / len as f64).abs() < 1e-4,
                "len {len} n {n}"
            );
        }
    }
    let xc = rng.vec_c32(500);
    let mut ma = MovingAverage::<Complex32>::new(4, 1.0).unwrap();
    let y = one_shot(&mut ma, &xc, 500);
    let s = xc[496] + xc[497] + xc[498] + xc[499];
    assert!((y[499] - s).norm() < 1e-5);
    assert!(MovingAverage::<f32>::new(0, 1.0).is_err());
    assert!(MovingAverage::<f32>::new(4, f32::NAN).is_err());
}

#[test]
fn complex_magnitude_and_conjugate_multiply() {
    let mut rng = Rng::new(32);
    let a = rng.vec_c32(37);
    let b = rng.vec_c32(37);
    let mut m = vec![0.0f32; 37];
    assert_eq!(complex_ops::magnitude(&a, &mut m), 37);
    let mut m2 = vec![0.0f32; 37];
    assert_eq!(complex_ops::magnitude_squared(&a, &mut m2), 37);
    let mut c = vec![Complex32::new(0.0, 0.0); 37];
    assert_eq!(complex_ops::multiply_conjugate(&a, &b, &mut c), 37);
    for k in 0..37 {
        assert!((m[k] - a[k].norm()).abs() < 1e-6);
        assert!((m2[k] - a[k].norm_sqr()).abs() < 1e-6);
        assert!((c[k] - a[k] * b[k].conj()).norm() < 1e-6);
    }
    let mut k1 = ComplexToMag::new();
    assert_eq!(one_shot(&mut k1, &a, 37), m);
    let mut k2 = ComplexToMagSquared::new();
    assert_eq!(one_shot(&mut k2, &a, 37), m2);
    let mut mc = MultiplyConjugate::new();
    let mut c2 = vec![Complex32::new(0.0, 0.0); 10];
    assert_eq!(mc.process(&a, &b, &mut c2), (10, 10));
    assert_eq!(&c2[..], &c[..10]);
}

/// GNU Radio's `set_length_and_scale`: the window keeps its most recent
/// samples (a longer one starts with zeros before them), the scale applies
/// from the next sample on.
#[test]
fn a_moving_average_changes_length_and_scale_keeping_its_samples() {
    let x: Vec<f32> = (1..=20).map(|v| v as f32).collect();
    let mut ma = MovingAverage::<f32>::new(4, 1.0).unwrap();
    let mut out = [0.0f32; 20];
    ma.process(&x[..10], &mut out[..10]);
    ma.set_length(2).unwrap();
    ma.process(&x[10..15], &mut out[10..15]);
    ma.set_length(5).unwrap();
    ma.set_scale(0.5).unwrap();
    ma.process(&x[15..], &mut out[15..]);
    let sum = |n: usize, len: usize, from: usize| -> f32 {
        (0..len)
            .filter(|&k| k <= n && n - k >= from)
            .map(|k| x[n - k])
            .sum()
    };
    for (n, &y) in out.iter().enumerate() {
        let want = match n {
            0..10 => sum(n, 4, 0),
            10..15 => sum(n, 2, 0),
            // Grown at 15: it kept x[13], x[14]; what came before is zero.
            _ => 0.5 * sum(n, 5, 13),
        };
        assert_eq!(y, want, "n {n}");
    }
    assert_eq!((ma.length(), ma.scale()), (5, 0.5));
    assert!(ma.set_length(0).is_err());
    assert!(ma.set_length((1 << 24) + 1).is_err());
    assert!(ma.set_scale(f32::INFINITY).is_err());
    assert_eq!(
        (ma.length(), ma.scale()),
        (5, 0.5),
        "refused changes change nothing"
    );
}
