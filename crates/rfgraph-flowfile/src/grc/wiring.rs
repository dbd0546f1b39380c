//! The connections that remain once disabled blocks are dropped and
//! bypassed blocks and virtual sinks/sources are made transparent: each
//! connection into a real block is traced back through bypassed blocks
//! (input 0 → output 0) and virtual sources (to the virtual sink with the
//! same `stream_id`) to the real block that feeds it.
//!
//! This module works on GRC's own names and port keys; translating them
//! into registry ports is the importer's.

use super::error::GrcError;
use super::file::{GrcBlock, GrcConnection, GrcFile, State};
use std::collections::{BTreeMap, BTreeSet};

/// True for the ids of GRC's virtual ports.
pub fn is_virtual(id: &str) -> bool {
    matches!(id, "virtual_sink" | "virtual_source")
}

/// The connections between real, enabled blocks, each with the place of
/// the connection that reaches its sink (the last hop). `real` says
/// which block names are neither virtual nor bypassed nor disabled.
pub fn resolve(file: &GrcFile, path: &str) -> Result<Vec<GrcConnection>, GrcError> {
    // GRC lets a disabled block share its name with an enabled one: the
    // enabled one is meant.
    let mut blocks: BTreeMap<&str, &GrcBlock> = BTreeMap::new();
    for b in &file.blocks {
        let keep = blocks
            .get(b.name.as_str())
            .is_some_and(|o| o.state != State::Disabled);
        if !keep {
            blocks.insert(b.name.as_str(), b);
        }
    }
    let known: Vec<&str> = blocks.keys().copied().collect();
    for c in &file.connections {
        for (end, key) in [(&c.src, 0), (&c.dst, 2)] {
            if !blocks.contains_key(end.as_str()) {
                return Err(GrcError::at(
                    path,
                    c.pos,
                    format!("connections[{}][{key}]", c.index),
                    format!("no block named `{end}`"),
                )
                .suggest(rfgraph::registry::suggest::closest(
                    end,
                    known.iter().copied(),
                )));
            }
        }
    }
    let enabled = |name: &str| blocks.get(name).is_some_and(|b| b.state != State::Disabled);
    let transparent = |name: &str| {
        blocks
            .get(name)
            .is_some_and(|b| b.state == State::Bypassed || is_virtual(&b.id))
    };
    // Virtual sinks by stream id.
    let mut sinks: BTreeMap<String, &str> = BTreeMap::new();
    for b in file.blocks.iter().filter(|b| b.state != State::Disabled) {
        if b.id == "virtual_sink" {
            sinks.insert(b.text("stream_id").to_string(), b.name.as_str());
        }
    }
    let live: Vec<&GrcConnection> = file
        .connections
        .iter()
        .filter(|c| enabled(&c.src) && enabled(&c.dst))
        .collect();
    // The connection into each (block, port).
    let mut into: BTreeMap<(&str, &str), &GrcConnection> = BTreeMap::new();
    for c in &live {
        into.entry((c.dst.as_str(), c.dst_port.as_str()))
            .or_insert(c);
    }
    let mut out = Vec::new();
    for c in live.iter().filter(|c| !transparent(&c.dst)) {
        let mut hop: &GrcConnection = c;
        let mut seen = BTreeSet::new();
        loop {
            let src = hop.src.as_str();
            if !transparent(src) {
                break;
            }
            if !seen.insert(src) {
                return Err(GrcError::at(
                    path,
                    c.pos,
                    format!("connections[{}]", c.index),
                    format!("bypassed or virtual blocks form a loop through `{src}`"),
                ));
            }
            let b = blocks[src];
            let feeding = if b.id == "virtual_source" {
                let id = b.text("stream_id");
                let Some(sink) = sinks.get(id) else {
                    return Err(GrcError::at(
                        path,
                        b.pos_of("stream_id"),
                        format!("blocks[{}].parameters.stream_id", b.index),
                        format!("no virtual sink has the stream id `{id}`"),
                    )
                    .suggest(rfgraph::registry::suggest::closest(
                        id,
                        sinks.keys().map(String::as_str),
                    )));
                };
                into.get(&(*sink, "0")).copied()
            } else {
                into.get(&(src, hop.src_port.as_str())).copied()
            };
            match feeding {
                Some(f) => hop = f,
                None => {
                    hop = c;
                    break;
                }
            }
        }
        if transparent(&hop.src) {
            // Nothing feeds the chain: the connection goes nowhere.
            continue;
        }
        out.push(GrcConnection {
            src: hop.src.clone(),
            src_port: hop.src_port.clone(),
            ..(*c).clone()
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grc::file::parse;

    fn file(blocks: &[(&str, &str, &str, &str)], conns: &[(&str, &str, &str, &str)]) -> GrcFile {
        let mut text = String::from("options:\n  parameters: {id: t}\nblocks:\n");
        for (name, id, state, stream) in blocks {
            text.push_str(&format!(
                "- name: {name}\n  id: {id}\n  parameters: {{stream_id: '{stream}'}}\n  states: {{state: {state}}}\n"
            ));
        }
        text.push_str("connections:\n");
        for (a, ap, b, bp) in conns {
            text.push_str(&format!("- [{a}, '{ap}', {b}, '{bp}']\n"));
        }
        parse(&text, "t.grc").unwrap()
    }

    fn ends(c: &[GrcConnection]) -> Vec<String> {
        c.iter()
            .map(|c| format!("{}:{}->{}:{}", c.src, c.src_port, c.dst, c.dst_port))
            .collect()
    }

    #[test]
    fn bypassed_and_virtual_blocks_become_direct_connections() {
        let f = file(
            &[
                ("src", "x", "enabled", ""),
                ("mid", "y", "bypassed", ""),
                ("vs", "virtual_sink", "enabled", "s1"),
                ("vo", "virtual_source", "enabled", "s1"),
                ("snk", "z", "enabled", ""),
                ("off", "z", "disabled", ""),
            ],
            &[
                ("src", "0", "mid", "0"),
                ("mid", "0", "vs", "0"),
                ("vo", "0", "snk", "0"),
                ("src", "0", "off", "0"),
                ("src", "msg", "snk", "cmd"),
            ],
        );
        let c = resolve(&f, "t.grc").unwrap();
        assert_eq!(ends(&c), ["src:0->snk:0", "src:msg->snk:cmd"]);
    }

    #[test]
    fn unknown_ends_and_stream_ids_are_errors_with_suggestions() {
        let f = file(
            &[("src", "x", "enabled", ""), ("snk", "z", "enabled", "")],
            &[("src", "0", "snkk", "0")],
        );
        let e = resolve(&f, "t.grc").unwrap_err().to_string();
        assert!(
            e.contains("`connections[0][2]`: no block named `snkk` (did you mean `snk`?)"),
            "{e}"
        );
        let f = file(
            &[
                ("vo", "virtual_source", "enabled", "abc"),
                ("vs", "virtual_sink", "enabled", "abd"),
                ("snk", "z", "enabled", ""),
            ],
            &[("vo", "0", "snk", "0")],
        );
        let e = resolve(&f, "t.grc").unwrap_err().to_string();
        assert!(e.contains("no virtual sink has the stream id `abc`"), "{e}");
    }
}
