//! GNU Radio Companion files written by tests: one block entry, a whole
//! file around blocks and connections, and scratch paths and `c32` files
//! for what such a flowgraph writes.

use std::path::PathBuf;

/// One GRC block entry: `id` named `name`, with raw parameter texts
/// (quoted as GRC quotes them, so any text survives YAML).
pub fn block(name: &str, id: &str, params: &[(&str, &str)]) -> String {
    let mut s = format!("- name: {name}\n  id: {id}\n  parameters:\n");
    for (k, v) in params {
        s.push_str(&format!("    {k}: '{}'\n", v.replace('\'', "''")));
    }
    s.push_str("  states:\n    coordinate: [0, 0]\n    state: enabled\n");
    s
}

/// A whole GRC file (format 1) of `blocks` and stream or message
/// `conns` (`[from, port, to, port]`).
pub fn grc(blocks: &[String], conns: &[(&str, &str, &str, &str)]) -> String {
    let mut s = String::from("options:\n  parameters:\n    id: t\nblocks:\n");
    for b in blocks {
        s.push_str(b);
    }
    s.push_str("connections:\n");
    for (a, ap, b, bp) in conns {
        s.push_str(&format!("- [{a}, '{ap}', {b}, '{bp}']\n"));
    }
    s.push_str("metadata:\n  file_format: 1\n");
    s
}

/// A path for file `name` in a directory of `test`'s own.
pub fn scratch_file(test: &str, name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(test);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir.join(name)
}

/// The complex samples of a `c32` file's bytes, as `(re, im)` pairs.
pub fn c32s(bytes: &[u8]) -> Vec<(f32, f32)> {
    bytes
        .chunks_exact(8)
        .map(|c| {
            (
                f32::from_le_bytes(c[..4].try_into().unwrap()),
                f32::from_le_bytes(c[4..].try_into().unwrap()),
            )
        })
        .collect()
}
