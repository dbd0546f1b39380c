//! GNU Radio blocks imported through the mapping table and built with the
//! standard registry: complex FIR taps (`fir_filter_xxx` of type `ccc`),
//! hardware sources as seify's `dummy` device, GNU Radio's message values
//! and standard constellations.

use common::grc_text::{self, block, c32s, grc};
use rfgraph_flowfile::build::{self, BuildOptions};
use rfgraph_flowfile::grc::{self, LoadOptions};
use rfgraph_flowfile::model::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

mod common;

const WATCHDOG: Duration = Duration::from_secs(10);

fn scratch(name: &str) -> PathBuf {
    grc_text::scratch_file("grc-mapped", name)
}

/// Builds `text` and runs it to completion under the watchdog.
fn run(text: &str, options: &LoadOptions) -> rfgraph_flowfile::model::Document {
    let registry = rfgraph_flowfile::standard::registry();
    let doc = grc::from_str_with(text, Path::new("t.grc"), &registry, options).unwrap();
    let built = build::build(&doc, &registry, &BuildOptions::default()).unwrap();
    let scheduler = built.scheduler.scheduler().unwrap();
    built
        .flowgraph
        .start(scheduler)
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
    doc
}

#[test]
fn complex_taps_filter_complex_streams() {
    let out = scratch("ccc.c32");
    let text = grc(
        &[
            block(
                "src",
                "blocks_vector_source_x",
                &[
                    ("type", "complex"),
                    ("vector", "[1, 0, 0, 1j]"),
                    ("repeat", "False"),
                ],
            ),
            block(
                "fir",
                "fir_filter_xxx",
                &[("type", "ccc"), ("decim", "1"), ("taps", "[1+1j, 2]")],
            ),
            block(
                "sink",
                "blocks_file_sink",
                &[
                    ("type", "complex"),
                    ("file", out.to_str().unwrap()),
                    ("append", "False"),
                ],
            ),
        ],
        &[("src", "0", "fir", "0"), ("fir", "0", "sink", "0")],
    );
    run(&text, &LoadOptions::default());
    // y = (1+j)·x[n] + 2·x[n−1] for x = 1, 0, 0, j.
    let got = c32s(&std::fs::read(&out).unwrap());
    let want = [(1.0, 1.0), (2.0, 0.0), (0.0, 0.0), (-1.0, 1.0)];
    assert_eq!(got.len(), want.len(), "{got:?}");
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g.0 - w.0).abs() < 1e-6 && (g.1 - w.1).abs() < 1e-6,
            "{got:?}"
        );
    }
    let _ = std::fs::remove_file(&out);
}

#[test]
fn hardware_sources_become_bounded_dummy_devices() {
    let out = scratch("usrp.c32");
    let text = grc(
        &[
            block(
                "usrp",
                "uhd_usrp_source",
                &[
                    ("type", "fc32"),
                    ("samp_rate", "1e6"),
                    ("center_freq0", "100e6"),
                    ("gain0", "10"),
                ],
            ),
            block(
                "sink",
                "blocks_file_sink",
                &[
                    ("type", "complex"),
                    ("file", out.to_str().unwrap()),
                    ("append", "False"),
                ],
            ),
        ],
        &[("usrp", "0", "sink", "0")],
    );
    let doc = run(
        &text,
        &LoadOptions {
            max_items: Some(4096),
        },
    );
    let usrp = doc.block("usrp").unwrap();
    assert_eq!(usrp.kind, "sdr_source");
    assert_eq!(
        usrp.param("args").unwrap().value,
        Value::Text("driver=dummy".into())
    );
    assert_eq!(
        usrp.param("frequency").unwrap().value,
        Value::Expr("100e6".into())
    );
    // What GNU Radio's callbacks (set_samp_rate, set_center_freq,
    // set_gain) change while running changes here too.
    let registry = rfgraph_flowfile::standard::registry();
    let spec = registry.get("sdr_source").unwrap();
    let set: Vec<&str> = usrp.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(set, ["args", "sample_rate", "frequency", "gain"]);
    for name in &set[1..] {
        assert!(spec.param_spec(name).unwrap().settable, "{name}");
    }
    assert!(
        doc.notices.iter().any(|n| n.contains("dummy")),
        "{:?}",
        doc.notices
    );
    assert_eq!(std::fs::read(&out).unwrap().len(), 4096 * 8);
    let _ = std::fs::remove_file(&out);
}

