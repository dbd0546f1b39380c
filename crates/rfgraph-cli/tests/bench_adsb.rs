//! `rfgraph bench adsb`: one record per mode and run, on files that hold
//! the real recording repeated; rfgraph's receiver decodes at least what
//! dump1090 decodes of every pass, and dump1090-mutability runs for real
//! when installed (under `CI=true` it must be). Never an assertion on how
//! long anything took.

mod common;

#[test]
fn one_record_per_mode_with_frames_per_pass() {
    let dir = std::env::temp_dir().join(format!("rfgraph-bench-adsb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Without dump1090 the records of rfgraph's own modes are still
    // checked; under CI it must be there.
    let dump1090 = rfgraph_testkit::installed(
        "one_record_per_mode_with_frames_per_pass (dump1090's records)",
        "/usr/bin/dump1090-mutability",
        "dump1090-mutability",
    );
    let d = dir.display().to_string();
    let (ok, lines, err) = common::bench(&[
        "adsb",
        "--mib",
        "2",
        "--repeat",
        "2",
        "--dir",
        &d,
        "--scheduler",
        "chain",
    ]);
    let leftovers = std::fs::read_dir(&dir).unwrap().count();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ok, "{err}");
    assert_eq!(leftovers, 0, "the files are removed without --keep");
    let modes: &[&str] = if dump1090 {
        &["rfgraph-2000", "rfgraph-2400", "dump1090"]
    } else {
        &["rfgraph-2000", "rfgraph-2400"]
    };
    assert_eq!(lines.len(), 2 * modes.len(), "{lines:?}");
    for line in &lines {
        common::assert_span(line);
        assert_eq!(line["experiment"], "adsb");
        let samples = line["samples"].as_f64().unwrap();
        common::assert_rate(line, "samples_per_s", samples);
        let passes = line["passes"].as_f64().unwrap();
        assert!(passes >= 6.0, "{line}");
        let per_pass = line["frames_per_pass"].as_f64().unwrap();
        match line["mode"].as_str().unwrap() {
            // Every pass gives at least dump1090's 159 (the file's own
            // frames).
            "rfgraph-2000" | "rfgraph-2400" => {
                assert_eq!(line["runtime"], "rfgraph");
                assert!(per_pass >= 159.0, "{line}");
            }
            "dump1090" => {
                assert_eq!(line["runtime"], "dump1090-mutability");
                assert!(per_pass >= 150.0, "{line}");
            }
            other => panic!("mode {other}"),
        }
    }
    assert!(err.contains("frames per pass"), "{err}");
}
