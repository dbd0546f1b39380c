//! NCO, rotator and frequency-translating FIR: accuracy against an f64
//! reference, phase continuity across arbitrary call splits and frequency
//! changes, and channel selection.

mod common;

use common::*;
use num_complex::Complex32;
use rfgraph_dsp::filter::DecimatingFirCcf;
use rfgraph_dsp::{Ccf, FreqXlatingFir, Isa, Kernel, Nco, Rotator, design};
use std::f64::consts::TAU;

fn isas() -> Vec<Isa> {
    let mut v = vec![Isa::Scalar];
    if Isa::Avx2Fma.is_available() {
        v.push(Isa::Avx2Fma);
    }
    v
}

#[test]
fn nco_matches_ideal_exponential() {
    for isa in isas() {
        for f in [0.0, 0.01, 0.123_456_789, -0.3, 0.5, 1.25] {
            let phase0 = 0.7;
            let mut nco = Nco::with_isa(f, phase0, isa).unwrap();
            let mut out = vec![Complex32::new(0.0, 0.0); 2000];
            assert_eq!(nco.generate(&mut out), 2000);
            let mut worst = 0.0f64;
            for (n, v) in out.iter().enumerate() {
                let p = phase0 + TAU * f * n as f64;
                worst = worst
                    .max((v.re as f64 - p.cos()).abs())
                    .max((v.im as f64 - p.sin()).abs());
            }
            assert!(worst < 2e-6, "isa {isa:?} f {f}: worst {worst}");
        }
    }
}

#[test]
fn nco_is_phase_continuous_across_call_splits() {
    let mut rng = Rng::new(21);
    for isa in isas() {
        let total = 3000;
        let mut one = Nco::with_isa(0.0173, 0.0, isa).unwrap();
        let mut whole = vec![Complex32::new(0.0, 0.0); total];
        one.generate(&mut whole);
        for _ in 0..10 {
            let mut split = Nco::with_isa(0.0173, 0.0, isa).unwrap();
            let mut parts = vec![Complex32::new(0.0, 0.0); total];
            let mut pos = 0;
            while pos < total {
                let n = ((rng.next_u64() % 37) as usize).min(total - pos);
                split.generate(&mut parts[pos..pos + n]);
                pos += n;
            }
            assert_eq!(parts, whole, "isa {isa:?}");
        }
    }
}

#[test]
fn nco_frequency_change_keeps_phase() {
    let mut nco = Nco::new(0.1, 0.0).unwrap();
    let mut a = [Complex32::new(0.0, 0.0); 10];
    nco.generate(&mut a);
    nco.set_frequency(-0.05).unwrap();
    let mut b = [Complex32::new(0.0, 0.0); 10];
    nco.generate(&mut b);
    // First new sample is at phase 10·0.1 turns; then steps of −0.05 turn.
    let p0 = TAU * 10.0 * 0.1;
    assert!((b[0] - Complex32::new(p0.cos() as f32, p0.sin() as f32)).norm() < 1e-6);
    let step = b[1] * b[0].conj();
    assert!((step.arg() as f64 + TAU * 0.05).abs() < 1e-5);
    assert!((nco.frequency() + 0.05).abs() < 1e-9);
    assert!(nco.set_frequency(f64::NAN).is_err());
    assert!(
        (nco.frequency() + 0.05).abs() < 1e-9,
        "unchanged after error"
    );
    nco.set_phase(1.0).unwrap();
    assert!((nco.phase() - 1.0).abs() < 1e-8);
    let mut c = [0.0f32; 3];
    nco.generate_cos(&mut c);
    assert!((c[0] - 1f32.cos()).abs() < 1e-6);
    nco.reset();
    assert!(nco.phase().abs() < 1e-12);
    nco.advance(4);
    assert!((nco.phase() - (TAU - 4.0 * 0.05 * TAU)).abs() < 1e-6);
}

#[test]
fn rotator_shifts_frequency_and_is_split_invariant() {
    let mut rng = Rng::new(22);
    for isa in isas() {
        let x = tone(1500, 0.05, 0.8);
        let mut r = Rotator::with_isa(0.1, isa).unwrap();
        let whole = one_shot(&mut r, &x, x.len());
        let f = tone_freq(&whole);
        assert!((f - 0.15).abs() < 1e-7, "isa {isa:?} f {f}");
        assert!((mean_power_c(&whole) - 0.64).abs() < 1e-5);
        for _ in 0..10 {
            let chunks: Vec<usize> = (0..20)
                .map(|_| 1 + (rng.next_u64() % 40) as usize)
                .collect();
            let caps: Vec<usize> = (0..20).map(|_| (rng.next_u64() % 40) as usize).collect();
            let mut r = Rotator::with_isa(0.1, isa).unwrap();
            let parts = chunked(&mut r, &x, &chunks, &caps);
            assert_eq!(parts, whole, "isa {isa:?}");
        }
        // Frequency change mid-stream stays continuous: the phase step between
        // the last old and first new sample is the new step.
        let ones = vec![Complex32::new(1.0, 0.0); 100];
        let mut r = Rotator::with_isa(0.02, isa).unwrap();
        let mut out = vec![Complex32::new(0.0, 0.0); 200];
        r.process(&ones, &mut out[..100]);
        r.set_frequency(0.07).unwrap();
        r.process(&ones, &mut out[100..]);
        let step = (out[100] * out[99].conj()).arg() as f64 / TAU;
        assert!(
            (step - 0.02).abs() < 1e-6,
            "sample 100 continues the old phase ramp: {step}"
        );
        let step = (out[101] * out[100].conj()).arg() as f64 / TAU;
        assert!((step - 0.07).abs() < 1e-6);
        assert!((r.frequency() - 0.07).abs() < 1e-9);
    }
}

