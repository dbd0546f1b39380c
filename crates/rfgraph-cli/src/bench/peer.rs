//! Running GNU Radio's side of an experiment (`bench/gnuradio/gr_bench.py`)
//! from an rfgraph experiment, so that both runtimes' records come from one
//! command (`io`, `fm`, `latency` with `--gnuradio`).

use anyhow::{Context, bail};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The Python that sees Debian's GNU Radio modules.
pub const GR_PYTHON: &str = "/usr/bin/python3";

/// The script `chosen` (`--gr-script`), else `bench/gnuradio/gr_bench.py`
/// in the current folder or the source tree. Errors: it does not exist.
pub fn gr_script(chosen: Option<&Path>) -> anyhow::Result<PathBuf> {
    let script = chosen.map(Path::to_path_buf).unwrap_or_else(|| {
        let local = PathBuf::from("bench/gnuradio/gr_bench.py");
        if local.exists() {
            local
        } else {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/gnuradio/gr_bench.py")
        }
    });
    if !script.exists() {
        bail!("--gnuradio: {} not found (--gr-script)", script.display());
    }
    Ok(script)
}

/// Runs `gr_bench.py ARGS` (its summaries go to our stderr) and returns
/// the records it printed. Errors: it failed or printed no record.
pub fn gr_records(script: &Path, args: &[String]) -> anyhow::Result<Vec<Value>> {
    let out = Command::new(GR_PYTHON)
        .arg(script)
        .args(args)
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("cannot run {GR_PYTHON} {}", script.display()))?;
    let what = args.first().map_or("", String::as_str);
    if !out.status.success() {
        bail!("GNU Radio {what} failed: {}", out.status);
    }
    let records = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(serde_json::from_str)
        .collect::<Result<Vec<Value>, _>>()
        .with_context(|| format!("GNU Radio {what} printed a line that is not JSON"))?;
    if records.is_empty() {
        bail!("GNU Radio {what} printed nothing");
    }
    Ok(records)
}
