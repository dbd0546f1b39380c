//! Cross-check against pyModeS (PyPI), an independent Mode S decoder:
//! every field rfgraph decodes from the real recording and from generated
//! traffic (callsign, altitude, squawk, velocity, surface movement, CPR
//! and positions) must agree with what pyModeS decodes from the same hex
//! (`pymodes/check.py` says exactly what is compared).
//!
//! The interpreter is the reference Python (`rfgraph_testkit::
//! reference_python`: `RFGRAPH_TEST_PYTHON`, which `.ci/run` sets to a
//! venv with pyModeS). Without one the test prints one `SKIPPED` line and
//! returns; under CI it fails instead.

use crate::common::{cu8, demodulate, magnitudes, scene};
use crate::watchdog;
use rfgraph_radio::modes::{Message, Tracker, cu8_magnitudes};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The reference Python with pyModeS, or `None` (skipped) without one.
pub fn python(test: &str) -> Option<PathBuf> {
    rfgraph_testkit::reference_python(test, "pyModeS")
}

/// Runs `pymodes/SCRIPT ARGS` on `py` under the watchdog: what it
/// printed, and whether it succeeded.
pub fn run_script(py: &Path, script: &str, args: &[&str]) -> (bool, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/adsb/pymodes")
        .join(script);
    let out = watchdog::output(
        Command::new(py).arg(path).args(args),
        watchdog::TOOL_WATCHDOG,
    );
    let report =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), report)
}

/// Writes `messages` as JSON lines and runs the checker over them, with
/// `args` after the sample rate (`pipe`, `receiver=LAT,LON`).
fn check(py: &Path, messages: &[Message], rate: f64, name: &str, args: &[&str]) -> String {
    let dir = std::env::temp_dir().join(format!("rfgraph-pymodes-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("messages.jsonl");
    let text: String = messages
        .iter()
        .map(|m| serde_json::to_string(m).unwrap() + "\n")
        .collect();
    std::fs::write(&file, text).unwrap();
    let rate = rate.to_string();
    let mut all = vec![file.to_str().unwrap(), rate.as_str()];
    all.extend_from_slice(args);
    let (ok, report) = run_script(py, "check.py", &all);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ok, "{name}: pyModeS disagrees:\n{report}");
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
    let report = check(&py, &real, 2.0e6, "recording", &[]);
    assert!(report.contains("position (pair)"), "{report}");
    let _ = writeln!(std::io::stderr().lock(), "{report}");
    let (_, rec) = scene(2.0e6, 0.5);
    let generated = messages(&magnitudes(&cu8(&rec)), 2.0e6, Some((52.0, 4.4)));
    let report = check(
        &py,
        &generated,
        2.0e6,
        "generated",
        &["pipe", "receiver=52.0,4.4"],
    );
    for field in [
        "callsign",
        "squawk",
        "ground_speed_kt",
        "vertical_rate_fpm",
        "altitude_ft",
        "capability",
        "flight_status",
        "position (pair)",
        "position (pyModeS pairs)",
    ] {
        assert!(report.contains(field), "{field} never compared: {report}");
    }
    let _ = writeln!(std::io::stderr().lock(), "{report}");
}
