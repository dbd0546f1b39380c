//! The channel blocks (and `dc_blocker`, `simple_squelch`) against GNU
//! Radio 3.10: the script `gr_channels/reference.py` (run by
//! `/usr/bin/python3`, Debian's `python3-gnuradio`) runs GNU Radio's
//! blocks on fixed inputs and writes inputs and outputs; each case here
//! builds the rfgraph block of the same name **through the registry**,
//! runs it on the same input and compares. GNU Radio's random numbers
//! (the impairments' phase noise, the fading models) are reproduced, so
//! most cases are bit for bit; where GNU Radio multiplies complex
//! streams with VOLK (whose kernels may fuse multiply and add) the
//! tolerance is a few units in the last place. Without GNU Radio those
//! tests skip with one line, except under `CI=true`, where they fail.
//!
//! Without GNU Radio too: the fading models' statistics (unit power, the
//! Rician factor's effect, the Doppler spread of the gain), the settable
//! parameters, and random inputs and parameters that must never panic.

mod common;

use common::cases::{f, i, registry};
use common::flow::run;
use common::gr_reference::{gr_reference, load};

use common::RunBounded;
use num_complex::Complex32;
use proptest::prelude::*;
use rfgraph::{Flowgraph, Item, Pmt};
use rfgraph_blocks::{VectorSink, VectorSource};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// GNU Radio's outputs, written once per test process by
/// `gr_channels/reference.py`; `None` when GNU Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    gr_reference(
        "gr_channels",
        "gnuradio.channels, gnuradio.filter, gnuradio.analog",
    )
}

/// A sample compared with GNU Radio's: its distance, 0 when equal to the
/// bit (or both NaN in the same places).
trait Compared: Item + bytemuck::Pod + std::fmt::Debug {
    fn distance(self, other: Self) -> f32;
}

impl Compared for f32 {
    fn distance(self, other: f32) -> f32 {
        if self.to_bits() == other.to_bits() || (self.is_nan() && other.is_nan()) {
            0.0
        } else {
            (self - other).abs().max(f32::MIN_POSITIVE)
        }
    }
}

impl Compared for Complex32 {
    fn distance(self, other: Complex32) -> f32 {
        self.re.distance(other.re).max(self.im.distance(other.im))
    }
}

/// Case `case` through block `name`: every output within `tol` of GNU
/// Radio's (0: equal to the bit), and as many.
fn check<T: Compared>(dir: &Path, case: &str, name: &str, params: &[(&str, Pmt)], tol: f32) {
    let input: Vec<T> = load(&dir.join(format!("{case}.in")));
    let want: Vec<T> = load(&dir.join(format!("{case}.out")));
    let got: Vec<T> = run(name, params, input);
    assert!(!want.is_empty(), "{case}: GNU Radio wrote nothing");
    assert_eq!(got.len(), want.len(), "{case}: output length");
    let (worst, at) = got
        .iter()
        .zip(&want)
        .map(|(&a, &b)| a.distance(b))
        .enumerate()
        .fold((0.0f32, 0), |w, (i, d)| if d > w.0 { (d, i) } else { w });
    assert!(
        worst <= tol,
        "{case}: largest difference {worst} at {at}: ours {:?}, GNU Radio {:?}",
        got[at],
        want[at]
    );
}

fn floats(v: &[f32]) -> Pmt {
    Pmt::VecF32(v.to_vec())
}

#[test]
fn quantizer_matches_gnu_radio_bit_for_bit() {
    let Some(dir) = reference() else { return };
    for bits in [16, 8, 3, 1, 20] {
        check::<f32>(
            &dir,
            &format!("quantizer_{bits}"),
            "quantizer",
            &[("bits", i(bits))],
            0.0,
        );
    }
}

#[test]
fn amp_bal_matches_gnu_radio_bit_for_bit() {
    let Some(dir) = reference() else { return };
    for alpha in ["1e-3", "0.05"] {
        check::<Complex32>(
            &dir,
            &format!("amp_bal_{alpha}"),
            "amp_bal",
            &[("alpha", f(alpha.parse().unwrap()))],
            0.0,
        );
    }
}

