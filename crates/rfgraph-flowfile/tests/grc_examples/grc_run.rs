//! Running imported GNU Radio examples, and comparing them with GNU Radio.
//!
//! Each loaded example is built through the builder and run with a
//! watchdog, its endless sources bounded to [`ITEMS`] items at load time.
//! Every stream that ends in a null sink (GNU Radio's own, or a GUI or
//! hardware sink the importer replaced) is recorded instead with a file
//! sink. For deterministic examples (no noise or random block, no
//! hardware source) GNU Radio 3.10 runs the Python `grcc` generates from
//! the same file, with a head and a file sink on the same outputs
//! (`gr_tap.py`), and the two recordings must agree within a float
//! tolerance.

use rfgraph::registry::Registry;
use rfgraph_flowfile::build::{self, BuildOptions};
use rfgraph_flowfile::model::{Document, ParamValue, Value};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Items each endless source writes.
pub const ITEMS: u64 = 8192;

/// How long one example may run.
const WATCHDOG: Duration = Duration::from_secs(10);

/// The watch on an example with network blocks, whose sources never end
/// and whose sinks wait for peers that are not there.
const NETWORK_WATCHDOG: Duration = Duration::from_secs(2);

/// Registry names of the network blocks.
const NETWORK_PREFIXES: &[&str] = &["zmq_", "udp_", "tcp_", "socket_pdu", "host_link_"];

/// Registry blocks whose output is random.
const RANDOM: &[&str] = &[
    "random_pdu",
    "message_strobe_random",
    "random_uniform_source",
    "random_source",
    "channel_model",
    "copy_rand",
];

/// Registry blocks that accumulate a phase: GNU Radio does it in f32, so
/// its output drifts from rfgraph's over thousands of items. A mismatch
/// downstream of one is reported as drift, not failure.
const PHASE_ACCUMULATORS: &[&str] = &["frequency_modulator"];

/// Examples whose GNU Radio output changes from run to run: in
/// `fecapi_async_encoders.grc` one streaming `cc` encoder object serves
/// a tagged and an asynchronous encoder, which share its state, so which
/// packet starts where the other left it is a race between GNU Radio's
/// threads (it matched in some runs and differed in others).
const RACY_IN_GNU_RADIO: &[&str] = &["fec/fecapi_async_encoders.grc"];

/// The outcome of a hierarchical block's definition that checks.
pub const HIER_DEFINITION: &str = "checked: a hierarchical block, runs inside others";

/// Whether an expression draws from Python's `random` or numpy's
/// `numpy.random`, which seed themselves from the system.
fn draws_at_random(value: &Value) -> bool {
    match value {
        Value::Expr(t) | Value::Text(t) => t.contains("random."),
        Value::List(items) => items.iter().any(draws_at_random),
        _ => false,
    }
}

/// The fewest items compared for a match to count.
const MIN_COMPARED: usize = 64;

/// What happened to the loaded examples.
#[derive(Default)]
pub struct Report {
    /// Whether GNU Radio was there to compare with.
    pub gnuradio: bool,
    /// Ran to completion.
    pub ran: Vec<String>,
    /// Still running at the watchdog (endless message sources) and then
    /// stopped cleanly.
    pub stopped: Vec<String>,
    /// Build or run failures.
    pub failed: Vec<String>,
    /// Agree with GNU Radio.
    pub matched: Vec<String>,
    /// Disagree with GNU Radio.
    pub mismatched: Vec<String>,
    /// Drift from GNU Radio after a phase accumulator (see
    /// [`PHASE_ACCUMULATORS`]).
    pub drifted: Vec<String>,
    /// Not compared, and why.
    pub skipped: Vec<String>,
    /// Each loaded example's outcome in one short, stable phrase, by its
    /// path: `failed`, `stopped`, or `ran` and what the comparison with
    /// GNU Radio found (`ran; matches`, `ran; not compared: random`, ...).
    pub outcomes: Vec<(PathBuf, String)>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "GRC examples run: {} to completion, {} stopped by the watchdog, {} failed; \
             against GNU Radio 3.10: {} match, {} differ, {} drift, {} not compared",
            self.ran.len(),
            self.stopped.len(),
            self.failed.len(),
            self.matched.len(),
            self.mismatched.len(),
            self.drifted.len(),
            self.skipped.len()
        )?;
        for (what, list) in [
            ("runs", &self.ran),
            ("stopped", &self.stopped),
            ("failed", &self.failed),
            ("matches GNU Radio", &self.matched),
            ("differs from GNU Radio", &self.mismatched),
            ("drifts from GNU Radio", &self.drifted),
            ("not compared", &self.skipped),
        ] {
            for l in list {
                writeln!(f, "  {what}: {l}")?;
            }
        }
        Ok(())
    }
}

