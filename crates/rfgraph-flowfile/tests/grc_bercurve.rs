//! GNU Radio's BER curve generator imported from GRC: the TPC and dummy
//! coder definitions with parallelism (`ndim`, `dim1 = len(esno)`), one
//! `fec_bercurve_generator` a code, its output bus connected to the bus
//! of a `qtgui_bercurve_sink` (whose `bus_structure_sink` groups
//! `2·len(esno)` inputs a curve): the buses become one connection a
//! port, into the null sinks that stand for the GUI sink, and the
//! flowgraph builds; a malformed TPC definition is an error at its place
//! in the file, never a panic.

use rfgraph_flowfile::build::{self, BuildOptions};
use rfgraph_flowfile::grc;
use std::path::Path;

fn block(name: &str, id: &str, params: &[(&str, &str)], bus: &str) -> String {
    let mut s = format!("- name: {name}\n  id: {id}\n  parameters:\n");
    for (k, v) in params {
        s.push_str(&format!("    {k}: '{v}'\n"));
    }
    s.push_str(&format!(
        "  states:\n    {bus}\n    coordinate: [0, 0]\n    state: enabled\n"
    ));
    s
}

fn grc(krow: &str) -> String {
    let tpc = [
        ("row_poly", "[3]"),
        ("col_poly", "[43]"),
        ("krow", krow),
        ("kcol", "6"),
        ("bval", "9"),
        ("qval", "3"),
        ("ndim", "2"),
        ("dim1", "len(esno)"),
        ("dim2", "1"),
    ];
    let mut dec = tpc.to_vec();
    dec.extend([("max_iter", "6"), ("decoder_type", "1")]);
    let dummy = [
        ("framebits", "4096"),
        ("ndim", "2"),
        ("dim1", "len(esno)"),
        ("dim2", "1"),
    ];
    let generator = |enc: &'static str, dec: &'static str| {
        vec![
            ("encoder_list", enc),
            ("decoder_list", dec),
            ("esno", "esno"),
            ("samp_rate", "35000000"),
            ("puncpat", "\"11\""),
            ("threadtype", "\"capillary\""),
            ("seed", "-100"),
        ]
    };
    let blocks = [
        block(
            "esno",
            "variable",
            &[("value", "numpy.arange(0, 4, .5)")],
            "bus_sink: false",
        ),
        block(
            "enc_tpc",
            "variable_tpc_encoder_def",
            &tpc,
            "bus_sink: false",
        ),
        block(
            "dec_tpc",
            "variable_tpc_decoder_def",
            &dec,
            "bus_sink: false",
        ),
        block(
            "enc_dummy",
            "variable_dummy_encoder_def",
            &dummy,
            "bus_sink: false",
        ),
        block(
            "dec_dummy",
            "variable_dummy_decoder_def",
            &dummy,
            "bus_sink: false",
        ),
        block(
            "gen_tpc",
            "fec_bercurve_generator",
            &generator("enc_tpc", "dec_tpc"),
            "bus_source: true",
        ),
        block(
            "gen_dummy",
            "fec_bercurve_generator",
            &generator("enc_dummy", "dec_dummy"),
            "bus_source: true",
        ),
        block(
            "curves",
            "qtgui_bercurve_sink",
            &[
                ("esno", "esno"),
                ("num_curves", "2"),
                ("berminerrors", "1000"),
                ("berlimit", "-10"),
                (
                    "bus_structure_sink",
                    "list(map(lambda b:list(map(lambda a:b * len(esno) * 2 + a, range(len(esno)*2))), range(num_curves)))",
                ),
            ],
            "bus_sink: true",
        ),
    ];
    let mut s = String::from("options:\n  parameters:\n    id: t\nblocks:\n");
    for b in &blocks {
        s.push_str(b);
    }
    s.push_str("connections:\n");
    s.push_str("- [gen_dummy, '16', curves, '32']\n- [gen_tpc, '16', curves, '33']\n");
    s.push_str("metadata:\n  file_format: 1\n");
    s
}

#[test]
fn bercurve_generators_and_their_buses_build() {
    let registry = rfgraph_flowfile::standard::registry();
    let doc = grc::from_str(&grc("26"), Path::new("t.grc"), &registry).unwrap();
    // 2 generators × 8 points × 2 streams, one connection each.
    assert_eq!(doc.connections.len(), 32, "{:?}", doc.connections);
    build::build(&doc, &registry, &BuildOptions::default()).unwrap();
}

/// Bounded as the examples' runs bound endless sources (`items` on each
/// generator), the flowgraph runs to its end.
#[test]
fn bounded_generators_run_to_their_end() {
    let registry = rfgraph_flowfile::standard::registry();
    let options = grc::LoadOptions {
        max_items: Some(600),
    };
    let doc = grc::from_str_with(&grc("26"), Path::new("t.grc"), &registry, &options).unwrap();
    let built = build::build(&doc, &registry, &BuildOptions::default()).unwrap();
    let scheduler = built.scheduler.scheduler().unwrap();
    built
        .flowgraph
        .start(scheduler)
        .unwrap()
        .wait_timeout(std::time::Duration::from_secs(120))
        .unwrap();
}

#[test]
fn a_malformed_tpc_definition_is_an_error_at_its_place() {
    let registry = rfgraph_flowfile::standard::registry();
    let err = match grc::from_str(&grc("4"), Path::new("t.grc"), &registry) {
        Err(e) => e.to_string(),
        Ok(doc) => build::build(&doc, &registry, &BuildOptions::default())
            .err()
            .expect("krow 4 < bval 9 accepted")
            .to_string(),
    };
    assert!(err.contains("bval"), "{err}");
    assert!(err.contains("t.grc"), "no place: {err}");
}
