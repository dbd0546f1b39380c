//! The `pyblock` experiment (issue 39's target): a Python 1:1 block in
//! null_source → head(N) → block → null_sink, f32, rfgraph's
//! `rfgraph.SyncBlock` against GNU Radio 3.10's `gr.sync_block` in the
//! same run. Both sides are `bench/pyblock.py` (one block body for both),
//! run by the Python that has each runtime: for rfgraph a venv whose
//! `rfgraph` package was built in release, for GNU Radio `/usr/bin/python3`.
//!
//! Two modes, each run interleaved with GNU Radio's (`--gnuradio`):
//!
//! * `double`: `out[:] = in0 * 2.0` on every item it is given:
//!   `items_per_s`.
//! * `empty`: touches nothing and returns min(given, `--chunk`), so every
//!   call passes at most CHUNK items whatever either runtime's buffers
//!   are, and `us_per_call` (the run's seconds over the calls the block
//!   counted) is what one Python `work` call costs, the runtime's share
//!   (waking the neighbours) included.
//!
//! `seconds` is the script's: GNU Radio's `tb.start()` + `tb.wait()`, and
//! rfgraph's `fg.run()` (building the graph from its flowgraph text,
//! starting it, waiting). The Python package shows no run phase, so these
//! records have no `run_seconds`. A last record (`"record": "summary"`)
//! holds each side's means and their ratios.
//!
//! Without `--python`, the venv is `target/pybench-venv` of the source
//! tree, made (numpy from PyPI) and given the package, built by
//! `pip install` with maturin's release profile, when it is missing or
//! with `--rebuild`; that build's seconds are in the summary record. A
//! package older than the sources under `crates/` is used with a warning.

use super::peer::GR_PYTHON;
use crate::console::{errln, outln};
use anyhow::{Context, bail};
use clap::Args;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Options of `rfgraph bench pyblock`.
#[derive(Args, Debug, Clone)]
pub struct PyblockArgs {
    /// Items through the `double` block.
    #[arg(long, default_value_t = 100_000_000)]
    pub items: u64,
    /// Items through the `empty` block.
    #[arg(long, default_value_t = 2_000_000)]
    pub empty_items: u64,
    /// The most items an `empty` call passes.
    #[arg(long, default_value_t = 64)]
    pub chunk: u64,
    /// rfgraph's scheduler (GNU Radio's is thread-per-block).
    #[arg(long, default_value = "tpb")]
    pub scheduler: String,
    /// Runs to measure.
    #[arg(long, default_value_t = 1)]
    pub repeat: usize,
    /// Also runs GNU Radio 3.10's `gr.sync_block`, interleaved.
    #[arg(long)]
    pub gnuradio: bool,
    /// A Python with the `rfgraph` package and numpy (default: the
    /// source tree's `target/pybench-venv`, made when missing).
    #[arg(long)]
    pub python: Option<PathBuf>,
    /// Rebuilds the package (release) into the default venv first.
    #[arg(long, conflicts_with = "python")]
    pub rebuild: bool,
    /// The benchmark script (default: bench/pyblock.py in the current
    /// folder or the source tree).
    #[arg(long)]
    pub script: Option<PathBuf>,
}

/// The source tree this binary was built from.
fn source_tree() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The default venv's Python (it may not exist yet).
pub fn default_python() -> PathBuf {
    source_tree().join("target/pybench-venv/bin/python")
}

fn script(chosen: Option<&Path>) -> anyhow::Result<PathBuf> {
    let script = chosen.map(Path::to_path_buf).unwrap_or_else(|| {
        let local = PathBuf::from("bench/pyblock.py");
        if local.exists() {
            local
        } else {
            source_tree().join("bench/pyblock.py")
        }
    });
    if !script.exists() {
        bail!("{} not found (--script)", script.display());
    }
    Ok(script)
}

