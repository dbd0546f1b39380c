//! `rfgraph gen fm`, through the binary: it writes the recording and the
//! JSON of what it holds, refuses to overwrite without --force, and
//! rejects bad arguments naming them.

use rfgraph_blocks::SampleFormat;
use rfgraph_blocks::sigmf::SigmfRecording;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `rfgraph ARGS` in `dir` with a one-minute watchdog: (success,
/// stdout, stderr).
fn rfgraph(dir: &Path, args: &[&str]) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rfgraph"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the rfgraph binary starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("rfgraph {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// A scratch directory removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("rfgraph-gen-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn gen_fm_writes_a_recording_and_what_it_holds() {
    let dir = Scratch::new("writes");
    let args = [
        "gen",
        "fm",
        "-o",
        "st.sigmf-meta",
        "--rate",
        "240e3",
        "--seconds",
        "0.5",
        "--cnr",
        "20",
        "--pi",
        "0xBEEF",
        "--ps",
        "TEST FM",
        "--rt",
        "Hello",
        "--freq",
        "101.1e6",
        "--offset",
        "-10e3",
        "--expected",
        "expected.json",
    ];
    let (ok, out, err) = rfgraph(&dir.0, &args);
    assert!(ok, "{err}");
    let summary: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.0.join("expected.json")).unwrap())
            .unwrap();
    assert_eq!(summary, expected);
    assert_eq!(expected["rds"]["pi"], "0xBEEF");
    assert_eq!(expected["rds"]["ps"], "TEST FM ");
    assert_eq!(expected["rds"]["rt"], "Hello");
    assert_eq!(expected["samples"], 120_000);
    let r = SigmfRecording::open(dir.0.join("st.sigmf-meta")).unwrap();
    assert_eq!(r.meta().global.datatype, SampleFormat::CU8);
    assert_eq!(r.meta().global.sample_rate, Some(240e3));
    assert_eq!(r.meta().captures[0].frequency, Some(101.11e6));
    assert_eq!(r.samples(), 120_000);

    // Again: the files exist.
    let (ok, _, err) = rfgraph(&dir.0, &args);
    assert!(!ok && err.contains("--force"), "{err}");
    let mut forced = args.to_vec();
    forced.push("--force");
    let (ok, _, err) = rfgraph(&dir.0, &forced);
    assert!(ok, "{err}");

    // A raw file takes its format from its name.
    let (ok, _, err) = rfgraph(
        &dir.0,
        &[
            "gen",
            "fm",
            "-o",
            "st.cf32",
            "--rate",
            "240e3",
            "--seconds",
            "0.1",
            "--no-rds",
        ],
    );
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::metadata(dir.0.join("st.cf32")).unwrap().len(),
        24_000 * 8
    );
}

#[test]
fn gen_fm_rejects_bad_arguments_by_name() {
    let dir = Scratch::new("rejects");
    for (args, needle) in [
        (&["--rate", "100e3"][..], "sample_rate"),
        (&["--pi", "xyz"][..], "--pi"),
        (&["--ps", "NINE CHARS"][..], "ps has 10 characters"),
        (&["--rt", "costs $5"][..], "not in the RDS character table"),
        (
            &["--offset", "200e3", "--rate", "240e3"][..],
            "carrier_offset",
        ),
        (&["--format", "f32"][..], "complex"),
        (&["--preemphasis", "60"][..], "--preemphasis"),
        (&["--rds-deviation", "20e3"][..], "--rds-deviation"),
    ] {
        let mut all = vec!["gen", "fm", "-o", "x.sigmf-meta", "--seconds", "0.01"];
        all.extend_from_slice(args);
        let (ok, _, err) = rfgraph(&dir.0, &all);
        assert!(!ok, "{args:?} succeeded");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}
