//! The Python package's tests, run by `cargo test` so that the README's
//! one test command runs them too: the shared venv under the target
//! folder gets the package installed from the working tree
//! (`rfgraph_testkit::python_with_package`: maturin builds it from this
//! workspace's own `target/`), then pytest runs `tests/*.py` under a
//! watchdog. pytest exits with 5 when it collects no test, which fails
//! here like any other failure.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// How long the whole pytest suite may take before it counts as hung.
const PYTEST_LIMIT: Duration = Duration::from_secs(1200);

#[test]
fn the_python_package_passes_its_pytest_suite() {
    let test = "pytest::the_python_package_passes_its_pytest_suite";
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let Some(python) =
        rfgraph_testkit::require(test, rfgraph_testkit::python_with_package(tmp, &["pytest"]))
    else {
        return;
    };
    let package = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pytest = Command::new(&python);
    pytest
        .args(["-m", "pytest", "-q"])
        .arg(package.join("tests"));
    // The command-line tool the equivalence tests compare with: this
    // target folder's, when built and not chosen already.
    let cli = tmp.join("../debug/rfgraph");
    if std::env::var_os("RFGRAPH_CLI").is_none() && cli.is_file() {
        pytest.env("RFGRAPH_CLI", cli);
    }
    let out = rfgraph_testkit::output_within(&mut pytest, PYTEST_LIMIT)
        .unwrap_or_else(|e| panic!("pytest: {e}"));
    eprintln!("{}", String::from_utf8_lossy(&out.stdout).trim_end());
    assert!(
        out.status.success(),
        "pytest failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
