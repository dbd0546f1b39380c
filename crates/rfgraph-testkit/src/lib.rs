//! What rfgraph's tests share, so that every crate's tests follow one
//! rule:
//!
//! - [`under_ci`]: whether the tests run under continuous integration
//!   (the `CI` environment variable, as `.ci/run` sets it). There every
//!   tool a test needs must be present: a missing one fails the run.
//! - [`skip`] and [`require`]: a test that cannot run here says so where
//!   the harness shows it (standard error, which `cargo test` does not
//!   capture), and fails instead under CI.
//!
//! This crate is a dev-dependency only; nothing in it ships.

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
