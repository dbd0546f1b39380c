//! `rfgraph run`, `check` and `dot` through the binary: a file's graph
//! runs and writes what the same filter computes, `--set` changes it,
//! Ctrl-C stops a never-ending graph cleanly, and mistakes are errors at
//! file:line:col with a non-zero exit.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `rfgraph ARGS` in `dir` with a one-minute watchdog: (success,
/// stdout, stderr).
fn rfgraph(dir: &Path, args: &[&str]) -> (bool, String, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_rfgraph"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the rfgraph binary starts");
    let id = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(out) => out.expect("rfgraph ran"),
        Err(_) => {
            let _ = Command::new("kill")
                .args(["-KILL", &id.to_string()])
                .status();
            panic!("rfgraph {args:?} hung");
        }
    };
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("flow_cli")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const FIR: &str = r#"format = 1
title = "FIR smoothing"
connections = ["src -> fir -> snk"]

[variables]
gain = 0.5
taps = "[gain / 4] * 4"

[blocks.src]
kind = "vector_source"
type = "f32"
values = "list(range(-3, 4)) * 100"

[blocks.fir]
kind = "fir_filter"
type = "f32"
taps = "taps"

[blocks.snk]
kind = "file_sink"
type = "f32"
path = "out.f32"
"#;

/// The FIR of `FIR` with `gain`, computed directly (zero history).
fn expected(gain: f32) -> Vec<f32> {
    let x: Vec<f32> = (0..700).map(|i| (i % 7) as f32 - 3.0).collect();
    (0..x.len())
        .map(|n| {
            (0..4)
                .filter(|&k| k <= n)
                .map(|k| gain / 4.0 * x[n - k])
                .sum()
        })
        .collect()
}

fn read_f32(path: &Path) -> Vec<f32> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

#[test]
fn run_writes_what_the_filter_computes_and_set_changes_it() {
    let dir = scratch("run");
    std::fs::write(dir.join("fir.toml"), FIR).unwrap();
    // `check` and `dot` construct nothing: the sink's file is not created.
    for cmd in ["check", "dot"] {
        let (ok, _, stderr) = rfgraph(&dir, &[cmd, "fir.toml"]);
        assert!(ok, "{stderr}");
        assert!(!dir.join("out.f32").exists(), "{cmd} created the output");
    }
    for scheduler in ["tpb", "single", "pool", "chain"] {
        let (ok, stdout, stderr) = rfgraph(
            &dir,
            &["run", "fir.toml", "--stats", "--scheduler", scheduler],
        );
        assert!(ok, "{stderr}");
        assert!(stderr.contains("rfgraph: done"), "{stderr}");
        assert!(
            stdout.contains("block") && stdout.contains("fir"),
            "{stdout}"
        );
        assert_eq!(read_f32(&dir.join("out.f32")), expected(0.5), "{scheduler}");
    }
    let (ok, _, stderr) = rfgraph(&dir, &["run", "fir.toml", "--set", "gain=2.0"]);
    assert!(ok, "{stderr}");
    assert_eq!(read_f32(&dir.join("out.f32")), expected(2.0));

    let (ok, stdout, stderr) = rfgraph(&dir, &["check", "fir.toml"]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("fir.toml (FIR smoothing): ok"), "{stdout}");
    assert!(stdout.contains("src.out -> fir.in (f32)"), "{stdout}");
    assert!(
        stdout.contains("taps = [0.125, 0.125, 0.125, 0.125]"),
        "{stdout}"
    );

    let (ok, stdout, stderr) = rfgraph(&dir, &["dot", "fir.toml"]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.starts_with("digraph \"FIR smoothing\" {"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\"src\" -> \"fir\" [label=\"out -> in (f32)\"];"),
        "{stdout}"
    );
    // Name and kind on two lines: one `\n` escape, not an escaped backslash.
    assert!(stdout.contains("\"src\" [label=\"src\\n"), "{stdout}");
}

