//! What rfgraph's tests share, so that every crate's tests follow one
//! rule:
//!
//! - [`under_ci`]: whether the tests run under continuous integration
//!   (the `CI` environment variable, as `.ci/run` sets it). There every
//!   tool a test needs must be present: a missing one fails the run.
//! - [`skip`] and [`require`]: a test that cannot run here says so where
//!   the harness shows it (standard error, which `cargo test` does not
//!   capture), and fails instead under CI.
//! - The reference tools tests compare against, each found one way:
//!   [`gnuradio`] (Debian's GNU Radio 3.10 for `/usr/bin/python3`),
//!   [`reference_python`] (the venv `.ci/run` makes with PyPI's `sigmf`
//!   and `pyModeS`, named by `RFGRAPH_TEST_PYTHON`), [`installed`] (a
//!   program such as dump1090-mutability).
//! - The Python package's venv ([`python_with_package`]) and a watchdog
//!   for the programs tests start ([`output_within`]).
//!
//! This crate is a dev-dependency only; nothing in it ships.

mod python;

pub use python::{output_within, python_with_package};

use std::io::Write;

/// True when the tests run under continuous integration: the `CI`
/// environment variable is set to anything but empty, `0`, `false` or
/// `no` (in any case). CI services set `CI=true`; `.ci/run` does too.
pub fn under_ci() -> bool {
    ci_value(std::env::var("CI").ok().as_deref())
}

/// The rule of [`under_ci`] for a value of `CI`.
fn ci_value(value: Option<&str>) -> bool {
    match value.map(str::trim) {
        None => false,
        Some(v) => {
            !(v.is_empty()
                || ["0", "false", "no"]
                    .iter()
                    .any(|f| v.eq_ignore_ascii_case(f)))
        }
    }
}

/// Reports that `test` cannot run here because of `why` (a missing tool,
/// say): under CI this panics, failing the test; elsewhere it writes one
/// `SKIPPED` line to standard error, which the test harness shows, and
/// the caller returns.
pub fn skip(test: &str, why: &str) {
    if under_ci() {
        panic!("{test}: {why}; under CI every test must run (see .ci/run)");
    }
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED {test}: {why}");
}

/// `Ok(value)` gives the value; `Err(why)` is [`skip`]ped and gives
/// `None`, so a test reads `let Some(python) = require(name, probe()) else { return };`.
pub fn require<T>(test: &str, found: Result<T, String>) -> Option<T> {
    match found {
        Ok(v) => Some(v),
        Err(why) => {
            skip(test, &why);
            None
        }
    }
}

/// The Python that sees Debian's GNU Radio (the default `python3` may be
/// another build that cannot).
pub const GNURADIO_PYTHON: &str = "/usr/bin/python3";

/// True when `python` runs `import <modules>`; otherwise why not.
fn imports(python: &str, modules: &str) -> Result<(), String> {
    let out = std::process::Command::new(python)
        .args(["-c", &format!("import {modules}")])
        .output()
        .map_err(|e| format!("cannot run {python}: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    let last = String::from_utf8_lossy(&out.stderr)
        .lines()
        .last()
        .unwrap_or("import failed")
        .to_string();
    Err(format!("{python} cannot import {modules} ({last})"))
}

/// True when [`GNURADIO_PYTHON`] imports `modules` (`"gnuradio.blocks"`,
/// `"rds, gnuradio.digital"`); otherwise [`skip`]s `test` (a failure under
/// CI, which installs GNU Radio) and gives false.
pub fn gnuradio(test: &str, modules: &str) -> bool {
    match imports(GNURADIO_PYTHON, modules) {
        Ok(()) => true,
        Err(why) => {
            skip(test, &format!("{why}; apt-get install gnuradio gr-rds"));
            false
        }
    }
}

/// Runs GNU Radio reference script `script` (a path) with output
/// directory `dir` as its one argument, when [`GNURADIO_PYTHON`] imports
/// `modules`; gives `dir`, or `None` after [`skip`]ping `test`. Panics,
/// with the script's stderr, when the script fails. Tests call it once
/// per process (from a `OnceLock`): the script writes every case's input
/// and GNU Radio's output.
pub fn gnuradio_reference(
    test: &str,
    modules: &str,
    script: &std::path::Path,
    dir: &std::path::Path,
) -> Option<std::path::PathBuf> {
    if !gnuradio(test, modules) {
        return None;
    }
    run_gnuradio_script(script, &[dir.as_os_str()]);
    Some(dir.to_path_buf())
}

/// Runs `script` with `args` on [`GNURADIO_PYTHON`]. Panics, with the
/// script's stderr, when it cannot run or fails.
pub fn run_gnuradio_script(script: &std::path::Path, args: &[&std::ffi::OsStr]) {
    let out = std::process::Command::new(GNURADIO_PYTHON)
        .arg(script)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {GNURADIO_PYTHON}: {e}"));
    assert!(
        out.status.success(),
        "{} {args:?} failed: {}\n{}",
        script.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The items of a little-endian file of plain `T`s (`f32`, `[f32; 2]`,
/// `u8`, ...), as reference scripts write them with numpy's `tofile`.
/// Panics, naming the file, when it cannot be read.
pub fn read_items<T: bytemuck::Pod>(path: &std::path::Path) -> Vec<T> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    bytes
        .chunks_exact(std::mem::size_of::<T>())
        .map(bytemuck::pod_read_unaligned)
        .collect()
}

/// The Python with the PyPI packages the tests use as independent
/// references (`sigmf`, `pyModeS`), when it imports `modules`: the one
/// `RFGRAPH_TEST_PYTHON` names (`.ci/run` makes a venv and sets it), else
/// the workspace's `.venv`. Otherwise [`skip`]s `test` and gives `None`.
pub fn reference_python(test: &str, modules: &str) -> Option<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let candidate = std::env::var_os("RFGRAPH_TEST_PYTHON")
        .map(std::path::PathBuf::from)
        .or_else(|| Some(root.join(".venv/bin/python")).filter(|p| p.exists()));
    let found = match candidate {
        None => Err(
            "no RFGRAPH_TEST_PYTHON (run .ci/run, or point it at a Python with the packages)"
                .to_string(),
        ),
        Some(py) => imports(&py.to_string_lossy(), modules).map(|()| py),
    };
    require(test, found)
}

/// True when the program at `path` exists; otherwise [`skip`]s `test`,
/// naming the Debian `package` that installs it.
pub fn installed(test: &str, path: &str, package: &str) -> bool {
    if std::path::Path::new(path).exists() {
        return true;
    }
    skip(
        test,
        &format!("{path} is missing (apt-get install {package})"),
    );
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_rule_for_ci() {
        for on in ["true", "TRUE", "1", "yes", "github"] {
            assert!(ci_value(Some(on)), "{on}");
        }
        for off in ["", " ", "0", "false", "False", "no"] {
            assert!(!ci_value(Some(off)), "{off:?}");
        }
        assert!(!ci_value(None));
    }

    #[test]
    fn require_passes_values_through() {
        assert_eq!(require("t", Ok::<_, String>(3)), Some(3));
    }
}
