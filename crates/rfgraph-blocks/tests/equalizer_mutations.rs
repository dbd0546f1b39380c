//! Arbitrary samples (NaN, infinities, huge values, tags anywhere) and
//! arbitrary (finite) settings never make the equalizers, the correlation
//! estimator or the soft decoder panic or hang: they run to the end and
//! write the number of items GNU Radio's would.

mod common;

use common::RunBounded;
use num_complex::Complex32;
use proptest::prelude::*;
use rfgraph::registry::Registry;
use rfgraph::{Flowgraph, Pmt, Tag};
use rfgraph_blocks::{VectorSink, VectorSource};
use std::collections::BTreeMap;

fn sample() -> impl Strategy<Value = Complex32> {
    let part = prop_oneof![
        4 => -3.0f32..3.0,
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => any::<f32>(),
    ];
    (part.clone(), part).prop_map(|(re, im)| Complex32::new(re, im))
}

/// Finite values: parameters refuse the others.
fn finite() -> impl Strategy<Value = Complex32> {
    (-3.0f32..3.0, -3.0f32..3.0).prop_map(|(re, im)| Complex32::new(re, im))
}

fn run(name: &str, p: BTreeMap<String, Pmt>, input: Vec<Complex32>, tags: Vec<Tag>) -> usize {
    let mut r = Registry::new();
    r.extend(rfgraph_blocks::registry::specs());
    let block = r.build(name, p).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(input).with_tags(tags));
    let b = fg.add_boxed("dut", name, block);
    fg.connect(src, "out", b, "in").unwrap();
    let k = fg.add(VectorSink::<Complex32>::new());
    fg.connect(b, "out", k, "in").unwrap();
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    done.block::<VectorSink<Complex32>>(k)
        .unwrap()
        .items()
        .len()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn equalizers_take_any_samples(
        input in prop::collection::vec(sample(), 0..400),
        alg in prop_oneof![Just("lms"), Just("nlms"), Just("cma")],
        taps in 1u64..12,
        sps in 1u64..4,
        training in prop::collection::vec(finite(), 0..20),
        at in prop::collection::vec(0u64..450, 0..4),
        dfe in any::<bool>(),
    ) {
        let mut p: BTreeMap<String, Pmt> = BTreeMap::new();
        p.insert("algorithm".into(), Pmt::from(alg));
        p.insert("constellation".into(), Pmt::from("qpsk"));
        p.insert("step_size".into(), Pmt::F64(0.05));
        p.insert("sps".into(), Pmt::U64(sps));
        p.insert(
            "training_sequence".into(),
            Pmt::VecComplexF32(training.iter().map(|c| [c.re, c.im]).collect()),
        );
        let name = if dfe {
            p.insert("num_taps_fwd".into(), Pmt::U64(taps));
            p.insert("num_taps_rev".into(), Pmt::U64(taps / 2));
            "decision_feedback_equalizer"
        } else {
            p.insert("num_taps".into(), Pmt::U64(taps));
            "linear_equalizer"
        };
        let tags = at.iter().map(|&i| Tag::new(i, "corr_est", Pmt::F64(1.0))).collect();
        let n = input.len();
        prop_assert_eq!(run(name, p, input, tags), n / sps as usize);
    }

    #[test]
    fn corr_est_takes_any_samples(
        input in prop::collection::vec(sample(), 0..600),
        symbols in prop::collection::vec(finite(), 1..40),
        dynamic in any::<bool>(),
        threshold in -1.0f64..2.0,
        mark_delay in 0u64..60,
    ) {
        let mut p: BTreeMap<String, Pmt> = BTreeMap::new();
        p.insert(
            "symbols".into(),
            Pmt::VecComplexF32(symbols.iter().map(|c| [c.re, c.im]).collect()),
        );
        p.insert("threshold".into(), Pmt::F64(threshold));
        p.insert("mark_delay".into(), Pmt::U64(mark_delay));
        p.insert(
            "threshold_method".into(),
            Pmt::from(if dynamic { "dynamic" } else { "absolute" }),
        );
        let n = input.len();
        let got = run("corr_est", p, input, Vec::new());
        prop_assert!(got <= n);
    }

    #[test]
    fn soft_decoder_takes_any_samples(
        input in prop::collection::vec(sample(), 0..300),
        name in prop_oneof![Just("bpsk"), Just("qpsk"), Just("8psk"), Just("16qam")],
        lut in prop_oneof![Just("none"), Just("auto"), Just("sd_psk_2"), Just("sd_qam_16")],
        precision in 0u64..7,
    ) {
        let mut r = Registry::new();
        r.extend(rfgraph_blocks::registry::specs());
        let mut p: BTreeMap<String, Pmt> = BTreeMap::new();
        p.insert("constellation".into(), Pmt::from(name));
        p.insert("soft_dec_lut".into(), Pmt::from(lut));
        p.insert("precision".into(), Pmt::U64(precision));
        p.insert("soft_dec_table_precision".into(), Pmt::U64(precision));
        let block = r.build("constellation_soft_decoder", p).unwrap();
        let mut fg = Flowgraph::new();
        let n = input.len();
        let src = fg.add(VectorSource::new(input));
        let b = fg.add_boxed("dut", "constellation_soft_decoder", block);
        fg.connect(src, "out", b, "in").unwrap();
        let k = fg.add(VectorSink::<f32>::new());
        fg.connect(b, "out", k, "in").unwrap();
        let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
        let bits = match name { "bpsk" => 1, "qpsk" => 2, "8psk" => 3, _ => 4 };
        prop_assert_eq!(done.block::<VectorSink<f32>>(k).unwrap().items().len(), n * bits);
    }
}