/// GNU Radio multiplies complex streams with VOLK, whose AVX2 kernels
/// fuse multiply and add: each of the chain's complex products may round
/// differently in the last place (the samples stay below 2 in size).
const VOLK: f32 = 4e-7;

#[test]
fn impairments_match_gnu_radio_phase_noise_included() {
    let Some(dir) = reference() else { return };
    // GNU Radio's defaults: 0 dB is a phase noise of 1 rad before its
    // low-pass, GNU Radio's generator with its seed 42.
    check::<Complex32>(&dir, "impairments_defaults", "impairments", &[], VOLK);
    let gr_names = |v: [f64; 8]| -> Vec<(&'static str, Pmt)> {
        [
            "phase_noise_mag",
            "magbal",
            "phasebal",
            "q_ofs",
            "i_ofs",
            "freq_offset",
            "gamma",
            "beta",
        ]
        .into_iter()
        .zip(v)
        .map(|(k, v)| (k, f(v)))
        .collect()
    };
    check::<Complex32>(
        &dir,
        "impairments_no_noise",
        "impairments",
        &gr_names([-1000.0, 0.8, 5.0, 0.02, -0.03, 0.013, 0.05, 0.1]),
        VOLK,
    );
    check::<Complex32>(
        &dir,
        "impairments_all",
        "impairments",
        &gr_names([-25.0, -0.6, -3.0, -0.01, 0.04, -0.0071, -0.08, -0.2]),
        VOLK,
    );
}

#[test]
fn fading_models_match_gnu_radio_bit_for_bit() {
    let Some(dir) = reference() else { return };
    let flat = |n: i64, fdts: f64, los: bool, k: f64, seed: i64| {
        vec![
            ("N", i(n)),
            ("fDTs", f(fdts)),
            ("LOS", Pmt::Bool(los)),
            ("K", f(k)),
            ("seed", i(seed)),
        ]
    };
    let cases = [
        ("fading_rayleigh", flat(8, 0.01, false, 4.0, 0)),
        ("fading_rician", flat(16, 0.003, true, 2.5, 77)),
        // Fast enough for the random walk to reflect at ±π.
        ("fading_fast", flat(5, 0.45, true, 1.0, 4242)),
    ];
    for (case, params) in &cases {
        check::<Complex32>(&dir, case, "fading_model", params, 0.0);
    }
    let mut defaults = flat(8, 0.01, false, 4.0, 0);
    defaults.extend([
        ("delays", floats(&[0.0, 0.1, 1.3])),
        ("mags", floats(&[1.0, 0.99, 0.97])),
        ("ntaps", i(8)),
    ]);
    check::<Complex32>(
        &dir,
        "selective_defaults",
        "selective_fading_model",
        &defaults,
        0.0,
    );
    let mut los = flat(6, 0.02, true, 3.0, -3);
    los.extend([
        ("delays", floats(&[0.0, 2.5, 3.7, 0.25])),
        ("mags", floats(&[1.0, 0.5, 0.25, 0.7])),
        ("ntaps", i(12)),
    ]);
    check::<Complex32>(&dir, "selective_los", "selective_fading_model", &los, 0.0);
}

#[test]
fn dc_blockers_match_gnu_radio_bit_for_bit() {
    let Some(dir) = reference() else { return };
    let p = |ty: &str, length: i64, long: bool| {
        vec![
            ("type", Pmt::from(ty)),
            ("length", i(length)),
            ("long_form", Pmt::Bool(long)),
        ]
    };
    check::<f32>(
        &dir,
        "dc_ff_long_32",
        "dc_blocker",
        &p("f32", 32, true),
        0.0,
    );
    check::<f32>(
        &dir,
        "dc_ff_short_16",
        "dc_blocker",
        &p("f32", 16, false),
        0.0,
    );
    check::<f32>(&dir, "dc_ff_long_1", "dc_blocker", &p("f32", 1, true), 0.0);
    check::<Complex32>(
        &dir,
        "dc_cc_long_32",
        "dc_blocker",
        &p("c32", 32, true),
        0.0,
    );
    check::<Complex32>(
        &dir,
        "dc_cc_short_5",
        "dc_blocker",
        &p("c32", 5, false),
        0.0,
    );
}

