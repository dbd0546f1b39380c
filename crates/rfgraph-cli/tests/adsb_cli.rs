//! `rfgraph adsb` and `rfgraph gen adsb` through the binary: the real
//! recording gives every frame dump1090 decodes, the same on every
//! scheduler; the shipped example decodes to its expected output (whose
//! every fact rfgraph-radio's `adsb` tests establish against pyModeS and
//! the generator's truth) and regenerates byte for byte; other input
//! formats, 2.4 MS/s and the network option work; bad options are
//! refused naming them.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `rfgraph ARGS` in the workspace root with a one-minute watchdog:
/// (success, stdout, stderr).
fn rfgraph(args: &[&str]) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rfgraph"))
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the rfgraph binary starts");
    let out = std::thread::scope(|s| {
        // Drain the pipes while waiting, so a large output never blocks.
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        let o = s.spawn(move || std::io::read_to_string(stdout).unwrap());
        let e = s.spawn(move || std::io::read_to_string(stderr).unwrap());
        let deadline = Instant::now() + Duration::from_secs(60);
        while child.try_wait().unwrap().is_none() {
            if Instant::now() > deadline {
                child.kill().unwrap();
                panic!("rfgraph {args:?} hung");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        (o.join().unwrap(), e.join().unwrap())
    });
    (child.wait().unwrap().success(), out.0, out.1)
}

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("rfgraph-adsb-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
    fn path(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const RECORDING: &str = "testdata/adsb/modes1-part1.cu8";

/// 50 ms of generated traffic at 2.4 MS/s as `t24.cu8` in `s`.
fn generated_2m4(s: &Scratch) -> String {
    let f24 = s.path("t24.cu8");
    let (ok, _, err) = rfgraph(&[
        "gen",
        "adsb",
        "-o",
        &f24,
        "--seconds",
        "0.05",
        "--rate",
        "2.4e6",
    ]);
    assert!(ok, "{err}");
    f24
}

#[test]
fn recording_gives_every_dump1090_frame_on_every_scheduler() {
    let expected =
        std::fs::read_to_string(root().join("testdata/adsb/modes1-part1.expected.txt")).unwrap();
    let mut first = None;
    for scheduler in ["chain", "single", "pool", "tpb"] {
        let (ok, out, err) = rfgraph(&["adsb", RECORDING, "--scheduler", scheduler, "--quiet"]);
        assert!(ok, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        let mut left: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        for e in expected.lines().filter(|l| !l.trim().is_empty()) {
            let want = format!("*{};", e.trim());
            let at = left.iter().position(|l| *l == want);
            assert!(at.is_some(), "{scheduler}: {want} missing");
            left.remove(at.unwrap_or(0));
        }
        assert!(lines.len() >= 159);
        // The table on stderr.
        assert!(err.contains("4d2023  AMC421"), "{err}");
        match &first {
            None => first = Some(out),
            Some(f) => assert_eq!(&out, f, "{scheduler} differs from chain"),
        }
    }
}

#[test]
fn example_decodes_to_its_expected_output() {
    let (ok, out, err) = rfgraph(&[
        "adsb",
        "examples/adsb/traffic.sigmf-meta",
        "--json",
        "--quiet",
    ]);
    assert!(ok, "{err}");
    let want =
        std::fs::read_to_string(root().join("examples/adsb/traffic.expected.jsonl")).unwrap();
    assert_eq!(out, want);
    let table = std::fs::read_to_string(root().join("examples/adsb/traffic.table.txt")).unwrap();
    assert_eq!(err, table);
    // Every line is a message; the receiver's position came from the
    // recording's core:geolocation, which resolves the surface track.
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["hex"].is_string() && v["sample"].is_u64() && v["signal_dbfs"].is_f64());
    }
    assert!(out.contains("\"surface_position\"") && out.contains("\"lat\""));
}

#[test]
fn example_regenerates_byte_for_byte() {
    let s = Scratch::new("regen");
    let meta = s.path("traffic.sigmf-meta");
    let truth = s.path("traffic.truth.jsonl");
    let (ok, out, err) = rfgraph(&["gen", "adsb", "-o", &meta, "--truth", &truth]);
    assert!(ok, "{err}");
    let summary: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(summary["samples"], 500_000);
    for (ours, shipped) in [
        (
            s.path("traffic.sigmf-data"),
            "examples/adsb/traffic.sigmf-data",
        ),
        (meta.clone(), "examples/adsb/traffic.sigmf-meta"),
        (truth.clone(), "examples/adsb/traffic.truth.jsonl"),
    ] {
        let a = std::fs::read(&ours).unwrap();
        let b = std::fs::read(root().join(shipped)).unwrap();
        assert!(a == b, "{shipped} is not what `rfgraph gen adsb` writes");
    }
    // It refuses to overwrite without --force.
    let (ok, _, err) = rfgraph(&["gen", "adsb", "-o", &meta]);
    assert!(!ok && err.contains("--force"), "{err}");
}

#[test]
fn other_formats_and_rates() {
    let s = Scratch::new("formats");
    // cf32 (through Complex32) gives the same frames as cu8 (table).
    let cf32 = s.path("t.cf32");
    let (ok, _, err) = rfgraph(&["gen", "adsb", "-o", &cf32, "--seconds", "0.05"]);
    assert!(ok, "{err}");
    let cu8 = s.path("t.cu8");
    let (ok, _, err) = rfgraph(&["gen", "adsb", "-o", &cu8, "--seconds", "0.05"]);
    assert!(ok, "{err}");
    let (ok, a, err) = rfgraph(&["adsb", &cf32, "--quiet", "--no-table"]);
    assert!(ok, "{err}");
    let (ok, b, err) = rfgraph(&["adsb", &cu8, "--quiet", "--no-table"]);
    assert!(ok, "{err}");
    assert!(a.lines().count() > 20);
    // The same frames, but for the odd marginal one quantisation to 8
    // bits tips over (the weakest aircraft is 8 dB above the noise).
    let (sa, sb): (
        std::collections::HashSet<&str>,
        std::collections::HashSet<&str>,
    ) = (a.lines().collect(), b.lines().collect());
    assert!(sa.symmetric_difference(&sb).count() <= 2, "{a}\n---\n{b}");
    // 2.4 MS/s, raw, with its rate given.
    let f24 = generated_2m4(&s);
    let (ok, out, err) = rfgraph(&["adsb", &f24, "--rate", "2.4e6", "--quiet", "--no-table"]);
    assert!(ok, "{err}");
    assert!(out.lines().count() > 20, "{out}");
    // Read at the wrong rate it is refused, naming what to do.
    let (ok, _, err) = rfgraph(&["adsb", &f24, "--rate", "3e6", "--quiet"]);
    assert!(!ok && err.contains("2 MS/s or 2.4 MS/s"), "{err}");
}

#[test]
fn options_are_checked() {
    let (ok, _, err) = rfgraph(&["adsb", RECORDING, "--lat", "52"]);
    assert!(!ok && err.contains("--lon"), "{err}");
    let (ok, _, err) = rfgraph(&["adsb", RECORDING, "--lat", "152", "--lon", "4"]);
    assert!(!ok && err.contains("--lat"), "{err}");
    let (ok, _, err) = rfgraph(&["adsb", RECORDING, "--raw-port", "1234"]);
    assert!(!ok && err.contains("--net"), "{err}");
    let (ok, _, err) = rfgraph(&["adsb", "no-such-file.cu8"]);
    assert!(!ok && err.contains("no-such-file.cu8"), "{err}");
}

/// `--net` serves on the ports it prints, on loopback; port 0 picks free
/// ones. (The outputs' contents are checked in rfgraph-radio's tests.)
#[test]
fn net_outputs_listen_where_they_say() {
    let (ok, out, err) = rfgraph(&[
        "adsb",
        RECORDING,
        "--net",
        "--raw-port",
        "0",
        "--sbs-port",
        "0",
        "--json",
    ]);
    assert!(ok, "{err}");
    assert!(out.lines().count() >= 159);
    let line = err
        .lines()
        .find(|l| l.starts_with("raw output on 127.0.0.1:"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(line.contains("SBS output on 127.0.0.1:"), "{line}");
}

/// A device (seify's `dummy`) runs at 2 MS/s and 1090 MHz by default for
/// as many samples as asked, and ends with the (empty) table.
#[test]
fn a_device_runs_with_the_defaults() {
    let (ok, out, err) = rfgraph(&[
        "adsb",
        "--device",
        "driver=dummy",
        "--samples",
        "200000",
        "--json",
    ]);
    assert!(ok, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("2000000 samples/s") && err.contains("1.09 GHz"),
        "{err}"
    );
    assert!(err.contains("0 frames"), "{err}");
    let (ok, _, err) = rfgraph(&[
        "adsb",
        "--device",
        "driver=dummy",
        "--samples",
        "10",
        "--throttle",
    ]);
    assert!(!ok && err.contains("--throttle"), "{err}");
}

/// A file whose name names no sample format (none at all, or dump1090's
/// `.bin`) is read as dump1090 reads it, cu8 at 2 MS/s: the recording
/// under those names decodes to the very frames of the `.cu8` file, with
/// a one-line note on stderr (not with `--quiet`).
#[test]
fn a_name_without_a_format_is_cu8_at_2_msps() {
    let s = Scratch::new("noformat");
    let (ok, want, err) = rfgraph(&["adsb", RECORDING, "--quiet", "--no-table"]);
    assert!(ok, "{err}");
    assert!(want.lines().count() >= 159, "{want}");
    for name in ["modes1", "modes1.bin"] {
        let copy = s.path(name);
        std::fs::copy(root().join(RECORDING), &copy).unwrap();
        let (ok, out, err) = rfgraph(&["adsb", &copy, "--no-table"]);
        assert!(ok, "{name}: {err}");
        assert_eq!(out, want, "{name}");
        let notes: Vec<&str> = err
            .lines()
            .filter(|l| l.contains("no sample format in its name"))
            .collect();
        assert_eq!(notes.len(), 1, "{name}: {err}");
        assert!(
            notes[0].contains(name) && notes[0].contains("cu8 at 2 MS/s"),
            "{name}: {err}"
        );
        let (ok, out, err) = rfgraph(&["adsb", &copy, "--quiet", "--no-table"]);
        assert!(ok, "{name}: {err}");
        assert_eq!(out, want, "{name} --quiet");
        assert!(!err.contains("no sample format"), "{name} --quiet: {err}");
    }
}

/// `--format` and `--rate` still say what such a file holds: a cf32
/// recording named `.bin` decodes as the `.cf32` file does, with no note;
/// read as the default cu8 it gives other (garbled) output.
#[test]
fn format_and_rate_override_the_raw_default() {
    let s = Scratch::new("override");
    let cf32 = s.path("t.cf32");
    let (ok, _, err) = rfgraph(&["gen", "adsb", "-o", &cf32, "--seconds", "0.05"]);
    assert!(ok, "{err}");
    let (ok, want, err) = rfgraph(&["adsb", &cf32, "--quiet", "--no-table"]);
    assert!(ok, "{err}");
    assert!(want.lines().count() > 20, "{want}");
    let bin = s.path("t.bin");
    std::fs::copy(&cf32, &bin).unwrap();
    let (ok, out, err) = rfgraph(&["adsb", &bin, "--format", "cf32", "--no-table"]);
    assert!(ok, "{err}");
    assert_eq!(out, want);
    assert!(!err.contains("no sample format"), "{err}");
    let (_, out, _) = rfgraph(&["adsb", &bin, "--quiet", "--no-table"]);
    assert_ne!(out, want, "read as cu8 it is another signal");
    // A 2.4 MS/s recording without a format in its name: --rate says so,
    // and the note names the rate given.
    let f24 = generated_2m4(&s);
    let (ok, want, err) = rfgraph(&["adsb", &f24, "--rate", "2.4e6", "--quiet", "--no-table"]);
    assert!(ok, "{err}");
    let raw = s.path("t24");
    std::fs::copy(&f24, &raw).unwrap();
    let (ok, out, err) = rfgraph(&["adsb", &raw, "--rate", "2.4e6", "--no-table"]);
    assert!(ok, "{err}");
    assert_eq!(out, want);
    assert!(
        err.contains("no sample format in its name") && err.contains("2400000 samples/s"),
        "{err}"
    );
}
