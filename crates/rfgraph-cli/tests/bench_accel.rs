//! `rfgraph bench accel`: the SCA/OpenCL Table 1 experiment prints one
//! record per size and mode with the contract's fields, baseline really
//! copies between components (10 transfers) and enhanced does not (2), and
//! `--mode both` prints the ratio table. Without an OpenCL device, fails
//! under CI and skips with one line naming the test elsewhere.

mod common;

use serde_json::Value;

/// True when an OpenCL device exists; otherwise `test` is skipped (a
/// failure under CI, which installs PoCL).
fn has_opencl(test: &str) -> bool {
    let found = match rfgraph_opencl::devices() {
        Ok(d) if !d.is_empty() => Ok(()),
        Ok(_) => Err("no OpenCL device".to_string()),
        Err(e) => Err(e.to_string().lines().collect::<Vec<_>>().join(" ")),
    };
    rfgraph_testkit::require(test, found).is_some()
}

#[test]
fn accel_reports_both_modes_per_size() {
    if !has_opencl("accel_reports_both_modes_per_size") {
        return;
    }
    let (ok, lines, stderr) = common::bench(&[
        "accel",
        "--sizes",
        "2,32",
        "--buffers",
        "20",
        "--mode",
        "both",
    ]);
    assert!(ok, "{stderr}");
    assert_eq!(lines.len(), 4, "2 sizes × 2 modes: {lines:?}");
    for line in &lines {
        assert_eq!(line["experiment"], "accel");
        assert_eq!(line["runtime"], "rfgraph");
        assert_eq!(line["buffers"], 20);
        let kb = line["size_kb"].as_u64().unwrap();
        assert_eq!(line["samples"].as_u64().unwrap(), kb * 256);
        for f in ["mean_us", "p50_us", "p99_us", "seconds"] {
            assert!(line[f].as_f64().unwrap() > 0.0, "{f} in {line}");
        }
        assert!(line["p50_us"].as_f64() <= line["p99_us"].as_f64());
        common::assert_span(line);
        common::assert_rate(line, "buffers_per_s", 20.0);
        let transfers = match line["mode"].as_str().unwrap() {
            "baseline" => 10,
            "enhanced" => 2,
            other => panic!("mode {other}"),
        };
        assert_eq!(line["transfers"], transfers, "{line}");
    }
    let modes: Vec<&Value> = lines.iter().map(|l| &l["mode"]).collect();
    assert!(modes.contains(&&Value::from("baseline")) && modes.contains(&&Value::from("enhanced")));
    assert!(
        stderr.contains("baseline / enhanced"),
        "ratio table: {stderr}"
    );
}

#[test]
fn accel_single_mode_and_in_flight() {
    if !has_opencl("accel_single_mode_and_in_flight") {
        return;
    }
    let (ok, lines, stderr) = common::bench(&[
        "accel",
        "--sizes",
        "4",
        "--buffers",
        "30",
        "--mode",
        "enhanced",
        "--in-flight",
        "3",
        "--scheduler",
        "single",
    ]);
    assert!(ok, "{stderr}");
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["mode"], "enhanced");
    assert_eq!(lines[0]["in_flight"], 3);
    assert_eq!(lines[0]["scheduler"], "single");
}
