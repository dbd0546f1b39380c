//! The command line behaves as Unix tools do when the reader of its output
//! goes away (`rfgraph adsb x | head -1`): it ends quietly, with no panic
//! and exit status 0, whether standard output or standard error closed;
//! and `rfgraph fm x -o out.wav | head -1` still writes the whole WAV
//! file, since its product is the file, not what it prints.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `pipeline` in bash from the workspace root, with `$RFGRAPH` the
/// binary, under a one-minute watchdog: rfgraph's exit status (the first
/// command's, `PIPESTATUS[0]`) and what the pipeline printed on stderr.
fn pipeline(pipeline: &str) -> (i32, String) {
    let script = format!("{pipeline}; echo \"status=${{PIPESTATUS[0]}}\" >&2");
    let mut child = Command::new("bash")
        .args(["-c", &script])
        .env("RFGRAPH", env!("CARGO_BIN_EXE_rfgraph"))
        .current_dir(root())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("bash starts");
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap());
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("{pipeline} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let err = reader.join().unwrap();
    let status = err
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("status="))
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(-1);
    (status, err)
}

#[test]
fn a_closed_stdout_ends_adsb_quietly() {
    // Throttled to real time, the frames come after `head` has gone.
    let (status, err) =
        pipeline("$RFGRAPH adsb examples/adsb/traffic.sigmf-meta --throttle --json | head -1");
    assert_eq!(status, 0, "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("Broken pipe"),
        "{err}"
    );
}

#[test]
fn a_closed_stderr_ends_adsb_quietly() {
    let (status, err) =
        pipeline("$RFGRAPH adsb examples/adsb/traffic.sigmf-meta --throttle 2>&1 | head -1");
    assert_eq!(status, 0, "{err}");
}

#[test]
fn a_closed_stdout_leaves_fm_writing_its_whole_wav_file() {
    let dir = std::env::temp_dir().join(format!("rfgraph-pipes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wav = dir.join("station.wav");
    let (status, err) = pipeline(&format!(
        "$RFGRAPH fm examples/fm/station.sigmf-meta -o {} | head -1",
        wav.display()
    ));
    assert_eq!(status, 0, "{err}");
    let bytes = std::fs::read(&wav).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    // The header's frame count: the data chunk over the frame size.
    let channels = u16::from_le_bytes([bytes[22], bytes[23]]) as usize;
    let bits = u16::from_le_bytes([bytes[34], bytes[35]]) as usize;
    let data = bytes
        .windows(4)
        .position(|w| w == b"data")
        .expect("a data chunk");
    let size = u32::from_le_bytes(bytes[data + 4..data + 8].try_into().unwrap()) as usize;
    let frames = size / (channels * bits / 8);
    assert_eq!(frames, 192_000, "4 s at 48 kHz");
    assert_eq!(bytes.len(), data + 8 + size, "the header matches the file");
}
