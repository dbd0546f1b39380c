//! GNU Radio Companion flowgraphs with the metadata file blocks, the
//! tagged file sink, the burst shaper, `tags_to_pdu` and the variable-rate
//! tag test block: the mapping table turns each into its registry block
//! (GNU Radio's parameter names and values, as GRC writes them), and a
//! metadata file written by one imported flowgraph plays in another.

use common::grc_text::{self, block, grc};
use rfgraph_flowfile::build::{self, BuildOptions};
use rfgraph_flowfile::grc;
use std::path::{Path, PathBuf};
use std::time::Duration;

mod common;

const WATCHDOG: Duration = Duration::from_secs(30);

fn scratch(name: &str) -> PathBuf {
    grc_text::scratch_file("grc-meta", name)
}

/// Imports `text`, builds it and runs it to completion.
fn run(text: &str) {
    let registry = rfgraph_flowfile::standard::registry();
    let doc = grc::from_str_with(text, Path::new("t.grc"), &registry, &Default::default()).unwrap();
    let built = build::build(&doc, &registry, &BuildOptions::default()).unwrap();
    let scheduler = built.scheduler.scheduler().unwrap();
    built
        .flowgraph
        .start(scheduler)
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
}

fn source(values: &str) -> String {
    block(
        "src",
        "blocks_vector_source_x",
        &[
            ("type", "float"),
            ("vector", values),
            ("repeat", "False"),
            ("tags", "[]"),
            ("vlen", "1"),
        ],
    )
}

#[test]
fn a_metadata_file_written_by_one_flowgraph_plays_in_another() {
    for detached in ["False", "True"] {
        let meta = scratch(&format!("meta-{detached}.dat"));
        let raw = scratch(&format!("raw-{detached}.f32"));
        let file = meta.to_str().unwrap();
        run(&grc(
            &[
                source("[1.0, 2.0, 3.0, 4.0, 5.0]"),
                block(
                    "sink",
                    "blocks_file_meta_sink",
                    &[
                        ("type", "float"),
                        ("file", file),
                        ("samp_rate", "32000"),
                        ("rel_rate", "1"),
                        ("vlen", "1"),
                        ("max_seg_size", "2"),
                        ("extra_dict", "pmt.make_dict()"),
                        ("detached", detached),
                        ("unbuffered", "False"),
                    ],
                ),
            ],
            &[("src", "0", "sink", "0")],
        ));
        run(&grc(
            &[
                block(
                    "src",
                    "blocks_file_meta_source",
                    &[
                        ("type", "float"),
                        ("file", file),
                        ("repeat", "False"),
                        ("detached", detached),
                        ("hdr_file", ""),
                        ("vlen", "1"),
                    ],
                ),
                block(
                    "sink",
                    "blocks_file_sink",
                    &[
                        ("type", "float"),
                        ("file", raw.to_str().unwrap()),
                        ("append", "False"),
                    ],
                ),
            ],
            &[("src", "0", "sink", "0")],
        ));
        let got: Vec<f32> = std::fs::read(&raw)
            .unwrap()
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(got, [1.0, 2.0, 3.0, 4.0, 5.0], "detached {detached}");
    }
}

#[test]
fn extras_from_grc_expressions_are_refused_not_dropped() {
    let text = grc(
        &[
            source("[1.0]"),
            block(
                "sink",
                "blocks_file_meta_sink",
                &[
                    ("type", "float"),
                    ("file", scratch("x.dat").to_str().unwrap()),
                    (
                        "extra_dict",
                        "pmt.dict_add(pmt.make_dict(), pmt.intern(\"a\"), pmt.from_long(1))",
                    ),
                ],
            ),
        ],
        &[("src", "0", "sink", "0")],
    );
    let registry = rfgraph_flowfile::standard::registry();
    let result = grc::from_str_with(&text, Path::new("t.grc"), &registry, &Default::default());
    assert!(result.is_err(), "an extra dict cannot be imported yet");
}

#[test]
fn the_burst_and_tag_blocks_import_with_gnu_radios_parameters() {
    let text = grc(
        &[
            source("[0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]"),
            block(
                "rate",
                "blocks_test_tag_variable_rate_ff",
                &[("once", "False"), ("step", "0.01")],
            ),
            block(
                "shaper",
                "digital_burst_shaper_xx",
                &[
                    ("type", "float"),
                    ("window", "[0.5, 1.0, 0.5]"),
                    ("pre_padding", "2"),
                    ("post_padding", "3"),
                    ("insert_phasing", "True"),
                    ("length_tag_name", "\"packet_len\""),
                ],
            ),
            block(
                "to_pdu",
                "pdu_tags_to_pdu_x",
                &[
                    ("type", "f"),
                    ("start_tag", "\"SOB\""),
                    ("end_tag", "\"EOB\""),
                    ("max_pdu_size", "1024"),
                    ("rate", "32000"),
                    ("prepend", "[]"),
                    ("cfg_port", "False"),
                    ("pub_det", "False"),
                    ("tail_size", "0"),
                    ("eob_alignment", "1"),
                    ("eob_offset", "0"),
                    ("start_time", "0.0"),
                    ("boost_time", "False"),
                ],
            ),
            block(
                "tagged",
                "blocks_tagged_file_sink",
                &[("type", "float"), ("samp_rate", "32000"), ("vlen", "1")],
            ),
        ],
        &[
            ("src", "0", "rate", "0"),
            ("rate", "0", "shaper", "0"),
            ("shaper", "0", "to_pdu", "0"),
            ("rate", "0", "tagged", "0"),
        ],
    );
    run(&text);
}
