//! GNU Radio's channel blocks (and `dc_blocker_xx`,
//! `analog_simple_squelch_cc`) imported through the mapping table at
//! their GRC defaults, the values GRC writes for a block just placed
//! (`/usr/share/gnuradio/grc/blocks/<id>.block.yml`), built with the
//! standard registry and run: each loads as its registry block with GNU
//! Radio's parameters under the registry's names, and gives one output
//! per input.

use common::grc_text::{block, grc};
use rfgraph_flowfile::build::{self, BuildOptions};
use rfgraph_flowfile::grc::{self, LoadOptions};
use rfgraph_flowfile::model::{Document, Value};
use std::path::Path;
use std::time::Duration;

mod common;

const WATCHDOG: Duration = Duration::from_secs(10);

/// `dut` (GNU Radio block `id` with `params`) between a vector source of
/// `input` and a vector sink, both of GNU Radio item type `item`, with a
/// `samp_rate` variable.
fn graph(id: &str, params: &[(&str, &str)], item: &str, input: &str) -> String {
    grc(
        &[
            block("samp_rate", "variable", &[("value", "32000")]),
            block(
                "src",
                "blocks_vector_source_x",
                &[("type", item), ("vector", input), ("repeat", "False")],
            ),
            block("dut", id, params),
            block("sink", "blocks_vector_sink_x", &[("type", item)]),
        ],
        &[("src", "0", "dut", "0"), ("dut", "0", "sink", "0")],
    )
}

