//! Shared by the radio crate's integration tests: the GNU Radio / gr-rds
//! gate (the workspace's one rule, `rfgraph_testkit::gnuradio`: a failure
//! under CI, one `SKIPPED` line and a skip elsewhere), its scripts run
//! under a watchdog, a plain FM demodulator for tests that need no
//! receiver, and tone measurement.

// Each test file uses a different subset of these helpers.
#![allow(dead_code)]

pub mod watchdog;

use num_complex::Complex32;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Python that has GNU Radio and gr-rds (Debian's), not the default
/// `python3`.
pub const GR_PYTHON: &str = rfgraph_testkit::GNURADIO_PYTHON;

/// True when GNU Radio's Python can import GNU Radio and gr-rds;
/// otherwise `test` is skipped with one `SKIPPED` line (a failure under
/// CI) and the caller returns without checking anything.
pub fn gr_rds_available(test: &str) -> bool {
    rfgraph_testkit::gnuradio(test, "rds, gnuradio.digital")
}

/// A script under `tests/gr_rds/`.
pub fn gr_script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/gr_rds")
        .join(name)
}

/// Runs `script` with `args` on GNU Radio's Python (under the watchdog:
/// its flowgraph may not hang the test) and parses the JSON object it
/// prints last.
pub fn run_gr_script(script: &str, args: &[&str]) -> serde_json::Value {
    let out = watchdog::output(
        Command::new(GR_PYTHON).arg(gr_script(script)).args(args),
        watchdog::TOOL_WATCHDOG,
    );
    assert!(
        out.status.success(),
        "{script} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| {
            panic!("{script} printed no JSON: {text}");
        });
    serde_json::from_str(last).expect("JSON from the script")
}

/// Runs `script` with `args` on GNU Radio's Python, under the watchdog;
/// fails the test if it fails.
pub fn run_gr_python(script: &str, args: &[&str]) {
    let out = watchdog::output(
        Command::new(GR_PYTHON).arg(gr_script(script)).args(args),
        watchdog::TOOL_WATCHDOG,
    );
    assert!(
        out.status.success(),
        "{script} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A unique scratch directory for one test, removed first if present.
pub fn scratch_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rfgraph-radio-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `samples` as raw little-endian `f32`.
pub fn write_f32(path: &Path, samples: &[f32]) {
    let bytes: Vec<u8> = samples.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(path, bytes).unwrap();
}

/// The plainest FM demodulator: the phase step between samples, in Hz
/// (`arg(x[n]·conj(x[n−1])) · rate / 2π`); the first output compares with
/// a sample of phase 0.
pub fn fm_demod_hz(iq: &[Complex32], rate: f64) -> Vec<f32> {
    let mut prev = Complex32::new(1.0, 0.0);
    iq.iter()
        .map(|&x| {
            let d = x * prev.conj();
            prev = x;
            (d.arg() as f64 * rate / std::f64::consts::TAU) as f32
        })
        .collect()
}

/// The complex amplitude of frequency `f` Hz in `x` (sampled at `rate`):
/// `(2/N) Σ x[n] e^{−j2πfn/rate}`, so a sine `a·sin(2πft + φ)` gives
/// magnitude `a`.
pub fn tone(x: &[f32], rate: f64, f: f64) -> num_complex::Complex64 {
    let w = std::f64::consts::TAU * f / rate;
    let s: num_complex::Complex64 = x
        .iter()
        .enumerate()
        .map(|(n, &v)| num_complex::Complex64::from_polar(v as f64, -w * n as f64))
        .sum();
    s * (2.0 / x.len() as f64)
}

/// What the RDS decoder reported, by field: every value each field took,
/// in order.
#[derive(Debug, Default)]
pub struct RdsSeen {
    /// Every message, as JSON lines.
    pub lines: Vec<String>,
    /// Every value of each key (`pi`, `ps`, `rt`, `pty`, ...), in order.
    pub values: std::collections::BTreeMap<String, Vec<serde_json::Value>>,
    /// The input bit at which the first `ps` came, if one did.
    pub first_ps_bit: Option<usize>,
    /// The input bit at which each key first came.
    pub first_bit: std::collections::BTreeMap<String, usize>,
    /// The synchroniser's totals.
    pub counts: Option<rfgraph_radio::rds::sync::SyncCounts>,
}

impl RdsSeen {
    /// The values `key` took.
    pub fn of(&self, key: &str) -> Vec<serde_json::Value> {
        self.values.get(key).cloned().unwrap_or_default()
    }

    fn add(&mut self, message: &rfgraph::Pmt, bit: usize) {
        let line = rfgraph_radio::rds::json_line(message);
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        for (k, v) in v.as_object().unwrap() {
            self.values.entry(k.clone()).or_default().push(v.clone());
            self.first_bit.entry(k.clone()).or_insert(bit);
            if k == "ps" && self.first_ps_bit.is_none() {
                self.first_ps_bit = Some(bit);
            }
        }
        self.lines.push(line);
    }

    /// Asserts that every value every field took is `want`'s (the PI,
    /// PS, RadioText and flags of `content`), and that PI, PS and
    /// RadioText were decoded.
    pub fn assert_exactly(&self, content: &rfgraph_radio::rds::RdsContent, what: &str) {
        use serde_json::json;
        let pi = format!("0x{:04X}", content.pi);
        let ps = format!("{:<8}", content.ps);
        for (key, want) in [
            ("pi", json!(pi)),
            ("ps", json!(ps)),
            ("rt", json!(content.radiotext)),
            ("pty", json!(content.pty)),
            ("tp", json!(content.tp)),
            ("ta", json!(content.ta)),
            ("ms", json!(content.music)),
        ] {
            let got = self.of(key);
            assert!(
                got.iter().all(|v| *v == want),
                "{what}: {key} took {got:?}, expected only {want}; all: {:#?}",
                self.lines
            );
            if ["pi", "ps", "rt"].contains(&key) {
                assert!(
                    !got.is_empty(),
                    "{what}: no {key} decoded; all: {:#?}",
                    self.lines
                );
            }
        }
    }
}

/// Runs the RDS demodulator and decoder (the library cores, no
/// flowgraph) over a multiplex.
pub fn decode_mpx(mpx: &[f32], rate: f64) -> RdsSeen {
    let mut demod = rfgraph_radio::rds::RdsDemodulator::new(rate).unwrap();
    let mut soft = Vec::new();
    demod.process(mpx, &mut soft);
    decode_soft(&soft)
}

/// Runs the RDS decoder over soft bits.
pub fn decode_soft(soft: &[f32]) -> RdsSeen {
    let mut sync = rfgraph_radio::rds::sync::BlockSync::new(2);
    let mut groups = rfgraph_radio::rds::groups::GroupDecoder::new();
    let mut events = Vec::new();
    let mut messages = Vec::new();
    let mut seen = RdsSeen::default();
    for (i, &s) in soft.iter().enumerate() {
        sync.push_soft(s, &mut events);
        for e in events.drain(..) {
            groups.push(e, &mut messages);
        }
        for m in messages.drain(..) {
            seen.add(&m, i);
        }
    }
    seen.counts = Some(sync.counts());
    seen
}
