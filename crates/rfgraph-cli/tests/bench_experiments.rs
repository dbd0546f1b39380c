//! The JSON contract of `msg`, `chain`, `saxpy`, `load` and `plot`: fields
//! present, numbers positive, item and message counts exact, `seconds`
//! holding `run_seconds`, rates being counts per `seconds`. No timing.

mod common;

use common::{assert_rate, assert_span, bench};
use serde_json::Value;

fn assert_common(line: &Value, experiment: &str, scheduler: &str) {
    assert_eq!(line["experiment"], experiment, "{line}");
    assert_eq!(line["runtime"], "rfgraph");
    assert_eq!(line["scheduler"], scheduler);
    assert!(line["run"].is_u64());
    assert_span(line);
}

/// The rooflines have no runtime to set up: the run phase is the span.
fn assert_roofline_span(line: &Value) {
    assert_eq!(line["seconds"], line["run_seconds"], "{line}");
}

fn positive(line: &Value, fields: &[&str]) {
    for f in fields {
        assert!(line[*f].as_f64().is_some_and(|v| v > 0.0), "{f} in {line}");
    }
}

#[test]
fn msg_counts_every_message() {
    for scheduler in ["tpb", "single"] {
        let (ok, lines, err) = bench(&[
            "msg",
            "--pipes",
            "3",
            "--stages",
            "4",
            "--burst",
            "500",
            "--scheduler",
            scheduler,
        ]);
        assert!(ok, "{err}");
        assert_eq!(lines.len(), 1);
        let l = &lines[0];
        assert_common(l, "msg", scheduler);
        assert_eq!(
            (l["pipes"].clone(), l["stages"].clone(), l["burst"].clone()),
            (3.into(), 4.into(), 500.into())
        );
        positive(l, &["messages_per_s", "hop_ns"]);
        let messages = 3.0 * 500.0;
        assert_rate(l, "messages_per_s", messages);
        // hop_ns is seconds per hop: the inverse rate of 5 hops a message.
        let hops = messages * 5.0;
        let seconds = l["seconds"].as_f64().unwrap();
        let hop_ns = l["hop_ns"].as_f64().unwrap();
        assert!(
            (hop_ns - seconds * 1e9 / hops).abs() <= 1e-12 * hop_ns,
            "{l}"
        );
    }
}

#[test]
fn chain_on_a_scheduler_and_fused() {
    let (ok, lines, err) = bench(&[
        "chain",
        "--branches",
        "4",
        "--stages",
        "3",
        "--items",
        "50000",
        "--scheduler",
        "single",
        "--repeat",
        "2",
    ]);
    assert!(ok, "{err}");
    assert_eq!(lines.len(), 2);
    for l in &lines {
        assert_common(l, "chain", "single");
        assert_eq!(l["items"], 50_000);
        assert_eq!(l["branches"], 4);
        positive(l, &["items_per_s", "block_items_per_s"]);
        // 4 branches of head, 3 copies and the sink.
        assert_rate(l, "items_per_s", 4.0 * 50_000.0);
        assert_rate(l, "block_items_per_s", 4.0 * 50_000.0 * 5.0);
    }
    let (ok, lines, err) = bench(&[
        "chain",
        "--branches",
        "2",
        "--stages",
        "5",
        "--items",
        "100000",
        "--fused",
    ]);
    assert!(ok, "{err}");
    assert_common(&lines[0], "chain", "fused");
    assert_roofline_span(&lines[0]);
    positive(
        &lines[0],
        &["items_per_s", "block_items_per_s", "chunk_items"],
    );
    assert_rate(&lines[0], "items_per_s", 2.0 * 100_000.0);
    assert_rate(&lines[0], "block_items_per_s", 2.0 * 100_000.0 * 7.0);
}

#[test]
fn saxpy_on_cores_and_fused() {
    for extra in [
        &["--scheduler", "tpb"][..],
        &["--scheduler", "single"],
        &["--scheduler", "chain"],
        &["--scheduler", "chain", "--stateful"],
        &["--scheduler", "chain", "--fill"],
        &["--fused"],
        &["--fused", "--fill"],
    ] {
        let mut args = vec![
            "saxpy", "--blocks", "4", "--cores", "2", "--items", "200000",
        ];
        args.extend_from_slice(extra);
        let (ok, lines, err) = bench(&args);
        assert!(ok, "{err}");
        let l = &lines[0];
        let scheduler = if extra[0] == "--fused" {
            "fused"
        } else {
            extra[1]
        };
        assert_common(l, "saxpy", scheduler);
        assert_eq!(l["blocks"], 4);
        assert_eq!(l["cores"], 2);
        assert_eq!(l["items"], 200_000);
        // Only the ablation says so (its table rows must not merge).
        let stateful = extra.contains(&"--stateful");
        assert_eq!(l.get("stateful").is_some(), stateful, "{l}");
        // Nor may the source-writing workload's rows merge with qsdr's.
        let fill = extra.contains(&"--fill");
        assert_eq!(l.get("fill").is_some(), fill, "{l}");
        positive(l, &["items_per_s", "block_items_per_s"]);
        assert_rate(l, "items_per_s", 200_000.0);
        assert_rate(l, "block_items_per_s", 200_000.0 * 4.0);
        if scheduler == "fused" {
            assert_roofline_span(l);
        }
    }
}

