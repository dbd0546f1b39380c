//! GNU Radio's polar code variables imported from GRC: the configurator
//! (`variable_polar_code_configurator`, a dict whose `positions` and
//! `values` the coder definitions read) and the polar coder definitions
//! reach the FEC blocks' flattened code parameters, and a flowgraph of
//! them builds; a malformed definition (block size not a power of two,
//! more information bits than the block) is an error at its place in the
//! file, never a panic.

use rfgraph_flowfile::build::{self, BuildOptions};
use rfgraph_flowfile::grc;
use std::path::Path;

fn block(name: &str, id: &str, params: &[(&str, &str)]) -> String {
    let mut s = format!("- name: {name}\n  id: {id}\n  parameters:\n");
    for (k, v) in params {
        s.push_str(&format!("    {k}: '{v}'\n"));
    }
    s.push_str("  states:\n    coordinate: [0, 0]\n    state: enabled\n");
    s
}

fn grc(n: &str, k: &str, list: &str) -> String {
    let blocks = [
        block(
            "polar_config",
            "variable_polar_code_configurator",
            &[
                ("channel", "polar.CHANNEL_TYPE_BEC"),
                ("block_size", n),
                ("num_info_bits", k),
                ("design_snr", "0.0"),
                ("mu", "32"),
            ],
        ),
        block(
            "enc",
            "variable_polar_encoder_def",
            &[
                ("block_size", n),
                ("num_info_bits", k),
                ("frozen_bit_positions", "polar_config[\"positions\"]"),
                ("frozen_bit_values", "polar_config[\"values\"]"),
                ("is_packed", "False"),
            ],
        ),
        block(
            "dec",
            "variable_polar_decoder_sc_list_def",
            &[
                ("max_list_size", list),
                ("block_size", n),
                ("num_info_bits", k),
                ("frozen_bit_positions", "polar_config[\"positions\"]"),
                ("frozen_bit_values", "polar_config[\"values\"]"),
            ],
        ),
        block(
            "src",
            "blocks_vector_source_x",
            &[
                ("type", "byte"),
                ("vector", "[0, 1] * 4096"),
                ("repeat", "False"),
            ],
        ),
        block(
            "fenc",
            "fec_extended_encoder",
            &[("encoder_list", "enc"), ("puncpat", "\"11\"")],
        ),
        block("c2f", "blocks_char_to_float", &[("scale", "1")]),
        block(
            "fdec",
            "fec_extended_decoder",
            &[
                ("decoder_list", "dec"),
                ("ann", "None"),
                ("puncpat", "\"11\""),
                ("value", "fec_extended_decoder"),
            ],
        ),
        block("sink", "blocks_null_sink", &[("type", "byte")]),
    ];
    let mut s = String::from("options:\n  parameters:\n    id: t\nblocks:\n");
    for b in &blocks {
        s.push_str(b);
    }
    s.push_str("connections:\n");
    for (a, ap, b, bp) in [
        ("src", "0", "fenc", "0"),
        ("fenc", "0", "c2f", "0"),
        ("c2f", "0", "fdec", "0"),
        ("fdec", "0", "sink", "0"),
    ] {
        s.push_str(&format!("- [{a}, '{ap}', {b}, '{bp}']\n"));
    }
    s.push_str("metadata:\n  file_format: 1\n");
    s
}

/// The error text of loading and building `text`, or `None` when both
/// succeed.
fn failure(text: &str) -> Option<String> {
    let registry = rfgraph_flowfile::standard::registry();
    let doc = match grc::from_str(text, Path::new("t.grc"), &registry) {
        Ok(d) => d,
        Err(e) => return Some(e.to_string()),
    };
    build::build(&doc, &registry, &BuildOptions::default())
        .err()
        .map(|e| e.to_string())
}

#[test]
fn polar_definitions_build() {
    assert_eq!(failure(&grc("256", "128", "8")), None);
    assert_eq!(failure(&grc("2048", "1000", "4")), None);
}

#[test]
fn malformed_polar_definitions_are_errors_at_their_place() {
    for (n, k, list, what) in [
        ("96", "48", "8", "power of 2"),
        ("64", "80", "8", "80"),
        ("64", "32", "3", "max_list_size"),
    ] {
        let err = failure(&grc(n, k, list))
            .unwrap_or_else(|| panic!("N = {n}, K = {k}, L = {list} accepted"));
        assert!(err.contains(what), "{err}");
        assert!(err.contains("t.grc"), "no place: {err}");
    }
}
