//! Resamplers: a resampled tone keeps its frequency (in Hz) and loses less than
//! 0.5 dB of power; the rational resampler equals zero-stuff → FIR → keep every
//! M-th; argument validation.

mod common;

use common::*;
use num_complex::Complex32;
use rfgraph_dsp::resample::{default_prototype, default_taps};
use rfgraph_dsp::{ArbitraryResampler, Ccf, Fff, Isa, RationalResampler};

/// Checks a resampled complex tone: frequency scaled by 1/rate, power kept.
fn check_tone(out: &[Complex32], skip: usize, f_in: f64, rate: f64, label: &str) {
    let steady = &out[skip..out.len() - 8];
    assert!(steady.len() > 500, "{label}: too few steady-state samples");
    let f_out = tone_freq(steady);
    let loss_db = -10.0 * mean_power_c(steady).log10();
    println!(
        "{label}: f_out {f_out:.6} (expect {:.6}), power loss {loss_db:.4} dB",
        f_in / rate
    );
    assert!(
        (f_out - f_in / rate).abs() < 1e-6,
        "{label}: frequency {f_out}"
    );
    assert!(
        loss_db.abs() < 0.5,
        "{label}: power changed by {loss_db} dB"
    );
    // Purity: the residual after removing the ideal tone is small.
    let a = steady[0];
    let mut worst = 0.0f32;
    for (k, v) in steady.iter().enumerate() {
        let p = (f_in / rate * k as f64).rem_euclid(1.0) * std::f64::consts::TAU;
        let ideal = a * Complex32::new(p.cos() as f32, p.sin() as f32);
        worst = worst.max((v - ideal).norm());
    }
    assert!(worst < 0.01, "{label}: residual {worst}");
}