/// Bytes per item of a registry item type, for the types file sinks
/// write natively.
fn item_size(ty: &str) -> Option<usize> {
    match ty {
        "c32" => Some(8),
        "f32" => Some(4),
        "u8" => Some(1),
        _ => None,
    }
}

/// GNU Radio's port index of an rfgraph output port (`out` → 0, `out1`
/// → 1).
fn port_index(port: &str) -> usize {
    port.trim_start_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .unwrap_or(0)
}

/// One recorded stream: the rfgraph file sink replacing a null sink, and
/// the GNU Radio output feeding it.
struct Tap {
    file: PathBuf,
    gr_block: String,
    gr_port: usize,
    ty: String,
}

fn text_param(b: &rfgraph_flowfile::model::BlockInstance, name: &str) -> Option<String> {
    match &b.param(name)?.value {
        Value::Text(t) => Some(t.clone()),
        _ => None,
    }
}

/// Points the file sinks an example names by a relative path (GNU
/// Radio's `fm_tx.grc` writes `dummy.dat`) into `dir`, so that a run
/// writes nothing into the working directory.
fn keep_outputs_in(doc: &mut Document, dir: &Path) {
    for b in doc.blocks.iter_mut().filter(|b| b.kind.contains("sink")) {
        for p in b.params.iter_mut().filter(|p| p.name == "path") {
            if let Value::Text(t) = &p.value
                && Path::new(t).is_relative()
            {
                p.value = Value::Text(dir.join(t).display().to_string());
            }
        }
    }
}

/// Replaces every web display (GNU Radio's Qt GUI plots) by one null
/// sink of its item type per connected input (`DISPLAY_inN`), for
/// [`add_taps`] to tap like the other GUI sinks.
fn split_displays(doc: &mut Document) {
    let displays: Vec<_> = doc
        .blocks
        .iter()
        .filter(|b| b.kind.starts_with("web_"))
        .cloned()
        .collect();
    for display in displays {
        doc.blocks.retain(|b| b.name != display.name);
        for c in doc
            .connections
            .iter_mut()
            .filter(|c| c.to.block == display.name)
        {
            let mut sink = display.clone();
            sink.name = format!("{}_{}", display.name, c.to.port);
            sink.kind = "null_sink".into();
            sink.params.retain(|p| p.name == "type");
            c.to.block = sink.name.clone();
            c.to.port = "in".into();
            doc.blocks.push(sink);
        }
    }
}

