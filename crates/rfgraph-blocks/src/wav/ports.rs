//! Names of per-channel ports (`out0`, `out1`, …, `in0`, …). Ports are
//! named by `&'static str`; each distinct name is made once per process
//! and kept, so building blocks over and over leaks nothing more.

use std::collections::BTreeMap;
use std::sync::Mutex;

static NAMES: Mutex<BTreeMap<(&'static str, usize), &'static str>> = Mutex::new(BTreeMap::new());

/// `prefix` followed by `index`, as a `'static` name.
pub(crate) fn channel_port(prefix: &'static str, index: usize) -> &'static str {
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    names
        .entry((prefix, index))
        .or_insert_with(|| format!("{prefix}{index}").leak())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_made_once() {
        let a = channel_port("out", 12);
        assert_eq!(a, "out12");
        assert!(std::ptr::eq(a, channel_port("out", 12)));
        assert_eq!(channel_port("in", 0), "in0");
    }
}
