//! GNU Radio's equalizer, correlation and soft-decision objects in GRC
//! files: `variable_adaptive_algorithm`, `variable_modulate_vector` over
//! a `digital.generic_mod(...)`, constellations with soft-decision LUTs,
//! and the blocks taking them (`digital_linear_equalizer`,
//! `digital_decision_feedback_equalizer`, `digital_corr_est_cc`,
//! `digital_constellation_soft_decoder_cf`) load, build and run; a
//! malformed definition is an error naming its place, never a panic.

use rfgraph_flowfile::build::{self, BuildOptions};
use rfgraph_flowfile::grc;
use std::path::Path;
use std::time::Duration;

fn block(name: &str, id: &str, params: &[(&str, &str)]) -> String {
    let mut s = format!("- name: {name}\n  id: {id}\n  parameters:\n");
    for (k, v) in params {
        s.push_str(&format!("    {k}: \"{}\"\n", v.replace('"', "\\\"")));
    }
    s.push_str("  states:\n    coordinate: [0, 0]\n    state: enabled\n");
    s
}

fn grc(blocks: &[String], conns: &[(&str, &str, &str, &str)]) -> String {
    let mut s = String::from("options:\n  parameters:\n    id: t\nblocks:\n");
    for b in blocks {
        s.push_str(b);
    }
    s.push_str("connections:\n");
    for (a, ap, b, bp) in conns {
        s.push_str(&format!("- [{a}, '{ap}', {b}, '{bp}']\n"));
    }
    s.push_str("metadata:\n  file_format: 1\n");
    s
}

/// Loads and builds `text`: the error text when either fails.
fn load(text: &str) -> Result<rfgraph_flowfile::build::Built, String> {
    let registry = rfgraph_flowfile::standard::registry();
    let doc = grc::from_str(text, Path::new("t.grc"), &registry).map_err(|e| e.to_string())?;
    build::build(&doc, &registry, &BuildOptions::default()).map_err(|e| e.to_string())
}

fn graph(cons: &[(&str, &str)], alg: &[(&str, &str)], modvec: &[(&str, &str)]) -> String {
    grc(
        &[
            block("cons", "variable_constellation", cons),
            block("alg", "variable_adaptive_algorithm", alg),
            block(
                "rxmod",
                "variable",
                &[(
                    "value",
                    "digital.generic_mod(cons, False, 2, True, 0.35, False, False)",
                )],
            ),
            block("sync", "variable_modulate_vector", modvec),
            block(
                "src",
                "blocks_vector_source_x",
                &[
                    ("type", "complex"),
                    ("vector", "list(sync) * 3 + [0.5j] * 300"),
                    ("repeat", "False"),
                    ("tags", "[]"),
                    ("vlen", "1"),
                ],
            ),
            block(
                "corr",
                "digital_corr_est_cc",
                &[
                    ("symbols", "sync"),
                    ("sps", "2"),
                    ("mark_delay", "3"),
                    ("threshold", "0.9"),
                    ("threshold_method", "digital.THRESHOLD_ABSOLUTE"),
                ],
            ),
            block(
                "eq",
                "digital_linear_equalizer",
                &[
                    ("num_taps", "5"),
                    ("sps", "2"),
                    ("alg", "alg"),
                    ("adapt_after_training", "True"),
                    ("training_sequence", "[1, -1, 1, 1]"),
                    ("training_start_tag", "corr_est"),
                ],
            ),
            block(
                "dfe",
                "digital_decision_feedback_equalizer",
                &[
                    ("num_taps_fwd", "5"),
                    ("num_taps_rev", "2"),
                    ("sps", "2"),
                    ("alg", "alg"),
                    ("adapt_after_training", "True"),
                    ("training_sequence", "[ ]"),
                    ("training_start_tag", "corr_est"),
                ],
            ),
            block(
                "soft",
                "digital_constellation_soft_decoder_cf",
                &[("constellation", "cons")],
            ),
            block("snk", "blocks_null_sink", &[("type", "complex")]),
            block("fsnk", "blocks_null_sink", &[("type", "float")]),
        ],
        &[
            ("src", "0", "corr", "0"),
            ("corr", "0", "eq", "0"),
            ("corr", "0", "dfe", "0"),
            ("eq", "0", "soft", "0"),
            ("dfe", "0", "snk", "0"),
            ("soft", "0", "fsnk", "0"),
        ],
    )
}

