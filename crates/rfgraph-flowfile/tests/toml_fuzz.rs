//! Mutated, truncated and random flowgraph files: the reader and builder
//! answer with a located error (or a graph), never a panic or a hang.

mod common;

use proptest::prelude::*;
use rfgraph_flowfile::build::{BuildOptions, build};
use rfgraph_flowfile::toml::parse;
use std::path::PathBuf;
use std::sync::Arc;

const VALID: &str = r#"format = 1
title = "fuzz"
connections = ["src -> fir -> snk", "src.out -> snk2.in"]

[variables]
n = 8
g = { value = 0.5, settable = true }
taps = "[g / 4] * 4 + firdes.low_pass(1, 48e3, 4e3, 8e3)[:2]"

[blocks.src]
kind = "vector_source"
data = "[1.0, 2.0] * n"

[blocks.fir]
kind = "fir_filter"
taps = "taps"
options = { buffer_size = 4096, affinity = [0] }

[blocks.snk]
kind = "vector_sink"

[blocks.snk2]
kind = "vector_sink"

[scheduler]
name = "tpb"
"#;

/// A flowgraph over two hosts: the `[hosts]` and `[links]` sections and
/// the `host` option, split into each host's part when built.
const HOSTS: &str = r#"format = 1
connections = ["src -> head -> snk", "strobe.strobe => dbg.print"]

[hosts.radio]
address = "10.0.0.1"
port = 6000

[hosts.dsp]
address = "10.0.0.2"

[links]
on_loss = "reconnect"
peer_timeout = "1500ms"
window = 65536

[blocks.src]
kind = "null_source"
type = "c32"

[blocks.head]
kind = "head"
type = "c32"
items = 100
options = { host = "dsp" }

[blocks.snk]
kind = "null_sink"
type = "c32"
options = { host = "dsp" }

[blocks.strobe]
kind = "message_strobe"

[blocks.dbg]
kind = "message_debug"
options = { host = "dsp" }
"#;

/// `edits` applied to `base`: characters inserted, removed, replaced, or
/// the text cut.
fn mutate(base: &str, edits: Vec<(usize, u8, u8)>) -> String {
    let mut bytes = base.as_bytes().to_vec();
    for (pos, byte, op) in edits {
        let at = pos % (bytes.len() + 1);
        let pick = b"[]{}=\"'.,-> \n#0123456789abcxyz_";
        let b = pick[byte as usize % pick.len()];
        match op {
            0 => bytes.insert(at, b),
            1 if at < bytes.len() => {
                bytes.remove(at);
            }
            2 if at < bytes.len() => bytes[at] = b,
            _ => bytes.truncate(at),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn cases() -> u32 {
    if rfgraph_testkit::under_ci() {
        3000
    } else {
        300
    }
}

/// An error's place: a line of the file (line 0, "the whole file", only
/// for a file with no line to point at).
fn located(e: &rfgraph_flowfile::model::FileError, text: &str) {
    assert!(!e.message.is_empty());
    assert!(e.at.line <= text.lines().count() + 1, "{e}");
    if !text.trim().is_empty() {
        assert!(
            e.at.line >= 1,
            "no line for an error in a file that has lines: {e}\n{text}"
        );
    }
}

fn check(text: &str) {
    let file = Arc::new(PathBuf::from("fuzz.toml"));
    match parse(text, file) {
        Ok(doc) => {
            if let Err(e) = build(&doc, &common::registry(), &BuildOptions::default()) {
                located(&e, text);
            }
        }
        Err(e) => located(&e, text),
    }
}

#[test]
fn the_valid_files_build() {
    let doc = parse(VALID, Arc::new(PathBuf::from("fuzz.toml"))).unwrap();
    build(&doc, &common::registry(), &BuildOptions::default()).unwrap();
    let doc = parse(HOSTS, Arc::new(PathBuf::from("fuzz.toml"))).unwrap();
    let dry = BuildOptions {
        dry_run: true,
        ..BuildOptions::default()
    };
    build(&doc, &rfgraph_flowfile::standard::registry(), &dry).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn mutated_files_give_located_errors(
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..4), 1..8),
    ) {
        check(&mutate(VALID, edits));
    }

    /// Mutated files over hosts, read and built into every host's part
    /// (a dry run through the standard registry, which has the link
    /// blocks).
    #[test]
    fn mutated_host_files_give_located_errors(
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..4), 1..8),
    ) {
        let text = mutate(HOSTS, edits);
        let file = Arc::new(PathBuf::from("fuzz.toml"));
        let dry = BuildOptions { dry_run: true, ..BuildOptions::default() };
        match parse(&text, file) {
            Ok(doc) => {
                if let Err(e) = build(&doc, &rfgraph_flowfile::standard::registry(), &dry) {
                    located(&e, &text);
                }
            }
            Err(e) => located(&e, &text),
        }
    }

    #[test]
    fn random_bytes_give_errors(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        check(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn deeply_nested_toml_is_an_error() {
    let text = format!(
        "format = 1\n[variables]\nx = {}1{}\n",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    check(&text);
    let text = format!("format = 1\n[variables]\nx = {}\n", "{ a = ".repeat(10_000));
    check(&text);
}

#[test]
fn whole_file_errors_point_at_a_line() {
    for text in [
        "title = \"no format\"\n",
        "\n\nformat = 2\n",
        "format = 1\n",
        "format = 1\nconnections = [\"a -> b\"]\n",
        "format = 1\n[blocks.a]\nkind = \"null_source\"\n",
        "format = 1\nconnections = [\"a -> b\", \"b -> a\"]\n[blocks.a]\nkind = \"copy\"\n[blocks.b]\nkind = \"copy\"\n",
        "# only a comment\n",
    ] {
        check(text);
    }
}
