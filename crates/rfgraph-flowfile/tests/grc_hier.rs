//! GNU Radio Companion hierarchical blocks: a `.grc` file with
//! `generate_options: hb` used by another flowgraph through its `id`.
//! Its `pad_source`/`pad_sink` blocks become its ports (numbered as GRC
//! numbers them: pads in name order, message pads by label), its
//! `parameter` blocks its parameters; the builder flattens it into the
//! using flowgraph (`instance/inner` names) and the run gives what GNU
//! Radio's generated hierarchical block gives. Untrusted pads and port
//! keys never panic.

mod common;

use common::{RunBounded, scratch, write};
use proptest::prelude::*;
use rfgraph::registry::Registry;
use rfgraph_flowfile::build::{self, BuildOptions, Built};
use rfgraph_flowfile::grc;
use std::path::Path;
use std::sync::OnceLock;

fn registry() -> &'static Registry {
    static R: OnceLock<Registry> = OnceLock::new();
    R.get_or_init(rfgraph_flowfile::standard::registry)
}

fn block(name: &str, id: &str, params: &[(&str, &str)]) -> String {
    let mut s = format!("- name: {name}\n  id: {id}\n  parameters:\n");
    for (k, v) in params {
        s.push_str(&format!("    {k}: '{v}'\n"));
    }
    s.push_str("  states:\n    coordinate: [0, 0]\n    state: enabled\n");
    s
}

/// A GRC file with id `id` (`generate_options` `options`), `blocks` and
/// `[src, src_port, dst, dst_port]` connections.
fn grc(id: &str, options: &str, blocks: &[String], conns: &[[&str; 4]]) -> String {
    let mut s = format!(
        "options:\n  parameters:\n    id: {id}\n    generate_options: {options}\nblocks:\n"
    );
    for b in blocks {
        s.push_str(b);
    }
    s.push_str("connections:\n");
    for [a, ap, b, bp] in conns {
        s.push_str(&format!("- [{a}, '{ap}', {b}, '{bp}']\n"));
    }
    s.push_str("metadata:\n  file_format: 1\n");
    s
}

fn pad(name: &str, id: &str, label: &str, ty: &str, optional: bool) -> String {
    let optional = if optional { "True" } else { "False" };
    block(
        name,
        id,
        &[
            ("label", label),
            ("type", ty),
            ("num_streams", "1"),
            ("optional", optional),
            ("vlen", "1"),
        ],
    )
}

fn scale(name: &str, k: &str) -> String {
    block(
        name,
        "blocks_multiply_const_vxx",
        &[("type", "float"), ("const", k), ("vlen", "1")],
    )
}

/// `scale`: a hierarchical block of parameter `k` (default 1) whose
/// input `in` fans out to `out` (× k) and, through an optional pad,
/// `twice` (× 2k); the pads are named so that name order (GRC's port
/// order) differs from file order.
fn scale_hier() -> String {
    grc(
        "scale",
        "hb",
        &[
            pad("pad_sink_1", "pad_sink", "twice", "float", true),
            pad("pad_sink_0", "pad_sink", "out", "float", false),
            pad("pad_source_0", "pad_source", "in", "float", false),
            block(
                "k",
                "parameter",
                &[("type", "eng_float"), ("value", "1"), ("label", "Gain")],
            ),
            scale("mul", "k"),
            scale("mul2", "2 * k"),
        ],
        &[
            ["pad_source_0", "0", "mul", "0"],
            ["pad_source_0", "0", "mul2", "0"],
            ["mul", "0", "pad_sink_0", "0"],
            ["mul2", "0", "pad_sink_1", "0"],
        ],
    )
}

/// A flowgraph `top.grc`: a vector source of [1, 2, 3] into `scale_0`
/// (`k` given) and vector sinks on the hierarchical block's outputs
/// `ports` (stream keys).
fn top(k: &str, ports: &[&str]) -> String {
    let mut blocks = vec![
        block("gain", "variable", &[("value", "1.5")]),
        block(
            "src",
            "blocks_vector_source_x",
            &[
                ("type", "float"),
                ("vector", "[1.0, 2.0, 3.0]"),
                ("repeat", "False"),
            ],
        ),
        block(
            "scale_0",
            "scale",
            &[("k", k), ("alias", ""), ("comment", "")],
        ),
    ];
    let mut conns = vec![["src", "0", "scale_0", "0"]];
    let sinks: Vec<String> = ports.iter().map(|p| format!("sink{p}")).collect();
    for (p, s) in ports.iter().zip(&sinks) {
        blocks.push(block(s, "blocks_vector_sink_x", &[("type", "float")]));
        conns.push(["scale_0", p, s, "0"]);
    }
    grc("top", "no_gui", &blocks, &conns)
}