#[test]
fn simple_squelch_matches_gnu_radio_bit_for_bit() {
    let Some(dir) = reference() else { return };
    for (case, threshold, alpha) in [
        ("squelch_-20_0.01", -20.0, 0.01),
        ("squelch_-35_0.001", -35.0, 0.001),
    ] {
        check::<Complex32>(
            &dir,
            case,
            "simple_squelch",
            &[("threshold", f(threshold)), ("alpha", f(alpha))],
            0.0,
        );
    }
}

/// `n` gains of `fading_model` with `params` (the block on a stream of ones).
fn gains(params: &[(&str, Pmt)], n: usize) -> Vec<Complex32> {
    run("fading_model", params, vec![Complex32::new(1.0, 0.0); n])
}

fn mean(v: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = v.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    s / n as f64
}

/// What the model is for, whatever the generator: average power 1, a
/// Rician factor that steadies the envelope as theory says (the fourth
/// moment of |h| over the squared second is 2 for Rayleigh and
/// `2 − K²/(1+K)²` for Rician), and a gain that decorrelates over the
/// Doppler time scale (near-one correlation a twentieth of `1/fD`
/// apart, none near the first zero of Jakes' `J0(2π·fD·τ)`).
#[test]
fn fading_statistics_follow_the_model() {
    let n = 400_000;
    let fdts = 0.01;
    for (seeds, los, k) in [(0..4u64, false, 0.0), (10..14, true, 4.0)] {
        let (mut power, mut kurtosis) = (Vec::new(), Vec::new());
        for seed in seeds {
            let h = gains(
                &[
                    ("max_doppler", f(fdts)),
                    ("los", Pmt::Bool(los)),
                    ("k_factor", f(k)),
                    ("seed", Pmt::U64(seed)),
                    ("sinusoids", i(16)),
                ],
                n,
            );
            let p2 = mean(h.iter().map(|g| g.norm_sqr() as f64));
            let p4 = mean(h.iter().map(|g| (g.norm_sqr() as f64).powi(2)));
            power.push(p2);
            kurtosis.push(p4 / (p2 * p2));
        }
        let p = mean(power.iter().copied());
        let m = mean(kurtosis.iter().copied());
        let theory = 2.0 - k * k / ((1.0 + k) * (1.0 + k));
        assert!((p - 1.0).abs() < 0.1, "los {los}: mean power {p}");
        assert!(
            (m - theory).abs() < 0.25,
            "los {los}: |h|⁴ ratio {m}, theory {theory}"
        );
    }
    // Rayleigh: the gain's normalised autocorrelation.
    let h = gains(&[("max_doppler", f(fdts)), ("sinusoids", i(16))], n);
    let p = mean(h.iter().map(|g| g.norm_sqr() as f64));
    let corr = |lag: usize| {
        let c: Complex32 = h[..n - lag]
            .iter()
            .zip(&h[lag..])
            .map(|(a, b)| a * b.conj())
            .sum();
        c.norm() as f64 / (n - lag) as f64 / p
    };
    let near = corr((0.05 / fdts) as usize);
    let first_zero = corr((2.405 / (2.0 * std::f64::consts::PI * fdts)) as usize);
    assert!(near > 0.9, "correlation at 0.05/fD: {near}");
    assert!(
        first_zero < 0.35,
        "correlation at J0's first zero: {first_zero}"
    );
}

