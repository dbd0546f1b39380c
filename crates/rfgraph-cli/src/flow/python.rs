//! Flowgraph files with Python blocks (TOML `kind = "python"`, GRC
//! `epy_block`): `rfgraph run` and `rfgraph check` hand them to a Python 3
//! that can `import rfgraph` (`RFGRAPH_PYTHON`, else `python3` on the
//! `PATH`), as `python -m rfgraph run FILE ...`, forwarding the options
//! that mean the same there and refusing the others. Without a usable
//! Python, the error names the Python blocks and what to install
//! (`rfgraph_flowfile::python::needs_python`).

use super::FileArgs;
use rfgraph_flowfile::build::load_document;
use std::process::{Command, Stdio};

/// The Python to run with: `RFGRAPH_PYTHON` (only it, when set), else
/// `python3`; `None` when it cannot `import rfgraph`.
fn usable_python() -> Option<String> {
    let python = std::env::var("RFGRAPH_PYTHON").unwrap_or_else(|_| "python3".into());
    let ok = Command::new(&python)
        .args(["-c", "import rfgraph._rfgraph"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(python)
}

/// When the file holds Python blocks, runs `python -m rfgraph COMMAND
/// FILE` with `--set` and `extra` and returns its exit status; `None`
/// when the file holds none (or does not load: the usual path reports
/// that). `refused`: options given that have no meaning there.
///
/// Errors: Python blocks and no usable Python (what to install), or a
/// refused option.
pub fn delegate(
    args: &FileArgs,
    command: &str,
    extra: &[String],
    refused: &[&str],
) -> anyhow::Result<Option<i32>> {
    let registry = rfgraph_flowfile::standard::registry();
    let Ok(doc) = load_document(&args.file, &registry) else {
        return Ok(None);
    };
    let Some(missing) = rfgraph_flowfile::python::needs_python(&doc) else {
        return Ok(None);
    };
    let mut refused: Vec<&str> = refused.to_vec();
    if args.max_latency.is_some() {
        refused.push("--max-latency");
    }
    if args.host.is_some() {
        refused.push("--host");
    }
    if !refused.is_empty() {
        anyhow::bail!(
            "{} holds Python blocks, so it runs in Python (`python -m rfgraph {command}`), \
             which has no {}",
            args.file.display(),
            refused.join(", ")
        );
    }
    let Some(python) = usable_python() else {
        anyhow::bail!("{missing}");
    };
    let mut cmd = Command::new(python);
    cmd.args(["-m", "rfgraph", command]).arg(&args.file);
    for s in &args.set {
        cmd.args(["--set", s]);
    }
    cmd.args(extra);
    let status = cmd.status()?;
    Ok(Some(status.code().unwrap_or(1)))
}
