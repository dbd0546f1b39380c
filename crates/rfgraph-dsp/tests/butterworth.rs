//! Butterworth IIR designs against scipy's `butter(.., output="sos")`, for
//! cutoffs from 0.25 down to 1e-5 of the sample rate and orders 1..=8: the
//! designs keep unity DC gain and stable poles, match scipy's response, and
//! a step through the (f64-state) cascade follows scipy's `sosfilt`. Specs
//! that cannot be realised in `f64` are errors. Reference vectors:
//! `tests/reference/butterworth.txt` (see `generate.py`).

mod common;

use common::one_shot;
use common::reference::parse;
use num_complex::Complex32;
use rfgraph_dsp::{Biquad, BiquadCascade, DspError};

const REFERENCE: &str = include_str!("reference/butterworth.txt");

/// One scipy case, unpacked from the flat number list.
struct Butter {
    fc: f64,
    order: usize,
    steps: usize,
    max_pole: f64,
    max_step: f64,
    freqs: Vec<f64>,
    mags: Vec<f64>,
    step_at: Vec<(usize, f64)>,
}

fn load() -> Vec<Butter> {
    parse(REFERENCE)
        .iter()
        .map(|c| {
            let v = &c.values;
            let nf = v[6] as usize;
            let freqs = v[7..7 + nf].to_vec();
            let mags = v[7 + nf..7 + 2 * nf].to_vec();
            let rest = &v[7 + 2 * nf..];
            let ni = rest[0] as usize;
            let step_at = (0..ni)
                .map(|i| (rest[1 + i] as usize, rest[1 + ni + i]))
                .collect();
            assert!((v[3] - 1.0).abs() < 1e-6, "scipy's own DC gain");
            Butter {
                fc: v[0],
                order: v[1] as usize,
                steps: v[2] as usize,
                max_pole: v[4],
                max_step: v[5],
                freqs,
                mags,
                step_at,
            }
        })
        .collect()
}

fn max_pole(c: &BiquadCascade<f32>) -> f64 {
    c.sections()
        .iter()
        .map(Biquad::pole_radius)
        .fold(0.0, f64::max)
}

#[test]
fn lowpass_matches_scipy_butter_down_to_1e_5() {
    let cases = load();
    assert_eq!(cases.len(), 6 * 8);
    assert!(cases.iter().any(|c| c.fc == 1e-5));
    for c in &cases {
        let label = format!("order {} fc {}", c.order, c.fc);
        // The same design at 1 Hz and at 1 MHz.
        let lp = BiquadCascade::<f32>::butterworth_lowpass(c.order, 1.0, c.fc).unwrap();
        let lp_mhz = BiquadCascade::<f32>::butterworth_lowpass(c.order, 1e6, c.fc * 1e6).unwrap();
        for (a, b) in lp.sections().iter().zip(lp_mhz.sections()) {
            assert!((a.a1 - b.a1).abs() < 1e-12 && (a.a2 - b.a2).abs() < 1e-12);
        }
        // DC gain 1, stable poles where scipy puts them.
        assert!(
            (lp.response(0.0).norm() - 1.0).abs() < 1e-6,
            "{label}: DC gain"
        );
        assert!(lp.sections().iter().all(Biquad::is_stable), "{label}");
        let r = max_pole(&lp);
        assert!(r < 1.0, "{label}: pole radius {r}");
        assert!(
            (r - c.max_pole).abs() <= 1e-6 * (1.0 - c.max_pole) + 1e-12,
            "{label}: pole radius {r} vs scipy {}",
            c.max_pole
        );
        for (&f, &m) in c.freqs.iter().zip(&c.mags) {
            let ours = lp.response(f).norm();
            assert!(
                (ours - m).abs() <= 1e-6 * m + 1e-12,
                "{label}: |H({f})| {ours} vs scipy {m}"
            );
        }
        // A unit step through the f32-in/out, f64-state cascade.
        let mut filt = lp;
        let y = one_shot(&mut filt, &vec![1.0f32; c.steps], c.steps);
        assert!(y.iter().all(|v| v.is_finite()), "{label}: non-finite step");
        let peak = y.iter().fold(0.0f32, |m, &v| m.max(v)) as f64;
        assert!(
            (peak - c.max_step).abs() < 1e-5,
            "{label}: overshoot {peak} vs {}",
            c.max_step
        );
        for &(i, expect) in &c.step_at {
            assert!(
                (y[i] as f64 - expect).abs() < 1e-5,
                "{label}: step[{i}] = {} vs scipy {expect}",
                y[i]
            );
        }
    }
}