#[test]
fn message_values_constellations_and_refusals() {
    let registry = rfgraph_flowfile::standard::registry();
    let text = grc(
        &[
            block("cons", "variable_constellation", &[("type", "8psk")]),
            block(
                "set",
                "pdu_pdu_set",
                &[("k", "pmt.intern(\"snr\")"), ("v", "pmt.from_double(3.5)")],
            ),
            block(
                "dec",
                "digital_constellation_decoder_cb",
                &[("constellation", "cons")],
            ),
            block(
                "evm",
                "digital_meas_evm_cc",
                &[
                    ("cons", "digital.constellation_qpsk().base()"),
                    ("meas_type", "digital.evm_measurement_t.EVM_DB"),
                ],
            ),
            block(
                "src",
                "blocks_vector_source_x",
                &[
                    ("type", "complex"),
                    ("vector", "[1, 1j]"),
                    ("repeat", "False"),
                ],
            ),
            block("lenkey", "variable", &[("value", "\"len\"")]),
            block(
                "p2s",
                "pdu_pdu_to_tagged_stream",
                &[("type", "byte"), ("tag", "packet_len")],
            ),
            block(
                "s2p",
                "pdu_tagged_stream_to_pdu",
                &[("type", "byte"), ("tag", "lenkey")],
            ),
            block("bytes", "blocks_null_sink", &[("type", "byte")]),
            block("floats", "blocks_null_sink", &[("type", "float")]),
        ],
        &[
            ("src", "0", "dec", "0"),
            ("src", "0", "evm", "0"),
            ("dec", "0", "bytes", "0"),
            ("evm", "0", "floats", "0"),
            ("p2s", "0", "s2p", "0"),
        ],
    );
    let doc = grc::from_str(&text, Path::new("t.grc"), &registry).unwrap();
    let set = doc.block("set").unwrap();
    assert_eq!(
        set.param("key").unwrap().value,
        Value::Expr("pmt.intern(\"snr\")".into())
    );
    assert_eq!(
        set.param("value").unwrap().value,
        Value::Expr("pmt.from_double(3.5)".into())
    );
    // GRC string parameters: literal text, or the variable they name.
    assert_eq!(
        doc.block("p2s")
            .unwrap()
            .param("len_tag_key")
            .unwrap()
            .value,
        Value::Expr("\"packet_len\"".into())
    );
    assert_eq!(
        doc.block("s2p")
            .unwrap()
            .param("len_tag_key")
            .unwrap()
            .value,
        Value::Expr("lenkey".into())
    );
    let evm = doc.block("evm").unwrap();
    assert_eq!(
        evm.param("constellation").unwrap().value,
        Value::Expr("digital.constellation_qpsk().base()".into())
    );
    assert_eq!(evm.param("mode").unwrap().value, Value::Text("db".into()));
    build::build(&doc, &registry, &BuildOptions::default()).unwrap();
}

/// A `variable_constellation` of custom points (`calcdist`) and a
/// `variable_constellation_rect` configure the decoders: each symbol
/// decides to the index of its point, after GNU Radio's normalization.
#[test]
fn custom_constellation_variables_decode() {
    let registry = rfgraph_flowfile::standard::registry();
    let points = "[1+1j, 2.732+0j, -1+1j, 2.732j, -1-1j, -2.732+0j, 1-1j, -2.732j]";
    let text = grc(
        &[
            block(
                "cons",
                "variable_constellation",
                &[
                    ("type", "calcdist"),
                    ("const_points", points),
                    ("sym_map", "[0, 1, 3, 2, 7, 6, 4, 5]"),
                    ("rot_sym", "4"),
                    ("dims", "1"),
                    ("normalization", "digital.constellation.POWER_NORMALIZATION"),
                ],
            ),
            block(
                "rect",
                "variable_constellation_rect",
                &[
                    ("const_points", "[-1-1j, -1+1j, 1-1j, 1+1j]"),
                    ("sym_map", "[0, 1, 2, 3]"),
                    ("real_sect", "2"),
                    ("imag_sect", "2"),
                    ("w_real_sect", "1"),
                    ("w_imag_sect", "1"),
                ],
            ),
            block(
                "src",
                "blocks_vector_source_x",
                &[
                    ("type", "complex"),
                    // Scale-free: each is nearest its point at any scale.
                    (
                        "vector",
                        "[1+1j, 2.7, -1+1.1j, 3j, -1-0.9j, -2.5, 0.9-1j, -2.6j]",
                    ),
                    ("repeat", "False"),
                ],
            ),
            block(
                "dec",
                "digital_constellation_decoder_cb",
                &[("constellation", "cons")],
            ),
            block(
                "dec_rect",
                "digital_constellation_decoder_cb",
                &[("constellation", "rect")],
            ),
            block("snk", "blocks_vector_sink_x", &[("type", "byte")]),
            block("snk_rect", "blocks_vector_sink_x", &[("type", "byte")]),
        ],
        &[
            ("src", "0", "dec", "0"),
            ("src", "0", "dec_rect", "0"),
            ("dec", "0", "snk", "0"),
            ("dec_rect", "0", "snk_rect", "0"),
        ],
    );
    let doc = grc::from_str(&text, Path::new("t.grc"), &registry).unwrap();
    let built = build::build(&doc, &registry, &BuildOptions::default()).unwrap();
    let id = |n: &str| built.blocks.iter().find(|b| b.name == n).unwrap().id;
    let (snk, snk_rect) = (id("snk"), id("snk_rect"));
    let scheduler = built.scheduler.scheduler().unwrap();
    let done = built
        .flowgraph
        .start(scheduler)
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
    let items = |id| {
        done.block::<rfgraph_blocks::VectorSink<u8>>(id)
            .unwrap()
            .items()
            .to_vec()
    };
    assert_eq!(items(snk), [0, 1, 2, 3, 4, 5, 6, 7]);
    // Quadrants: re < 0 → sectors 0, 1; im < 0 → even sectors; 0 (and
    // GNU Radio's −0) counts as positive.
    assert_eq!(items(snk_rect), [3, 3, 1, 3, 0, 1, 2, 2]);
}

