//! Filter design: each designed filter is measured with the FFT (zero-padded
//! frequency response) at many frequencies and must meet its pass-band ripple
//! and stop-band attenuation; plus RRC, Hilbert, windows and IIR designs.

mod common;

use common::*;
use num_complex::Complex32;
use rfgraph_dsp::design::{self, magnitude_response_db};
use rfgraph_dsp::{Biquad, BiquadCascade, Deemphasis, DspError, Fff, Fir, Kernel, Window};

const NFFT: usize = 8192;

/// (worst pass-band deviation from 0 dB, worst stop-band attenuation) over the
/// bins whose frequency (cycles/sample) satisfies the predicates.
fn measure(taps: &[f32], pass: impl Fn(f64) -> bool, stop: impl Fn(f64) -> bool) -> (f32, f32) {
    let db = magnitude_response_db(taps, NFFT).unwrap();
    let mut ripple = 0.0f32;
    let mut atten = f32::INFINITY;
    let (mut np, mut ns) = (0, 0);
    for (k, &v) in db.iter().enumerate() {
        let f = k as f64 / NFFT as f64;
        if pass(f) {
            ripple = ripple.max(v.abs());
            np += 1;
        }
        if stop(f) {
            atten = atten.min(-v);
            ns += 1;
        }
    }
    assert!(np > 10 && ns > 10, "too few measured bins");
    (ripple, atten)
}

#[test]
fn windowed_sinc_lowpass_meets_spec() {
    // Hamming: transition ≈ 3.3/N, ≥ 50 dB; Blackman: ≈ 5.5/N, ≥ 70 dB.
    let taps = design::lowpass(101, 48_000.0, 4_800.0, Window::Hamming).unwrap();
    let (ripple, atten) = measure(&taps, |f| f <= 0.065, |f| f >= 0.135);
    println!("hamming lowpass: ripple {ripple} dB, atten {atten} dB");
    assert!(ripple < 0.05 && atten > 50.0);

    let taps = design::lowpass(101, 1.0, 0.1, Window::Blackman).unwrap();
    let (ripple, atten) = measure(&taps, |f| f <= 0.05, |f| f >= 0.155);
    println!("blackman lowpass: ripple {ripple} dB, atten {atten} dB");
    assert!(ripple < 0.01 && atten > 70.0);

    let taps = design::lowpass(101, 1.0, 0.1, Window::BlackmanHarris).unwrap();
    let (ripple, atten) = measure(&taps, |f| f <= 0.04, |f| f >= 0.17);
    println!("blackman-harris lowpass: ripple {ripple} dB, atten {atten} dB");
    assert!(ripple < 0.01 && atten > 85.0);
}

#[test]
fn windowed_sinc_highpass_meets_spec() {
    let taps = design::highpass(101, 1.0, 0.25, Window::Blackman).unwrap();
    let (ripple, atten) = measure(&taps, |f| f >= 0.31, |f| f <= 0.19);
    println!("highpass: ripple {ripple} dB, atten {atten} dB");
    assert!(ripple < 0.01 && atten > 70.0);
    assert!(design::highpass(100, 1.0, 0.25, Window::Hann).is_err());
}

#[test]
fn windowed_sinc_bandpass_meets_spec() {
    let taps = design::bandpass(151, 1.0, 0.15, 0.3, Window::Blackman).unwrap();
    let (ripple, atten) = measure(
        &taps,
        |f| (0.19..=0.26).contains(&f),
        |f| f <= 0.11 || f >= 0.34,
    );
    println!("bandpass: ripple {ripple} dB, atten {atten} dB");
    assert!(ripple < 0.01 && atten > 70.0);
}

#[test]
fn windowed_sinc_bandstop_meets_spec() {
    let taps = design::bandstop(151, 1.0, 0.15, 0.3, Window::Blackman).unwrap();
    let (ripple, atten) = measure(
        &taps,
        |f| f <= 0.11 || f >= 0.34,
        |f| (0.19..=0.26).contains(&f),
    );
    println!("bandstop: ripple {ripple} dB, atten {atten} dB");
    assert!(ripple < 0.01 && atten > 70.0);
}

