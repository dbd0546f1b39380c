//! The `rfgraph bench stream` JSON contract, checked through the binary.

mod common;

use common::{assert_rate, assert_span, bench};
use serde_json::Value;

#[test]
fn stream_prints_one_record_per_run_with_exact_counts() {
    for scheduler in ["tpb", "single"] {
        let (ok, lines, stderr) = bench(&[
            "stream",
            "--pipes",
            "2",
            "--stages",
            "3",
            "--items",
            "100000",
            "--scheduler",
            scheduler,
            "--repeat",
            "2",
        ]);
        assert!(ok, "{stderr}");
        assert_eq!(lines.len(), 2);
        for (run, line) in lines.iter().enumerate() {
            assert_eq!(line["experiment"], "stream");
            assert_eq!(line["runtime"], "rfgraph");
            assert_eq!(line["scheduler"], scheduler);
            assert_eq!(line["run"], run);
            assert_eq!(line["items"], 100_000);
            assert_eq!(line["pipes"], 2);
            assert_eq!(line["stages"], 3);
            for rate in ["seconds", "items_per_s", "block_items_per_s"] {
                assert!(line[rate].as_f64().unwrap() > 0.0, "{rate} in {line}");
            }
            // The whole run holds the run phase; rates divide the whole run.
            assert_span(line);
            assert_rate(line, "items_per_s", 2.0 * 100_000.0);
            assert_rate(line, "block_items_per_s", 2.0 * 100_000.0 * 5.0);
        }
    }
}

#[test]
fn stats_adds_one_record_per_block() {
    let (ok, lines, stderr) = bench(&[
        "stream",
        "--pipes",
        "1",
        "--stages",
        "2",
        "--items",
        "5000",
        "--scheduler",
        "single",
        "--stats",
    ]);
    assert!(ok, "{stderr}");
    // One run record, then source, head, 2 copies, sink.
    assert_eq!(lines.len(), 1 + 5);
    let copies: Vec<&Value> = lines
        .iter()
        .filter(|l| {
            l["record"] == "block_stats" && l["type_name"].as_str().unwrap().contains("Copy")
        })
        .collect();
    assert_eq!(copies.len(), 2);
    for c in copies {
        assert_eq!(c["items_consumed"], 5000);
        assert_eq!(c["items_produced"], 5000);
        assert!(c["work_calls"].as_u64().unwrap() >= 1);
        assert!(c["items_per_call_log2"].as_array().unwrap().len() > 10);
    }
}

#[test]
fn unavailable_scheduler_is_refused_clearly() {
    let (ok, lines, stderr) = bench(&["stream", "--items", "10", "--scheduler", "bogus"]);
    assert!(!ok);
    assert!(lines.is_empty());
    assert!(
        stderr.contains("unknown scheduler `bogus`; available: tpb, single, pool, chain"),
        "{stderr}"
    );
}
