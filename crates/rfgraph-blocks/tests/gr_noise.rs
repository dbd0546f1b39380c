//! The noise sources and the channel model with `generator = gnuradio`
//! against GNU Radio 3.10's own: the script `gr_noise/reference.py` (run
//! by `/usr/bin/python3`) writes the first 20,000 items of
//! `analog.noise_source_f/_c` and `analog.fastnoise_source_f/_c/_s/_i`
//! for every kind each has, several amplitudes, seeds (0, 42, a negative
//! one) and pool sizes (a power of two and not), and
//! `channels.channel_model`'s output for a fixed input with noise, a
//! carrier offset, multipath and a timing offset, alone and together. Each case here builds `noise_source` or
//! `fastnoise_source` **through the registry** with GNU Radio's
//! parameter names and compares item for item: equal values (integers)
//! or equal to the last bit but one (floats: GNU Radio's `logf` and
//! `sqrtf` are glibc's, as Rust's are here). Without GNU Radio the cases
//! skip with one line, except under `CI=true`, where they fail.

mod common;

use common::RunBounded;
use common::cases::{cases_where, registry};
use common::gr_reference::gr_reference;
use num_complex::Complex32;
use rfgraph::{Flowgraph, Item, Pmt};
use rfgraph_blocks::VectorSink;
use rfgraph_testkit::read_items;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const ITEMS: u64 = 20_000;

/// GNU Radio's outputs, written once per test process by
/// `gr_noise/reference.py`; `None` when GNU Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    gr_reference("gr_noise", "gnuradio.analog")
}

/// The block of `case` built through the registry with GNU Radio's
/// names, its first [`ITEMS`] items.
fn run<T: Item + Clone>(case: &Value) -> Vec<T> {
    let registry = registry();
    let mut given = BTreeMap::new();
    let text = |v: &Value| Pmt::String(v.as_str().unwrap().to_string());
    given.insert("type".to_string(), text(&case["type"]));
    given.insert("noise_type".to_string(), text(&case["kind"]));
    given.insert(
        "amp".to_string(),
        Pmt::F64(case["amplitude"].as_f64().unwrap()),
    );
    given.insert("seed".to_string(), Pmt::I64(case["seed"].as_i64().unwrap()));
    given.insert("generator".to_string(), Pmt::String("gnuradio".into()));
    given.insert("items".to_string(), Pmt::U64(ITEMS));
    if case["block"] == "fastnoise_source" {
        given.insert(
            "samples".to_string(),
            Pmt::U64(case["samples"].as_u64().unwrap()),
        );
    }
    let kind = case["block"].as_str().unwrap();
    let block = registry
        .build(kind, given)
        .unwrap_or_else(|e| panic!("{}: {e}", case["name"]));
    let mut fg = Flowgraph::new();
    let src = fg.add_boxed("dut", kind, block);
    let sink = fg.add(VectorSink::<T>::new());
    fg.connect(src, "out", sink, "in").unwrap();
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    done.block::<VectorSink<T>>(sink).unwrap().items().to_vec()
}

/// Whether `a` and `b` are within one unit in the last place.
fn close(a: f32, b: f32) -> bool {
    a == b || (a.to_bits() as i64 - b.to_bits() as i64).abs() <= 1 && a.signum() == b.signum()
}

fn compare(case: &Value, dir: &Path) {
    let name = case["name"].as_str().unwrap();
    let file = dir.join(format!("{name}.raw"));
    let reals = |ours: Vec<f32>, theirs: Vec<f32>| {
        assert_eq!(ours.len(), theirs.len(), "{name}: item count");
        let bad = ours.iter().zip(&theirs).position(|(a, b)| !close(*a, *b));
        assert_eq!(bad, None, "{name}: first difference at {bad:?}");
    };
    match case["type"].as_str().unwrap() {
        "f32" => reals(run::<f32>(case), read_items(&file)),
        "c32" => {
            let flat = |v: Vec<Complex32>| v.iter().flat_map(|z| [z.re, z.im]).collect();
            reals(flat(run::<Complex32>(case)), flat(read_items(&file)))
        }
        "i16" => assert_eq!(run::<i16>(case), read_items::<i16>(&file), "{name}"),
        "i32" => assert_eq!(run::<i32>(case), read_items::<i32>(&file), "{name}"),
        other => panic!("{name}: type {other}"),
    }
}

#[test]
fn noise_source_gives_gnu_radios_values() {
    let Some(dir) = reference() else { return };
    for case in cases_where(&dir, "block", "noise_source") {
        compare(&case, &dir);
    }
}

#[test]
fn fastnoise_source_gives_gnu_radios_pool_and_picks() {
    let Some(dir) = reference() else { return };
    for case in cases_where(&dir, "block", "fastnoise_source") {
        compare(&case, &dir);
    }
}