/// GNU Radio's callback parameters of the file blocks come through:
/// `file_source`'s begin tag (`pmt.PMT_NIL`, GNU Radio's default, leaves
/// it unset; a symbol is its key) and `file_sink`'s `unbuffered`.
#[test]
fn file_blocks_take_their_callback_parameters() {
    let registry = rfgraph_flowfile::standard::registry();
    let (input, out) = (scratch("cb-in.f32"), scratch("cb-out.f32"));
    let values: Vec<u8> = [1.0f32, 2.0, 3.0, 4.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    std::fs::write(&input, &values).unwrap();
    let graph = |begin_tag: &str| {
        grc(
            &[
                block(
                    "src",
                    "blocks_file_source",
                    &[
                        ("type", "float"),
                        ("file", input.to_str().unwrap()),
                        ("repeat", "False"),
                        ("begin_tag", begin_tag),
                        ("offset", "0"),
                        ("length", "0"),
                        ("vlen", "1"),
                    ],
                ),
                block(
                    "sink",
                    "blocks_file_sink",
                    &[
                        ("type", "float"),
                        ("file", out.to_str().unwrap()),
                        ("append", "False"),
                        ("unbuffered", "True"),
                        ("vlen", "1"),
                    ],
                ),
            ],
            &[("src", "0", "sink", "0")],
        )
    };
    let doc = run(&graph("pmt.PMT_NIL"), &LoadOptions::default());
    assert!(doc.block("src").unwrap().param("begin_tag").is_none());
    assert_eq!(
        doc.block("sink")
            .unwrap()
            .param("unbuffered")
            .unwrap()
            .value,
        Value::Bool(true)
    );
    assert_eq!(std::fs::read(&out).unwrap(), values);
    let doc = grc::from_str(
        &graph("pmt.intern(\"begin\")"),
        Path::new("t.grc"),
        &registry,
    )
    .unwrap();
    assert_eq!(
        doc.block("src").unwrap().param("begin_tag").unwrap().value,
        Value::Expr("pmt.intern(\"begin\")".into())
    );
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&out);
}