/// Sends SIGINT to a running `rfgraph` and returns its output; fails
/// when it does not stop within 30 s.
fn interrupt(child: std::process::Child) -> std::process::Output {
    let id = child.id().to_string();
    Command::new("kill").args(["-INT", &id]).status().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(Duration::from_secs(30)) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").args(["-KILL", &id]).status();
            panic!("Ctrl-C did not stop the run");
        }
    }
}

/// Ctrl-C on an endless graph into a SigMF sink writes the metadata the
/// run ended with: the capture a `core:frequency` tag started mid-run is
/// only in the final metadata, not in the one written at start.
#[test]
fn ctrl_c_writes_the_sigmf_metadata() {
    let dir = scratch("ctrl_c_sigmf");
    let text = r#"format = 1
connections = ["src -> rec"]
[blocks.src]
kind = "tags_strobe"
type = "c32"
key = "core:frequency"
value = 100e6
interval = 50000
[blocks.rec]
kind = "sigmf_sink"
path = "rec"
sample_rate = 1e6
"#;
    std::fs::write(dir.join("endless.toml"), text).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_rfgraph"))
        .args(["run", "endless.toml"])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the first tagged item (50000, 8 bytes each) is written.
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::fs::metadata(dir.join("rec.sigmf-data")).map_or(0, |m| m.len()) <= 8 * 50_000 {
        assert!(Instant::now() < deadline, "not enough written");
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = interrupt(child);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("rec.sigmf-meta")).unwrap())
            .unwrap();
    assert_eq!(meta["global"]["core:datatype"], "cf32_le", "{meta}");
    let captures = meta["captures"].as_array().unwrap();
    assert!(
        captures
            .iter()
            .any(|c| c["core:sample_start"] == 50_000 && c["core:frequency"] == 100e6),
        "{meta}"
    );
}

#[test]
fn ctrl_c_stops_an_endless_graph_cleanly() {
    let dir = scratch("ctrl_c");
    let text = "format = 1\nconnections = [\"src -> snk\"]\n[blocks.src]\nkind = \"vector_source\"\ntype = \"f32\"\nvalues = [1.0, 2.0]\nrepeat = true\n[blocks.snk]\nkind = \"file_sink\"\ntype = \"f32\"\npath = \"out.f32\"\n";
    std::fs::write(dir.join("endless.toml"), text).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_rfgraph"))
        .args(["run", "endless.toml"])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the sink has written something, then interrupt.
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::fs::metadata(dir.join("out.f32")).map_or(0, |m| m.len()) == 0 {
        assert!(Instant::now() < deadline, "nothing written");
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = interrupt(child);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("rfgraph: stopped"), "{stderr}");
    let written = read_f32(&dir.join("out.f32"));
    assert!(!written.is_empty());
    assert!(
        written
            .chunks(2)
            .all(|c| c[0] == 1.0 && c.get(1).is_none_or(|&v| v == 2.0))
    );
}