#[test]
fn rational_resampled_tone_keeps_frequency_and_power() {
    for (l, m, f) in [
        (3usize, 2usize, 0.05),
        (2, 5, 0.05),
        (4, 1, -0.17),
        (147, 160, 0.11),
        (6, 4, 0.2),
    ] {
        let mut r = RationalResampler::<Ccf>::new(l, m).unwrap();
        let g = gcd(l, m);
        assert_eq!((r.interpolation(), r.decimation()), (l / g, m / g));
        let x = tone(6000, f, 1.0);
        let rate = l as f64 / m as f64;
        let out = one_shot(&mut r, &x, (x.len() as f64 * rate) as usize + 4);
        let expect_len = (x.len() as f64 * rate).ceil() as usize;
        assert!(
            (out.len() as i64 - expect_len as i64).abs() <= 1,
            "len {} vs {expect_len}",
            out.len()
        );
        let delay = default_taps(l / g, m / g).unwrap().len() / (l / g) + 2;
        check_tone(
            &out,
            (delay as f64 * rate) as usize + 2,
            f,
            rate,
            &format!("rational {l}/{m}"),
        );
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[test]
fn rational_real_tone_keeps_frequency_and_power() {
    let mut r = RationalResampler::<Fff>::new(5, 3).unwrap();
    let f = 0.07;
    let x = real_tone(8000, f, 1.0);
    let out = one_shot(&mut r, &x, x.len() * 2);
    let steady = &out[400..];
    let f_out = peak_freq_real(steady);
    let loss_db = 10.0 * (0.5 / mean_power_f(steady)).log10();
    println!(
        "rational fff 5/3: {f_out} (expect {}), loss {loss_db}",
        f * 3.0 / 5.0
    );
    assert!((f_out - f * 3.0 / 5.0).abs() < 2e-5);
    assert!(loss_db.abs() < 0.5);
}

#[test]
fn rational_equals_zero_stuff_filter_decimate() {
    let mut rng = Rng::new(11);
    for (l, m) in [(1usize, 1usize), (2, 3), (3, 2), (5, 7), (4, 4)] {
        let taps = rng.vec_f32(37);
        let x = rng.vec_c32(200);
        let g = gcd(l, m);
        let (lr, mr) = (l / g, m / g);
        let mut stuffed = vec![Complex32::new(0.0, 0.0); x.len() * lr];
        for (i, v) in x.iter().enumerate() {
            stuffed[i * lr] = *v;
        }
        let full = conv_c(&stuffed, &to_c(&taps));
        let expect: Vec<Complex32> = full.iter().step_by(mr).copied().collect();
        for isa in [Isa::Scalar, Isa::detect()] {
            let mut r = RationalResampler::<Ccf>::with_taps(l, m, &taps, isa).unwrap();
            let got = one_shot(&mut r, &x, expect.len() + 4);
            assert_eq!(got.len(), expect.len(), "{l}/{m}");
            assert!(max_abs_diff_c(&got, &expect) < 1e-5, "{l}/{m}");
        }
    }
}

#[test]
fn arbitrary_resampled_tone_keeps_frequency_and_power() {
    for (rate, f) in [
        (1.234_567, 0.1),
        (0.6543, 0.05),
        (2.5, -0.2),
        (0.3, 0.02),
        (1.0, 0.3),
    ] {
        let mut r = ArbitraryResampler::<Ccf>::new(rate).unwrap();
        assert_eq!(r.num_filters(), 32);
        assert_eq!(r.rate(), rate);
        let x = tone(5000, f, 1.0);
        let out = one_shot(&mut r, &x, (x.len() as f64 * rate) as usize + 8);
        let expect_len = x.len() as f64 * rate;
        assert!(
            (out.len() as f64 - expect_len).abs() <= 2.0,
            "len {} vs {expect_len}",
            out.len()
        );
        let delay = default_prototype(rate, 32).unwrap().len() / 32 + 2;
        check_tone(
            &out,
            (delay as f64 * rate) as usize + 2,
            f,
            rate,
            &format!("arbitrary {rate}"),
        );
    }
}

#[test]
fn arbitrary_real_tone_keeps_frequency_and_power() {
    let rate = 0.8;
    let mut r = ArbitraryResampler::<Fff>::new(rate).unwrap();
    let f = 0.123;
    let x = real_tone(8000, f, 1.0);
    let out = one_shot(&mut r, &x, x.len());
    let steady = &out[200..];
    let f_out = peak_freq_real(steady);
    let loss_db = 10.0 * (0.5 / mean_power_f(steady)).log10();
    println!(
        "arbitrary fff {rate}: {f_out} (expect {}), loss {loss_db}",
        f / rate
    );
    assert!((f_out - f / rate).abs() < 2e-5);
    assert!(loss_db.abs() < 0.5);
}

#[test]
fn arbitrary_with_delta_prototype_is_a_pure_delay() {
    // Prototype = one tap at index N−1. With the resampler's leading zero that
    // tap lands on phase 0, one input sample back: at integer output instants
    // the output is the input delayed by one sample.
    let n = 4;
    let mut proto = vec![0.0f32; 4 * n];
    proto[n - 1] = 1.0;
    let x: Vec<f32> = (1..=10).map(|v| v as f32).collect();
    let mut r = ArbitraryResampler::<Fff>::with_taps(1.0, n, &proto, Isa::Scalar).unwrap();
    let out = one_shot(&mut r, &x, 20);
    assert_eq!(out, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
    // Rate 1/2 keeps every other delayed sample.
    let mut r = ArbitraryResampler::<Fff>::with_taps(0.5, n, &proto, Isa::Scalar).unwrap();
    let out = one_shot(&mut r, &x, 20);
    assert_eq!(out, [0.0, 2.0, 4.0, 6.0, 8.0]);
    // Rate 2 interpolates linearly between phases: half-way points are the
    // mean of neighbours (the prototype here is a delta, so phase 2 of 4 is
    // zero and the mid-points come out as 0).
    let mut r = ArbitraryResampler::<Fff>::with_taps(2.0, n, &proto, Isa::Scalar).unwrap();
    let out = one_shot(&mut r, &x, 40);
    assert_eq!(out.len(), 20);
    assert_eq!(out[2], 1.0);
    assert_eq!(out[3], 0.0);
}

#[test]
fn unit_ratios_pass_signal_through() {
    let mut rng = Rng::new(12);
    let x = rng.vec_c32(300);
    // 3/3 reduces to 1/1 and needs no filter.
    let mut r = RationalResampler::<Ccf>::new(3, 3).unwrap();
    assert_eq!((r.interpolation(), r.decimation()), (1, 1));
    assert_eq!(one_shot(&mut r, &x, 300), x);
    assert_eq!(default_taps(1, 1).unwrap(), vec![1.0]);
    // One-filter arbitrary bank still designs a valid prototype.
    assert!(default_prototype(1.0, 1).is_ok());
}

#[test]
fn invalid_resampler_arguments() {
    assert!(RationalResampler::<Ccf>::new(0, 1).is_err());
    assert!(RationalResampler::<Ccf>::new(1, 0).is_err());
    assert!(RationalResampler::<Fff>::with_taps(1 << 30, 1, &[1.0], Isa::Scalar).is_err());
    assert!(ArbitraryResampler::<Fff>::with_taps(1.5, 1 << 30, &[1.0], Isa::Scalar).is_err());
    assert!(RationalResampler::<Fff>::with_taps(2, 3, &[], Isa::Scalar).is_err());
    assert!(ArbitraryResampler::<Ccf>::new(0.0).is_err());
    assert!(ArbitraryResampler::<Ccf>::new(f64::NAN).is_err());
    assert!(ArbitraryResampler::<Ccf>::new(-2.0).is_err());
    assert!(ArbitraryResampler::<Fff>::with_taps(1.5, 0, &[1.0], Isa::Scalar).is_err());
}

/// `x[n]` with the prototype `h` at upsampled position `pos`: the value of
/// "insert `l − 1` zeros after each input, then filter with `h`" there.
fn upsampled_fir(x: &[f32], h: &[f32], l: usize, pos: usize) -> f32 {
    (0..h.len())
        .filter(|&k| k <= pos && (pos - k).is_multiple_of(l))
        .map(|k| h[k] * x[(pos - k) / l])
        .sum()
}

/// New taps (GNU Radio's `set_taps`) apply from the next output on, read
/// as the constructor read its taps, with the input history and the output
/// phase kept: every output after the change is the new filter's on the
/// whole input, the ones before are the old filter's.
#[test]
fn a_rational_resampler_takes_new_taps_keeping_history_and_phase() {
    let x: Vec<f32> = (1..=60).map(|v| (v as f32 * 0.37).sin()).collect();
    // 6/4 as GNU Radio reads user taps: designed at 6×, every 2nd used.
    let (l, m) = (6, 4);
    let h1: Vec<f32> = (0..24).map(|k| 1.0 / (k + 1) as f32).collect();
    let h2: Vec<f32> = (0..24).map(|k| ((k * 7) % 5) as f32 - 2.0).collect();
    for isa in [Isa::Scalar, Isa::detect()] {
        let mut r = RationalResampler::<Fff>::with_unreduced_taps(l, m, &h1, isa).unwrap();
        let mut out = vec![0.0f32; 200];
        let (c, p) = r.process(&x[..31], &mut out);
        assert_eq!(c, 31);
        r.set_taps(&h2).unwrap();
        let (_, q) = r.process(&x[31..], &mut out[p..]);
        for (k, &y) in out[..p + q].iter().enumerate() {
            let h = if k < p { &h1 } else { &h2 };
            let want = upsampled_fir(&x, h, l, k * m);
            assert!((y - want).abs() < 1e-5, "{isa:?} output {k}: {y} vs {want}");
        }
        // Designed at the reduced rate: read as given.
        let mut r = RationalResampler::<Fff>::with_taps(3, 2, &h1, isa).unwrap();
        let (_, p) = r.process(&x[..31], &mut out);
        r.set_taps(&h2).unwrap();
        let (_, q) = r.process(&x[31..], &mut out[p..]);
        for (k, &y) in out[..p + q].iter().enumerate() {
            let h = if k < p { &h1 } else { &h2 };
            let want = upsampled_fir(&x, h, 3, k * 2);
            assert!((y - want).abs() < 1e-5, "{isa:?} reduced output {k}");
        }
    }
    let mut r = RationalResampler::<Fff>::new(3, 2).unwrap();
    assert!(r.set_taps(&[]).is_err());
    assert!(r.set_reduced_taps(&[f32::NAN]).is_err());
}

/// A new prototype applies from the next output on, the phase and history
/// kept: after the change the outputs are those of a resampler built with
/// the new prototype (the same rate gives the same output instants).
/// A new rate moves the output instants from the next output on and
/// nothing before it.
#[test]
fn an_arbitrary_resampler_takes_new_taps_and_a_new_rate_as_it_runs() {
    let mut rng = Rng::new(5);
    let x = rng.vec_c32(400);
    let h1 = default_prototype(0.8, 8).unwrap();
    let h2: Vec<f32> = h1
        .iter()
        .enumerate()
        .map(|(k, t)| t * (1.0 + 0.1 * (k % 3) as f32))
        .collect();
    let build = |h: &[f32]| ArbitraryResampler::<Ccf>::with_taps(0.8, 8, h, Isa::Scalar).unwrap();
    let mut reference = build(&h2);
    let mut all = vec![Complex32::default(); 600];
    let (_, total) = reference.process(&x, &mut all);
    let mut r = build(&h1);
    let mut out = vec![Complex32::default(); 600];
    let (c, p) = r.process(&x[..200], &mut out);
    r.set_taps(&h2).unwrap();
    let (_, q) = r.process(&x[c..], &mut out[p..]);
    assert_eq!(p + q, total);
    assert!(
        (0..p).any(|k| (out[k] - all[k]).norm() > 1e-3),
        "the taps differ"
    );
    for k in p..total {
        assert!((out[k] - all[k]).norm() < 1e-5, "output {k}");
    }
    // A new rate: the outputs before it stay, and the count follows it.
    let mut r = build(&h1);
    let mut before = build(&h1);
    let mut out = vec![Complex32::default(); 2000];
    let (c, p) = r.process(&x[..200], &mut out);
    let mut first = vec![Complex32::default(); 2000];
    let (_, p0) = before.process(&x[..200], &mut first);
    assert_eq!(&out[..p], &first[..p0]);
    r.set_rate(2.5).unwrap();
    assert_eq!(r.rate(), 2.5);
    let (_, q) = r.process(&x[c..], &mut out[p..]);
    let expected = (x.len() - c) as f64 * 2.5;
    assert!(
        (q as f64 - expected).abs() < 3.0,
        "{q} outputs, expected {expected}"
    );
    assert!(r.set_rate(0.0).is_err());
    assert!(r.set_rate(f64::NAN).is_err());
    assert_eq!(r.rate(), 2.5, "a refused rate changes nothing");
    assert!(r.set_taps(&[]).is_err());
}
