//! `rfgraph spectrum` through the binary: it writes a PNG of the size
//! asked for from raw, SigMF and device input, prints statistics on
//! request, and refuses bad options naming them.

use std::f64::consts::PI;
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

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("rfgraph-spectrum-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
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

/// `n` cf32 samples of a tone `offset` Hz from the centre at `rate`.
fn write_tone(path: &Path, n: usize, offset: f64, rate: f64) {
    let bytes: Vec<u8> = (0..n)
        .flat_map(|i| {
            let ph = 2.0 * PI * offset * i as f64 / rate;
            let mut b = (0.5 * ph.cos() as f32).to_le_bytes().to_vec();
            b.extend_from_slice(&(0.5 * ph.sin() as f32).to_le_bytes());
            b
        })
        .collect();
    std::fs::write(path, bytes).unwrap();
}

/// The width and height a PNG file declares (its IHDR chunk).
fn png_size(path: &Path) -> (u32, u32) {
    let b = std::fs::read(path).unwrap();
    assert_eq!(
        &b[..8],
        b"\x89PNG\r\n\x1a\n",
        "{} is not a PNG",
        path.display()
    );
    assert_eq!(&b[12..16], b"IHDR");
    let be = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    (be(16), be(20))
}

#[test]
fn a_raw_file_becomes_a_png_of_the_size_asked_for_with_statistics() {
    let dir = Scratch::new("raw");
    write_tone(&dir.path("x.cf32"), 256 * 200, 125e3, 1e6);
    let (ok, out, err) = rfgraph(
        &dir.0,
        &[
            "spectrum",
            "x.cf32",
            "--rate",
            "1e6",
            "--freq",
            "100e6",
            "-o",
            "out.png",
            "--fft",
            "256",
            "--width",
            "640",
            "--height",
            "480",
            "--stats",
            "--scheduler",
            "tpb",
        ],
    );
    assert!(ok, "{err}");
    assert_eq!(png_size(&dir.path("out.png")), (640, 480));
    assert!(err.contains("centre 100 MHz"), "{err}");
    assert!(err.contains("wrote out.png: 200 waterfall lines"), "{err}");
    // stdout holds the statistics only.
    let stats: serde_json::Value = serde_json::from_str(out.trim()).expect("stats are JSON");
    let blocks: Vec<&str> = stats
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["block"].as_str().unwrap())
        .collect();
    assert_eq!(
        blocks,
        ["source", "power spectrum", "average", "waterfall", "lines"]
    );
    assert_eq!(stats[4]["items_consumed"], 256 * 200);
}

#[test]
fn sigmf_and_device_inputs_label_themselves() {
    let dir = Scratch::new("sigmf");
    write_tone(&dir.path("rec.sigmf-data"), 4096, -20e3, 48e3);
    std::fs::write(
        dir.path("rec.sigmf-meta"),
        r#"{"global": {"core:datatype": "cf32_le", "core:version": "1.0.0",
             "core:sample_rate": 48000.0},
            "captures": [{"core:sample_start": 0, "core:frequency": 7.1e6}],
            "annotations": []}"#,
    )
    .unwrap();
    let (ok, _, err) = rfgraph(
        &dir.0,
        &[
            "spectrum", "rec", "-o", "s.png", "--fft", "64", "--scale", "power",
        ],
    );
    assert!(ok, "{err}");
    assert!(err.contains("centre 7.1 MHz"), "{err}");
    assert_eq!(png_size(&dir.path("s.png")), (1200, 900));
    let (ok, _, err) = rfgraph(
        &dir.0,
        &[
            "spectrum",
            "--device",
            "driver=dummy",
            "--freq",
            "433.92e6",
            "--rate",
            "1e6",
            "--samples",
            "200000",
            "-o",
            "d.png",
            "--quiet",
        ],
    );
    assert!(ok, "{err}");
    assert!(err.is_empty(), "--quiet prints nothing: {err}");
    assert!(dir.path("d.png").exists());
}

#[test]
fn bad_options_are_errors_naming_them() {
    let dir = Scratch::new("errors");
    write_tone(&dir.path("x.cf32"), 1000, 0.0, 1e6);
    for (args, option) in [
        (&["spectrum", "x.cf32", "-o", "o.png"][..], "--rate"),
        (
            &["spectrum", "x.cf32", "--rate", "1e6", "-o", "o.jpg"],
            "--output",
        ),
        (
            &[
                "spectrum", "x.cf32", "--rate", "1e6", "-o", "o.png", "--fft", "1",
            ],
            "--fft",
        ),
        (
            &[
                "spectrum", "x.cf32", "--rate", "1e6", "-o", "o.png", "--fft", "4096",
            ],
            "--fft",
        ),
        (
            &[
                "spectrum", "x.cf32", "--rate", "1e6", "-o", "o.png", "--window", "kaiser",
            ],
            "--window",
        ),
        (
            &[
                "spectrum", "x.cf32", "--rate", "1e6", "-o", "o.png", "--width", "10",
            ],
            "--width",
        ),
        (
            &[
                "spectrum",
                "x.cf32",
                "--rate",
                "1e6",
                "-o",
                "o.png",
                "--average",
                "0",
            ],
            "--average",
        ),
        (
            &[
                "spectrum",
                "x.cf32",
                "--rate",
                "1e6",
                "-o",
                "o.png",
                "--scheduler",
                "x",
            ],
            "--scheduler",
        ),
        (&["spectrum", "x.cf32", "--rate", "1e6"], "--output"),
    ] {
        let (ok, _, err) = rfgraph(&dir.0, args);
        assert!(!ok, "{args:?} succeeded");
        assert!(err.contains(option), "{args:?}: `{option}` not in: {err}");
        assert!(!dir.path("o.png").exists(), "{args:?} wrote an image");
    }
}
