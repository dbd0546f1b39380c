//! The JSON contract of `rfgraph bench pyblock`: one record per mode,
//! runtime and run with exact item and call counts, GNU Radio's records
//! from the same run, and the summary record with both sides' means and
//! ratios. No timing. The rfgraph side runs in a venv of its own under the
//! target folder with the package installed from the working tree (the
//! dev profile: the bench's default release venv would take minutes).

#[allow(dead_code)]
mod common;

use common::{assert_rate, bench};
use serde_json::Value;
use std::path::Path;

const TEST: &str = "bench_pyblock";

fn check(r: &Value, runtime: &str, mode: &str, run: usize) {
    assert_eq!(r["experiment"], "pyblock", "{r}");
    assert_eq!(r["runtime"], runtime, "{r}");
    assert_eq!(r["mode"], mode, "{r}");
    assert_eq!(r["run"], run, "{r}");
    let (items, calls) = match mode {
        // 6400 items at most 64 a call: exactly 100 calls.
        "empty" => (6400, Some(100)),
        _ => (300_000, None),
    };
    assert_eq!(r["items"], items, "{r}");
    let counted = r["calls"].as_u64().expect("calls");
    assert!(counted >= 1, "{r}");
    if let Some(calls) = calls {
        assert_eq!(counted, calls, "{r}");
        assert_eq!(r["chunk"], 64, "{r}");
    }
    assert_rate(r, "items_per_s", items as f64);
    // µs per call: the run's seconds over the calls counted.
    let seconds = r["seconds"].as_f64().expect("seconds");
    let per_call = r["us_per_call"].as_f64().expect("us_per_call");
    let expected = seconds * 1e6 / counted as f64;
    assert!((per_call - expected).abs() <= 1e-9 * expected, "{r}");
}

#[test]
fn pyblock_reports_both_modes_and_gnu_radio_beside_them() {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let Some(python) =
        rfgraph_testkit::require(TEST, rfgraph_testkit::python_with_package(tmp, &[]))
    else {
        return;
    };
    let gnuradio = rfgraph_testkit::gnuradio(TEST, "gnuradio.gr, numpy");
    let mut args = vec![
        "pyblock",
        "--python",
        python.to_str().unwrap(),
        "--items",
        "300000",
        "--empty-items",
        "6400",
        "--chunk",
        "64",
        "--repeat",
        "2",
    ];
    if gnuradio {
        args.push("--gnuradio");
    }
    let (ok, lines, err) = bench(&args);
    assert!(ok, "{err}");
    let runtimes: &[&str] = if gnuradio {
        &["rfgraph", "gnuradio-3.10"]
    } else {
        &["rfgraph"]
    };
    let mut expected = Vec::new();
    for run in 0..2 {
        for mode in ["double", "empty"] {
            for runtime in runtimes {
                expected.push((*runtime, mode, run));
            }
        }
    }
    assert_eq!(lines.len(), expected.len() + 1, "{lines:?}");
    for (r, (runtime, mode, run)) in lines.iter().zip(&expected) {
        check(r, runtime, mode, *run);
    }
    let summary = &lines[expected.len()];
    assert_eq!(summary["record"], "summary", "{summary}");
    assert_eq!(summary["runs"], 2, "{summary}");
    assert!(
        summary["double_items_per_s"]["rfgraph"]
            .as_f64()
            .is_some_and(|v| v > 0.0)
    );
    assert!(
        summary["empty_us_per_call"]["rfgraph"]
            .as_f64()
            .is_some_and(|v| v > 0.0)
    );
    for ratio in [
        "rfgraph_over_gnuradio_items_per_s",
        "gnuradio_over_rfgraph_us_per_call",
    ] {
        assert_eq!(summary[ratio].is_f64(), gnuradio, "{summary}");
    }
    assert!(err.contains("pyblock: out = in0 * 2.0: rfgraph"), "{err}");
}

#[test]
fn pyblock_refuses_an_empty_chunk() {
    let (ok, lines, err) = bench(&["pyblock", "--python", "python3", "--chunk", "0"]);
    assert!(!ok);
    assert!(lines.is_empty(), "{lines:?}");
    assert!(err.contains("must be positive"), "{err}");
}
