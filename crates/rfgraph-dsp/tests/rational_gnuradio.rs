//! `RationalResampler::with_unreduced_taps` gives GNU Radio 3.10's
//! `rational_resampler_ccf` output for the same taps and input, including
//! ratios that are not in lowest terms (6/4, 10/4, 9/6, 8/12), where GNU
//! Radio reads the taps at the unreduced interpolation rate. Reference
//! vectors: `tests/reference/rational_resampler.txt` (see `generate.py`).

mod common;

use common::reference::parse;
use common::{max_abs_diff_c, mean_power_c, one_shot};
use num_complex::Complex32;
use rfgraph_dsp::{Ccf, Isa, RationalResampler};

const REFERENCE: &str = include_str!("reference/rational_resampler.txt");

fn isas() -> Vec<Isa> {
    [Isa::Scalar, Isa::Avx2Fma]
        .into_iter()
        .filter(|i| i.is_available())
        .collect()
}

struct GrCase {
    interp: usize,
    decim: usize,
    taps: Vec<f32>,
    output: Vec<Complex32>,
}

fn load() -> (Vec<Complex32>, Vec<GrCase>) {
    let cases = parse(REFERENCE);
    let input = cases[0].c32s();
    assert_eq!(input.len(), cases[0].count("len"));
    let grouped = cases[1..]
        .chunks_exact(2)
        .map(|pair| {
            let (t, o) = (&pair[0], &pair[1]);
            assert_eq!((t.get("kind"), o.get("kind")), ("taps", "output"));
            assert_eq!(t.count("interp"), o.count("interp"));
            GrCase {
                interp: t.count("interp"),
                decim: t.count("decim"),
                taps: t.f32s(),
                output: o.c32s(),
            }
        })
        .collect();
    (input, grouped)
}

#[test]
fn unreduced_taps_match_gnu_radio_rational_resampler() {
    let (x, cases) = load();
    assert!(cases.len() >= 8);
    for c in &cases {
        for isa in isas() {
            let mut r =
                RationalResampler::<Ccf>::with_unreduced_taps(c.interp, c.decim, &c.taps, isa)
                    .unwrap();
            let got = one_shot(&mut r, &x, x.len() * c.interp);
            // Output k exists once input ⌊k·M/L⌋ is there; GNU Radio's last
            // few outputs depend on how its scheduler ends the stream.
            assert_eq!(got.len(), (x.len() * c.interp).div_ceil(c.decim));
            let n = got.len().min(c.output.len());
            assert!(n + 4 >= got.len(), "only {n} of {} outputs", got.len());
            let peak = c.output.iter().map(|v| v.norm()).fold(0.0, f32::max);
            let err = max_abs_diff_c(&got[..n], &c.output[..n]);
            assert!(
                err < 2e-6 * peak.max(1.0),
                "{}/{} on {}: max error {err} (peak {peak})",
                c.interp,
                c.decim,
                isa.name()
            );
        }
    }
}

/// The example: taps designed for 6/4 at 6× (gain 6). Read at the
/// reduced 3/2 rate they give +6 dB; read as GNU Radio does, unity gain.
#[test]
fn six_over_four_taps_have_unity_gain_only_when_read_unreduced() {
    let (_, cases) = load();
    let c = cases
        .iter()
        .find(|c| (c.interp, c.decim) == (6, 4))
        .unwrap();
    let tone: Vec<Complex32> = (0..4000)
        .map(|n| Complex32::from_polar(1.0, 0.05 * n as f32))
        .collect();
    let mut gr =
        RationalResampler::<Ccf>::with_unreduced_taps(6, 4, &c.taps, Isa::detect()).unwrap();
    let mut reduced = RationalResampler::<Ccf>::with_taps(6, 4, &c.taps, Isa::detect()).unwrap();
    assert_eq!((gr.interpolation(), gr.decimation()), (3, 2));
    let a = one_shot(&mut gr, &tone, 7000);
    let b = one_shot(&mut reduced, &tone, 7000);
    let db = |y: &[Complex32]| 10.0 * mean_power_c(&y[500..]).log10();
    assert!(db(&a).abs() < 0.1, "unreduced gain {} dB", db(&a));
    assert!((db(&b) - 6.02).abs() < 0.2, "reduced gain {} dB", db(&b));
}

/// With coprime factors both readings are the same filter.
#[test]
fn coprime_factors_read_the_same_either_way() {
    let (x, cases) = load();
    for c in cases.iter().filter(|c| gcd(c.interp, c.decim) == 1) {
        let mut a =
            RationalResampler::<Ccf>::with_taps(c.interp, c.decim, &c.taps, Isa::Scalar).unwrap();
        let mut b =
            RationalResampler::<Ccf>::with_unreduced_taps(c.interp, c.decim, &c.taps, Isa::Scalar)
                .unwrap();
        assert_eq!(one_shot(&mut a, &x, 1000), one_shot(&mut b, &x, 1000));
    }
}

#[test]
fn unreduced_constructor_rejects_what_with_taps_rejects() {
    assert!(RationalResampler::<Ccf>::with_unreduced_taps(0, 4, &[1.0], Isa::Scalar).is_err());
    assert!(RationalResampler::<Ccf>::with_unreduced_taps(6, 0, &[1.0], Isa::Scalar).is_err());
    assert!(RationalResampler::<Ccf>::with_unreduced_taps(6, 4, &[], Isa::Scalar).is_err());
    assert!(RationalResampler::<Ccf>::with_unreduced_taps(6, 4, &[f32::NAN], Isa::Scalar).is_err());
    assert!(
        RationalResampler::<Ccf>::with_unreduced_taps(1 << 30, 4, &[1.0], Isa::Scalar).is_err()
    );
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}