#[test]
fn mistakes_are_errors_at_their_place() {
    let dir = scratch("errors");
    std::fs::write(
        dir.join("bad.toml"),
        "format = 1\nconnections = [\"a -> b\"]\n[variables]\nrate = \"1 / 0\"\n",
    )
    .unwrap();
    for cmd in ["run", "check", "dot"] {
        let (ok, stdout, stderr) = rfgraph(&dir, &[cmd, "bad.toml"]);
        assert!(!ok, "{cmd} should fail");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(
            stderr.contains("bad.toml:4:9: `variables.rate`: in `1 / 0`: division by zero"),
            "{cmd}: {stderr}"
        );
    }
    std::fs::write(
        dir.join("unknown.toml"),
        "format = 1\n[blocks.x]\nkind = \"no_such_block_anywhere\"\n",
    )
    .unwrap();
    let (ok, _, stderr) = rfgraph(&dir, &["check", "unknown.toml"]);
    assert!(!ok);
    assert!(
        stderr
            .contains("unknown.toml:3:8: `blocks.x.kind`: unknown block `no_such_block_anywhere`"),
        "{stderr}"
    );
    let (ok, _, stderr) = rfgraph(&dir, &["check", "missing.toml"]);
    assert!(!ok);
    assert!(
        stderr.contains("missing.toml: cannot read the file"),
        "{stderr}"
    );
    std::fs::write(dir.join("vars.toml"), "format = 1\n[variables]\na = 1\n").unwrap();
    let (ok, _, stderr) = rfgraph(&dir, &["check", "vars.toml", "--set", "b=2"]);
    assert!(!ok);
    assert!(
        stderr.contains("--set: `b`: `vars.toml` has no variable `b`"),
        "{stderr}"
    );
    let (ok, stdout, stderr) = rfgraph(&dir, &["check", "vars.toml", "--set", "a=2 ** 3"]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("a = 8"), "{stdout}");
}

/// Items written so far to `path` (none while it does not exist).
fn written(path: &Path) -> Vec<f32> {
    std::fs::read(path)
        .unwrap_or_default()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// Waits (at most 30 s) until `path` holds an item equal to `value`.
fn wait_for_item(path: &Path, value: f32, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !written(path).contains(&value) {
        assert!(Instant::now() < deadline, "no {what} written in time");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn control_stdin_sets_a_variable_of_the_running_graph() {
    use std::io::Write;
    let dir = scratch("control");
    let text = r#"format = 1
connections = ["src -> thr -> mul -> snk"]
[variables]
gain = { value = 0, settable = true }
fixed = 1
[blocks.src]
kind = "const_source"
type = "f32"
constant = 2.0
[blocks.thr]
kind = "throttle"
type = "f32"
sample_rate = 200000
[blocks.mul]
kind = "multiply_const"
type = "f32"
constant = "10 ** (gain / 20) * fixed"
[blocks.snk]
kind = "file_sink"
type = "f32"
path = "out.f32"
"#;
    std::fs::write(dir.join("ctl.toml"), text).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rfgraph"))
        .args(["run", "ctl.toml", "--control-stdin"])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let id = child.id().to_string();
    let mut stdin = child.stdin.take().unwrap();
    let out = dir.join("out.f32");
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        wait_for_item(&out, 2.0, "item at the file's gain");
        stdin
            .write_all(b"gian=3\n# a comment\n\nfixed=2\ngain = 20\n")
            .unwrap();
        stdin.flush().unwrap();
        // The new product appears only when the change took effect.
        wait_for_item(&out, 20.0, "item at the new gain");
    }));
    Command::new("kill").args(["-INT", &id]).status().unwrap();
    if let Err(e) = result {
        let _ = Command::new("kill").args(["-KILL", &id]).status();
        std::panic::resume_unwind(e);
    }
    drop(stdin);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let output = match rx.recv_timeout(Duration::from_secs(30)) {
        Ok(output) => output.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").args(["-KILL", &id]).status();
            panic!("the run did not stop");
        }
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    for line in [
        "rfgraph: settable (name=value on stdin): gain\n",
        "rfgraph: error: no variable `gian` (did you mean `gain`?)\n",
        "rfgraph: error: variable `fixed` (ctl.toml:5:9) is not settable",
        "rfgraph: set gain = 20: mul.constant = 10.0\n",
        "rfgraph: stopped",
    ] {
        assert!(stderr.contains(line), "{line:?} missing from:\n{stderr}");
    }
    // Only the old product, then only the new one.
    let items = written(&out);
    let before = items.iter().take_while(|&&x| x == 2.0).count();
    assert!(before > 0);
    assert!(
        items[before..].iter().all(|&x| x == 20.0),
        "{:?}",
        &items[before..].iter().find(|&&x| x != 20.0)
    );
}
