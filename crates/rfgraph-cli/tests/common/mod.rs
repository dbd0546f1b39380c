//! Running the `rfgraph` binary from tests, with a watchdog.

use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `rfgraph bench ARGS`, killing it if it takes longer than a minute.
pub fn bench(args: &[&str]) -> (bool, Vec<Value>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rfgraph"))
        .arg("bench")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the rfgraph binary starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("rfgraph bench {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().unwrap();
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("every stdout line is JSON"))
        .collect();
    (
        out.status.success(),
        lines,
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// The record's two spans are present and nested: `seconds` (the whole
/// `Flowgraph::run`, GNU Radio's `tb.run()` span) holds `run_seconds` (the
/// run phase). Never an assertion on how long anything took.
pub fn assert_span(line: &Value) {
    let seconds = line["seconds"].as_f64();
    let run_seconds = line["run_seconds"].as_f64();
    assert!(seconds.is_some_and(|s| s > 0.0), "seconds in {line}");
    assert!(
        run_seconds.is_some_and(|s| s > 0.0),
        "run_seconds in {line}"
    );
    assert!(seconds >= run_seconds, "seconds < run_seconds in {line}");
}

/// `field` is `count` per second of the record's `seconds`, to rounding.
pub fn assert_rate(line: &Value, field: &str, count: f64) {
    let seconds = line["seconds"].as_f64().expect("seconds");
    let value = line[field]
        .as_f64()
        .unwrap_or_else(|| panic!("{field} in {line}"));
    let expected = count / seconds;
    assert!(
        (value - expected).abs() <= 1e-12 * expected.abs(),
        "{field} = {value}, but {count} / seconds = {expected}: {line}"
    );
}