/// Every windowed-sinc design has a gain of +1, not −1, at its reference
/// frequency, however short: a short band-stop whose band starts near DC
/// has a negative amplitude there, which a magnitude-based normalisation
/// turned into a gain of −1.
#[test]
fn windowed_sinc_gain_is_plus_one_at_the_reference_frequency() {
    let signed_gain = |h: &[f32], f: f64| -> f64 {
        let mid = (h.len() as f64 - 1.0) / 2.0;
        h.iter()
            .enumerate()
            .map(|(n, &v)| v as f64 * (2.0 * std::f64::consts::PI * f * (n as f64 - mid)).cos())
            .sum()
    };
    let windows = [Window::Rectangular, Window::Hann, Window::Blackman];
    for taps in [7, 11, 15, 31] {
        for window in windows {
            for (lo, hi) in [(0.001, 0.051), (0.001, 0.201), (0.1, 0.3)] {
                let h = design::bandstop(taps, 1.0, lo, hi, window).unwrap();
                let g = signed_gain(&h, 0.0);
                assert!((g - 1.0).abs() < 1e-5, "bandstop {taps} {lo}..{hi}: {g}");
            }
            let h = design::lowpass(taps, 1.0, 0.1, window).unwrap();
            assert!((signed_gain(&h, 0.0) - 1.0).abs() < 1e-5);
            let h = design::highpass(taps, 1.0, 0.1, window).unwrap();
            assert!((signed_gain(&h, 0.5) - 1.0).abs() < 1e-5);
        }
    }
}

#[test]
fn kaiser_design_meets_requested_attenuation() {
    for atten_req in [40.0, 60.0, 80.0] {
        let (fc, tw) = (0.2, 0.04);
        let taps = design::kaiser_lowpass(1.0, fc, tw, atten_req).unwrap();
        let (n, beta) = design::kaiser_order(atten_req, tw).unwrap();
        assert_eq!(taps.len(), n);
        assert!((beta - design::kaiser_beta(atten_req)).abs() < 1e-12);
        let (ripple, atten) = measure(&taps, |f| f <= fc - tw / 2.0, |f| f >= fc + tw / 2.0);
        // Ripple δ ≈ 10^(-A/20) in linear terms on both bands.
        let delta = 10f64.powf(-atten_req / 20.0);
        let ripple_max = (20.0 * (1.0 + 1.5 * delta).log10()) as f32;
        println!(
            "kaiser {atten_req} dB: {n} taps, beta {beta:.3}, ripple {ripple} dB (max {ripple_max}), atten {atten} dB"
        );
        assert!(
            atten as f64 >= atten_req - 1.0,
            "attenuation {atten} < {atten_req}"
        );
        assert!(ripple <= ripple_max);
    }
    let taps = design::kaiser_highpass(1.0, 0.3, 0.05, 60.0).unwrap();
    let (ripple, atten) = measure(&taps, |f| f >= 0.325, |f| f <= 0.275);
    println!("kaiser highpass: ripple {ripple}, atten {atten}");
    assert!(atten >= 59.0 && ripple < 0.02);
    let taps = design::kaiser_bandpass(1.0, 0.1, 0.3, 0.04, 70.0).unwrap();
    let (ripple, atten) = measure(
        &taps,
        |f| (0.12..=0.28).contains(&f),
        |f| f <= 0.08 || f >= 0.32,
    );
    println!("kaiser bandpass: ripple {ripple}, atten {atten}");
    assert!(atten >= 69.0 && ripple < 0.02);
}

