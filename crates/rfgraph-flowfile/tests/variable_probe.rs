//! Variables that poll the running graph (GRC's `variable_function_probe`,
//! a TOML variable's `probe`): polled as the CLI's run loop polls them, a
//! probe sets its variable to a `probe_signal`'s level, a block's
//! parameter or another variable, and every block setting that reads the
//! variable follows. A probe of a block, reading or variable the graph
//! does not have is refused at its place in the file.

mod common;

use common::TIMEOUT;
use common::grc_text::{block, grc};
use rfgraph::Pmt;
use rfgraph_flowfile::build::{BuildOptions, Built, Controller, build};
use rfgraph_flowfile::expr::Value;
use rfgraph_flowfile::grc;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn build_toml(text: &str) -> Result<Built, String> {
    let doc = rfgraph_flowfile::toml::parse(text, Arc::new(PathBuf::from("probe.toml")))
        .map_err(|e| e.to_string())?;
    build(
        &doc,
        &rfgraph_flowfile::standard::registry(),
        &BuildOptions::default(),
    )
    .map_err(|e| e.to_string())
}

fn build_grc(text: &str) -> Result<Built, String> {
    let registry = rfgraph_flowfile::standard::registry();
    let doc = grc::from_str_with(text, Path::new("probe.grc"), &registry, &Default::default())
        .map_err(|e| e.to_string())?;
    build(&doc, &registry, &BuildOptions::default()).map_err(|e| e.to_string())
}

/// Runs `built`, polling its probes as the CLI does, until `done`
/// holds for its variables; then reads parameter `param` (`block.name`)
/// of the running graph, and stops. Gives what the polls said and the
/// parameter's value.
fn poll_until(
    built: Built,
    done: impl Fn(&Controller) -> bool,
    param: (&str, &str),
) -> (Vec<String>, Pmt) {
    let mut control = built.control;
    let mut probes = built.variable_probes;
    assert!(!probes.is_empty());
    let running = built
        .flowgraph
        .start(rfgraph::scheduler::Tpb::new())
        .unwrap();
    let handle = running.handle();
    let deadline = Instant::now() + TIMEOUT;
    let mut said = Vec::new();
    while !done(&control) {
        assert!(Instant::now() < deadline, "never done: {said:?}");
        said.extend(probes.poll(&mut control, &handle));
        let next = probes.next_in().unwrap_or_default();
        std::thread::sleep(next.max(Duration::from_millis(1)));
    }
    let id = handle.block_id(param.0).expect("the block");
    let value = handle.param(id, param.1, TIMEOUT).unwrap();
    handle.stop();
    running.wait_timeout(TIMEOUT).unwrap();
    (said, value)
}

/// The value of variable `name` as a number.
fn number(c: &Controller, name: &str) -> Option<f64> {
    c.value(name).and_then(Value::as_f64)
}

const LEVEL: &str = r#"format = 1
connections = ["src.out -> probe.in", "gen.out -> scale.in", "scale.out -> sink.in"]

[variables]
level = { value = 0.0, probe = { block = "probe", read = "level", rate = 50 } }

[blocks.src]
kind = "vector_source"
type = "f32"
values = [2.5]
repeat = true

[blocks.probe]
kind = "probe_signal"
type = "f32"

[blocks.gen]
kind = "null_source"
type = "f32"

[blocks.scale]
kind = "multiply_const"
type = "f32"
constant = "level * 2"

[blocks.sink]
kind = "null_sink"
type = "f32"
"#;

#[test]
fn a_probe_sets_its_variable_to_a_blocks_reading() {
    let built = build_toml(LEVEL).unwrap_or_else(|e| panic!("{e}"));
    let done = |c: &Controller| number(c, "level") == Some(2.5);
    let (said, constant) = poll_until(built, done, ("scale", "constant"));
    assert!(said.is_empty(), "{said:?}");
    // The dependent setting followed the variable.
    assert_eq!(constant.as_f64(), Some(5.0), "{constant:?}");
}