/// GNU Radio's setters, through the parameters: each settable value is
/// taken, a value out of range refused (the block keeps the old one).
#[test]
fn settable_parameters_take_values_and_refuse_bad_ones() {
    use rfgraph::Block;
    use rfgraph::params::apply;
    let r = registry();
    let build = |name: &str| -> Box<dyn Block> {
        let mut params = BTreeMap::new();
        if name == "dc_blocker" {
            params.insert("type".to_string(), Pmt::from("c32"));
        }
        r.build(name, params).unwrap()
    };
    /// A block, values it takes, and values it refuses.
    type Case<'a> = (&'a str, &'a [(&'a str, Pmt)], &'a [(&'a str, Pmt)]);
    let cases: [Case; 7] = [
        ("quantizer", &[("bits", i(4))], &[("bits", i(0))]),
        ("amp_bal", &[("alpha", f(0.5))], &[("alpha", f(1.5))]),
        (
            "impairments",
            &[
                ("phase_noise_mag", f(-10.0)),
                ("magbal", f(1.0)),
                ("phasebal", f(2.0)),
                ("q_ofs", f(0.1)),
                ("i_ofs", f(0.2)),
                ("frequency_offset", f(0.01)),
                ("gamma", f(0.1)),
                ("beta", f(0.2)),
            ],
            &[("magbal", f(f64::NAN))],
        ),
        (
            "fading_model",
            &[("max_doppler", f(0.02)), ("k_factor", f(2.0))],
            &[("max_doppler", f(-1.0))],
        ),
        (
            "selective_fading_model",
            &[("max_doppler", f(0.02)), ("k_factor", f(2.0))],
            &[("k_factor", f(-1.0))],
        ),
        (
            "simple_squelch",
            &[("threshold", f(-10.0)), ("alpha", f(0.5))],
            &[("alpha", f(-0.1))],
        ),
        ("dc_blocker", &[], &[("length", i(8))]),
    ];
    for (name, good, bad) in cases {
        let mut block = build(name);
        for (param, value) in good {
            apply(block.as_mut(), param, value.clone()).unwrap_or_else(|e| panic!("{name}: {e}"));
            let now = block.params().unwrap().get(param).unwrap();
            let (now, want) = (now.as_f64().unwrap(), value.as_f64().unwrap());
            assert!(
                (now - want).abs() <= 1e-6 * want.abs(),
                "{name}.{param}: {now}"
            );
        }
        for (param, value) in bad {
            let before = block.params().unwrap().get(param);
            assert!(
                apply(block.as_mut(), param, value.clone()).is_err(),
                "{name}.{param} took {value:?}"
            );
            assert_eq!(block.params().unwrap().get(param), before, "{name}.{param}");
        }
    }
}

/// The registry names of this file's blocks.
const NAMES: [&str; 7] = [
    "amp_bal",
    "dc_blocker",
    "fading_model",
    "impairments",
    "quantizer",
    "selective_fading_model",
    "simple_squelch",
];

/// Each builds from its defaults and carries the very declaration the
/// registry lists.
#[test]
fn every_block_builds_from_defaults_with_its_declaration() {
    let r = registry();
    for name in NAMES {
        let spec = r.get(name).unwrap();
        let mut block = spec
            .build(BTreeMap::new())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(block.params().unwrap().describe(), spec.params, "{name}");
    }
}

/// A bad value is an error naming the block and the parameter, from
/// `rfgraph check` as from building.
#[test]
fn bad_values_are_errors_that_name_the_parameter() {
    let r = registry();
    let cases: Vec<(&str, &str, Pmt)> = vec![
        ("quantizer", "bits", i(0)),
        ("quantizer", "bits", i(65)),
        ("amp_bal", "alpha", f(-0.1)),
        ("impairments", "beta", f(f64::INFINITY)),
        ("fading_model", "sinusoids", i(0)),
        ("fading_model", "max_doppler", f(-0.01)),
        ("fading_model", "k_factor", f(-1.0)),
        ("fading_model", "seed", i(-1)),
        ("selective_fading_model", "mags", floats(&[1.0])),
        ("selective_fading_model", "delays", floats(&[])),
        ("selective_fading_model", "ntaps", i(0)),
        ("dc_blocker", "length", i(0)),
        ("dc_blocker", "type", Pmt::from("i16")),
        ("simple_squelch", "alpha", f(1.5)),
    ];
    for (name, param, value) in cases {
        let given: BTreeMap<String, Pmt> = [(param.to_string(), value)].into_iter().collect();
        let spec = r.get(name).unwrap();
        assert!(
            spec.check(given.clone()).is_err(),
            "{name}.{param}: rfgraph check accepts it"
        );
        let e = r
            .build(name, given)
            .err()
            .unwrap_or_else(|| panic!("{name}.{param} accepted"));
        let text = e.to_string();
        assert!(text.contains(name), "{name}: {text}");
        assert!(
            text.contains(&format!("`{param}`")),
            "{name}.{param}: {text}"
        );
    }
}