#[test]
fn kaiser_formulas() {
    assert_eq!(design::kaiser_beta(10.0), 0.0);
    assert!((design::kaiser_beta(60.0) - 0.1102 * 51.3).abs() < 1e-12);
    assert!((design::kaiser_beta(30.0) - (0.5842 * 9f64.powf(0.4) + 0.07886 * 9.0)).abs() < 1e-12);
    let (n, _) = design::kaiser_order(60.0, 0.05).unwrap();
    assert_eq!(n % 2, 1);
    assert!((n as f64 - (52.05 / (2.285 * 2.0 * std::f64::consts::PI * 0.05) + 1.0)).abs() < 3.0);
    assert!(design::kaiser_order(60.0, 0.0).is_err());
    assert!(design::kaiser_order(-1.0, 0.1).is_err());
    assert!(design::kaiser_lowpass(1.0, 0.49, 0.05, 60.0).is_err());
    assert!(matches!(
        design::lowpass(11, 1.0, 0.6, Window::Hann),
        Err(DspError::OutOfRange { .. })
    ));
    assert!(design::bandpass(11, 1.0, 0.3, 0.2, Window::Hann).is_err());
    assert!(design::lowpass(0, 1.0, 0.1, Window::Hann).is_err());
    assert!(design::lowpass(design::MAX_TAPS + 1, 1.0, 0.1, Window::Hann).is_err());
    assert!(design::hilbert(usize::MAX, Window::Hann).is_err());
    assert!(design::lowpass(11, f64::NAN, 0.1, Window::Hann).is_err());
}

