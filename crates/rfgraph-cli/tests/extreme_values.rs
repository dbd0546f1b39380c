//! Parameters from files are untrusted. This takes the shipped flowgraph
//! files and GNU Radio Companion files, replaces one number in them by an
//! extreme value (0, −1, 1e−30, 1e12, 1e300, ...), and runs the result
//! with `rfgraph run --duration`: whatever the value, the run either works
//! or ends with an error placed in the file, never a panic, an abort (an
//! allocation the machine cannot make) or a hang.

use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The files mutated, relative to the workspace root.
const FILES: &[&str] = &[
    "examples/flowgraphs/tone_lowpass.toml",
    "examples/flowgraphs/loopback_modem.toml",
    "examples/flowgraphs/fm_receiver.toml",
    "examples/flowgraphs/adsb_receiver.toml",
    "testdata/grc/selector.grc",
    "testdata/grc/stream_mux_demo.grc",
    "testdata/grc/fm_rx.grc",
];

/// What replaces a number.
const EXTREMES: &[&str] = &[
    "0",
    "-1",
    "1e-30",
    "1e12",
    "1e300",
    "-1e12",
    "300",
    "4294967297",
    "0.5",
];

/// How long one run may take before it counts as a hang.
const WATCHDOG: Duration = Duration::from_secs(30);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A scratch folder to run in, where `examples` leads to the shipped
/// recordings (the files name them relative to the workspace root).
fn scratch() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("extreme_values");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::os::unix::fs::symlink(root().join("examples"), dir.join("examples")).unwrap();
        dir
    })
}

/// The byte ranges of the numbers in `text`: digits (with a point and an
/// exponent) not inside a name such as `out0` or `blocks_copy_0`.
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_digit()
            && (i == 0
                || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.'));
        if !starts {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.' || b[i] == b'_') {
            i += 1;
        }
        if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
            let mut j = i + 1;
            if j < b.len() && (b[j] == b'-' || b[j] == b'+') {
                j += 1;
            }
            if j < b.len() && b[j].is_ascii_digit() {
                i = j;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            }
        }
        if i >= b.len() || !(b[i].is_ascii_alphabetic() || b[i] == b'_') {
            out.push((start, i));
        }
    }
    out
}

/// Runs `rfgraph run` on `text` (a file named like `original`); panics on
/// a panic, an abort, a hang or an error without a place in the file.
fn run(original: &str, text: &str, what: &str) {
    let name = Path::new(original)
        .file_name()
        .unwrap()
        .to_string_lossy()
        .to_string();
    let file = scratch().join(format!("{}-{name}", std::process::id()));
    std::fs::write(&file, text).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rfgraph"))
        .args(["run", "--duration", "0.3"])
        .arg(&file)
        .current_dir(scratch())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap_or_default());
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > WATCHDOG {
            child.kill().unwrap();
            panic!("{what}: `rfgraph run` hung");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let err = reader.join().unwrap();
    let code = status.code();
    assert!(
        code.is_some(),
        "{what}: killed by a signal ({status}):\n{err}"
    );
    assert!(
        !err.contains("panicked") && code != Some(101),
        "{what}: panicked:\n{err}"
    );
    if code != Some(0) {
        let shown = file.display().to_string();
        assert!(
            err.contains(&format!("{shown}:")),
            "{what}: the error names no place in the file:\n{err}"
        );
    }
}

/// A file: its name, its text, and where its numbers are.
type Numbered = (String, String, Vec<(usize, usize)>);

fn texts() -> &'static Vec<Numbered> {
    static TEXTS: OnceLock<Vec<Numbered>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        FILES
            .iter()
            .map(|f| {
                let text = std::fs::read_to_string(root().join(f)).unwrap();
                let spans = numbers(&text);
                assert!(!spans.is_empty(), "{f} has no numbers");
                (f.to_string(), text, spans)
            })
            .collect()
    })
}

#[test]
fn numbers_are_found_outside_names() {
    let text = "a = 3.5e-2\nname = \"blocks_copy_0\"\nout0 = 7\nx = [1, 22]";
    let found: Vec<&str> = numbers(text).iter().map(|&(a, b)| &text[a..b]).collect();
    assert_eq!(found, ["3.5e-2", "7", "1", "22"]);
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: if rfgraph_testkit::under_ci() { 120 } else { 24 },
        failure_persistence: None,
        // A hang costs the watchdog per try: shrink little.
        max_shrink_iters: 16,
        ..ProptestConfig::default()
    })]

    #[test]
    fn extreme_numbers_give_errors_in_the_file_never_a_crash(
        file in 0..FILES.len(),
        at in any::<prop::sample::Index>(),
        value in 0..EXTREMES.len(),
    ) {
        let (name, text, spans) = &texts()[file];
        let (a, b) = spans[at.index(spans.len())];
        let mutated = format!("{}{}{}", &text[..a], EXTREMES[value], &text[b..]);
        let line = text[..a].lines().count().max(1);
        run(name, &mutated, &format!("{name}:{line}: `{}` → {}", &text[a..b], EXTREMES[value]));
    }
}
