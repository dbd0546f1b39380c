//! The JSON contract of `rfgraph bench fm`: one record per run and
//! combination of cores and format, with the input samples counted
//! exactly, the stereo decoder locked, the rates being samples per
//! `seconds`, and the whole process's time beside it. No timing.

mod common;

use common::{assert_rate, assert_span, bench};
use serde_json::Value;

/// `process_items_per_s` is `items` per `process_seconds`.
fn check_process(l: &Value, items: f64) {
    let s = l["process_seconds"].as_f64();
    assert!(s.is_some_and(|s| s > 0.0), "process_seconds in {l}");
    let rate = l["process_items_per_s"].as_f64().unwrap();
    let want = items / s.unwrap();
    assert!((rate - want).abs() <= 1e-12 * want, "{l}");
}

#[test]
fn fm_records_count_every_sample_and_lock() {
    let dir = std::env::temp_dir().join(format!("rfgraph-bench-fm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.display().to_string();
    for (scheduler, cores, mono) in [("chain", "1", false), ("single", "1", true)] {
        let mut args = vec![
            "fm",
            "--items",
            "480000",
            "--dir",
            &d,
            "--scheduler",
            scheduler,
            "--cores",
            cores,
            "--repeat",
            "2",
        ];
        if mono {
            args.push("--mono");
        }
        let (ok, lines, err) = bench(&args);
        assert!(ok, "{err}");
        assert_eq!(lines.len(), 2, "{lines:?}");
        for l in &lines {
            assert_eq!(l["experiment"], "fm");
            assert_eq!(l["scheduler"], scheduler);
            assert_eq!(l["items"], 480_000);
            assert_eq!(l["mode"], if mono { "mono" } else { "stereo" });
            assert_eq!(l["stereo_locked"], !mono);
            assert_eq!(l["audio_samples"], 9_600);
            assert_eq!(l["channel_taps"], 33 + 45);
            assert_span(l);
            assert_rate(l, "items_per_s", 480_000.0);
            let rate = 480_000.0 / l["seconds"].as_f64().unwrap();
            assert!((l["real_time"].as_f64().unwrap() * 2.4e6 / rate - 1.0).abs() < 1e-9);
            assert_eq!(l["format"], "cu8");
            check_process(l, 480_000.0);
        }
        assert!(err.contains("whole processes"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fm_runs_every_combination_of_cores_and_format() {
    let dir = std::env::temp_dir().join(format!("rfgraph-bench-fm-f-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.display().to_string();
    let cores = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(2);
    let list = if cores == 2 { "1,2" } else { "1" };
    let (ok, lines, err) = bench(&[
        "fm",
        "--items",
        "480000",
        "--dir",
        &d,
        "--scheduler",
        "chain",
        "--cores",
        list,
        "--format",
        "cu8,cf32",
    ]);
    assert!(ok, "{err}");
    let want: Vec<(u64, &str)> = (1..=cores as u64)
        .flat_map(|c| [(c, "cu8"), (c, "cf32")])
        .collect();
    let got: Vec<(u64, &str)> = lines
        .iter()
        .map(|l| (l["cores"].as_u64().unwrap(), l["format"].as_str().unwrap()))
        .collect();
    assert_eq!(got, want, "{lines:?}");
    for l in &lines {
        assert_eq!(l["items"], 480_000, "{l}");
        assert_eq!(l["stereo_locked"], true, "{l}");
        assert_eq!(l["audio_samples"], 9_600, "{l}");
        assert_span(l);
        assert_rate(l, "items_per_s", 480_000.0);
        check_process(l, 480_000.0);
    }
    for f in ["cu8", "cf32"] {
        assert!(err.contains(&format!("stereo {f} on 1 core(s)")), "{err}");
    }
    // The two recordings: 2 and 8 bytes a sample.
    let size = |ext: &str| {
        std::fs::metadata(dir.join(format!("rfgraph-bench-fm-480000.{ext}")))
            .unwrap()
            .len()
    };
    assert_eq!((size("cu8"), size("cf32")), (960_000, 3_840_000));
    let (ok, _, err) = bench(&["fm", "--items", "480000", "--dir", &d, "--format", "cs8"]);
    assert!(!ok);
    assert!(err.contains("`cs8` is not cu8 or cf32"), "{err}");
    // Without the process runs: no process fields.
    let (ok, lines, err) = bench(&[
        "fm",
        "--items",
        "480000",
        "--dir",
        &d,
        "--format",
        "cf32",
        "--cores",
        "1",
        "--no-process",
    ]);
    assert!(ok, "{err}");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].get("process_seconds").is_none(), "{}", lines[0]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fm_runs_gnu_radio_on_cf32_in_the_same_run() {
    if !rfgraph_testkit::gnuradio(
        "fm_runs_gnu_radio_on_cf32_in_the_same_run",
        "gnuradio.analog",
    ) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("rfgraph-bench-fm-gr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.display().to_string();
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../bench/gnuradio/gr_bench.py"
    );
    let (ok, lines, err) = bench(&[
        "fm",
        "--items",
        "480000",
        "--dir",
        &d,
        "--cores",
        "1",
        "--format",
        "cf32",
        "--gnuradio",
        "--gr-script",
        script,
    ]);
    assert!(ok, "{err}");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["runtime"], "rfgraph");
    assert!(
        lines[1]["runtime"]
            .as_str()
            .is_some_and(|r| r.starts_with("gnuradio")),
        "{}",
        lines[1]
    );
    for l in &lines {
        assert_eq!(l["format"], "cf32", "{l}");
        assert_eq!(l["items"], 480_000, "{l}");
        check_process(l, 480_000.0);
    }
    assert!(err.contains("rfgraph/GNU Radio"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