#[test]
fn highpass_is_stable_with_unity_gain_at_nyquist_down_to_1e_5() {
    for fc in [0.25, 0.1, 1e-2, 1e-3, 1e-4, 1e-5] {
        for order in 1..=8 {
            let hp = BiquadCascade::<Complex32>::butterworth_highpass(order, 1.0, fc).unwrap();
            assert!(hp.sections().iter().all(Biquad::is_stable));
            assert!((hp.response(0.5).norm() - 1.0).abs() < 1e-9);
            assert!((hp.response(fc).norm_sqr() - 0.5).abs() < 1e-6);
            assert!(hp.response(0.0).norm() < 1e-6);
            // A step is passed then decays: finite, and back near 0.
            let n = (3.0 / fc).min(4e5) as usize;
            let x = vec![Complex32::new(1.0, -1.0); n];
            let mut f = hp;
            let y = one_shot(&mut f, &x, n);
            assert!(y.iter().all(|v| v.re.is_finite() && v.im.is_finite()));
            assert!(
                y[n - 1].norm() < 0.05,
                "order {order} fc {fc}: {}",
                y[n - 1]
            );
        }
    }
}

/// The repro: 2nd order, 10 Hz at 1 MHz. With f32 coefficients a
/// pole sat outside the unit circle and a step gave NaN.
#[test]
fn ten_hz_at_one_mhz_is_stable_and_settles_to_one() {
    let mut lp = BiquadCascade::<f32>::butterworth_lowpass(2, 1_000_000.0, 10.0).unwrap();
    assert!(lp.sections()[0].is_stable());
    let y = one_shot(&mut lp, &vec![1.0f32; 300_000], 300_000);
    assert!(y.iter().all(|v| v.is_finite() && *v < 1.05));
    assert!((y[299_999] - 1.0).abs() < 1e-4, "{}", y[299_999]);
}

#[test]
fn unrealisable_specs_are_errors() {
    let invalid =
        |r: Result<BiquadCascade<f32>, DspError>| matches!(r, Err(DspError::InvalidSpec(_)));
    // So low (or, high-pass, so close to Nyquist) that f64 rounding loses
    // the gain or the poles; a first-order section's single pole survives
    // far further than a pair.
    for order in 2..=8 {
        let lp = BiquadCascade::butterworth_lowpass(order, 1.0, 1e-10);
        assert!(invalid(lp), "{order}");
        let hp = BiquadCascade::butterworth_highpass(order, 1.0, 0.5 - 1e-10);
        assert!(invalid(hp), "{order}");
    }
    assert!(invalid(BiquadCascade::butterworth_lowpass(1, 1.0, 1e-18)));
    assert!(invalid(BiquadCascade::butterworth_highpass(
        1,
        1.0,
        0.5 - 1e-15
    )));
    assert!(Biquad::lowpass(1.0, 1e-10, 0.7).is_err());
    assert!(Biquad::first_order_lowpass(1.0, 1e-18).is_err());
    // Out of range.
    for fc in [0.0, -1.0, 0.5, 0.7, f64::NAN, f64::INFINITY] {
        assert!(
            BiquadCascade::<f32>::butterworth_lowpass(2, 1.0, fc).is_err(),
            "{fc}"
        );
        assert!(
            BiquadCascade::<f32>::butterworth_highpass(2, 1.0, fc).is_err(),
            "{fc}"
        );
    }
    assert!(BiquadCascade::<f32>::butterworth_lowpass(2, 0.0, 0.1).is_err());
    assert!(BiquadCascade::<f32>::butterworth_lowpass(0, 1.0, 0.1).is_err());
    assert!(BiquadCascade::<f32>::butterworth_lowpass(33, 1.0, 0.1).is_err());
}

#[test]
fn stability_test_follows_the_triangle() {
    assert!(Biquad::new(1.0, 0.0, 0.0, -1.9, 0.95).unwrap().is_stable());
    assert!(!Biquad::new(1.0, 0.0, 0.0, -2.0, 1.0).unwrap().is_stable());
    assert!(!Biquad::new(1.0, 0.0, 0.0, -1.0, -0.1).unwrap().is_stable());
    assert!(!Biquad::new(1.0, 0.0, 0.0, 0.0, 1.0).unwrap().is_stable());
    let s = Biquad::new(1.0, 0.0, 0.0, -1.0, 0.25).unwrap();
    assert!((s.pole_radius() - 0.5).abs() < 1e-12);
}
