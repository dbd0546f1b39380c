//! The JSON contract of `rfgraph bench io`: one record per mode and run,
//! exact item counts, byte rates, the CPU time each move cost (user and
//! system, per GB), the files removed afterwards, and GNU Radio's records
//! from the same run with `--gnuradio`. No timing.

mod common;

use common::{assert_rate, assert_span, bench};
use serde_json::Value;
use std::path::PathBuf;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rfgraph-bench-io-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn check(l: &Value, runtime: &str, mode: &str) {
    assert_eq!(l["experiment"], "io", "{l}");
    assert_eq!(l["runtime"], runtime, "{l}");
    assert_eq!(l["mode"], mode, "{l}");
    if runtime.starts_with("gnuradio") {
        // GNU Radio's records have `seconds` (tb.run()) only.
        assert!(l["seconds"].as_f64().is_some_and(|s| s > 0.0), "{l}");
    } else {
        assert_span(l);
    }
    assert_eq!(l["file_bytes"], 1 << 20, "{l}");
    let items = if mode == "source-cu8" {
        1 << 19
    } else {
        1 << 17
    };
    assert_eq!(l["items"], items, "{l}");
    assert_rate(l, "bytes_per_s", (1u64 << 20) as f64);
    assert_rate(l, "items_per_s", items as f64);
    if !runtime.starts_with("gnuradio") {
        check_cpu(l);
    }
}

/// The CPU fields: seconds and seconds per 10⁹ file bytes, user and
/// system, consistent with each other.
fn check_cpu(l: &Value) {
    let gb = (1u64 << 20) as f64 / 1e9;
    for kind in ["user", "sys"] {
        let s = l[format!("{kind}_s")].as_f64();
        let per = l[format!("{kind}_s_per_gb")].as_f64();
        let (Some(s), Some(per)) = (s, per) else {
            panic!("{kind}_s and {kind}_s_per_gb in {l}");
        };
        assert!(s >= 0.0 && per >= 0.0, "{l}");
        assert!((per * gb - s).abs() <= 1e-9 * s.max(1e-9), "{l}");
    }
}

#[test]
fn io_reports_every_mode_and_cleans_up() {
    let d = dir("all");
    let (ok, lines, err) = bench(&[
        "io",
        "--mib",
        "1",
        "--repeat",
        "2",
        "--dir",
        d.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let modes = ["cat", "read", "source-cf32", "source-cu8", "sink-cf32"];
    assert_eq!(lines.len(), 2 * modes.len(), "{lines:?}");
    for (i, l) in lines.iter().enumerate() {
        let mode = modes[i % modes.len()];
        let runtime = match mode {
            "cat" => "cat",
            "read" => "rust-read",
            _ => "rfgraph",
        };
        check(l, runtime, mode);
        assert_eq!(l["run"], i / modes.len(), "{l}");
    }
    assert!(err.contains("source-cf32 vs cat"), "{err}");
    assert!(err.contains("CPU seconds per GB"), "{err}");
    assert!(err.contains("source-cf32/cat system"), "{err}");
    assert_eq!(
        std::fs::read_dir(&d).unwrap().count(),
        0,
        "files left behind"
    );
    let (ok, _, err) = bench(&[
        "io",
        "--mode",
        "source-xyz",
        "--mib",
        "1",
        "--dir",
        d.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(err.contains("unknown io mode `source-xyz`"), "{err}");
    std::fs::remove_dir(&d).unwrap();
}

#[test]
fn io_runs_gnu_radio_in_the_same_run() {
    if !rfgraph_testkit::gnuradio("io_runs_gnu_radio_in_the_same_run", "gnuradio.blocks") {
        return;
    }
    let d = dir("gr");
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../bench/gnuradio/gr_bench.py"
    );
    let (ok, lines, err) = bench(&[
        "io",
        "--mib",
        "1",
        "--mode",
        "source-cu8,sink-cf32",
        "--gnuradio",
        "--gr-script",
        script,
        "--dir",
        d.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert_eq!(lines.len(), 4, "{lines:?}");
    check(&lines[0], "rfgraph", "source-cu8");
    check(&lines[1], "gnuradio-3.10", "source-cu8");
    check(&lines[2], "rfgraph", "sink-cf32");
    check(&lines[3], "gnuradio-3.10", "sink-cf32");
    assert!(err.contains("rfgraph/GNU Radio"), "{err}");
    assert_eq!(
        std::fs::read_dir(&d).unwrap().count(),
        0,
        "files left behind"
    );
    std::fs::remove_dir(&d).unwrap();
}

#[test]
fn io_on_one_core_reports_its_cores_and_cpu_time() {
    let d = dir("cores");
    for scheduler in ["tpb", "chain"] {
        let (ok, lines, err) = bench(&[
            "io",
            "--mib",
            "1",
            "--mode",
            "cat,source-cf32",
            "--cores",
            "1",
            "--scheduler",
            scheduler,
            "--dir",
            d.to_str().unwrap(),
        ]);
        assert!(ok, "{err}");
        assert_eq!(lines.len(), 2, "{lines:?}");
        check(&lines[0], "cat", "cat");
        check(&lines[1], "rfgraph", "source-cf32");
        assert_eq!(lines[1]["cores"], 1, "{}", lines[1]);
        assert_eq!(lines[1]["scheduler"], scheduler, "{}", lines[1]);
        assert!(err.contains("source-cf32/cat system"), "{err}");
    }
    let (ok, _, err) = bench(&[
        "io",
        "--mib",
        "1",
        "--cores",
        "0",
        "--dir",
        d.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(err.contains("--cores must be 1 to"), "{err}");
    assert_eq!(
        std::fs::read_dir(&d).unwrap().count(),
        0,
        "files left behind"
    );
    std::fs::remove_dir(&d).unwrap();
}
