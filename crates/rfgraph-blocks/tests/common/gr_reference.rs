//! GNU Radio's reference outputs: the script `tests/<name>/reference.py`
//! of test `name`, run by [`rfgraph_testkit::GNURADIO_PYTHON`] once per
//! test process, writes every case's input and GNU Radio's output under
//! `CARGO_TARGET_TMPDIR/<name>`.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

pub use rfgraph_testkit::read_items as load;

/// Test `name`'s reference script.
pub fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/{name}/reference.py"))
}

/// Runs test `name`'s script with `args`; panics, with its stderr, when it
/// fails.
pub fn run_script(name: &str, args: &[&OsStr]) {
    rfgraph_testkit::run_gnuradio_script(&script(name), args);
}

/// The folder where test `name`'s script wrote GNU Radio's outputs (its
/// one argument), when GNU Radio's Python imports `modules`; `None` after
/// skipping the test otherwise (a failure under CI).
pub fn gr_reference(name: &str, modules: &str) -> Option<PathBuf> {
    gr_reference_with(name, modules, &[])
}

/// [`gr_reference`], with `args` after the folder. The script runs once
/// per process and `name`: later calls give the first one's folder.
pub fn gr_reference_with(name: &str, modules: &str, args: &[&OsStr]) -> Option<PathBuf> {
    static DIRS: OnceLock<Mutex<HashMap<String, Option<PathBuf>>>> = OnceLock::new();
    // A script that failed panicked with the lock held: the next caller
    // runs it again (and fails alike), as a `OnceLock` would.
    let mut dirs = DIRS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    dirs.entry(name.to_string())
        .or_insert_with(|| {
            if !rfgraph_testkit::gnuradio(name, modules) {
                return None;
            }
            let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
            let mut all = vec![dir.as_os_str()];
            all.extend_from_slice(args);
            run_script(name, &all);
            Some(dir)
        })
        .clone()
}
