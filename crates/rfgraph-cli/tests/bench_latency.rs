//! The JSON contract of `rfgraph bench latency`: one record per point,
//! scheduler and run with the latency percentiles, the source's lateness,
//! CPU and wall time; exact counts; GNU Radio's records from the same
//! command with `--gnuradio`. No timing: percentiles are checked for
//! order (p50 ≤ p99 ≤ max, last ≥ first), never for size.

mod common;

use common::{assert_rate, assert_span, bench};
use serde_json::Value;

fn check(l: &Value, runtime: &str, stages: u64) {
    assert_eq!(l["experiment"], "latency", "{l}");
    assert_eq!(l["runtime"], runtime, "{l}");
    assert_eq!(l["stages"], stages, "{l}");
    assert_eq!(l["burst"], 1000, "{l}");
    assert_eq!(l["bursts"], 20, "{l}");
    assert_eq!(l["items"], 20_000, "{l}");
    assert_eq!(l["rate"].as_f64(), Some(1e6), "{l}");
    assert_eq!(l["period_us"].as_f64(), Some(1000.0), "{l}");
    let f = |k: &str| {
        l[k].as_f64()
            .unwrap_or_else(|| panic!("{k} missing in {l}"))
    };
    for prefix in ["first", "last", "source_late"] {
        let (p50, p99, max) = (
            f(&format!("{prefix}_p50_us")),
            f(&format!("{prefix}_p99_us")),
            f(&format!("{prefix}_max_us")),
        );
        assert!(0.0 <= p50 && p50 <= p99 && p99 <= max, "{prefix} in {l}");
    }
    assert!(f("last_p50_us") >= f("first_p50_us"), "{l}");
    assert!(f("seconds") > 0.0, "{l}");
    let (user, system) = (f("cpu_user_seconds"), f("cpu_system_seconds"));
    assert!(user >= 0.0 && system >= 0.0, "{l}");
    assert!((f("cpu_seconds") - (user + system)).abs() < 1e-9, "{l}");
    // CPU seconds per wall second of the run.
    assert_rate(l, "cpu_per_wall", f("cpu_seconds"));
}

/// `bench latency` at the point every test here checks (1 MS/s, 1 ms
/// periods, 2 copies, 20 bursts, every scheduler), with `more` options.
fn every_scheduler_with(more: &[&str]) -> (bool, Vec<Value>, String) {
    let mut args = vec![
        "latency",
        "--rate",
        "1e6",
        "--period",
        "1ms",
        "--stages",
        "2",
        "--bursts",
        "20",
        "--scheduler",
        "all",
    ];
    args.extend_from_slice(more);
    bench(&args)
}

#[test]
fn latency_prints_one_record_per_scheduler_and_run() {
    let (ok, lines, err) = every_scheduler_with(&["--repeat", "2"]);
    assert!(ok, "{err}");
    let schedulers = ["tpb", "single", "pool", "chain"];
    assert_eq!(lines.len(), 2 * schedulers.len(), "{lines:?}");
    for (i, l) in lines.iter().enumerate() {
        check(l, "rfgraph", 2);
        assert_eq!(l["scheduler"], schedulers[i / 2], "{l}");
        assert_eq!(l["run"], i % 2, "{l}");
        assert_span(l);
    }
}

#[test]
fn latency_runs_under_a_budget_on_every_scheduler() {
    let (ok, lines, err) = every_scheduler_with(&["--max-latency", "2ms"]);
    assert!(ok, "{err}");
    assert_eq!(lines.len(), 4, "{lines:?}");
    for l in &lines {
        check(l, "rfgraph", 2);
        assert_eq!(l["max_latency_us"].as_f64(), Some(2000.0), "{l}");
        assert!(l["budget_exceeded"].is_boolean(), "{l}");
    }
    // Without one, the records say so.
    let (ok, lines, err) = bench(&["latency", "--stages", "1", "--bursts", "5"]);
    assert!(ok, "{err}");
    assert!(lines[0]["max_latency_us"].is_null(), "{}", lines[0]);
    assert_eq!(lines[0]["budget_exceeded"], false, "{}", lines[0]);
}

#[test]
fn latency_refuses_a_bad_period() {
    let (ok, lines, err) = bench(&["latency", "--period", "1h", "--bursts", "2"]);
    assert!(!ok);
    assert!(lines.is_empty());
    assert!(err.contains("unknown unit `h`"), "{err}");
}

#[test]
fn latency_runs_gnu_radio_in_the_same_command() {
    if !rfgraph_testkit::gnuradio(
        "latency_runs_gnu_radio_in_the_same_command",
        "gnuradio.blocks, numpy",
    ) {
        return;
    }
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../bench/gnuradio/gr_bench.py"
    );
    let (ok, lines, err) = bench(&[
        "latency",
        "--stages",
        "3",
        "--bursts",
        "20",
        "--scheduler",
        "single",
        "--gnuradio",
        "--gr-script",
        script,
    ]);
    assert!(ok, "{err}");
    assert_eq!(lines.len(), 2, "{lines:?}");
    check(&lines[0], "rfgraph", 3);
    check(&lines[1], "gnuradio-3.10", 3);
    assert_eq!(lines[1]["scheduler"], "tpb");
}