#[test]
fn grc_function_probes_read_levels_parameters_and_variables() {
    let text = grc(
        &[
            block("samp_rate", "variable", &[("value", "32000")]),
            block(
                "lvl",
                "variable_function_probe",
                &[
                    ("block_id", "probe"),
                    ("function_name", "level"),
                    ("function_args", ""),
                    ("poll_rate", "20"),
                    ("value", "0"),
                ],
            ),
            // GNU Radio's getter of a parameter, with an argument (the
            // channel) that rfgraph does not need.
            block(
                "amp",
                "variable_function_probe",
                &[
                    ("block_id", "src"),
                    ("function_name", "get_amplitude"),
                    ("function_args", "0"),
                    ("poll_rate", "20"),
                    ("value", "0"),
                ],
            ),
            // An empty block is the flowgraph: `get_samp_rate` reads the
            // variable.
            block(
                "rate",
                "variable_function_probe",
                &[
                    ("block_id", ""),
                    ("function_name", "get_samp_rate"),
                    ("function_args", ""),
                    ("poll_rate", "20"),
                    ("value", "1"),
                ],
            ),
            block(
                "src",
                "analog_sig_source_x",
                &[
                    ("type", "float"),
                    ("samp_rate", "samp_rate"),
                    ("waveform", "analog.GR_CONST_WAVE"),
                    ("freq", "0"),
                    ("amp", "0.75"),
                    ("offset", "0"),
                    ("phase", "0"),
                ],
            ),
            block("probe", "blocks_probe_signal_x", &[("type", "float")]),
            block(
                "k",
                "blocks_multiply_const_vxx",
                &[
                    ("type", "float"),
                    ("const", "lvl + amp + rate"),
                    ("vlen", "1"),
                ],
            ),
            block("zeros", "blocks_null_source", &[("type", "float")]),
            block("sink", "blocks_null_sink", &[("type", "float")]),
        ],
        &[
            ("src", "0", "probe", "0"),
            ("zeros", "0", "k", "0"),
            ("k", "0", "sink", "0"),
        ],
    );
    let built = build_grc(&text).unwrap_or_else(|e| panic!("{e}"));
    let done = |c: &Controller| {
        number(c, "lvl") == Some(0.75)
            && number(c, "amp") == Some(0.75)
            && number(c, "rate") == Some(32000.0)
    };
    let (said, k) = poll_until(built, done, ("k", "constant"));
    assert!(said.is_empty(), "{said:?}");
    assert_eq!(k.as_f64(), Some(0.75 + 0.75 + 32000.0), "{k:?}");
}

#[test]
fn probes_of_what_the_graph_lacks_are_refused_where_written() {
    let with =
        |probe: &str| LEVEL.replace(r#"{ block = "probe", read = "level", rate = 50 }"#, probe);
    let cases = [
        (
            r#"{ block = "prob", read = "level" }"#,
            "no block `prob`",
            Some("probe"),
        ),
        (
            r#"{ block = "probe", read = "volume" }"#,
            "no reading `volume`",
            None,
        ),
        (
            r#"{ block = "scale", read = "get_gain" }"#,
            "no reading `get_gain`",
            None,
        ),
        (
            r#"{ read = "get_nothing" }"#,
            "only `get_NAME` of a variable",
            None,
        ),
        (
            r#"{ block = "probe", read = "level", rate = 0 }"#,
            "positive number",
            None,
        ),
        (r#"{ block = "probe" }"#, "missing `read`", None),
    ];
    for (probe, says, suggest) in cases {
        let err = match build_toml(&with(probe)) {
            Ok(_) => panic!("{probe} was accepted"),
            Err(e) => e,
        };
        assert!(err.contains(says), "{probe}: {err}");
        assert!(
            err.contains("probe.toml:5"),
            "{probe}: not at the probe: {err}"
        );
        if let Some(s) = suggest {
            assert!(err.contains(s), "{probe}: no suggestion: {err}");
        }
    }
}

#[test]
fn a_probe_whose_block_finished_says_so_once() {
    let once = LEVEL.replace("repeat = true", "repeat = false");
    let built = build_toml(&once.replace("\"null_source\"", "\"vector_source\"\nvalues = [1.0]"))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut control = built.control;
    let mut probes = built.variable_probes;
    let finished = built
        .flowgraph
        .start(rfgraph::scheduler::Tpb::new())
        .unwrap();
    let handle = finished.handle();
    finished.wait_timeout(TIMEOUT).unwrap();
    let mut said = Vec::new();
    for _ in 0..3 {
        said.extend(probes.poll(&mut control, &handle));
        std::thread::sleep(Duration::from_millis(25));
    }
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("probe `level`"), "{said:?}");
}

#[test]
fn a_grc_probe_of_what_rfgraph_lacks_leaves_its_variable_with_a_notice() {
    // GNU Radio's probe thread dies with a traceback and the flowgraph
    // runs on; a GRC file here builds, says so, and keeps the value.
    let text = grc(
        &[
            block(
                "locked",
                "variable_function_probe",
                &[
                    ("block_id", "sink"),
                    ("function_name", "get_sensor"),
                    ("function_args", "'lo_locked'"),
                    ("poll_rate", "10"),
                    ("value", "uhd.sensor_value('', False, '', '')"),
                ],
            ),
            block("src", "blocks_null_source", &[("type", "float")]),
            block("sink", "blocks_null_sink", &[("type", "float")]),
        ],
        &[("src", "0", "sink", "0")],
    );
    let built = build_grc(&text).unwrap_or_else(|e| panic!("{e}"));
    assert!(built.variable_probes.is_empty());
    assert!(
        built
            .notices
            .iter()
            .any(|n| n.contains("the probe of `locked`") && n.contains("keeps its value")),
        "{:?}",
        built.notices
    );
}
