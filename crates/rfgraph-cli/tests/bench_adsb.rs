//! `rfgraph bench adsb`: one record per core count, mode and run, on files
//! that hold the real recording repeated; each record carries its core
//! count and its frames and DF17 frames per pass; rfgraph's receiver
//! decodes at least what antirez's dump1090 decodes of every pass (the
//! recording's expected list); dump1090-mutability runs for real when
//! installed (under `CI=true` it must be); a peer whose program is missing
//! is skipped with one line; stand-in peers (shell scripts printing their
//! statistics the way the real ones do) check how peers are run, pinned
//! and counted. Never an assertion on how long anything took.

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};

/// A scratch folder, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("rfgraph-bench-adsb-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
    fn path(&self) -> String {
        self.0.display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The recording's frames as antirez's dump1090 decodes them: 159, 85 of
/// them DF17 (`testdata/adsb/modes1-part1.expected.txt`).
const ANTIREZ_FRAMES: f64 = 159.0;
const ANTIREZ_DF17: f64 = 85.0;

fn f(line: &Value, key: &str) -> f64 {
    line[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} in {line}"))
}

/// The fields every record carries, whoever decoded.
fn assert_record(line: &Value, cores: u64) {
    common::assert_span(line);
    assert_eq!(line["experiment"], "adsb");
    assert_eq!(line["cores"], cores, "{line}");
    let samples = f(line, "samples");
    common::assert_rate(line, "samples_per_s", samples);
    let passes = f(line, "passes");
    assert!(passes >= 3.0, "{line}");
    assert_eq!(f(line, "frames_per_pass"), f(line, "frames") / passes);
    let by_df = line["frames_by_df"].as_object().expect("frames_by_df");
    assert_eq!(
        f(line, "df17_per_pass"),
        by_df["17"].as_f64().unwrap() / passes
    );
    // rfgraph counts its frames by DF as it makes them (a peer's split may
    // come from another run than its total).
    if line["runtime"] == "rfgraph" {
        let total: f64 = by_df.values().filter_map(Value::as_f64).sum();
        assert_eq!(total, f(line, "frames"), "{line}");
    }
}

#[test]
fn records_carry_cores_and_frames_per_df() {
    let dir = Scratch::new("records");
    let mutability = rfgraph_testkit::installed(
        "records_carry_cores_and_frames_per_df (dump1090-mutability's records)",
        "/usr/bin/dump1090-mutability",
        "dump1090-mutability",
    );
    let d = dir.path();
    let (ok, lines, err) = common::bench(&[
        "adsb",
        "--mib",
        "1",
        "--cores",
        "1",
        "--dir",
        &d,
        "--scheduler",
        "chain",
        "--dump1090-antirez",
        "/nonexistent/dump1090",
        "--readsb",
        "/nonexistent/readsb",
    ]);
    let leftovers = std::fs::read_dir(&dir.0).unwrap().count();
    assert!(ok, "{err}");
    assert_eq!(leftovers, 0, "the files are removed without --keep");
    // The missing peers: one line each, and no record.
    for (mode, path) in [
        ("dump1090-antirez", "/nonexistent/dump1090"),
        ("readsb", "/nonexistent/readsb"),
    ] {
        let skipped: Vec<&str> = err
            .lines()
            .filter(|l| l.contains(&format!("{mode} skipped")))
            .collect();
        assert_eq!(skipped.len(), 1, "{err}");
        assert!(skipped[0].contains(path), "{err}");
    }
    let modes: &[&str] = if mutability {
        &["rfgraph-2000", "rfgraph-2400", "dump1090-mutability"]
    } else {
        &["rfgraph-2000", "rfgraph-2400"]
    };
    assert_eq!(lines.len(), modes.len(), "{lines:?}");
    for (line, mode) in lines.iter().zip(modes) {
        assert_eq!(line["mode"], *mode, "{line}");
        assert_record(line, 1);
        let per_pass = f(line, "frames_per_pass");
        let df17 = f(line, "df17_per_pass");
        if mode.starts_with("rfgraph") {
            // Every pass gives at least antirez's frames (the file's own).
            assert_eq!(line["runtime"], "rfgraph");
            assert!(per_pass >= ANTIREZ_FRAMES, "{line}");
            assert!(df17 >= ANTIREZ_DF17, "{line}");
            assert!(f(line, "cpu_seconds") > 0.0, "{line}");
        } else {
            assert_eq!(line["runtime"], "dump1090-mutability");
            assert!(per_pass >= 150.0, "{line}");
            assert!(df17 >= 80.0 && df17 <= per_pass, "{line}");
        }
    }
    assert!(err.contains("adsb on 1 core(s)"), "{err}");
    assert!(err.contains("DF17 per pass"), "{err}");
    if mutability {
        assert!(err.contains("rfgraph-2400 / dump1090-mutability:"), "{err}");
    }
    assert!(!err.contains("/ readsb:"), "readsb did not run: {err}");
}

/// Writes an executable shell script.
fn script(path: &Path, body: &str) {
    std::fs::write(path, format!("#!/bin/sh\n{body}")).unwrap();
    let mut perm = std::fs::metadata(path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(path, perm).unwrap();
}

/// Stand-ins for readsb (statistics split by DF, as readsb prints them)
/// and antirez's dump1090 (a total only, frames by DF from `--raw`): each
/// runs once per core count, pinned to that many CPUs, with the
/// arguments that make the real one read the file; the records carry
/// what they printed, and the summary shows both core counts.
#[test]
fn peers_are_pinned_run_and_counted() {
    let dir = Scratch::new("peers");
    let d = dir.path();
    // Each run appends its arguments and its CPUs to a log beside it.
    let log = format!("{d}/log");
    let readsb = dir.0.join("readsb");
    script(
        &readsb,
        &format!(
            "echo \"readsb $* $(grep Cpus_allowed_list /proc/self/status | cut -f2)\" >> {log}\n\
             echo '  1000 samples processed'\n\
             echo 'Decoder:'\n\
             echo '  7 total usable messages'\n\
             echo '    4 DF11 messages'\n\
             echo '    3 DF17 messages'\n"
        ),
    );
    let antirez = dir.0.join("dump1090");
    script(
        &antirez,
        &format!(
            "echo \"dump1090 $* $(grep Cpus_allowed_list /proc/self/status | cut -f2)\" >> {log}\n\
             case \"$*\" in\n\
             *--raw*) echo '*8f4d2023587f345e35837e2218b2;'; echo '*5d4d20237a55af;' ;;\n\
             *) echo '5 total usable messages' ;;\n\
             esac\n"
        ),
    );
    let cores = if std::thread::available_parallelism().map_or(1, |n| n.get()) >= 2 {
        "1,2"
    } else {
        "1"
    };
    let (ok, lines, err) = common::bench(&[
        "adsb",
        "--mib",
        "1",
        "--cores",
        cores,
        "--dir",
        &d,
        "--mode",
        "dump1090-antirez,readsb",
        "--dump1090-antirez",
        &antirez.display().to_string(),
        "--readsb",
        &readsb.display().to_string(),
    ]);
    assert!(ok, "{err}");
    let counts: Vec<u64> = cores.split(',').map(|c| c.parse().unwrap()).collect();
    assert_eq!(lines.len(), 2 * counts.len(), "{lines:?}");
    for (i, line) in lines.iter().enumerate() {
        let c = counts[i / 2];
        assert_record(line, c);
        let passes = f(line, "passes");
        match line["mode"].as_str().unwrap() {
            "readsb" => {
                assert_eq!(line["runtime"], "readsb");
                assert_eq!(f(line, "samples"), 1000.0);
                assert_eq!(f(line, "frames"), 7.0);
                assert_eq!(f(line, "df17_per_pass"), 3.0 / passes);
                assert_eq!(line["frames_by_df"]["11"], 4);
            }
            "dump1090-antirez" => {
                assert_eq!(f(line, "frames"), 5.0);
                assert_eq!(f(line, "rate_hz"), 2e6);
                // Its DF split comes from the one --raw run.
                assert_eq!(f(line, "df17_per_pass"), 1.0 / passes);
            }
            other => panic!("mode {other}"),
        }
    }
    let log = std::fs::read_to_string(&log).unwrap();
    let runs: Vec<&str> = log.lines().collect();
    // Per core count: antirez timed, readsb timed; antirez's --raw once.
    assert_eq!(runs.len(), 2 * counts.len() + 1, "{log}");
    let raw: Vec<&&str> = runs.iter().filter(|l| l.contains("--raw")).collect();
    assert_eq!(raw.len(), 1, "{log}");
    for (i, c) in counts.iter().enumerate() {
        let cpus = if *c == 1 { "0" } else { "0-1" };
        let timed: Vec<&&str> = runs
            .iter()
            .filter(|l| !l.contains("--raw"))
            .skip(2 * i)
            .take(2)
            .collect();
        for l in timed {
            assert!(l.ends_with(&format!(" {cpus}")), "{c} core(s): {l}");
            assert!(l.contains("--stats") && l.contains("--ifile"), "{l}");
            if l.starts_with("readsb") {
                assert!(
                    l.contains("--device-type ifile")
                        && l.contains("--iformat UC8")
                        && l.contains("rfgraph-bench-adsb-2400.cu8"),
                    "{l}"
                );
            } else {
                assert!(l.contains("rfgraph-bench-adsb-2000.cu8"), "{l}");
            }
        }
        assert!(err.contains(&format!("adsb on {c} core(s)")), "{err}");
    }
    // rfgraph did not run: no ratio.
    assert!(!err.contains(" / readsb:"), "{err}");
}

/// The 2 MS/s file ends in 512 KiB of silence for antirez's dump1090,
/// which rfgraph does not read: with `--keep` the files stay, and their
/// sizes show it.
#[test]
fn the_2_msps_file_is_padded_for_antirez() {
    let dir = Scratch::new("pad");
    let d = dir.path();
    let (ok, lines, err) = common::bench(&[
        "adsb",
        "--mib",
        "1",
        "--cores",
        "1",
        "--dir",
        &d,
        "--mode",
        "rfgraph-2000",
        "--keep",
    ]);
    assert!(ok, "{err}");
    assert_eq!(lines.len(), 1);
    let line = &lines[0];
    let size = std::fs::metadata(dir.0.join("rfgraph-bench-adsb-2000.cu8"))
        .unwrap()
        .len();
    assert_eq!(size, 2 * line["samples"].as_u64().unwrap() + (512 << 10));
    assert!(f(line, "frames_per_pass") >= ANTIREZ_FRAMES, "{line}");
}
