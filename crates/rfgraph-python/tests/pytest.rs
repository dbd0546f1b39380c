//! The Python package's tests, run by `cargo test` so that the README's
//! one test command runs them too: a virtual environment under the
//! target folder gets the package installed from the working tree (`pip
//! install crates/rfgraph-python`: maturin builds it from this
//! workspace's own `target/`), then pytest runs `tests/*.py`. pytest
//! exits with 5 when it collects no test, which fails here like any
//! other failure.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The Python the venv is made from: `RFGRAPH_PYTHON3`, else `python3`.
fn base_python() -> String {
    std::env::var("RFGRAPH_PYTHON3").unwrap_or_else(|_| "python3".into())
}

/// Runs `cmd`, failing the test with its output when it fails.
fn run(what: &str, cmd: &mut Command) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("{}", String::from_utf8_lossy(&out.stdout).trim_end());
}

/// The venv's Python, made once and kept under the target folder.
fn venv(test: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rfgraph-python-venv");
    let python = dir.join("bin/python");
    if !python.exists() {
        let made = Command::new(base_python())
            .args(["-m", "venv"])
            .arg(&dir)
            .status();
        if !matches!(made, Ok(s) if s.success()) {
            rfgraph_testkit::skip(
                test,
                "cannot make a Python venv (apt-get install python3-venv)",
            );
            return None;
        }
    }
    Some(python)
}

#[test]
fn the_python_package_passes_its_pytest_suite() {
    let Some(python) = venv("pytest::the_python_package_passes_its_pytest_suite") else {
        return;
    };
    let package = Path::new(env!("CARGO_MANIFEST_DIR"));
    run(
        "pip install pytest and numpy",
        Command::new(&python).args(["-m", "pip", "install", "-q", "pytest", "numpy>=1.21"]),
    );
    run(
        "pip install the package",
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
            // Its one dependency, numpy, is in already.
            .env("PIP_DISABLE_PIP_VERSION_CHECK", "1"),
    );
    let mut pytest = Command::new(&python);
    pytest
        .args(["-m", "pytest", "-q"])
        .arg(package.join("tests"));
    // The command-line tool the equivalence tests compare with: this
    // target folder's, when built and not chosen already.
    let cli = Path::new(env!("CARGO_TARGET_TMPDIR")).join("../debug/rfgraph");
    if std::env::var_os("RFGRAPH_CLI").is_none() && cli.is_file() {
        pytest.env("RFGRAPH_CLI", cli);
    }
    run("pytest", &mut pytest);
}
