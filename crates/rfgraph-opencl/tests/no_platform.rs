//! Without an OpenCL platform, discovery and context creation return
//! `OclError::NoPlatform` (saying "no OpenCL platform") instead of failing
//! to link or panicking, and the tests' platform check does what the tests
//! promise: under CI (`CI=true` or `CI=1`) it fails the test, naming it;
//! elsewhere it writes one line naming the skipped test and skips it.
//!
//! The machine running the tests may well have a platform, so the checks
//! run in child processes of this test binary whose ICD loader is pointed
//! at an empty vendor directory. Never skipped: run plainly, the test is
//! the parent and asserts what its children did; run as a child (with
//! [`MARKER`] set), it asserts what a process without a platform sees.

mod common;

use rfgraph_opencl::{OclContext, OclError};
use std::path::Path;
use std::process::{Command, Output};

/// Set in a child's environment, to the child's mode: [`SKIP`] or [`CI`].
const MARKER: &str = "RFGRAPH_OPENCL_NO_PLATFORM_CHILD";
/// The child expects the platform check to skip.
const SKIP: &str = "skip";
/// The child expects the platform check to fail the test.
const CI: &str = "ci";
const CHILD: &str = "no_platform_child";
/// Printed by a child once its error checks ran.
const CHECKED: &str = "no-platform child: all checks ran";
/// The test name a child hands the platform check.
const PROBE: &str = "no_platform_probe";

#[test]
fn no_platform_child() {
    match std::env::var(MARKER) {
        Ok(mode) => child(&mode),
        Err(_) => parent(),
    }
}

/// In a process without a platform: every entry point says so, and the
/// platform check skips or fails as `mode` expects.
fn child(mode: &str) {
    let err = rfgraph_opencl::devices().unwrap_err();
    assert!(
        matches!(err, OclError::NoPlatform { .. }),
        "devices(): {err:?}"
    );
    assert!(err.to_string().contains("no OpenCL platform"), "{err}");
    let err = OclContext::any().unwrap_err();
    assert!(
        matches!(err, OclError::NoPlatform { .. }),
        "OclContext::any(): {err:?}"
    );
    assert!(err.to_string().contains("no OpenCL platform"), "{err}");
    println!("{CHECKED}");
    assert_eq!(
        common::under_ci(),
        mode == CI,
        "CI={:?}",
        std::env::var("CI")
    );
    // Under CI this panics, failing the child.
    let context = common::context_or_skip(PROBE);
    assert!(context.is_none());
    assert_eq!(mode, SKIP, "the platform check let a CI run skip");
}

/// Runs this test as a child with `CI` set to `ci` (or unset), with no
/// OpenCL platform to find.
fn run_child(vendors: &Path, mode: &str, ci: Option<&str>) -> Output {
    let exe = std::env::current_exe().unwrap();
    let mut command = Command::new(exe);
    command
        .args(["--exact", CHILD, "--nocapture", "--test-threads=1"])
        .env(MARKER, mode)
        // ocl-icd and the Khronos loader: look for vendors here only...
        .env("OCL_ICD_VENDORS", vendors)
        // ...and load no driver named directly.
        .env_remove("OCL_ICD_FILENAMES");
    match ci {
        Some(value) => command.env("CI", value),
        None => command.env_remove("CI"),
    };
    command.output().unwrap()
}

fn parent() {
    // An empty vendor directory: the loader finds no platform in it.
    let vendors =
        std::env::temp_dir().join(format!("rfgraph-opencl-no-vendors-{}", std::process::id()));
    std::fs::create_dir_all(&vendors).unwrap();
    assert_eq!(std::fs::read_dir(&vendors).unwrap().count(), 0);
    let cases = [
        (SKIP, None),
        (SKIP, Some("false")),
        (CI, Some("true")),
        (CI, Some("TRUE")),
        (CI, Some("1")),
    ];
    for (mode, ci) in cases {
        let out = run_child(&vendors, mode, ci);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let what = format!("CI={ci:?}:\n{stdout}\n{stderr}");
        // The child ran the test itself, and its error checks passed.
        assert!(
            stdout.contains(&format!("test {CHILD} ... ")),
            "child did not run the test, {what}"
        );
        assert!(
            stdout.contains(CHECKED),
            "child did not run its checks, {what}"
        );
        let skip_lines: Vec<&str> = stderr
            .lines()
            .chain(stdout.lines())
            .filter(|l| l.contains("SKIPPED"))
            .collect();
        if mode == SKIP {
            assert!(
                out.status.success(),
                "child failed ({}), {what}",
                out.status
            );
            assert!(
                stdout.contains("test result: ok. 1 passed"),
                "child output, {what}"
            );
            // Exactly one line, naming the skipped test and why.
            assert_eq!(skip_lines.len(), 1, "skip lines, {what}");
            assert!(
                skip_lines[0].starts_with(&format!("SKIPPED {PROBE}: no OpenCL platform")),
                "skip line, {what}"
            );
        } else {
            assert!(!out.status.success(), "a CI run skipped, {what}");
            assert!(
                stderr.contains(&format!("{PROBE}: no OpenCL platform"))
                    && stderr.contains("under CI every test must run"),
                "the failure does not name the test, {what}"
            );
            assert!(skip_lines.is_empty(), "a CI run printed a skip, {what}");
        }
    }
    std::fs::remove_dir(&vendors).unwrap();
}
