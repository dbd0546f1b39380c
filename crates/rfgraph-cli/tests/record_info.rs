//! `rfgraph record` and `rfgraph info`, through the binary: conversions
//! keep samples and metadata, `info` says what a file holds, and bad input
//! is an error naming the file and where.

use rfgraph_blocks::SampleFormat;
use rfgraph_blocks::sigmf::{Annotation, Capture, SigmfMeta, SigmfRecording};
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

#[test]
fn record_from_a_device_writes_its_frequency_rate_and_count() {
    let dir = Scratch::new("device");
    let (ok, out, err) = rfgraph(
        &dir.0,
        &[
            "record",
            "--device",
            "driver=dummy",
            "--freq",
            "433.92e6",
            "--rate",
            "2e6",
            "--samples",
            "50000",
            "--datatype",
            "ci16_le",
            "--to",
            "rx",
        ],
    );
    assert!(ok, "{err}");
    assert!(out.contains("50000 samples"), "{out}");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path("rx.sigmf-meta")).unwrap()).unwrap();
    assert_eq!(meta["global"]["core:datatype"], "ci16_le");
    assert_eq!(meta["global"]["core:sample_rate"], 2e6);
    assert_eq!(meta["global"]["core:hw"], "driver=dummy");
    assert_eq!(meta["captures"][0]["core:sample_start"], 0);
    assert_eq!(meta["captures"][0]["core:frequency"], 433.92e6);
    assert!(meta["captures"][0]["core:datetime"].is_string());
    // 50 000 complex 16-bit samples.
    assert_eq!(
        std::fs::metadata(dir.path("rx.sigmf-data")).unwrap().len(),
        200_000
    );
    let (ok, out, err) = rfgraph(&dir.0, &["info", "rx"]);
    assert!(ok, "{err}");
    assert!(out.contains("433.92 MHz"), "{out}");
}

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("rfgraph-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn bytes(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 7 + i / 3) as u8).collect()
}

#[test]
fn record_converts_a_raw_cu8_file_and_info_describes_it() {
    let dir = Scratch::new("raw");
    let raw = bytes(2 * 120_000);
    std::fs::write(dir.path("in.cu8"), &raw).unwrap();
    let (ok, out, err) = rfgraph(
        &dir.0,
        &[
            "record",
            "--from",
            "in.cu8",
            "--rate",
            "2.4e6",
            "--freq",
            "100e6",
            "--datetime",
            "2024-05-01T12:00:00Z",
            "--to",
            "out.sigmf-meta",
        ],
    );
    assert!(ok, "{err}");
    assert!(out.contains("120000 samples of cu8"), "{out}");
    // Same format: the bytes are copied exactly.
    assert!(std::fs::read(dir.path("out.sigmf-data")).unwrap() == raw);
    let r = SigmfRecording::open(dir.path("out.sigmf-meta")).unwrap();
    assert_eq!(r.meta().global.sample_rate, Some(2.4e6));
    assert_eq!(r.meta().captures[0].frequency, Some(100e6));
    assert_eq!(
        r.meta().captures[0].datetime.as_deref(),
        Some("2024-05-01T12:00:00Z")
    );

    let (ok, out, err) = rfgraph(&dir.0, &["info", "out.sigmf-meta"]);
    assert!(ok, "{err}");
    for want in [
        "SigMF 1.2.6",
        "cu8 (complex, 8-bit unsigned",
        "2400000 Hz",
        "samples      120000",
        "0.05 s",
        "captures     1",
        "100 MHz",
        "annotations  0",
    ] {
        assert!(out.contains(want), "`{want}` not in:\n{out}");
    }
    let (ok, out, err) = rfgraph(&dir.0, &["info", "in.cu8", "--rate", "2.4e6"]);
    assert!(ok, "{err}");
    for want in ["raw cu8", "samples      120000", "0.05 s"] {
        assert!(out.contains(want), "`{want}` not in:\n{out}");
    }
    // Any name, with --format.
    std::fs::write(dir.path("in.bin"), &raw).unwrap();
    let (ok, out, _) = rfgraph(&dir.0, &["info", "in.bin", "--format", "cs16"]);
    assert!(ok && out.contains("samples      60000"), "{out}");
}