/// Loads `text`, builds it and runs it under the watchdog: the document
/// and the sink's items.
fn run<T: rfgraph::Item>(text: &str) -> (Document, Vec<T>) {
    let registry = rfgraph_flowfile::standard::registry();
    let doc = grc::from_str_with(text, Path::new("t.grc"), &registry, &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let built = build::build(&doc, &registry, &BuildOptions::default()).unwrap();
    let id = built.blocks.iter().find(|b| b.name == "sink").unwrap().id;
    let scheduler = built.scheduler.scheduler().unwrap();
    let done = built
        .flowgraph
        .start(scheduler)
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
    let items = done
        .block::<rfgraph_blocks::VectorSink<T>>(id)
        .unwrap()
        .items()
        .to_vec();
    (doc, items)
}

/// The registry value of parameter `name` of block `dut`.
fn param(doc: &Document, name: &str) -> Value {
    let dut = doc.block("dut").unwrap();
    dut.param(name)
        .unwrap_or_else(|| panic!("{} has no `{name}`", dut.kind))
        .value
        .clone()
}

fn expr(text: &str) -> Value {
    Value::Expr(text.into())
}

const COMPLEX_IN: &str = "[1, 0.5j, -0.25, 1+1j, 0, -2j, 0.125, 3]";

/// The quantiser at 16 bits: steps of 2^−15, ties to even, saturation
/// at 32767/32768, as GNU Radio's `float_to_short`.
#[test]
fn quantizer_loads_at_its_defaults() {
    let input = "[0.5/32768, 1.5/32768, -2.5/32768, 1.0, -1.0, 0.25]";
    let (doc, out) = run::<f32>(&graph(
        "channels_quantizer",
        &[("bits", "16")],
        "float",
        input,
    ));
    assert_eq!(doc.block("dut").unwrap().kind, "quantizer");
    assert_eq!(param(&doc, "bits"), expr("16"));
    let step = 1.0 / 32768.0;
    assert_eq!(
        out,
        [0.0, 2.0 * step, -2.0 * step, 32767.0 * step, -1.0, 0.25]
    );
}

/// GRC's `alpha` 0 never moves the RMS levels from 0: I passes, Q is
/// 0/0 = NaN, in GNU Radio as here.
#[test]
fn amp_bal_loads_at_its_defaults() {
    let (doc, out) = run::<num_complex::Complex32>(&graph(
        "channels_amp_bal",
        &[("alpha", "0")],
        "complex",
        COMPLEX_IN,
    ));
    assert_eq!(doc.block("dut").unwrap().kind, "amp_bal");
    assert_eq!(param(&doc, "alpha"), expr("0"));
    assert_eq!(out.len(), 8);
    assert_eq!(out[0].re, 1.0);
    assert!(out.iter().all(|c| c.im.is_nan()), "{out:?}");
}

#[test]
fn impairments_load_at_their_defaults() {
    let names = [
        "phase_noise_mag",
        "magbal",
        "phasebal",
        "q_ofs",
        "i_ofs",
        "freq_offset",
        "gamma",
        "beta",
    ];
    let params: Vec<(&str, &str)> = names.iter().map(|n| (*n, "0")).collect();
    let (doc, out) = run::<num_complex::Complex32>(&graph(
        "channels_impairments",
        &params,
        "complex",
        COMPLEX_IN,
    ));
    assert_eq!(doc.block("dut").unwrap().kind, "impairments");
    for name in names {
        let rf = if name == "freq_offset" {
            "frequency_offset"
        } else {
            name
        };
        assert_eq!(param(&doc, rf), expr("0"), "{name}");
    }
    // Only the phase noise (about 0.07 rad) acts at the defaults.
    assert_eq!(out.len(), 8);
    assert!((out[0].norm() - 1.0).abs() < 1e-5 && out[0].arg().abs() < 0.3);
}

/// GRC's defaults: `fDTs` 10/samp_rate, Rayleigh (`LOS` False).
#[test]
fn fading_model_loads_at_its_defaults() {
    let (doc, out) = run::<num_complex::Complex32>(&graph(
        "channels_fading_model",
        &[
            ("N", "8"),
            ("fDTs", "10.0/samp_rate"),
            ("LOS", "False"),
            ("K", "4.0"),
            ("seed", "0"),
        ],
        "complex",
        COMPLEX_IN,
    ));
    assert_eq!(doc.block("dut").unwrap().kind, "fading_model");
    assert_eq!(param(&doc, "sinusoids"), expr("8"));
    assert_eq!(param(&doc, "max_doppler"), expr("10.0/samp_rate"));
    assert_eq!(param(&doc, "los"), Value::Bool(false));
    assert_eq!(param(&doc, "k_factor"), expr("4.0"));
    assert_eq!(param(&doc, "seed"), expr("0"));
    assert_eq!(out.len(), 8);
    assert!(out.iter().all(|c| c.re.is_finite() && c.im.is_finite()));
}

/// GNU Radio's older files name the Rician factor `rician_factor`
/// (`channels/channel_tone_response.grc`).
#[test]
fn the_older_rician_factor_name_is_taken() {
    let registry = rfgraph_flowfile::standard::registry();
    let text = graph(
        "channels_fading_model",
        &[
            ("N", "8"),
            ("fDTs", "0.01"),
            ("LOS", "True"),
            ("rician_factor", "2.5"),
            ("seed", "3"),
        ],
        "complex",
        COMPLEX_IN,
    );
    let doc = grc::from_str(&text, Path::new("t.grc"), &registry).unwrap();
    assert_eq!(param(&doc, "k_factor"), expr("2.5"));
    assert_eq!(param(&doc, "los"), Value::Bool(true));
}

#[test]
fn selective_fading_model_loads_at_its_defaults() {
    let (doc, out) = run::<num_complex::Complex32>(&graph(
        "channels_selective_fading_model",
        &[
            ("N", "8"),
            ("fDTs", "10.0/samp_rate"),
            ("LOS", "False"),
            ("K", "4.0"),
            ("seed", "0"),
            ("delays", "(0.0,0.1,1.3)"),
            ("mags", "(1,0.99,0.97)"),
            ("ntaps", "8"),
        ],
        "complex",
        COMPLEX_IN,
    ));
    assert_eq!(doc.block("dut").unwrap().kind, "selective_fading_model");
    assert_eq!(param(&doc, "delays"), expr("(0.0,0.1,1.3)"));
    assert_eq!(param(&doc, "mags"), expr("(1,0.99,0.97)"));
    assert_eq!(param(&doc, "ntaps"), expr("8"));
    assert_eq!(out.len(), 8);
    assert!(out.iter().all(|c| c.re.is_finite() && c.im.is_finite()));
}

/// Both types; the long form's group delay is 2·32 − 2 = 62 samples, so
/// eight inputs give eight zeros.
#[test]
fn dc_blocker_loads_at_its_defaults() {
    let defaults = [("length", "32"), ("long_form", "True")];
    let mut cc = defaults.to_vec();
    cc.push(("type", "cc"));
    let (doc, out) =
        run::<num_complex::Complex32>(&graph("dc_blocker_xx", &cc, "complex", COMPLEX_IN));
    assert_eq!(doc.block("dut").unwrap().kind, "dc_blocker");
    assert_eq!(param(&doc, "type"), Value::Text("c32".into()));
    assert_eq!(param(&doc, "length"), expr("32"));
    assert_eq!(param(&doc, "long_form"), Value::Bool(true));
    assert_eq!(out.len(), 8);
    let mut ff = defaults.to_vec();
    ff.push(("type", "ff"));
    let (doc, out) = run::<f32>(&graph("dc_blocker_xx", &ff, "float", "[1, 2, 3, 4]"));
    assert_eq!(param(&doc, "type"), Value::Text("f32".into()));
    assert_eq!(out.len(), 4);
}

/// GRC gives the squelch no defaults: an unset threshold and alpha take
/// the registry's (−40 dB, 0.0001).
#[test]
fn simple_squelch_loads_without_values() {
    let (doc, out) = run::<num_complex::Complex32>(&graph(
        "analog_simple_squelch_cc",
        &[("threshold", ""), ("alpha", "")],
        "complex",
        COMPLEX_IN,
    ));
    assert_eq!(doc.block("dut").unwrap().kind, "simple_squelch");
    assert!(doc.block("dut").unwrap().param("threshold").is_none());
    // |1|² · 0.0001 = −40 dB: the first sample just passes.
    assert_eq!(out.len(), 8);
    assert_eq!(out[0], num_complex::Complex32::new(1.0, 0.0));
}
