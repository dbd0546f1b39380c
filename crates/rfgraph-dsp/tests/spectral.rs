//! FFT wrapper and spectra: agreement with a direct DFT, inverse round trip,
//! multi-frame processing, window handling, and spectrum scaling.

mod common;

use common::*;
use num_complex::{Complex32, Complex64};
use rfgraph_dsp::{Fft, FftDirection, Kernel, Spectrum, SpectrumMode, Window};
use std::f64::consts::TAU;

fn dft(x: &[Complex32], sign: f64) -> Vec<Complex32> {
    let n = x.len();
    (0..n)
        .map(|k| {
            let mut acc = Complex64::new(0.0, 0.0);
            for (i, v) in x.iter().enumerate() {
                let a = sign * TAU * (k * i % n) as f64 / n as f64;
                acc += Complex64::new(v.re as f64, v.im as f64) * Complex64::from_polar(1.0, a);
            }
            Complex32::new(acc.re as f32, acc.im as f32)
        })
        .collect()
}

#[test]
fn fft_matches_direct_dft() {
    let mut rng = Rng::new(41);
    for n in [1usize, 2, 7, 16, 60, 128, 243] {
        let x = rng.vec_c32(n);
        let mut f = Fft::new(n, FftDirection::Forward).unwrap();
        let mut buf = x.clone();
        f.transform(&mut buf).unwrap();
        let tol = 1e-5 * n as f32;
        assert!(max_abs_diff_c(&buf, &dft(&x, -1.0)) < tol, "n {n}");
        let mut inv = Fft::new(n, FftDirection::Inverse).unwrap();
        let mut buf = x.clone();
        inv.transform(&mut buf).unwrap();
        assert!(max_abs_diff_c(&buf, &dft(&x, 1.0)) < tol, "inverse n {n}");
    }
}

#[test]
fn inverse_with_scale_round_trips() {
    let mut rng = Rng::new(42);
    let x = rng.vec_c32(256);
    let mut f = Fft::new(256, FftDirection::Forward).unwrap();
    let mut i = Fft::new(256, FftDirection::Inverse)
        .unwrap()
        .with_scale(1.0 / 256.0)
        .unwrap();
    let mut y = vec![Complex32::new(0.0, 0.0); 256];
    assert_eq!(f.process(&x, &mut y), (256, 256));
    let mut z = vec![Complex32::new(0.0, 0.0); 256];
    assert_eq!(i.process(&y, &mut z), (256, 256));
    assert!(max_abs_diff_c(&x, &z) < 1e-5);
    assert_eq!(i.direction(), FftDirection::Inverse);
    assert!(
        Fft::new(8, FftDirection::Forward)
            .unwrap()
            .with_scale(f32::NAN)
            .is_err()
    );
}

#[test]
fn process_handles_whole_frames_only() {
    let mut rng = Rng::new(43);
    let x = rng.vec_c32(100);
    let mut f = Fft::new(32, FftDirection::Forward).unwrap();
    assert_eq!(f.size(), 32);
    let mut out = vec![Complex32::new(0.0, 0.0); 80];
    // 3 frames of input, 2 frames of output space.
    assert_eq!(f.process(&x, &mut out), (64, 64));
    for fr in 0..2 {
        let expect = dft(&x[fr * 32..(fr + 1) * 32], -1.0);
        assert!(max_abs_diff_c(&out[fr * 32..(fr + 1) * 32], &expect) < 1e-4);
    }
    assert_eq!(f.process(&x[..31], &mut out), (0, 0));
    Kernel::reset(&mut f);
    let mut bad = vec![Complex32::new(0.0, 0.0); 33];
    assert!(f.transform(&mut bad).is_err());
    assert!(f.transform(&mut []).is_err());
    assert!(Fft::new(0, FftDirection::Forward).is_err());
}

#[test]
fn windowed_fft_applies_periodic_window() {
    let x = vec![Complex32::new(1.0, 0.0); 64];
    let mut f = Fft::new(64, FftDirection::Forward)
        .unwrap()
        .with_window(Window::Hann)
        .unwrap();
    let w = f.window().unwrap().to_vec();
    assert_eq!(w, Window::Hann.periodic(64).unwrap());
    let mut buf = x.clone();
    f.transform(&mut buf).unwrap();
    // Periodic Hann of all-ones: DC = N/2, bins ±1 = −N/4, others 0.
    assert!((buf[0].re - 32.0).abs() < 1e-4);
    assert!((buf[1].re + 16.0).abs() < 1e-4 && (buf[63].re + 16.0).abs() < 1e-4);
    assert!(buf[2..63].iter().all(|c| c.norm() < 1e-4));
}

#[test]
fn spectrum_reads_tone_level() {
    let n = 256;
    let k = 20;
    let x = tone(2 * n, k as f64 / n as f64, 0.5);
    for w in [Window::Rectangular, Window::Hann, Window::BlackmanHarris] {
        let mut s = Spectrum::new(n, w, SpectrumMode::Magnitude).unwrap();
        assert_eq!(s.size(), n);
        assert_eq!(s.mode(), SpectrumMode::Magnitude);
        let mut out = vec![0.0f32; 2 * n];
        assert_eq!(s.process(&x, &mut out), (2 * n, 2 * n));
        assert!((out[k] - 0.5).abs() < 1e-4, "{w:?}: {}", out[k]);
        assert!((out[n + k] - 0.5).abs() < 1e-4);

        let mut p = Spectrum::new(n, w, SpectrumMode::PowerDb)
            .unwrap()
            .with_shift(true);
        let mut out = vec![0.0f32; n];
        assert_eq!(p.process(&x, &mut out), (n, n));
        let expect = 20.0 * 0.5f32.log10();
        assert!(
            (out[n / 2 + k] - expect).abs() < 1e-3,
            "{w:?}: {}",
            out[n / 2 + k]
        );
        assert!(out[n / 2 - k] < expect - 60.0);
    }
}

#[test]
fn spectrum_shift_odd_size_puts_dc_in_middle() {
    let x = vec![Complex32::new(1.0, 0.0); 5];
    let mut s = Spectrum::new(5, Window::Rectangular, SpectrumMode::Magnitude)
        .unwrap()
        .with_shift(true);
    let mut out = vec![0.0f32; 5];
    s.process(&x, &mut out);
    assert!((out[2] - 1.0).abs() < 1e-6);
    assert!(
        out.iter()
            .enumerate()
            .all(|(i, &v)| i == 2 || v.abs() < 1e-6)
    );
}
