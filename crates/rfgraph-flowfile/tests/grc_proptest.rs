//! Untrusted `.grc` input never panics or hangs: real GNU Radio example
//! flowgraphs (`testdata/grc`, GPL-3.0-or-later, see its README) mutated
//! and truncated, and random bytes, each import to a document or to an
//! error that names the file and a place in it. A few thousand cases
//! under `CI=true`.

use proptest::prelude::*;
use rfgraph::registry::Registry;
use rfgraph_flowfile::grc::{self, GrcError};
use std::path::Path;
use std::sync::OnceLock;

const FILES: [&str; 6] = [
    include_str!("../../../testdata/grc/selector.grc"),
    include_str!("../../../testdata/grc/fm_rx.grc"),
    include_str!("../../../testdata/grc/stream_mux_demo.grc"),
    include_str!("../../../testdata/grc/loopback-gsmfr.grc"),
    include_str!("../../../testdata/grc/uhd_siggen_gui.grc"),
    // An embedded Python block (code, `__init__` parameters, tags and
    // message ports) and its import into a `python` block.
    include_str!("../../rfgraph-python/tests/data/epy_basic.grc"),
];

fn registry() -> &'static Registry {
    static R: OnceLock<Registry> = OnceLock::new();
    R.get_or_init(rfgraph_flowfile::standard::registry)
}

/// Imports `text` and checks the outcome: a document, or an error that
/// names the file and, where the file is at fault, a line and column
/// inside it.
fn check(text: &str) {
    // YAML breaks lines at CR as well as LF.
    let lines = text.matches(['\n', '\r']).count() + 2;
    match grc::from_str(text, Path::new("fuzz.grc"), registry()) {
        Ok(_) => {}
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.starts_with("fuzz.grc"), "{msg}");
            match &e {
                GrcError::At { pos, .. } => {
                    assert!(
                        pos.line >= 1 && pos.line <= lines && pos.col >= 1,
                        "{pos:?}: {msg}"
                    );
                }
                GrcError::Unsupported { blocks, .. } => {
                    assert!(!blocks.is_empty(), "{msg}");
                    assert!(
                        blocks
                            .iter()
                            .all(|b| b.pos.line >= 1 && b.pos.line <= lines),
                        "{msg}"
                    );
                }
                GrcError::Io { .. } => panic!("no file was read: {msg}"),
            }
        }
    }
}

/// Bytes YAML and GRC give meaning to, to make mutations that matter.
const SPICE: &[u8] = b":-[]{}'\"\n #&*!|>,?%@`0a\t\\";

#[derive(Clone, Debug)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, Vec<u8>),
    Replace(usize, u8),
    Duplicate(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 1usize..64).prop_map(|(a, n)| Edit::Delete(a, n)),
        (
            any::<usize>(),
            prop::collection::vec(prop::sample::select(SPICE), 1..6)
        )
            .prop_map(|(a, b)| Edit::Insert(a, b)),
        (any::<usize>(), prop::sample::select(SPICE)).prop_map(|(a, b)| Edit::Replace(a, b)),
        (any::<usize>(), 1usize..200).prop_map(|(a, n)| Edit::Duplicate(a, n)),
    ]
}

fn apply(text: &str, edits: &[Edit], cut: Option<usize>) -> String {
    let mut b = text.as_bytes().to_vec();
    for e in edits {
        let len = b.len().max(1);
        match e {
            Edit::Delete(a, n) => {
                let a = a % len;
                let end = (a + n).min(b.len());
                if a < end {
                    b.drain(a..end);
                }
            }
            Edit::Insert(a, bytes) => {
                let a = (a % len).min(b.len());
                b.splice(a..a, bytes.iter().copied());
            }
            Edit::Replace(a, x) => {
                if !b.is_empty() {
                    let a = a % b.len();
                    b[a] = *x;
                }
            }
            Edit::Duplicate(a, n) => {
                let a = a % len;
                let end = (a + n).min(b.len());
                if a < end {
                    let chunk = b[a..end].to_vec();
                    b.splice(a..a, chunk);
                }
            }
        }
    }
    if let Some(c) = cut {
        b.truncate(c % (b.len() + 1));
    }
    String::from_utf8_lossy(&b).into_owned()
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: if rfgraph_testkit::under_ci() {
            3000
        } else {
            200
        },
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

#[test]
fn the_unmutated_examples_read() {
    for text in FILES {
        check(text);
        // Each is a real flowgraph: it reads as a file, whatever blocks
        // the registry has.
        grc::file::parse(text, "x.grc").unwrap();
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_and_truncated_examples_give_located_errors(
        which in 0..FILES.len(),
        edits in prop::collection::vec(edit(), 0..8),
        cut in prop::option::of(any::<usize>()),
    ) {
        check(&apply(FILES[which], &edits, cut));
    }

    #[test]
    fn random_bytes_give_located_errors(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        check(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_yaml_like_text_gives_located_errors(
        bytes in prop::collection::vec(prop::sample::select(SPICE), 0..512),
    ) {
        check(&String::from_utf8_lossy(&bytes));
    }
}