/// Loads and builds `path`.
fn built(path: &Path) -> Built {
    build::build_file(path, registry(), &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `built` and gives each named vector sink's items.
fn run(built: Built, sinks: &[&str]) -> Vec<Vec<f32>> {
    let ids: Vec<_> = sinks
        .iter()
        .map(|s| {
            built
                .blocks
                .iter()
                .find(|b| b.name == *s)
                .unwrap_or_else(|| panic!("no block {s}"))
                .id
        })
        .collect();
    let scheduler = built.scheduler.scheduler().unwrap();
    let done = built.flowgraph.run_bounded(scheduler).unwrap();
    ids.iter()
        .map(|id| {
            done.block::<rfgraph_blocks::VectorSink<f32>>(*id)
                .unwrap()
                .items()
                .to_vec()
        })
        .collect()
}

#[test]
fn a_hierarchical_grc_block_is_flattened_with_its_parameter() {
    let dir = scratch("grc_hier_flat");
    // The file's name need not be its id.
    write(&dir, "scale_block.grc", &scale_hier());
    let top = write(&dir, "top.grc", &top("gain * 2", &["0", "1"]));
    let b = built(&top);
    let names: Vec<&str> = b.blocks.iter().map(|b| b.name.as_str()).collect();
    assert!(names.contains(&"scale_0/mul"), "{names:?}");
    assert!(names.contains(&"scale_0/mul2"), "{names:?}");
    // The input feeding two inner blocks goes through one copy.
    assert!(names.contains(&"scale_0/pad_source_0_fanout"), "{names:?}");
    let got = run(b, &["sink0", "sink1"]);
    assert_eq!(got[0], [3.0, 6.0, 9.0]);
    assert_eq!(got[1], [6.0, 12.0, 18.0]);
}

#[test]
fn a_parameter_not_given_keeps_its_default_and_an_unread_output_is_drained() {
    let dir = scratch("grc_hier_default");
    write(&dir, "scale.grc", &scale_hier());
    let text = top("", &["0"]);
    let top = write(&dir, "top.grc", &text);
    let doc = grc::load(&top, registry()).unwrap();
    let hier = doc.block("scale_0").unwrap();
    assert_eq!(hier.kind, "scale.grc");
    assert!(hier.params.is_empty(), "{:?}", hier.params);
    // `twice` (stream key 1) is read by nothing: a null sink reads it.
    assert!(doc.block("scale_0_1_null").is_some());
    let got = run(built(&top), &["sink0"]);
    assert_eq!(got[0], [1.0, 2.0, 3.0]);
}

#[test]
fn message_pads_are_ports_named_by_their_label() {
    let dir = scratch("grc_hier_msg");
    write(
        &dir,
        "ticker.grc",
        &grc(
            "ticker",
            "hb",
            &[
                pad("pad_sink_0", "pad_sink", "ticks out", "message", true),
                pad("pad_source_0", "pad_source", "ctl", "message", true),
                block(
                    "strobe",
                    "blocks_message_strobe",
                    &[("msg", "pmt.intern(\"tick\")"), ("period", "1000")],
                ),
            ],
            &[
                ["strobe", "strobe", "pad_sink_0", "in"],
                ["pad_source_0", "out", "strobe", "set_msg"],
            ],
        ),
    );
    let top = write(
        &dir,
        "top.grc",
        &grc(
            "top",
            "no_gui",
            &[
                block("t", "ticker", &[]),
                block("dbg", "blocks_message_debug", &[("en_uvec", "True")]),
            ],
            &[["t", "ticks out", "dbg", "print"]],
        ),
    );
    let b = built(&top);
    let edge = b
        .edges
        .iter()
        .map(|e| format!("{e:?}"))
        .find(|e| e.contains("t/strobe") && e.contains("dbg"));
    assert!(edge.is_some(), "{:?}", b.edges);
}

#[test]
fn unknown_ports_and_the_hierarchical_files_own_errors_are_reported() {
    let dir = scratch("grc_hier_errors");
    write(&dir, "scale.grc", &scale_hier());
    // Stream output 2 does not exist.
    let top_path = write(&dir, "top.grc", &top("2", &["0", "2"]));
    let e = grc::load(&top_path, registry()).unwrap_err().to_string();
    assert!(
        e.contains("hierarchical block `scale_0` has no stream output `2`"),
        "{e}"
    );
    // An unsupported block inside the hierarchical file is reported at
    // that file when the flowgraph is built.
    let broken = scale_hier().replace("blocks_multiply_const_vxx", "no_such_block_xx");
    write(&dir, "scale.grc", &broken);
    let top_path = write(&dir, "top.grc", &top("2", &["0"]));
    let e = match build::build_file(&top_path, registry(), &BuildOptions::default()) {
        Ok(_) => panic!("built a flowgraph with an unknown inner block"),
        Err(e) => e.to_string(),
    };
    assert!(
        e.contains("scale.grc") && e.contains("no_such_block_xx"),
        "{e}"
    );
}

#[test]
fn a_hierarchical_block_using_itself_is_an_error() {
    let dir = scratch("grc_hier_self");
    let me = grc(
        "me",
        "hb",
        &[
            pad("pad_source_0", "pad_source", "in", "float", false),
            pad("pad_sink_0", "pad_sink", "out", "float", false),
            block("inner", "me", &[]),
        ],
        &[
            ["pad_source_0", "0", "inner", "0"],
            ["inner", "0", "pad_sink_0", "0"],
        ],
    );
    write(&dir, "me.grc", &me);
    let text = top("1", &["0"]).replace("id: scale", "id: me");
    let top = write(&dir, "top.grc", &text);
    let e = match build::build_file(&top, registry(), &BuildOptions::default()) {
        Ok(_) => panic!("built a block that includes itself"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("includes itself"), "{e}");
}

fn arb_label() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[a-z ]{0,6}",
        Just("out".to_string()),
        Just("'q'".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random pads (labels, types, stream counts, also nonsense) and
    /// random port keys on the using side: the import and the build end
    /// in a flowgraph or an error, never a panic.
    #[test]
    fn random_pads_and_port_keys_never_panic(
        labels in proptest::collection::vec(arb_label(), 3),
        types in proptest::collection::vec(
            prop_oneof![Just("float"), Just("message"), Just("complex"), Just(""), Just("bogus")],
            3,
        ),
        counts in proptest::collection::vec(
            prop_oneof![Just("1"), Just("2"), Just("0"), Just("x"), Just("99999999999999999999")],
            3,
        ),
        keys in proptest::collection::vec(
            prop_oneof![
                Just("0".to_string()),
                Just("1".to_string()),
                Just("5".to_string()),
                Just("out".to_string()),
                "[a-z]{1,3}",
            ],
            2,
        ),
    ) {
        let dir = scratch(&format!("grc_hier_fuzz_{}", std::process::id()));
        let pads: Vec<String> = (0..3)
            .map(|i| {
                let id = if i == 0 { "pad_source" } else { "pad_sink" };
                block(
                    &format!("{id}_{i}"),
                    id,
                    &[
                        ("label", &labels[i]),
                        ("type", types[i]),
                        ("num_streams", counts[i]),
                    ],
                )
            })
            .chain([scale("mul", "2")])
            .collect();
        write(
            &dir,
            "h.grc",
            &grc(
                "h",
                "hb",
                &pads,
                &[
                    ["pad_source_0", "0", "mul", "0"],
                    ["mul", "0", "pad_sink_1", "0"],
                    ["mul", "0", "pad_sink_2", &keys[1]],
                ],
            ),
        );
        let text = grc(
            "top",
            "no_gui",
            &[
                block(
                    "src",
                    "blocks_vector_source_x",
                    &[("type", "float"), ("vector", "[1.0]"), ("repeat", "False")],
                ),
                block("h_0", "h", &[]),
                block("sink", "blocks_vector_sink_x", &[("type", "float")]),
            ],
            &[["src", "0", "h_0", &keys[0]], ["h_0", &keys[1], "sink", "0"]],
        );
        let top = write(&dir, "top.grc", &text);
        let _ = build::build_file(&top, registry(), &BuildOptions { dry_run: true, ..Default::default() });
    }
}
