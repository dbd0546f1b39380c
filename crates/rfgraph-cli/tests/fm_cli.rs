//! `rfgraph fm` through the binary: a cu8 recording of a stereo station
//! becomes a stereo WAV file; the pilot's lock is reported; statistics
//! print on request; with no `-o` and no sound card the error says to use
//! `-o`; bad options are refused naming them; the shipped example prints
//! its `rds.jsonl`.

use rfgraph_blocks::WavSource;
use std::f64::consts::TAU;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `rfgraph ARGS` with a two-minute watchdog: (success, stdout,
/// stderr).
fn rfgraph(args: &[&str]) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rfgraph"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the rfgraph binary starts");
    let deadline = Instant::now() + Duration::from_secs(120);
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
            std::env::temp_dir().join(format!("rfgraph-fm-cli-{name}-{}", std::process::id()));
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

/// `seconds` of a stereo station (1 kHz left only, a 9 % pilot) at
/// 2.4 MS/s, `offset` Hz off centre, as cu8.
fn write_station(path: &Path, seconds: f64, offset: f64) {
    let rate = 2.4e6;
    let mut phase = 0.0f64;
    let bytes: Vec<u8> = (0..(rate * seconds) as usize)
        .flat_map(|k| {
            let t = k as f64 / rate;
            let l = 0.8 * (TAU * 1e3 * t).sin();
            let p = TAU * 19e3 * t;
            let mpx = 0.9 * (l / 2.0 + l / 2.0 * (2.0 * p).sin()) + 0.09 * p.sin();
            phase = (phase + TAU * (75e3 * mpx + offset) / rate) % TAU;
            [phase.cos(), phase.sin()].map(|v| (127.5 + 100.0 * v).round() as u8)
        })
        .collect();
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_recording_becomes_a_stereo_wav_file() {
    let dir = Scratch::new("wav");
    let input = dir.path("station.cu8");
    write_station(Path::new(&input), 0.4, -300e3);
    let wav = dir.path("out.wav");
    let (ok, stdout, stderr) = rfgraph(&[
        "fm",
        &input,
        "--rate",
        "2.4e6",
        "--offset",
        "-300e3",
        "-o",
        &wav,
        "--no-rds",
        "--stats",
        "--scheduler",
        "single",
    ]);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("stereo: pilot locked"), "{stderr}");
    let w = WavSource::open(&wav).unwrap();
    assert_eq!((w.channels(), w.sample_rate()), (2, 48_000));
    assert_eq!(w.frames(), 19_200);
    // --stats: the statistics JSON on stdout, naming the stereo decoder.
    let stats: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert!(stats.to_string().contains("StereoDemod"), "{stdout}");
}

#[test]
fn station_frequency_mono_and_audio_rate() {
    let dir = Scratch::new("station");
    let input = dir.path("station.cu8");
    write_station(Path::new(&input), 0.3, 200e3);
    let wav = dir.path("out.wav");
    let (ok, _, stderr) = rfgraph(&[
        "fm",
        &input,
        "--rate",
        "2.4e6",
        "--freq",
        "98.3e6",
        "--station",
        "98.5e6",
        "--mono",
        "--audio-rate",
        "44100",
        "--deemph",
        "75",
        "-o",
        &wav,
        "--quiet",
    ]);
    assert!(ok, "{stderr}");
    let w = WavSource::open(&wav).unwrap();
    assert_eq!((w.channels(), w.sample_rate()), (2, 44_100));
    assert!(w.frames().abs_diff(13_230) <= 1, "{}", w.frames());
    // --station needs to know the centre.
    let (ok, _, stderr) = rfgraph(&[
        "fm",
        &input,
        "--rate",
        "2.4e6",
        "--station",
        "98.5e6",
        "-o",
        &wav,
    ]);
    assert!(!ok && stderr.contains("--freq"), "{stderr}");
}

#[test]
fn without_o_and_without_a_sound_card_the_error_suggests_o() {
    let dir = Scratch::new("play");
    let input = dir.path("station.cu8");
    write_station(Path::new(&input), 0.05, 0.0);
    let (ok, _, stderr) = rfgraph(&["fm", &input, "--rate", "2.4e6"]);
    // Built without `audio`, or with it on a machine without a sound card
    // (CI): the command fails and points at -o.
    #[cfg(not(feature = "audio"))]
    assert!(
        !ok,
        "without the audio feature there is no device to play on"
    );
    if !ok {
        assert!(stderr.contains("-o out.wav"), "{stderr}");
    }
}

#[test]
fn bad_options_are_refused_naming_them() {
    let dir = Scratch::new("bad");
    let input = dir.path("station.cu8");
    write_station(Path::new(&input), 0.05, 0.0);
    let wav = dir.path("out.wav");
    for (args, word) in [
        (vec!["--offset", "2e6"], "offset"),
        (vec!["--audio-rate", "1000"], "audio rate"),
        (vec!["--deemph", "60"], "--deemph"),
    ] {
        let mut full = vec!["fm", &input, "--rate", "2.4e6", "-o", &wav];
        full.extend(args.iter().copied());
        let (ok, _, stderr) = rfgraph(&full);
        assert!(!ok && stderr.contains(word), "{args:?}: {stderr}");
    }
    let (ok, _, stderr) = rfgraph(&["fm", &input, "--rate", "100e3", "-o", &wav]);
    assert!(!ok && stderr.contains("input rate"), "{stderr}");
}

#[test]
fn rds_prints_as_json_lines_from_a_sigmf_recording() {
    let dir = Scratch::new("rds");
    let meta = dir.path("station.sigmf-meta");
    let (ok, _, stderr) = rfgraph(&[
        "gen",
        "fm",
        "-o",
        &meta,
        "--rate",
        "480e3",
        "--seconds",
        "3",
        "--cnr",
        "30",
        "--offset",
        "100e3",
        "--freq",
        "98.5e6",
        "--pi",
        "0xBEEF",
        "--ps",
        "RX TEST",
        "--rt",
        "Hello from rfgraph",
    ]);
    assert!(ok, "{stderr}");
    let wav = dir.path("out.wav");
    // The recording's centre is 98.4 MHz: --station finds the offset.
    let (ok, stdout, stderr) = rfgraph(&["fm", &meta, "--station", "98.5e6", "-o", &wav]);
    assert!(ok, "{stderr}");
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert!(!lines.is_empty(), "no RDS on stdout; stderr: {stderr}");
    assert!(lines.iter().all(|l| l["pi"] == "0xBEEF"), "{stdout}");
    let last = |key: &str| lines.iter().rev().find_map(|l| l.get(key).cloned());
    assert_eq!(last("ps"), Some("RX TEST ".into()), "{stdout}");
    assert_eq!(last("rt"), Some("Hello from rfgraph".into()), "{stdout}");
}

/// The shipped example prints exactly `examples/fm/rds.jsonl`, whose
/// every field rfgraph-radio's `example_fm` establishes against gr-rds
/// and the generator's content (`examples/fm/README.md` says how to
/// write it again).
#[test]
fn the_example_prints_its_rds_jsonl() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = Scratch::new("example");
    let wav = dir.path("station.wav");
    let meta = root.join("examples/fm/station.sigmf-meta");
    let (ok, stdout, stderr) = rfgraph(&["fm", meta.to_str().unwrap(), "-o", &wav]);
    assert!(ok, "{stderr}");
    let shipped = std::fs::read_to_string(root.join("examples/fm/rds.jsonl")).unwrap();
    assert_eq!(stdout, shipped, "stderr: {stderr}");
}