#[test]
fn saxpy_bare_runtime_floor_runs_on_one_core() {
    let (ok, lines, err) = bench(&["saxpy", "--bare", "--blocks", "3", "--items", "100001"]);
    assert!(ok, "{err}");
    let l = &lines[0];
    assert_common(l, "saxpy", "bare");
    assert_eq!(l["blocks"], 3);
    assert_eq!(l["items"], 100_001);
    positive(l, &["items_per_s", "block_items_per_s"]);
    assert_roofline_span(l);
    assert_rate(l, "items_per_s", 100_001.0);
    assert_rate(l, "block_items_per_s", 100_001.0 * 3.0);
    let (ok, _, err) = bench(&["saxpy", "--bare", "--cores", "2"]);
    assert!(!ok);
    assert!(err.contains("--bare runs on one core"), "{err}");
}

#[test]
fn load_reports_quality_at_most_one() {
    // `single` runs the sink between the other blocks, where the runtime's
    // live statistics lag; the sink's own count must not.
    for (mode, scheduler) in [("intra", "tpb"), ("inter", "tpb"), ("inter", "single")] {
        let (ok, lines, err) = bench(&[
            "load",
            "--workload",
            "intadd",
            "--amount",
            "1000",
            "--threads",
            "2",
            "--mode",
            mode,
            "--rate",
            "200000",
            "--duration",
            "0.3",
            "--scheduler",
            scheduler,
        ]);
        assert!(ok, "{err}");
        let l = &lines[0];
        assert_common(l, "load", scheduler);
        assert_eq!(l["mode"], mode);
        assert_eq!(l["workload"], "intadd");
        let q = l["quality"].as_f64().unwrap();
        assert!(q > 0.0 && q <= 1.0, "{l}");
        // Whole packets only: the processed count is a multiple of 1024.
        let processed = l["items_processed"].as_u64().unwrap();
        assert_eq!(processed % 1024, 0);
        // items_per_s is over the whole run; quality over the window, which
        // lies inside it.
        assert_rate(l, "items_per_s", processed as f64);
        let window = l["window_seconds"].as_f64().unwrap();
        assert!(
            window > 0.0 && window <= l["seconds"].as_f64().unwrap(),
            "{l}"
        );
        let window_items = l["window_items"].as_u64().unwrap();
        assert!(window_items <= processed, "{l}");
        let quality = (window_items as f64 / (200_000.0 * window)).min(1.0);
        assert!((q - quality).abs() <= 1e-12, "{l}");
    }
}

#[test]
fn plot_draws_a_png_with_error_bars_from_jsonl() {
    let dir = std::env::temp_dir().join(format!("rfgraph-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let results = dir.join("r.jsonl");
    let mut text = String::new();
    for (stages, secs) in [(2, 1.0), (2, 1.2), (4, 2.0), (4, 2.4)] {
        text += &format!(
            "{{\"experiment\":\"stream\",\"runtime\":\"rfgraph\",\"scheduler\":\"tpb\",\"run\":0,\"seconds\":{secs},\"pipes\":2,\"stages\":{stages}}}\n"
        );
    }
    std::fs::write(&results, text).unwrap();
    let png = dir.join("f.png");
    let (ok, _, err) = bench(&[
        "plot",
        results.to_str().unwrap(),
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert!(bytes.len() > 10_000, "a real figure, not an empty image");
    let (ok, _, err) = bench(&[
        "plot",
        results.to_str().unwrap(),
        "-o",
        png.to_str().unwrap(),
        "--experiment",
        "msg",
    ]);
    assert!(!ok);
    assert!(err.contains("no `msg` records"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dsp_runs_every_kernel_with_exact_counts() {
    for kernel in [
        "fir-fff",
        "fir-ccf",
        "fir-ccc",
        "fft",
        "resamp-ccf",
        "quad-demod",
        "rotator",
    ] {
        let (ok, lines, err) = bench(&[
            "dsp", "--kernel", kernel, "--items", "20001", "--taps", "16",
        ]);
        assert!(ok, "{kernel}: {err}");
        let l = &lines[0];
        assert_common(l, "dsp", "tpb");
        assert_eq!(l["kernel"], kernel);
        assert_eq!(l["items"], 20_001);
        // The FFT only takes whole frames (16 here); everything else all items.
        let expected = if kernel == "fft" { 20_000 } else { 20_001 };
        assert_eq!(l["items_processed"], expected, "{l}");
        positive(l, &["items_per_s"]);
        assert_rate(l, "items_per_s", expected as f64);
        assert_rate(l, "block_items_per_s", expected as f64);
    }
    let (ok, _, err) = bench(&["dsp", "--kernel", "fir-xyz", "--items", "10"]);
    assert!(!ok);
    assert!(err.contains("unknown kernel `fir-xyz`"), "{err}");
}

#[test]
fn explain_names_cores_and_data_parallel_segments() {
    let args = [
        "saxpy",
        "--blocks",
        "6",
        "--cores",
        "2",
        "--items",
        "100000",
        "--scheduler",
        "chain",
        "--explain",
    ];
    let (ok, _, err) = bench(&args);
    assert!(ok, "{err}");
    assert!(err.contains("core 0") && err.contains("core 1"), "{err}");
    assert!(err.contains("data-parallel on cores [0, 1]"), "{err}");
    // Stateful steps are cut between cores instead.
    let (ok, _, err) = bench(&[&args[..], &["--stateful"]].concat());
    assert!(ok, "{err}");
    assert!(
        err.contains("core 1") && !err.contains("data-parallel"),
        "{err}"
    );
}