#[test]
fn record_converts_sigmf_to_another_datatype_keeping_captures_and_annotations() {
    let dir = Scratch::new("sigmf");
    let mut meta = SigmfMeta::new(SampleFormat::CS16);
    meta.global.sample_rate = Some(1e6);
    meta.global.author = Some("someone".into());
    meta.captures = vec![
        Capture {
            frequency: Some(433.92e6),
            ..Capture::at(0)
        },
        Capture {
            frequency: Some(868e6),
            ..Capture::at(5000)
        },
    ];
    meta.annotations = (0..25)
        .map(|i| Annotation {
            sample_count: Some(10),
            label: Some(format!("burst {i}")),
            ..Annotation::at(i * 300)
        })
        .collect();
    meta.write(&dir.path("in.sigmf-meta")).unwrap();
    // Values whose conversion to f32 and back is exact.
    let samples: Vec<i16> = (0..20_000)
        .map(|i| ((i * 37) % 65536 - 32768) as i16)
        .collect();
    let data: Vec<u8> = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
    std::fs::write(dir.path("in.sigmf-data"), &data).unwrap();

    let (ok, _, err) = rfgraph(
        &dir.0,
        &[
            "record",
            "--from",
            "in.sigmf-meta",
            "--datatype",
            "ci16_be",
            "--to",
            "be",
        ],
    );
    assert!(ok, "{err}");
    let r = SigmfRecording::open(dir.path("be.sigmf-meta")).unwrap();
    assert_eq!(r.meta().captures, meta.captures);
    assert_eq!(r.meta().annotations, meta.annotations);
    assert_eq!(r.meta().global.author.as_deref(), Some("someone"));
    let be: Vec<u8> = samples.iter().flat_map(|s| s.to_be_bytes()).collect();
    assert!(std::fs::read(r.data_path()).unwrap() == be);

    let (ok, out, err) = rfgraph(&dir.0, &["info", "be"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("annotations  25") && out.contains("\"burst 19\""),
        "{out}"
    );
    assert!(
        out.contains("... and 5 more") && !out.contains("burst 20"),
        "{out}"
    );
    assert!(
        out.contains("868 MHz") && out.contains("samples 300..310"),
        "{out}"
    );
    let (_, all, _) = rfgraph(&dir.0, &["info", "be", "--all"]);
    assert!(
        all.contains("\"burst 24\"") && !all.contains("more"),
        "{all}"
    );
}

#[test]
fn bad_input_is_an_error_naming_the_file_and_where() {
    let dir = Scratch::new("errors");
    std::fs::write(dir.path("odd.cu8"), [1u8, 2, 3]).unwrap();
    std::fs::write(dir.path("x.bin"), [0u8; 4]).unwrap();
    std::fs::write(dir.path("bad.sigmf-meta"), br#"{"global": {"core:datatype": "cf32_le", "core:sample_rate": -5}, "captures": [], "annotations": []}"#).unwrap();
    std::fs::write(dir.path("bad.sigmf-data"), [0u8; 8]).unwrap();
    std::fs::write(
        dir.path("broken.sigmf-meta"),
        br#"{"global": {"core:datatype": "cf32_le"}, "captures": [{"core:sample_start": }]}"#,
    )
    .unwrap();
    std::fs::write(dir.path("existing.sigmf-meta"), b"{}").unwrap();
    std::fs::create_dir(dir.path("folder.cu8")).unwrap();
    for (args, words) in [
        (
            vec!["info", "folder.cu8"],
            vec!["folder.cu8", "is a directory"],
        ),
        (vec!["info", ".", "--format", "cu8"], vec!["is a directory"]),
        (
            vec!["info", "missing.cu8"],
            vec!["missing.cu8", "No such file"],
        ),
        (vec!["info", "odd.cu8"], vec!["odd.cu8", "byte offset 2"]),
        (
            vec!["record", "--from", "odd.cu8", "--to", "o"],
            vec!["odd.cu8", "byte offset 2"],
        ),
        (vec!["info", "x.bin"], vec!["x.bin", "--format"]),
        (
            vec!["info", "bad.sigmf-meta"],
            vec!["bad.sigmf-meta", "global.core:sample_rate", "positive"],
        ),
        (
            vec!["info", "broken"],
            vec![
                "broken.sigmf-meta",
                "captures[0].core:sample_start",
                "line 1",
            ],
        ),
        (
            vec![
                "record", "--from", "x.bin", "--format", "cs16", "--to", "existing",
            ],
            vec!["existing.sigmf-meta exists", "--force"],
        ),
        (
            vec![
                "record",
                "--device",
                "driver=dummy",
                "--rate",
                "1e6",
                "--to",
                "d",
            ],
            vec!["--freq"],
        ),
        (
            vec![
                "record",
                "--device",
                "driver=nosuch",
                "--rate",
                "1e6",
                "--freq",
                "1e8",
                "--to",
                "d",
            ],
            vec!["nosuch"],
        ),
        (
            vec![
                "record",
                "--device",
                "driver=dummy",
                "--rate",
                "1e6",
                "--freq=-5",
                "--samples",
                "10",
                "--to",
                "d",
            ],
            vec!["frequency"],
        ),
        (
            vec![
                "record",
                "--from",
                "x.bin",
                "--format",
                "cs16",
                "--datatype",
                "rf32_le",
                "--to",
                "r",
            ],
            vec!["complex", "real"],
        ),
    ] {
        let (ok, _, err) = rfgraph(&dir.0, &args);
        assert!(!ok, "{args:?} succeeded");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        for w in words {
            assert!(err.contains(w), "{args:?}: `{w}` not in: {err}");
        }
    }
}
