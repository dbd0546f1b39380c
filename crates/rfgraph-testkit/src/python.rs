//! The venv every test of the Python package shares: made once under the
//! target folder, with numpy (and what else a test asks for) from PyPI
//! and this tree's `rfgraph` package installed by `pip` (maturin builds
//! it from the workspace's own `target/`, dev profile). Also
//! [`output_within`], a watchdog for the programs such tests start.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// How long a `pip install` may take (the package's build included).
const PIP_LIMIT: Duration = Duration::from_secs(900);

/// Runs `cmd` (stdin closed) and captures its output; kills it after
/// `limit`, so that a hung child fails its test instead of holding CI.
///
/// Errors: it cannot start, or it ran out of time.
pub fn output_within(cmd: &mut Command, limit: Duration) -> Result<Output, String> {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{cmd:?}: cannot start: {e}"))?;
    let id = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit) {
        Ok(out) => out.map_err(|e| format!("{cmd:?}: {e}")),
        Err(_) => {
            let _ = Command::new("kill")
                .args(["-KILL", &id.to_string()])
                .status();
            Err(format!("{cmd:?} still ran after {limit:?}: killed"))
        }
    }
}

/// Runs `cmd` within [`PIP_LIMIT`]; its failure as text with its output.
fn succeed(what: &str, cmd: &mut Command) -> Result<(), String> {
    let out = output_within(cmd, PIP_LIMIT)?;
    if out.status.success() {
        return Ok(());
    }
    Err(format!(
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    ))
}

/// The shared venv's Python, under `tmp` (a test's `CARGO_TARGET_TMPDIR`),
/// with numpy, the PyPI packages in `extra`, and the `rfgraph` package
/// reinstalled from this tree (it may have changed since the last test
/// binary). The venv is made from `RFGRAPH_PYTHON3`, else `python3`.
///
/// Errors: no venv can be made (`python3-venv` missing), or an install
/// failed; tests pass this to [`require`](crate::require).
pub fn python_with_package(tmp: &Path, extra: &[&str]) -> Result<PathBuf, String> {
    let dir = tmp.join("rfgraph-python-venv");
    let python = dir.join("bin/python");
    if !python.exists() {
        let base = std::env::var("RFGRAPH_PYTHON3").unwrap_or_else(|_| "python3".into());
        succeed(
            "making a Python venv (apt-get install python3-venv)",
            Command::new(base).args(["-m", "venv"]).arg(&dir),
        )?;
    }
    succeed(
        "pip install numpy",
        Command::new(&python)
            .args(["-m", "pip", "install", "-q", "numpy>=1.21"])
            .args(extra)
            .env("PIP_DISABLE_PIP_VERSION_CHECK", "1"),
    )?;
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rfgraph-python");
    succeed(
        "pip install the rfgraph package",
        Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "-q",
                "--force-reinstall",
                "--no-deps",
            ])
            .arg(package)
            .env("PIP_DISABLE_PIP_VERSION_CHECK", "1"),
    )?;
    Ok(python)
}