/// A vector source's tags load as `[offset, key, value]` lists, their
/// offsets counted in vectors of `vlen`, as GNU Radio places them; a form
/// the importer cannot read makes the block unsupported, never tagless.
#[test]
fn vector_source_tags_are_imported_or_refused() {
    let registry = rfgraph_flowfile::standard::registry();
    let source = |tags: &str| {
        block(
            "src",
            "blocks_vector_source_x",
            &[
                ("type", "float"),
                ("vector", "[1, 2, 3, 4, 5, 6]"),
                ("repeat", "False"),
                ("vlen", "2"),
                ("tags", tags),
            ],
        )
    };
    let snk = block(
        "sink",
        "blocks_vector_sink_x",
        &[("type", "float"), ("vlen", "2")],
    );
    let tags = "[gr.tag_utils.python_to_tag((1, pmt.intern(\"k\"), pmt.from_long(7), pmt.PMT_NIL)), \
                gr.tag_utils.python_to_tag((2, pmt.intern(\"e\"), pmt.PMT_NIL, pmt.intern(\"src\")))]";
    let text = grc(&[source(tags), snk.clone()], &[("src", "0", "sink", "0")]);
    let doc = grc::from_str(&text, Path::new("t.grc"), &registry).unwrap();
    assert_eq!(
        doc.block("src").unwrap().param("tags").unwrap().value,
        Value::List(vec![
            Value::List(vec![
                Value::Expr("1".into()),
                Value::Expr("\"k\"".into()),
                Value::Expr("pmt.from_long(7)".into()),
            ]),
            Value::List(vec![
                Value::Expr("2".into()),
                Value::Expr("\"e\"".into()),
                Value::Expr("None".into()),
            ]),
        ])
    );
    let built = build::build(&doc, &registry, &BuildOptions::default()).unwrap();
    let id = built.blocks.iter().find(|b| b.name == "sink").unwrap().id;
    let scheduler = built.scheduler.scheduler().unwrap();
    let done = built
        .flowgraph
        .start(scheduler)
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
    let sink = done.block::<rfgraph_blocks::VectorSink<f32>>(id).unwrap();
    assert_eq!(sink.items(), &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let seen: Vec<(u64, &str, rfgraph::Pmt)> = sink
        .tags()
        .iter()
        .map(|t| (t.index, t.key.as_str(), t.value.clone()))
        .collect();
    assert_eq!(
        seen,
        [(2, "k", rfgraph::Pmt::I64(7)), (4, "e", rfgraph::Pmt::Null)]
    );

    // Tag objects and GNU Radio's dict form.
    let tagobj = block(
        "t0",
        "variable_tag_object",
        &[
            ("offset", "2"),
            ("key", "pmt.intern(\"t\")"),
            ("value", "pmt.from_double(0.5)"),
            ("src", "pmt.intern(\"src\")"),
        ],
    );
    let tags = "(t0, gr.python_to_tag({\"offset\": 0, \"key\": pmt.intern(\"d\"), \"value\": pmt.PMT_T, \"srcid\": pmt.intern(\"s\")}))";
    let text = grc(
        &[tagobj, source(tags), snk.clone()],
        &[("src", "0", "sink", "0")],
    );
    let doc = grc::from_str(&text, Path::new("t.grc"), &registry).unwrap();
    let built = build::build(&doc, &registry, &BuildOptions::default()).unwrap();
    let id = built.blocks.iter().find(|b| b.name == "sink").unwrap().id;
    let scheduler = built.scheduler.scheduler().unwrap();
    let done = built
        .flowgraph
        .start(scheduler)
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
    let sink = done.block::<rfgraph_blocks::VectorSink<f32>>(id).unwrap();
    let seen: Vec<(u64, &str, rfgraph::Pmt)> = sink
        .tags()
        .iter()
        .map(|t| (t.index, t.key.as_str(), t.value.clone()))
        .collect();
    assert_eq!(
        seen,
        [
            (0, "d", rfgraph::Pmt::Bool(true)),
            (4, "t", rfgraph::Pmt::F64(0.5))
        ]
    );

    // GNU Radio's `tagged_streams.make_lengthtags(lengths, offsets, name)`.
    let tags = "tagged_streams.make_lengthtags((4, 2), (0, 2), \"burst\")";
    let text = grc(&[source(tags), snk.clone()], &[("src", "0", "sink", "0")]);
    let doc = grc::from_str(&text, Path::new("t.grc"), &registry).unwrap();
    let built = build::build(&doc, &registry, &BuildOptions::default()).unwrap();
    let id = built.blocks.iter().find(|b| b.name == "sink").unwrap().id;
    let scheduler = built.scheduler.scheduler().unwrap();
    let done = built
        .flowgraph
        .start(scheduler)
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
    let sink = done.block::<rfgraph_blocks::VectorSink<f32>>(id).unwrap();
    let seen: Vec<(u64, &str, rfgraph::Pmt)> = sink
        .tags()
        .iter()
        .map(|t| (t.index, t.key.as_str(), t.value.clone()))
        .collect();
    assert_eq!(
        seen,
        [
            (0, "burst", rfgraph::Pmt::I64(4)),
            (4, "burst", rfgraph::Pmt::I64(2))
        ]
    );

    // No tags: nothing to set.
    let text = grc(&[source("[]"), snk.clone()], &[("src", "0", "sink", "0")]);
    grc::from_str(&text, Path::new("t.grc"), &registry).unwrap();
    // Forms the importer cannot evaluate are refused, saying why.
    for tags in [
        "my_tags",
        "[gr.tag_t()]",
        "[gr.tag_utils.python_to_tag((0, key_var, pmt.PMT_T, pmt.PMT_NIL))]",
        "tagged_streams.make_lengthtags((4, 2), (0,), \"n\")",
        "tagged_streams.make_lengthtags(lens, (0,), \"n\")",
    ] {
        let text = grc(&[source(tags), snk.clone()], &[("src", "0", "sink", "0")]);
        let err = grc::from_str(&text, Path::new("t.grc"), &registry)
            .unwrap_err()
            .to_string();
        assert!(err.contains("tag"), "{tags}: {err}");
    }
}

/// Loads `text` with the standard registry (nothing runs).
fn load(text: &str) -> rfgraph_flowfile::model::Document {
    let registry = rfgraph_flowfile::standard::registry();
    grc::from_str_with(text, Path::new("t.grc"), &registry, &LoadOptions::default()).unwrap()
}

/// A GNU Radio parameter that the registry block declares by name or
/// alias passes without a table entry; the ones whose values are GNU
/// Radio's own (an enumeration, a 0 meaning "no limit") translate.
#[test]
fn parameters_pass_by_their_declared_names_and_gnu_radio_values_translate() {
    let text = grc(
        &[
            block(
                "src",
                "analog_sig_source_x",
                &[
                    ("type", "float"),
                    ("samp_rate", "32000"),
                    ("waveform", "analog.GR_COS_WAVE"),
                    ("freq", "1000"),
                    ("amp", "0.5"),
                    ("offset", "0"),
                    ("phase", "0.25"),
                ],
            ),
            block("snk", "blocks_null_sink", &[("type", "float")]),
            block(
                "whole",
                "blocks_file_source",
                &[("type", "float"), ("file", "/x.f32"), ("length", "0")],
            ),
            block(
                "part",
                "blocks_file_source",
                &[("type", "float"), ("file", "/x.f32"), ("length", "100")],
            ),
            block("snk2", "blocks_null_sink", &[("type", "float")]),
            block("snk3", "blocks_null_sink", &[("type", "float")]),
            block(
                "bits",
                "blocks_vector_source_x",
                &[("type", "byte"), ("vector", "(0, 1, 1)")],
            ),
            block(
                "nrzi",
                "digital_diff_encoder_bb",
                &[("coding", "digital.DIFF_NRZI"), ("modulus", "2")],
            ),
            block("snk4", "blocks_null_sink", &[("type", "byte")]),
        ],
        &[
            ("src", "0", "snk", "0"),
            ("whole", "0", "snk2", "0"),
            ("part", "0", "snk3", "0"),
            ("bits", "0", "nrzi", "0"),
            ("nrzi", "0", "snk4", "0"),
        ],
    );
    let doc = load(&text);
    let src = doc.block("src").unwrap();
    for (name, value) in [
        ("sample_rate", "32000"),
        ("frequency", "1000"),
        ("amplitude", "0.5"),
        ("phase", "0.25"),
    ] {
        assert_eq!(
            src.param(name).map(|p| &p.value),
            Some(&Value::Expr(value.into())),
            "sig_source {name}"
        );
    }
    assert!(doc.block("whole").unwrap().param("length").is_none());
    assert_eq!(
        doc.block("part").unwrap().param("length").unwrap().value,
        Value::Expr("100".into())
    );
    assert_eq!(
        doc.block("nrzi").unwrap().param("coding").unwrap().value,
        Value::Text("nrzi".into())
    );
    assert_eq!(
        doc.block("bits").unwrap().param("values").unwrap().value,
        Value::Expr("(0, 1, 1)".into())
    );
}

/// GNU Radio's CRC-32 blocks import with their parameters (the mode is
/// GNU Radio's `True`/`False`, the length key passes by its GNU Radio
/// name) and run: CRCs appended, then checked, on a tagged stream.
#[test]
fn crc32_blocks_import_and_run() {
    let text = grc(
        &[
            block(
                "src",
                "blocks_vector_source_x",
                &[("type", "byte"), ("vector", "list(range(40))")],
            ),
            block(
                "tagger",
                "blocks_stream_to_tagged_stream",
                &[
                    ("type", "byte"),
                    ("packet_len", "8"),
                    ("len_tag_key", "\"packet_len\""),
                ],
            ),
            block(
                "gen",
                "digital_crc32_bb",
                &[
                    ("check", "False"),
                    ("lengthtagname", "\"packet_len\""),
                    ("packed", "True"),
                ],
            ),
            block(
                "chk",
                "digital_crc32_bb",
                &[
                    ("check", "True"),
                    ("lengthtagname", "\"packet_len\""),
                    ("packed", "True"),
                ],
            ),
            block("snk", "blocks_null_sink", &[("type", "byte")]),
            block("pdu_crc", "digital_crc32_async_bb", &[("check", "True")]),
        ],
        &[
            ("src", "0", "tagger", "0"),
            ("tagger", "0", "gen", "0"),
            ("gen", "0", "chk", "0"),
            ("chk", "0", "snk", "0"),
        ],
    );
    let doc = run(&text, &LoadOptions::default());
    let chk = doc.block("chk").unwrap();
    assert_eq!(chk.param("check").unwrap().value, Value::Bool(true));
    assert_eq!(
        chk.param("len_tag_key").unwrap().value,
        Value::Expr("\"packet_len\"".into())
    );
    assert_eq!(
        doc.block("pdu_crc").unwrap().param("check").unwrap().value,
        Value::Bool(true)
    );
}

/// A header format object, from GRC's `variable_header_format_default`
/// or from a `variable` calling GNU Radio's constructor, sets every
/// header parameter of the formatter that names it: the headers carry
/// its access code and the packets' lengths.
#[test]
fn header_format_objects_configure_the_formatter() {
    let registry = rfgraph_flowfile::standard::registry();
    for format in [
        block(
            "hdr",
            "variable_header_format_default",
            &[
                ("access_code", "\"10101010\""),
                ("threshold", "0"),
                ("bps", "1"),
            ],
        ),
        block(
            "hdr",
            "variable",
            &[("value", "digital.header_format_default(\"10101010\", 0)")],
        ),
    ] {
        let text = grc(
            &[
                format,
                block(
                    "src",
                    "blocks_vector_source_x",
                    &[("type", "byte"), ("vector", "list(range(6))")],
                ),
                block(
                    "tagger",
                    "blocks_stream_to_tagged_stream",
                    &[
                        ("type", "byte"),
                        ("packet_len", "3"),
                        ("len_tag_key", "\"packet_len\""),
                    ],
                ),
                block(
                    "fmt",
                    "digital_protocol_formatter_bb",
                    &[("format", "hdr"), ("len_tag_key", "\"packet_len\"")],
                ),
                block("snk", "blocks_vector_sink_x", &[("type", "byte")]),
            ],
            &[
                ("src", "0", "tagger", "0"),
                ("tagger", "0", "fmt", "0"),
                ("fmt", "0", "snk", "0"),
            ],
        );
        let doc = grc::from_str(&text, Path::new("t.grc"), &registry).unwrap();
        let built = build::build(&doc, &registry, &BuildOptions::default()).unwrap();
        let id = built.blocks.iter().find(|b| b.name == "snk").unwrap().id;
        let scheduler = built.scheduler.scheduler().unwrap();
        let done = built
            .flowgraph
            .start(scheduler)
            .unwrap()
            .wait_timeout(WATCHDOG)
            .unwrap();
        let sink = done.block::<rfgraph_blocks::VectorSink<u8>>(id).unwrap();
        // Per packet: the access code, then the 16-bit length twice.
        assert_eq!(sink.items(), &[0xAA, 0, 3, 0, 3, 0xAA, 0, 3, 0, 3]);
    }
}

/// An object given to a block that lacks one of its fields is an error
/// naming the object, at the parameter.
#[test]
fn an_object_a_block_cannot_take_is_an_error_at_its_parameter() {
    let registry = rfgraph_flowfile::standard::registry();
    let text = grc(
        &[
            block(
                "src",
                "analog_sig_source_x",
                &[("type", "float"), ("freq", "digital.header_format_crc()")],
            ),
            block("snk", "blocks_null_sink", &[("type", "float")]),
        ],
        &[("src", "0", "snk", "0")],
    );
    let doc = grc::from_str(&text, Path::new("t.grc"), &registry).unwrap();
    let err = build::build(&doc, &registry, &BuildOptions::default())
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("has no parameter `format` (from the header_format_crc object)"),
        "{err}"
    );
}
