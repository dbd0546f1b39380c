//! `rfgraph run` / `check` of files with Python blocks: with a Python
//! that has the `rfgraph` package (a venv under the target folder, named
//! through `RFGRAPH_PYTHON`) the file runs there and writes what its
//! Python block computes; without one, the error names the Python block
//! and what to install.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Runs `rfgraph ARGS` in `dir` with `RFGRAPH_PYTHON=python`, with a
/// watchdog: (success, stdout, stderr).
fn rfgraph(dir: &Path, python: &str, args: &[&str]) -> (bool, String, String) {
    let out = rfgraph_testkit::output_within(
        Command::new(env!("CARGO_BIN_EXE_rfgraph"))
            .args(args)
            .current_dir(dir)
            .env("RFGRAPH_PYTHON", python),
        Duration::from_secs(120),
    )
    .unwrap_or_else(|e| panic!("rfgraph {args:?}: {e}"));
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("python_cli")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const MODULE: &str = r#"
import numpy as np
import rfgraph


class Scale(rfgraph.SyncBlock):
    def __init__(self, factor=1.0):
        rfgraph.SyncBlock.__init__(self, name="scale", in_sig=[np.float32], out_sig=[np.float32])
        self.factor = factor

    def work(self, input_items, output_items):
        output_items[0][:] = input_items[0] * self.factor
        return len(output_items[0])
"#;

const GRAPH: &str = r#"format = 1
connections = ["src -> head -> scaler -> snk"]

[variables]
k = 2.0

[blocks.src]
kind = "sig_source"
type = "f32"
waveform = "constant"
amplitude = 1.5

[blocks.head]
kind = "head"
type = "f32"
items = 500

[blocks.scaler]
kind = "python"
module = "scalemod:Scale"
factor = "k * 2"

[blocks.snk]
kind = "file_sink"
type = "f32"
path = "out.f32"
"#;

fn graph(name: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::write(dir.join("scalemod.py"), MODULE).unwrap();
    std::fs::write(dir.join("g.toml"), GRAPH).unwrap();
    dir
}

#[test]
fn run_hands_a_file_with_python_blocks_to_python() {
    let test = "python_cli::run_hands_a_file_with_python_blocks_to_python";
    let Some(python) = rfgraph_testkit::require(
        test,
        rfgraph_testkit::python_with_package(Path::new(env!("CARGO_TARGET_TMPDIR")), &[]),
    ) else {
        return;
    };
    let python = python.display().to_string();
    let dir = graph("run");
    let (ok, _, err) = rfgraph(&dir, &python, &["check", "g.toml"]);
    assert!(ok, "check failed: {err}");
    let (ok, _, err) = rfgraph(&dir, &python, &["run", "g.toml", "--set", "k=3"]);
    assert!(ok, "run failed: {err}");
    let bytes = std::fs::read(dir.join("out.f32")).expect("the file sink wrote");
    let items: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    // amplitude 1.5 × factor (k = 3) × 2
    assert_eq!(items, vec![9.0f32; 500]);
    // The control port and web UI, served from Python.
    let (ok, _, err) = rfgraph(
        &dir,
        &python,
        &[
            "run",
            "g.toml",
            "--control",
            "127.0.0.1:0",
            "--token",
            "t0k",
        ],
    );
    assert!(ok, "run --control failed: {err}");
    assert!(
        err.contains("rfgraph: web UI: http://127.0.0.1:") && err.contains("fg=g"),
        "{err}"
    );
    assert!(err.contains("(token t0k)"), "{err}");
    let (ok, _, err) = rfgraph(&dir, &python, &["run", "g.toml", "--control-stdin"]);
    assert!(!ok && err.contains("--control-stdin"), "{err}");
}

#[test]
fn without_a_usable_python_the_error_names_the_block_and_the_install() {
    let dir = graph("no_python");
    let missing = dir.join("no-such-python").display().to_string();
    for command in ["run", "check"] {
        let (ok, _, err) = rfgraph(&dir, &missing, &[command, "g.toml"]);
        assert!(!ok, "{command} succeeded without Python");
        assert!(err.contains("`scaler` (module scalemod:Scale)"), "{err}");
        assert!(err.contains("pip install ./crates/rfgraph-python"), "{err}");
    }
}