/// Turns every null sink fed by a registry block into a file sink in
/// `dir`.
fn add_taps(doc: &mut Document, dir: &Path) -> Vec<Tap> {
    split_displays(doc);
    let mut taps = Vec::new();
    let conns = doc.connections.clone();
    for c in &conns {
        let (Some(to), Some(from)) = (doc.block(&c.to.block), doc.block(&c.from.block)) else {
            continue;
        };
        if to.kind != "null_sink" || from.kind == "null_source" {
            continue;
        }
        let Some(ty) = text_param(to, "type").filter(|t| item_size(t).is_some()) else {
            continue;
        };
        let file = dir.join(format!("{}.bin", c.to.block));
        // The importer's bound on a repeating source is a head GNU Radio
        // does not have: tap what feeds it.
        let mut from_end = c.from.clone();
        if from.kind == "head"
            && from_end.block.ends_with("_bound")
            && let Some(feed) = conns.iter().find(|f| f.to.block == from_end.block)
        {
            from_end = feed.from.clone();
        }
        let (gr_block, gr_port) = (from_end.block.clone(), port_index(&from_end.port));
        let Some(sink) = doc.blocks.iter_mut().find(|b| b.name == c.to.block) else {
            continue;
        };
        sink.kind = "file_sink".into();
        let at = sink.at.clone();
        sink.params.push(ParamValue {
            name: "path".into(),
            value: Value::Text(file.display().to_string()),
            at,
        });
        taps.push(Tap {
            file,
            gr_block,
            gr_port,
            ty,
        });
    }
    taps
}

/// Replaces file sources whose file does not exist (GNU Radio's
/// examples name recordings they do not ship) by bounded null sources,
/// as the importer does for hardware; returns their names.
fn replace_missing_files(doc: &mut Document) -> Vec<String> {
    let mut replaced = Vec::new();
    for b in &mut doc.blocks {
        let missing = b.kind == "file_source"
            && text_param(b, "path")
                .is_some_and(|p| !doc.path.parent().unwrap_or(Path::new("")).join(&p).exists());
        if missing {
            b.kind = "null_source".into();
            b.params.retain(|p| p.name == "type");
            let at = b.at.clone();
            b.params.push(ParamValue {
                name: "items".into(),
                value: Value::Int(ITEMS as i64),
                at,
            });
            replaced.push(b.name.clone());
        }
    }
    replaced
}

/// True when GNU Radio 3.10 (its Python and `grcc`) is here.
fn gnuradio() -> bool {
    Command::new("/usr/bin/python3")
        .args(["-c", "import gnuradio.gr"])
        .output()
        .is_ok_and(|o| o.status.success())
        && Command::new("grcc").arg("--help").output().is_ok()
}

