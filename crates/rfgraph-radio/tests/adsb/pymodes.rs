//! Cross-check against pyModeS (PyPI), an independent Mode S decoder:
//! every field rfgraph decodes from the real recording and from generated
//! traffic (callsign, altitude, squawk, velocity, surface movement, CPR
//! and positions) must agree with what pyModeS decodes from the same hex
//! (`pymodes/check.py` says exactly what is compared).
//!
//! The interpreter is `RFGRAPH_TEST_PYTHON` (`.ci/run` makes a venv with
//! pyModeS and sets it). Without one the test says so and skips; under
//! `CI=true` it fails instead.

use crate::common::{cu8, demodulate, magnitudes, scene};
use rfgraph_radio::modes::{Message, Tracker, cu8_magnitudes};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn python(test: &str) -> Option<PathBuf> {
    let usable = std::env::var_os("RFGRAPH_TEST_PYTHON")
        .map(PathBuf::from)
        .filter(|py| {
            Command::new(py)
                .args(["-c", "import pyModeS"])
                .status()
                .is_ok_and(|s| s.success())
        });
    if usable.is_none() {
        let why = "no Python with pyModeS (set RFGRAPH_TEST_PYTHON, or run .ci/run)";
        if std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1") {
            panic!("{test}: {why}, and CI=true");
        }
        let _ = writeln!(std::io::stderr().lock(), "skipping {test}: {why}");
    }
    usable
}

/// Writes `messages` as JSON lines and runs the checker over them.
fn check(py: &Path, messages: &[Message], rate: f64, name: &str, pipe: bool) -> String {
    let dir = std::env::temp_dir().join(format!("rfgraph-pymodes-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("messages.jsonl");
    let text: String = messages
        .iter()
        .map(|m| serde_json::to_string(m).unwrap() + "\n")
        .collect();
    std::fs::write(&file, text).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/adsb/pymodes/check.py");
    let out = Command::new(py)
        .arg(script)
        .arg(&file)
        .arg(rate.to_string())
        .args(pipe.then_some("pipe"))
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let report =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name}: pyModeS disagrees:\n{report}");
    report
}

fn messages(m: &[u16], rate: f64, receiver: Option<(f64, f64)>) -> Vec<Message> {
    let mut t = Tracker::new(rate);
    if let Some((lat, lon)) = receiver {
        t = t.with_receiver(lat, lon);
    }
    demodulate(m, rate).iter().map(|f| t.process(f)).collect()
}

#[test]
fn pymodes_agrees_on_every_field() {
    let Some(py) = python("pymodes_agrees_on_every_field") else {
        return;
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/adsb/modes1-part1.cu8");
    let bytes = std::fs::read(path).unwrap();
    let mut m = vec![0u16; bytes.len() / 2];
    cu8_magnitudes(&bytes, &mut m);
    let real = messages(&m, 2.0e6, None);
    assert!(real.len() >= 159);
    let report = check(&py, &real, 2.0e6, "recording", false);
    assert!(report.contains("position (pair)"), "{report}");
    let _ = writeln!(std::io::stderr().lock(), "{report}");
    let (_, rec) = scene(2.0e6, 0.5);
    let generated = messages(&magnitudes(&cu8(&rec)), 2.0e6, Some((52.0, 4.4)));
    let report = check(&py, &generated, 2.0e6, "generated", true);
    for field in [
        "callsign",
        "squawk",
        "ground_speed_kt",
        "vertical_rate_fpm",
        "altitude_ft",
    ] {
        assert!(report.contains(field), "{field} never compared: {report}");
    }
    let _ = writeln!(std::io::stderr().lock(), "{report}");
}
