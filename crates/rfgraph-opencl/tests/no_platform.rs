//! Without an OpenCL platform, discovery and context creation return
//! `OclError::NoPlatform` (saying "no OpenCL platform") instead of failing
//! to link or panicking. The machine running the tests may well have a
//! platform, so the check runs in a child process of this test binary whose
//! ICD loader is pointed at an empty vendor directory. Never skipped.

use rfgraph_opencl::{OclContext, OclError};
use std::process::Command;

/// Set in the child's environment; without it the child test does nothing.
const MARKER: &str = "RFGRAPH_OPENCL_NO_PLATFORM_CHILD";
const CHILD: &str = "no_platform_child";
/// Printed by the child once its assertions ran.
const CHECKED: &str = "no-platform child: all checks ran";

#[test]
fn no_platform_child() {
    if std::env::var_os(MARKER).is_none() {
        return;
    }
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
}

#[test]
fn without_a_platform_everything_says_no_platform() {
    let exe = std::env::current_exe().unwrap();
    let out = Command::new(exe)
        .args(["--exact", CHILD, "--nocapture", "--test-threads=1"])
        .env(MARKER, "1")
        // ocl-icd and the Khronos loader: look for vendors here only...
        .env("OCL_ICD_VENDORS", "/nonexistent")
        // ...and load no driver named directly.
        .env_remove("OCL_ICD_FILENAMES")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "child failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    assert!(
        stdout.contains(CHECKED),
        "child did not run its checks:\n{stdout}\n{stderr}"
    );
    // `--nocapture` lets the child's line land between "..." and "ok".
    assert!(
        stdout.contains(&format!("test {CHILD} ... "))
            && stdout.contains("test result: ok. 1 passed"),
        "child output:\n{stdout}\n{stderr}"
    );
}