#[test]
fn lowpass_gain_is_unity_at_dc() {
    for w in [
        Window::Rectangular,
        Window::Hann,
        Window::Hamming,
        Window::Kaiser { beta: 5.0 },
    ] {
        let taps = design::lowpass(63, 1.0, 0.2, w).unwrap();
        assert!((taps.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        // Linear phase: symmetric taps.
        for k in 0..taps.len() {
            assert!((taps[k] - taps[taps.len() - 1 - k]).abs() < 1e-7);
        }
    }
}

#[test]
fn root_raised_cosine_pair_has_no_isi() {
    let sps = 8usize;
    let taps = design::root_raised_cosine(1.0, 8.0, 1.0, 0.35, 16 * sps + 1).unwrap();
    assert!((taps.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    // Matched filter: RRC * RRC is a raised cosine, zero at non-zero multiples
    // of the symbol period.
    let mut impulse = vec![0.0f32; 2 * taps.len()];
    impulse[0] = 1.0;
    let mut fir = Fir::<Fff>::new(&taps).unwrap();
    let once = one_shot(&mut fir, &impulse, impulse.len());
    let mut fir2 = Fir::<Fff>::new(&taps).unwrap();
    let rc = one_shot(&mut fir2, &once, once.len());
    let centre = taps.len() - 1;
    let peak = rc[centre];
    let mut worst = 0.0f32;
    for k in 1..=6 {
        worst = worst
            .max((rc[centre + k * sps] / peak).abs())
            .max((rc[centre - k * sps] / peak).abs());
    }
    println!("RRC residual ISI {worst}");
    assert!(worst < 5e-3);
    // Band-limited to (1 + α)/(2 sps) cycles/sample: well attenuated beyond.
    let (_, atten) = measure(&taps, |f| f <= 0.02, |f| f >= 1.35 / 16.0 + 0.02);
    assert!(atten > 35.0, "RRC stop band {atten}");
    assert!(design::root_raised_cosine(1.0, 8.0, 1.0, 0.0, 33).is_err());
    assert!(design::root_raised_cosine(1.0, 1.0, 1.0, 0.5, 33).is_err());
    // The special point t = T/(4α) (α = 0.25, sps = 8 → 8 samples from centre).
    let t = design::root_raised_cosine(1.0, 8.0, 1.0, 0.25, 65).unwrap();
    assert!(t.iter().all(|v| v.is_finite()));
}

#[test]
fn hilbert_shifts_by_90_degrees() {
    let n = 65;
    let taps = design::hilbert(n, Window::Blackman).unwrap();
    let f = 0.13;
    let x = real_tone(1000, f, 1.0);
    let mut fir = Fir::<Fff>::new(&taps).unwrap();
    let y = one_shot(&mut fir, &x, x.len());
    let d = (n - 1) / 2;
    let mut worst = 0.0f32;
    for (k, v) in y.iter().enumerate().skip(n) {
        let expect = (std::f64::consts::TAU * f * (k - d) as f64).sin() as f32;
        worst = worst.max((v - expect).abs());
    }
    println!("hilbert worst error {worst}");
    assert!(worst < 0.01);
    assert!(design::hilbert(64, Window::Hann).is_err());
}

#[test]
fn butterworth_iir_response() {
    let fs = 48_000.0;
    let fc = 3_000.0;
    for order in [1usize, 2, 4, 5] {
        let mut lp = BiquadCascade::<f32>::butterworth_lowpass(order, fs, fc).unwrap();
        // Measure with the FFT of the (long) impulse response.
        let mut imp = vec![0.0f32; 4096];
        imp[0] = 1.0;
        let h = one_shot(&mut lp, &imp, imp.len());
        let db = magnitude_response_db(&h, 4096).unwrap();
        let bin = |f: f64| (f / fs * 4096.0).round() as usize;
        assert!(db[0].abs() < 0.01, "DC gain {}", db[0]);
        assert!(
            (db[bin(fc)] + 3.01).abs() < 0.1,
            "order {order}: {} dB at cutoff",
            db[bin(fc)]
        );
        // Butterworth: −20·order dB/decade well above cutoff (bilinear makes it steeper).
        assert!(
            db[bin(6.0 * fc)] < -15.0 * order as f32,
            "order {order}: {}",
            db[bin(6.0 * fc)]
        );
        let r = lp.response(fc / fs).norm();
        assert!((20.0 * r.log10() + 3.0103).abs() < 0.01);

        let hp = BiquadCascade::<f32>::butterworth_highpass(order, fs, fc).unwrap();
        assert!((20.0 * hp.response(fc / fs).norm().log10() + 3.0103).abs() < 0.01);
        assert!((hp.response(0.5).norm() - 1.0).abs() < 1e-4);
        assert!(hp.response(0.0).norm() < 1e-4);
    }
    assert!(BiquadCascade::<f32>::butterworth_lowpass(0, fs, fc).is_err());
    assert!(BiquadCascade::<f32>::butterworth_lowpass(2, fs, 30_000.0).is_err());
    assert!(BiquadCascade::<f32>::new(&[]).is_err());
    assert!(Biquad::new(1.0, 0.0, 0.0, f64::NAN, 0.0).is_err());
}

#[test]
fn biquad_complex_equals_real_on_each_part() {
    let s = [
        Biquad::lowpass(1.0, 0.1, 0.7).unwrap(),
        Biquad::highpass(1.0, 0.01, 0.5).unwrap(),
    ];
    let mut rng = Rng::new(9);
    let x = rng.vec_c32(200);
    let mut c = BiquadCascade::<Complex32>::new(&s).unwrap();
    let yc = one_shot(&mut c, &x, x.len());
    let mut r = BiquadCascade::<f32>::new(&s).unwrap();
    let re: Vec<f32> = x.iter().map(|v| v.re).collect();
    let yr = one_shot(&mut r, &re, re.len());
    r.reset();
    let im: Vec<f32> = x.iter().map(|v| v.im).collect();
    let yi = one_shot(&mut r, &im, im.len());
    for k in 0..x.len() {
        assert!((yc[k].re - yr[k]).abs() < 1e-6 && (yc[k].im - yi[k]).abs() < 1e-6);
    }
    assert_eq!(c.sections().len(), 2);
    Kernel::reset(&mut c);
}

#[test]
fn deemphasis_corner_and_dc() {
    let fs = 48_000.0;
    let mut d = Deemphasis::new(fs, Deemphasis::TAU_75US).unwrap();
    let mut imp = vec![0.0f32; 8192];
    imp[0] = 1.0;
    let h = one_shot(&mut d, &imp, imp.len());
    let db = magnitude_response_db(&h, 8192).unwrap();
    let corner = 1.0 / (std::f64::consts::TAU * 75e-6); // ≈ 2122 Hz
    let k = corner / fs * 8192.0;
    let (k0, frac) = (k.floor() as usize, (k - k.floor()) as f32);
    let at_corner = db[k0] * (1.0 - frac) + db[k0 + 1] * frac;
    println!(
        "deemphasis: {} dB at DC, {at_corner} dB at {corner:.0} Hz",
        db[0]
    );
    assert!(db[0].abs() < 0.01);
    assert!((at_corner + 3.01).abs() < 0.05);
    assert!(Deemphasis::new(fs, 0.0).is_err());
    assert!(
        Deemphasis::new(1000.0, 50e-6).is_err(),
        "corner above Nyquist"
    );
}