#[test]
fn freq_xlating_selects_channel() {
    // Two tones: one at +0.2 + 0.01 (wanted, ends up at 0.01·M) and one at
    // −0.25 (unwanted, must be filtered out).
    let n = 8000;
    let wanted = tone(n, 0.21, 1.0);
    let unwanted = tone(n, -0.25, 1.0);
    let x: Vec<Complex32> = wanted.iter().zip(&unwanted).map(|(a, b)| a + b).collect();
    let taps = design::kaiser_lowpass(1.0, 0.05, 0.04, 70.0).unwrap();
    let m = 4;
    let mut fx = FreqXlatingFir::<Ccf>::new(&taps, m, 0.2).unwrap();
    assert_eq!(fx.decimation(), 4);
    assert!((fx.center() - 0.2).abs() < 1e-12);
    let out = one_shot(&mut fx, &x, n / m + 1);
    assert_eq!(out.len(), n / m);
    let steady = &out[taps.len() / m + 2..];
    let f = tone_freq(steady);
    assert!((f - 0.04).abs() < 1e-6, "output tone at {f}");
    let p = mean_power_c(steady);
    assert!((10.0 * p.log10()).abs() < 0.05, "power {p}");

    // Equal to rotate-then-decimate done by hand.
    let mut r = Rotator::new(-0.2).unwrap();
    let mixed = one_shot(&mut r, &x, x.len());
    let mut d = DecimatingFirCcf::new(&taps, m).unwrap();
    let expect = one_shot(&mut d, &mixed, n / m + 1);
    assert_eq!(out, expect);

    // And split-invariant.
    let mut fx = FreqXlatingFir::<Ccf>::new(&taps, m, 0.2).unwrap();
    let parts = chunked(&mut fx, &x, &[1, 5000, 17, 3, 999], &[0, 3, 1000, 7]);
    assert_eq!(parts, out);
    fx.set_center(0.1).unwrap();
    assert!(fx.set_center(f64::INFINITY).is_err());
    Kernel::reset(&mut fx);
}

#[test]
fn invalid_oscillator_arguments() {
    assert!(Nco::new(f64::NAN, 0.0).is_err());
    assert!(Nco::new(0.1, f64::INFINITY).is_err());
    assert!(Rotator::new(f64::NEG_INFINITY).is_err());
    assert!(FreqXlatingFir::<Ccf>::new(&[1.0], 0, 0.1).is_err());
    assert!(FreqXlatingFir::<Ccf>::new(&[], 1, 0.1).is_err());
}

/// The real-valued outputs and the phase words follow the same phase as
/// the complex output, across call splits.
#[test]
fn nco_sin_cos_and_phase_words_follow_the_complex_output() {
    let (f, phase0) = (0.0371, -2.0);
    let mut reference = Nco::new(f, phase0).unwrap();
    let mut expected = vec![Complex32::new(0.0, 0.0); 500];
    reference.generate(&mut expected);
    let mut nco_cos = Nco::new(f, phase0).unwrap();
    let mut nco_sin = Nco::new(f, phase0).unwrap();
    let mut nco_phase = Nco::new(f, phase0).unwrap();
    let (mut cos, mut sin, mut words) = (vec![0.0f32; 500], vec![0.0f32; 500], vec![0u32; 500]);
    for range in [0..7, 7..200, 200..201, 201..500] {
        nco_cos.generate_cos(&mut cos[range.clone()]);
        nco_sin.generate_sin(&mut sin[range.clone()]);
        assert_eq!(
            nco_phase.generate_phases(&mut words[range.clone()]),
            range.len()
        );
    }
    for n in 0..500 {
        let ideal = phase0 + TAU * f * n as f64;
        assert!((sin[n] as f64 - ideal.sin()).abs() < 2e-6, "sin at {n}");
        assert!((cos[n] as f64 - ideal.cos()).abs() < 2e-6, "cos at {n}");
        let (c, s) = rfgraph_dsp::nco::sincos(words[n]);
        assert!(
            (Complex32::new(c, s) - expected[n]).norm() < 1e-6,
            "word at {n}"
        );
        let turns = words[n] as f64 / 4_294_967_296.0;
        let wrapped = (ideal / TAU - turns).rem_euclid(1.0);
        // Within the frequency's quantisation (half a unit in 2^32 per sample).
        assert!(wrapped.min(1.0 - wrapped) < 1e-7, "phase word at {n}");
    }
    assert!((nco_phase.phase() - reference.phase()).abs() < 1e-12);
}