fn floats(bytes: &[u8], ty: &str) -> Vec<f32> {
    if ty == "u8" {
        return bytes.iter().map(|&b| f32::from(b)).collect();
    }
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Runs the GNU Radio flowgraph of `grc` with heads on the taps' outputs
/// and compares. `Ok(n)`: the smallest number of items compared.
fn compare(grc: &Path, taps: &[Tap], dir: &Path) -> Result<usize, String> {
    let py_dir = dir.join("gr");
    std::fs::create_dir_all(&py_dir).map_err(|e| e.to_string())?;
    let out = Command::new("timeout")
        .args(["60", "grcc", "-o"])
        .arg(&py_dir)
        .arg(grc)
        .output()
        .map_err(|e| format!("grcc: {e}"))?;
    let py = std::fs::read_dir(&py_dir)
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "py"))
        .ok_or_else(|| {
            format!(
                "grcc wrote no Python: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )
        })?;
    let class = py
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("top_block")
        .to_string();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grc_examples/gr_tap.py");
    let mut cmd = Command::new("timeout");
    // GNU Radio's own relative outputs (`fm_tx.grc`'s `dummy.dat`) land in
    // the scratch folder, not the working directory.
    cmd.current_dir(&py_dir);
    cmd.args(["60", "/usr/bin/python3"])
        .arg(&script)
        .arg(&py)
        .arg(&class)
        .arg(&py_dir)
        .arg(ITEMS.to_string());
    for t in taps {
        cmd.arg(format!(
            "{}:{}:{}",
            t.gr_block,
            t.gr_port,
            item_size(&t.ty).unwrap_or(4)
        ));
    }
    let out = cmd.output().map_err(|e| format!("python: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(format!("GNU Radio did not run it: {last}"));
    }
    let mut least = 0;
    for t in taps {
        let ours = floats(&std::fs::read(&t.file).map_err(|e| e.to_string())?, &t.ty);
        let gr_file = py_dir.join(format!("{}.{}.bin", t.gr_block, t.gr_port));
        let theirs = floats(&std::fs::read(&gr_file).map_err(|e| e.to_string())?, &t.ty);
        let n = ours.len().min(theirs.len());
        let per = if t.ty == "c32" { 2 } else { 1 };
        if ours.is_empty() && theirs.is_empty() {
            // Both silent (a selector's unselected output).
            continue;
        }
        if n / per < MIN_COMPARED {
            return Err(format!(
                "too few items to compare: {}.{} (rfgraph {}, GNU Radio {})",
                t.gr_block,
                t.gr_port,
                ours.len() / per,
                theirs.len() / per
            ));
        }
        let peak = theirs[..n].iter().fold(1.0f32, |m, x| m.max(x.abs()));
        // Phase accumulators differ in precision (GNU Radio's are f32
        // with a fixed-point sine): slow drift, not a wrong block.
        let tol = 1e-2 * peak;
        if let Some(i) = (0..n)
            .find(|&i| (ours[i] - theirs[i]).abs() > tol || ours[i].is_nan() != theirs[i].is_nan())
        {
            return Err(format!(
                "MISMATCH {}.{} item {}: rfgraph {} vs GNU Radio {} (tolerance {tol})",
                t.gr_block,
                t.gr_port,
                i / per,
                ours[i],
                theirs[i]
            ));
        }
        least = least.max(n / per);
    }
    if least < MIN_COMPARED {
        return Err("every recorded output is empty".into());
    }
    Ok(least)
}

/// Builds, runs and (where deterministic) compares every loaded example.
/// The outcome of an example with embedded Python blocks.
pub const PYTHON_BLOCKS: &str = "loads; Python blocks: runs through the rfgraph Python package";

pub fn run_all(loaded: &[(PathBuf, Document)], registry: &Registry) -> Report {
    let mut report = Report::default();
    let have_gr = gnuradio();
    report.gnuradio = have_gr;
    let root = std::env::temp_dir().join(format!("rfgraph-grc-examples-{}", std::process::id()));
    for (i, (path, doc)) in loaded.iter().enumerate() {
        let dir = root.join(i.to_string());
        let outcome = run_one(&mut report, path, doc, registry, &dir, have_gr);
        report.outcomes.push((path.clone(), outcome));
    }
    let _ = std::fs::remove_dir_all(&root);
    report
}

/// Builds, runs and compares one example, adding it to `report`; gives
/// its outcome phrase (see [`Report::outcomes`]).
fn run_one(
    report: &mut Report,
    path: &Path,
    doc: &Document,
    registry: &Registry,
    dir: &Path,
    have_gr: bool,
) -> String {
    let name = path.display().to_string();
    {
        if let Err(e) = std::fs::create_dir_all(dir) {
            report.failed.push(format!("{name}: {e}"));
            return "failed".into();
        }
        // Embedded Python (`epy_block`): the Python package makes those
        // blocks (its pytest suite runs such files); this crate cannot.
        if rfgraph_flowfile::python::needs_python(doc).is_some() {
            return PYTHON_BLOCKS.into();
        }
        let mut doc = doc.clone();
        let missing_files = replace_missing_files(&mut doc);
        // A hierarchical block's definition (`packet_tx.grc`): GNU
        // Radio's grcc makes it a block, not a program. It is checked
        // with its pads as its ports; it runs inside the examples that use
        // it.
        if !doc.ports.is_empty() {
            let dry = BuildOptions {
                dry_run: true,
                ..BuildOptions::default()
            };
            return match build::build(&doc, registry, &dry) {
                Ok(_) => HIER_DEFINITION.into(),
                Err(e) => {
                    report.failed.push(format!("{name}: check: {e}"));
                    "failed: check".into()
                }
            };
        }
        let taps = add_taps(&mut doc, dir);
        keep_outputs_in(&mut doc, dir);
        let built = match build::build(&doc, registry, &BuildOptions::default()) {
            Ok(b) => b,
            Err(e) => {
                report.failed.push(format!("{name}: build: {e}"));
                return "failed: build".into();
            }
        };
        let scheduler = match built.scheduler.scheduler() {
            Ok(s) => s,
            Err(e) => {
                report.failed.push(format!("{name}: scheduler: {e}"));
                return "failed: scheduler".into();
            }
        };
        // Network examples wait for a peer (or a stream) that never comes
        // here: a short watch shows that they start and run.
        let networked = doc
            .blocks
            .iter()
            .any(|b| NETWORK_PREFIXES.iter().any(|p| b.kind.starts_with(p)));
        let watchdog = if networked {
            NETWORK_WATCHDOG
        } else {
            WATCHDOG
        };
        let result = built
            .flowgraph
            .start(scheduler)
            .map(|r| r.wait_timeout(watchdog));
        match result {
            Ok(Ok(_)) => report.ran.push(name.clone()),
            Ok(Err(rfgraph::RunError::Timeout { stopped: true, .. })) => {
                report.stopped.push(name.clone());
                return "stopped by the watchdog".into();
            }
            Ok(Err(e)) | Err(e) => {
                report.failed.push(format!("{name}: run: {e}"));
                return "failed: run".into();
            }
        }
        let random = doc
            .blocks
            .iter()
            .find(|b| RANDOM.contains(&b.kind.as_str()));
        // Python's and numpy's generators, seeded from the system, in a
        // variable or a parameter (a payload, a lambda).
        let random_value = doc
            .variables
            .iter()
            .map(|v| (&v.name, &v.value))
            .chain(
                doc.blocks
                    .iter()
                    .flat_map(|b| b.params.iter().map(|p| (&b.name, &p.value))),
            )
            .find(|(_, v)| draws_at_random(v))
            .map(|(name, _)| name);
        let drifts = doc
            .blocks
            .iter()
            .any(|b| PHASE_ACCUMULATORS.contains(&b.kind.as_str()));
        let hardware = doc
            .notices
            .iter()
            .any(|n| n.contains("hardware or audio input"));
        // Why the example is not compared: (the outcome's words, the
        // report's details).
        let why_not = if !have_gr {
            Some(("GNU Radio is not installed", String::new()))
        } else if RACY_IN_GNU_RADIO.iter().any(|r| name.ends_with(r)) {
            Some(("GNU Radio's output depends on its threads", String::new()))
        } else if let Some(b) = random {
            Some(("random", format!(" ({} `{}`)", b.kind, b.name)))
        } else if let Some(name) = random_value {
            Some((
                "random",
                format!(" (`{name}` draws from Python's generator)"),
            ))
        } else if hardware {
            Some(("a hardware source", String::new()))
        } else if !missing_files.is_empty() {
            Some((
                "its input file is not shipped",
                format!(" ({})", missing_files.join(", ")),
            ))
        } else if taps.is_empty() {
            Some(("no recorded output", String::new()))
        } else {
            None
        };
        match why_not {
            Some((why, detail)) => {
                report.skipped.push(format!("{name}: {why}{detail}"));
                format!("ran; not compared: {why}")
            }
            None => match compare(path, &taps, dir) {
                Ok(n) => {
                    report
                        .matched
                        .push(format!("{name} ({} outputs, up to {n} items)", taps.len()));
                    "ran; matches GNU Radio".into()
                }
                Err(e) if e.starts_with("MISMATCH") && drifts => {
                    report.drifted.push(format!("{name}: {e}"));
                    "ran; drifts from GNU Radio".into()
                }
                Err(e) if e.starts_with("MISMATCH") => {
                    report.mismatched.push(format!("{name}: {e}"));
                    "ran; differs from GNU Radio".into()
                }
                Err(e) => {
                    let why = e.split(':').next().unwrap_or("").trim().to_string();
                    report.skipped.push(format!("{name}: {e}"));
                    format!("ran; not compared: {why}")
                }
            },
        }
    }
}