const CONS: &[(&str, &str)] = &[
    ("type", "calcdist"),
    ("const_points", "digital.psk_2()[0]"),
    ("sym_map", "digital.psk_2()[1]"),
    ("rot_sym", "2"),
    ("dims", "1"),
    ("precision", "8"),
    ("soft_dec_lut", "'auto'"),
];
const ALG: &[(&str, &str)] = &[
    ("type", "cma"),
    ("cons", "cons"),
    ("step_size", ".001"),
    ("modulus", "1"),
];
const MODVEC: &[(&str, &str)] = &[
    ("mod", "rxmod"),
    ("data", "[0xac, 0xdd, 0xa4, 0xe2]"),
    ("taps", "[1]"),
];

#[test]
fn equalizer_objects_load_build_and_run() {
    let built = load(&graph(CONS, ALG, MODVEC)).unwrap();
    let scheduler = built.scheduler.scheduler().unwrap();
    built
        .flowgraph
        .start(scheduler)
        .unwrap()
        .wait_timeout(Duration::from_secs(30))
        .unwrap();
    for lut in [
        "digital.soft_dec_table_generator(digital.sd_psk_2, 6, 1)",
        "None",
    ] {
        let mut cons = CONS.to_vec();
        cons.retain(|(k, _)| *k != "soft_dec_lut");
        cons.push(("soft_dec_lut", lut));
        for kind in ["lms", "nlms"] {
            let mut alg = ALG.to_vec();
            alg[0] = ("type", kind);
            load(&graph(&cons, &alg, MODVEC)).unwrap_or_else(|e| panic!("{lut} {kind}: {e}"));
        }
    }
}

/// Malformed constellations, algorithms and modulators are errors that
/// name the variable (or its parameter), not panics.
#[test]
fn malformed_definitions_are_errors_at_their_place() {
    let with = |base: &[(&'static str, &'static str)], k: &'static str, v: &'static str| {
        let mut p = base.to_vec();
        p.retain(|(n, _)| *n != k);
        p.push((k, v));
        p
    };
    let cases: Vec<(String, &str)> = vec![
        (
            graph(&with(CONS, "soft_dec_lut", "'sometimes'"), ALG, MODVEC),
            "cons",
        ),
        (graph(&with(CONS, "precision", "40"), ALG, MODVEC), "cons"),
        (
            graph(
                &with(
                    CONS,
                    "soft_dec_lut",
                    "digital.soft_dec_table_generator(digital.sd_psk_2, 99)",
                ),
                ALG,
                MODVEC,
            ),
            "cons",
        ),
        (
            graph(
                &with(
                    CONS,
                    "soft_dec_lut",
                    "digital.soft_dec_table_generator(3, 8)",
                ),
                ALG,
                MODVEC,
            ),
            "cons",
        ),
        (graph(CONS, &with(ALG, "cons", "5"), MODVEC), "alg"),
        (
            graph(CONS, &with(ALG, "step_size", "'fast'"), MODVEC),
            "alg",
        ),
        (graph(CONS, &with(ALG, "type", "rls"), MODVEC), "alg"),
        (graph(CONS, ALG, &with(MODVEC, "data", "[300]")), "sync"),
        (graph(CONS, ALG, &with(MODVEC, "mod", "cons")), "sync"),
        (graph(CONS, ALG, &with(MODVEC, "taps", "['x']")), "sync"),
        (
            graph(
                &with(CONS, "const_points", "[1, 2, 3]"),
                ALG,
                &with(MODVEC, "data", "[1]"),
            ),
            // Found where the constellation is first used.
            "the symbol map has 2 entries for 3 points",
        ),
    ];
    for (text, place) in cases {
        let err = match load(&text) {
            Ok(_) => panic!("{place}: loaded\n{text}"),
            Err(e) => e,
        };
        assert!(err.contains(place), "{place}: {err}");
        assert!(err.starts_with("t.grc:"), "no location: {err}");
    }
}