/// `channel_model` through the registry with GNU Radio's generator on
/// the script's input.
fn channel_model(case: &Value, input: &[Complex32]) -> Vec<Complex32> {
    let mut given = BTreeMap::new();
    for key in ["noise_voltage", "frequency_offset", "epsilon"] {
        given.insert(key.to_string(), Pmt::F64(case[key].as_f64().unwrap()));
    }
    let taps = case["taps"].as_array().unwrap().iter().map(|t| {
        let t = t.as_array().unwrap();
        [t[0].as_f64().unwrap() as f32, t[1].as_f64().unwrap() as f32]
    });
    given.insert("taps".to_string(), Pmt::VecComplexF32(taps.collect()));
    given.insert("seed".to_string(), Pmt::I64(case["seed"].as_i64().unwrap()));
    given.insert("generator".to_string(), Pmt::String("gnuradio".into()));
    let block = registry().build("channel_model", given).unwrap();
    let mut fg = Flowgraph::new();
    let src = fg.add(rfgraph_blocks::VectorSource::new(input.to_vec()));
    let dut = fg.add_boxed("dut", "channel_model", block);
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, "out", dut, "in").unwrap();
    fg.connect(dut, "out", sink, "in").unwrap();
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    done.block::<VectorSink<Complex32>>(sink)
        .unwrap()
        .items()
        .to_vec()
}

#[test]
fn channel_model_gives_gnu_radios_output() {
    let Some(dir) = reference() else { return };
    let input: Vec<Complex32> = read_items(&dir.join("channel_input.raw"));
    for case in cases_where(&dir, "block", "channel_model") {
        let name = case["name"].as_str().unwrap();
        let theirs: Vec<Complex32> = read_items(&dir.join(format!("{name}.raw")));
        let ours = channel_model(&case, &input);
        // The resampler holds back its last few inputs, as GNU Radio's.
        let n = theirs.len().min(ours.len());
        assert!(
            n + 8 >= theirs.len().max(ours.len()),
            "{name}: {} vs {}",
            ours.len(),
            theirs.len()
        );
        let noise = case["noise_voltage"].as_f64().unwrap();
        if noise == 0.0 {
            let worst = ours[..n]
                .iter()
                .zip(&theirs[..n])
                .map(|(a, b)| (a - b).norm())
                .fold(0.0f32, f32::max);
            // With a timing offset the interpolator's own taps (rfgraph
            // designs them, GNU Radio reads a table) and its phase (f64
            // here, f32 there) differ a little.
            let tolerance = if case["epsilon"].as_f64() == Some(1.0) {
                1e-4
            } else {
                5e-3
            };
            assert!(worst < tolerance, "{name}: largest difference {worst}");
        } else {
            // GNU Radio's channel model does not draw its noise as its
            // standalone fast noise source does (every other item differs
            // from the source's picks, with no pool value in their place:
            // see the block's docs), so the noise is compared by power:
            // GNU Radio's output less rfgraph's noise-free one, and
            // rfgraph's noisy output less its noise-free one, each carry
            // noise of power `noise_voltage²`, and nothing else when the
            // signal paths agree.
            let mut clean_case = case.clone();
            clean_case["noise_voltage"] = serde_json::json!(0.0);
            let clean = channel_model(&clean_case, &input);
            let power = |a: &[Complex32]| {
                a[..n]
                    .iter()
                    .zip(&clean[..n])
                    .map(|(a, b)| f64::from((a - b).norm_sqr()))
                    .sum::<f64>()
                    / n as f64
            };
            let expected = noise * noise;
            for (whose, p) in [("GNU Radio's", power(&theirs)), ("rfgraph's", power(&ours))] {
                assert!(
                    (p / expected - 1.0).abs() < 0.05,
                    "{name}: {whose} noise power {p}, expected {expected}"
                );
            }
        }
    }
}

#[test]
fn complex_noise_has_no_laplacian_or_impulse_kind() {
    let registry = registry();
    for block in ["noise_source", "fastnoise_source"] {
        for generator in ["fast", "gnuradio"] {
            for kind in ["laplacian", "impulse"] {
                let mut given = BTreeMap::new();
                given.insert("type".to_string(), Pmt::String("c32".into()));
                given.insert("kind".to_string(), Pmt::String(kind.into()));
                given.insert("generator".to_string(), Pmt::String(generator.into()));
                let e = registry.build(block, given).err();
                let e = e.unwrap_or_else(|| panic!("{block} {generator} {kind}: built"));
                assert!(e.to_string().contains("uniform or gaussian"), "{e}");
            }
        }
    }
}