/// Any input, NaN and infinities included, and any parameters the specs
/// accept: the blocks run to the end, one output per input.
fn never_panics(name: &str, params: Vec<(&str, Pmt)>, input: Vec<Complex32>) {
    let params: BTreeMap<String, Pmt> = params
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    let Ok(block) = registry().build(name, params) else {
        return;
    };
    let real = name == "quantizer";
    let n = input.len();
    let mut fg = Flowgraph::new();
    let b = fg.add_boxed("dut", name, block);
    let sink = if real {
        let src = fg.add(VectorSource::new(input.iter().map(|c| c.re).collect()));
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(src, "out", b, "in").unwrap();
        sink
    } else {
        let src = fg.add(VectorSource::new(input));
        let sink = fg.add(VectorSink::<Complex32>::new());
        fg.connect(src, "out", b, "in").unwrap();
        sink
    };
    fg.connect(b, "out", sink, "in").unwrap();
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    let len = if real {
        done.block::<VectorSink<f32>>(sink).unwrap().items().len()
    } else {
        done.block::<VectorSink<Complex32>>(sink)
            .unwrap()
            .items()
            .len()
    };
    assert_eq!(len, n, "{name}");
}

fn sample() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => -2.0f32..2.0,
        1 => any::<u32>().prop_map(f32::from_bits),
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
    ]
}

fn number() -> impl Strategy<Value = f64> {
    prop_oneof![-1e3..1e3f64, -2.0..2.0f64, Just(0.0), any::<f64>()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_inputs_and_parameters_never_panic(
        samples in prop::collection::vec((sample(), sample()), 0..300),
        a in number(),
        b in number(),
        c in number(),
        small in 0i64..40,
        delays in prop::collection::vec(-1e4f32..1e4, 1..4),
        los in any::<bool>(),
    ) {
        let input: Vec<Complex32> = samples.into_iter().map(|(re, im)| Complex32::new(re, im)).collect();
        let mags: Vec<f32> = delays.iter().map(|d| d.abs() / 1e4).collect();
        never_panics("quantizer", vec![("bits", i(small))], input.clone());
        never_panics("amp_bal", vec![("alpha", f(a))], input.clone());
        never_panics(
            "impairments",
            vec![("phase_noise_mag", f(a)), ("magbal", f(b)), ("phasebal", f(c)),
                 ("freq_offset", f(b)), ("gamma", f(c)), ("beta", f(a))],
            input.clone(),
        );
        never_panics(
            "fading_model",
            vec![("N", i(small)), ("fDTs", f(a)), ("LOS", Pmt::Bool(los)), ("K", f(b))],
            input.clone(),
        );
        never_panics(
            "selective_fading_model",
            vec![("N", i(small)), ("fDTs", f(b)), ("LOS", Pmt::Bool(los)), ("K", f(c)),
                 ("seed", i(small - 20)), ("delays", floats(&delays)), ("mags", floats(&mags)),
                 ("ntaps", i(small))],
            input.clone(),
        );
        never_panics(
            "dc_blocker",
            vec![("type", Pmt::from("c32")), ("length", i(small)), ("long_form", Pmt::Bool(los))],
            input.clone(),
        );
        never_panics("simple_squelch", vec![("threshold", f(a)), ("alpha", f(b))], input);
    }
}
