//! The web UI in a real browser: Debian's headless Chromium, driven by
//! Playwright for Python (`web_ui.py`; `.ci/run` installs both, and
//! Playwright is pointed at Debian's browser, never downloading one).
//!
//! - A steerable tone (`examples/flowgraphs/web_tone.toml`): every block
//!   is drawn, its counters rise, the spectrum's peak sits at the tone,
//!   and moves when the frequency widget is moved and again when the
//!   source's parameter is set in its block panel; the panel shows the
//!   histogram and sends a message that a handler answers. A screenshot
//!   is saved under the test's output folder.
//! - A graph of 200 blocks is drawn whole, and keeps updating; the
//!   drawing and update times are printed (a figure, not an assertion).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long the browser script may take before the test fails.
const BROWSER_LIMIT: Duration = Duration::from_secs(240);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// What the browser test needs here: Playwright's Python and Chromium.
fn browser(test: &str) -> Option<PathBuf> {
    if !rfgraph_testkit::installed(test, "/usr/bin/chromium", "chromium") {
        return None;
    }
    rfgraph_testkit::reference_python(test, "playwright")
}

/// `rfgraph run FILE --control 127.0.0.1:0`, killed when dropped.
struct Served {
    child: Child,
    ui: String,
}

impl Served {
    fn start(file: &Path) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rfgraph"))
            .arg("run")
            .arg(file)
            .args(["--control", "127.0.0.1:0"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("rfgraph starts");
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                eprintln!("{line}");
                if tx.send(line).is_err() {
                    // Keep draining so the CLI never blocks on stderr.
                    continue;
                }
            }
        });
        let mut served = Served {
            child,
            ui: String::new(),
        };
        served.ui = loop {
            let line = rx
                .recv_timeout(Duration::from_secs(60))
                .expect("the CLI says where its web UI is");
            if let Some(url) = line.strip_prefix("rfgraph: web UI: ") {
                break url.trim().to_string();
            }
        };
        served
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `web_ui.py MODE URL OUT` and gives its JSON report.
fn drive(python: &Path, mode: &str, url: &str) -> serde_json::Value {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web_ui");
    std::fs::create_dir_all(&out).expect("output folder");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/web_ui.py");
    let mut child = Command::new(python)
        .arg(&script)
        .args([mode, url])
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python starts");
    let start = Instant::now();
    while child.try_wait().expect("python runs").is_none() {
        if start.elapsed() > BROWSER_LIMIT {
            let _ = child.kill();
            panic!("the browser test ran past {BROWSER_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let output = child.wait_with_output().expect("python output");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the browser test failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let last = stdout.lines().last().unwrap_or_default();
    eprintln!("web_ui {mode}: {last}; screenshots in {}", out.display());
    serde_json::from_str(last).expect("a JSON report")
}

#[test]
fn a_browser_watches_and_steers_a_tone() {
    let Some(python) = browser("web_ui::a_browser_watches_and_steers_a_tone") else {
        return;
    };
    let served = Served::start(&root().join("examples/flowgraphs/web_tone.toml"));
    let report = drive(&python, "tone", &served.ui);
    let peaks: Vec<f64> = report["peaks_hz"]
        .as_array()
        .expect("peaks")
        .iter()
        .filter_map(|p| p.as_f64())
        .collect();
    assert_eq!(peaks.len(), 3, "{report}");
    for (got, want) in peaks.iter().zip([1000.0, 6000.0, -9000.0]) {
        assert!((got - want).abs() < 100.0, "peak {got} Hz, want {want}");
    }
    assert!(report["items_later"].as_u64() > report["items_first"].as_u64());
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web_ui/web_ui.png");
    assert!(
        std::fs::metadata(&shot)
            .map(|m| m.len() > 10_000)
            .unwrap_or(false)
    );
}

/// A source, a throttle, and 18 branches of ten gains and a sink: 200
/// blocks.
fn two_hundred_blocks(dir: &Path) -> PathBuf {
    let mut text = String::from(
        "format = 1\ntitle = \"Two hundred blocks\"\nconnections = [\n  \"src -> thr\",\n",
    );
    let mut blocks = String::from(
        "[blocks.src]\nkind = \"sig_source\"\ntype = \"f32\"\nsample_rate = 1e6\nfrequency = 1e3\n\
         [blocks.thr]\nkind = \"throttle\"\ntype = \"f32\"\nsample_rate = 1e6\n",
    );
    for b in 0..18 {
        let mut chain = vec!["thr".to_string()];
        for k in 0..10 {
            let name = format!("g{b}_{k}");
            blocks.push_str(&format!(
                "[blocks.{name}]\nkind = \"multiply_const\"\ntype = \"f32\"\nconstant = 1.0\n"
            ));
            chain.push(name);
        }
        let sink = format!("sink{b}");
        blocks.push_str(&format!(
            "[blocks.{sink}]\nkind = \"null_sink\"\ntype = \"f32\"\n"
        ));
        chain.push(sink);
        text.push_str(&format!("  \"{}\",\n", chain.join(" -> ")));
    }
    text.push_str("]\n");
    // Two workers, not a thread per block: the browser shares the machine.
    text.push_str("[scheduler]\nname = \"chain\"\n");
    text.push_str(&blocks);
    let path = dir.join("two_hundred_blocks.toml");
    std::fs::write(&path, text).expect("write the graph");
    path
}

#[test]
fn a_browser_draws_two_hundred_blocks() {
    let Some(python) = browser("web_ui::a_browser_draws_two_hundred_blocks") else {
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web_ui");
    std::fs::create_dir_all(&dir).expect("output folder");
    let served = Served::start(&two_hundred_blocks(&dir));
    let report = drive(&python, "big", &served.ui);
    assert_eq!(report["blocks"], 200, "{report}");
}