/// Runs `cmd`; errors with its output when it fails.
fn checked(what: &str, cmd: &mut Command) -> anyhow::Result<()> {
    let out = cmd
        .output()
        .with_context(|| format!("{what}: cannot start"))?;
    if !out.status.success() {
        bail!(
            "{what} failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}

/// Folders under `crates/` that the Python package's build never reads.
const NOT_PACKAGE_SOURCES: &[&str] = &["target", "tests", "benches", "examples", "rfgraph-cli"];

/// The newest modification time of the Rust and Python sources under
/// `dir` that the package is built from.
fn newest_source(dir: &Path) -> Option<std::time::SystemTime> {
    let mut newest = None;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let time = if kind.is_dir() {
            let name = entry.file_name();
            if NOT_PACKAGE_SOURCES.iter().any(|n| name == *n) {
                continue;
            }
            newest_source(&path)
        } else if path
            .extension()
            .is_some_and(|e| e == "rs" || e == "py" || e == "toml")
        {
            entry.metadata().and_then(|m| m.modified()).ok()
        } else {
            None
        };
        newest = newest.max(time);
    }
    newest
}

/// The default venv's Python, made and given the release package when
/// missing (or with `rebuild`); the build's seconds when it built.
fn release_venv(rebuild: bool) -> anyhow::Result<(PathBuf, Option<f64>)> {
    let tree = source_tree();
    let package = tree.join("crates/rfgraph-python");
    if !package.join("pyproject.toml").exists() {
        bail!(
            "no source tree at {} to build the Python package from: pass --python",
            tree.display()
        );
    }
    let python = default_python();
    let venv = tree.join("target/pybench-venv");
    if !python.exists() {
        let base = std::env::var("RFGRAPH_PYTHON3").unwrap_or_else(|_| "python3".into());
        errln!("pyblock: making {} with {base}", venv.display());
        checked(
            "python3 -m venv (apt-get install python3-venv)",
            Command::new(&base).args(["-m", "venv"]).arg(&venv),
        )?;
        checked(
            "pip install numpy",
            Command::new(&python).args(["-m", "pip", "install", "-q", "numpy>=1.21"]),
        )?;
    }
    let installed = Command::new(&python)
        .args(["-c", "import rfgraph._rfgraph as m; print(m.__file__)"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    if let (Some(extension), false) = (installed, rebuild) {
        let built = std::fs::metadata(&extension)
            .and_then(|m| m.modified())
            .ok();
        if let (Some(built), Some(source)) = (built, newest_source(&tree.join("crates")))
            && source > built
        {
            errln!(
                "pyblock: warning: the package's sources changed after {} was built \
                 (--rebuild builds it again)",
                extension.display()
            );
        }
        return Ok((python, None));
    }
    errln!(
        "pyblock: building the rfgraph package (release) into {}",
        venv.display()
    );
    let start = Instant::now();
    checked(
        "pip install the package (release)",
        Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "-q",
                "--no-deps",
                "--force-reinstall",
                "--config-settings=build-args=--profile release",
            ])
            .arg(&package)
            .env("PIP_DISABLE_PIP_VERSION_CHECK", "1"),
    )?;
    let seconds = start.elapsed().as_secs_f64();
    errln!("pyblock: package built and installed in {seconds:.1} s");
    Ok((python, Some(seconds)))
}

/// Runs the script with `python` for `runtime` in `mode`; its record.
fn measure(
    python: &Path,
    script: &Path,
    runtime: &str,
    mode: &str,
    args: &PyblockArgs,
) -> anyhow::Result<Value> {
    let items = if mode == "double" {
        args.items
    } else {
        args.empty_items
    };
    let out = Command::new(python)
        .arg(script)
        .arg(runtime)
        .args(["--mode", mode, "--items", &items.to_string()])
        .args(["--chunk", &args.chunk.to_string()])
        .args(["--scheduler", &args.scheduler])
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("cannot run {} {}", python.display(), script.display()))?;
    if !out.status.success() {
        bail!("pyblock {runtime} {mode} failed: {}", out.status);
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .with_context(|| format!("pyblock {runtime} {mode} printed nothing"))?;
    serde_json::from_str(line)
        .with_context(|| format!("pyblock {runtime} {mode} printed a line that is not JSON"))
}

/// The mean of `field` over the records of `runtime` in `mode`.
fn mean(records: &[Value], runtime: &str, mode: &str, field: &str) -> Option<f64> {
    let values: Vec<f64> = records
        .iter()
        .filter(|r| r["mode"] == mode)
        .filter(|r| {
            r["runtime"]
                .as_str()
                .is_some_and(|s| s.starts_with(runtime))
        })
        .filter_map(|r| r[field].as_f64())
        .collect();
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The summary record: each side's means and rfgraph's advantage.
fn summary(records: &[Value], build_seconds: Option<f64>) -> Value {
    let m = |rt: &str, mode: &str, field: &str| mean(records, rt, mode, field);
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => json!(a / b),
        _ => Value::Null,
    };
    let rf_rate = m("rfgraph", "double", "items_per_s");
    let gr_rate = m("gnuradio", "double", "items_per_s");
    let rf_call = m("rfgraph", "empty", "us_per_call");
    let gr_call = m("gnuradio", "empty", "us_per_call");
    let runs = records
        .iter()
        .filter(|r| r["runtime"] == "rfgraph" && r["mode"] == "double")
        .count();
    json!({
        "experiment": "pyblock",
        "record": "summary",
        "runs": runs,
        "double_items_per_s": {"rfgraph": rf_rate, "gnuradio": gr_rate},
        "rfgraph_over_gnuradio_items_per_s": ratio(rf_rate, gr_rate),
        "empty_us_per_call": {"rfgraph": rf_call, "gnuradio": gr_call},
        "gnuradio_over_rfgraph_us_per_call": ratio(gr_call, rf_call),
        "package_build_seconds": build_seconds,
    })
}

/// Prints the summary on stderr.
fn print_summary(summary: &Value) {
    let rate = |v: &Value| {
        v.as_f64()
            .map_or("–".to_string(), |x| format!("{x:.4e} items/s"))
    };
    let micros = |v: &Value| v.as_f64().map_or("–".to_string(), |x| format!("{x:.2} µs"));
    let times = |v: &Value| v.as_f64().map_or("–".to_string(), |x| format!("{x:.2}"));
    errln!(
        "pyblock: out = in0 * 2.0: rfgraph {}, GNU Radio {}, rfgraph/GNU Radio {}; \
         empty work, per call: rfgraph {}, GNU Radio {}, GNU Radio/rfgraph {}",
        rate(&summary["double_items_per_s"]["rfgraph"]),
        rate(&summary["double_items_per_s"]["gnuradio"]),
        times(&summary["rfgraph_over_gnuradio_items_per_s"]),
        micros(&summary["empty_us_per_call"]["rfgraph"]),
        micros(&summary["empty_us_per_call"]["gnuradio"]),
        times(&summary["gnuradio_over_rfgraph_us_per_call"]),
    );
}

/// Runs the experiment.
pub fn run(args: &PyblockArgs) -> anyhow::Result<()> {
    if args.items == 0 || args.empty_items == 0 || args.chunk == 0 {
        bail!("--items, --empty-items and --chunk must be positive");
    }
    let script = script(args.script.as_deref())?;
    let (python, build_seconds) = match &args.python {
        Some(p) => (p.clone(), None),
        None => release_venv(args.rebuild)?,
    };
    let mut records = Vec::new();
    for run in 0..args.repeat {
        for mode in ["double", "empty"] {
            let mut sides = vec![("rfgraph", python.as_path())];
            if args.gnuradio {
                sides.push(("gnuradio", Path::new(GR_PYTHON)));
            }
            for (runtime, py) in sides {
                let mut record = measure(py, &script, runtime, mode, args)?;
                record["run"] = json!(run);
                outln!("{record}");
                records.push(record);
            }
        }
    }
    let summary = summary(&records, build_seconds);
    outln!("{summary}");
    print_summary(&summary);
    Ok(())
}
