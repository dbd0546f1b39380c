//! GRC's buses: a block whose `states.bus_source` (`bus_sink`) is set
//! also has bus ports after its stream outputs (inputs), one for each
//! group of its `bus_structure_source` (`bus_structure_sink`) parameter,
//! or one of all its ports without one. A connection between two bus
//! ports stands for one connection per port of the buses, in order, as
//! GRC's generated Python makes them. Owns that expansion: the
//! structures are evaluated with the flowgraph's variables and the
//! block's own parameters (the BER curve sink's groups read its `esno`
//! and `num_curves`).

use super::file::{GrcBlock, GrcConnection, is_index};
use crate::expr::{Env, Value, eval};
use std::collections::BTreeMap;

/// The groups of `block`'s structure parameter `key`, evaluated.
fn structure(block: &GrcBlock, key: &str, env: &Env) -> Option<Vec<Vec<usize>>> {
    let text = block.text(key);
    if text.is_empty() || text == "None" {
        return None;
    }
    let mut env = env.clone();
    for (name, p) in &block.params {
        if let Ok(v) = eval(p.text.trim(), &env) {
            env.set(name.clone(), v);
        }
    }
    let Ok(Value::List(groups)) = eval(text, &env) else {
        return None;
    };
    groups
        .iter()
        .map(|g| match g {
            Value::List(ports) => ports
                .iter()
                .map(|p| p.as_i64().and_then(|i| usize::try_from(i).ok()))
                .collect(),
            _ => None,
        })
        .collect()
}

/// `connections` with every bus-to-bus connection replaced by the
/// connections of its ports; a bus connection whose structure cannot be
/// read stays as written (and fails as an unknown port).
pub(super) fn expand(
    connections: Vec<GrcConnection>,
    blocks: &BTreeMap<String, &GrcBlock>,
    env: &Env,
) -> Vec<GrcConnection> {
    let mut out = Vec::with_capacity(connections.len());
    for c in connections {
        match ports(&c, blocks, env) {
            Some(pairs) => out.extend(pairs.into_iter().map(|(s, d)| GrcConnection {
                src_port: s.to_string(),
                dst_port: d.to_string(),
                ..c.clone()
            })),
            None => out.push(c),
        }
    }
    out
}

/// The port pairs a bus-to-bus connection `c` stands for.
fn ports(
    c: &GrcConnection,
    blocks: &BTreeMap<String, &GrcBlock>,
    env: &Env,
) -> Option<Vec<(usize, usize)>> {
    let (src, dst) = (blocks.get(&c.src)?, blocks.get(&c.dst)?);
    if !(src.bus_source && dst.bus_sink && is_index(&c.src_port) && is_index(&c.dst_port)) {
        return None;
    }
    let (sp, dp): (usize, usize) = (c.src_port.parse().ok()?, c.dst_port.parse().ok()?);
    // The sink's groups say how many stream inputs come before its bus
    // ports; a source without groups has one bus of all its outputs,
    // as wide as the sink's group.
    let sink = structure(dst, "bus_structure_sink", env)?;
    let inputs = sink.iter().flatten().max().map_or(0, |m| m + 1);
    let group = sink.get(dp.checked_sub(inputs)?)?;
    let from: Vec<usize> = match structure(src, "bus_structure_source", env) {
        Some(groups) => {
            let outputs = groups.iter().flatten().max().map_or(0, |m| m + 1);
            groups.get(sp.checked_sub(outputs)?)?.clone()
        }
        None => (0..group.len()).collect(),
    };
    (from.len() == group.len()).then(|| from.into_iter().zip(group.iter().copied()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grc::yaml::Pos;

    fn block(name: &str, params: &[(&str, &str)], source: bool, sink: bool) -> GrcBlock {
        let text = format!(
            "options:\n  parameters:\n    id: t\nblocks:\n- name: {name}\n  id: x\n  parameters:\n{}  states:\n    bus_source: {source}\n    bus_sink: {sink}\n    state: enabled\nconnections: []\nmetadata:\n  file_format: 1\n",
            params
                .iter()
                .map(|(k, v)| format!("    {k}: '{v}'\n"))
                .collect::<String>()
        );
        let f = crate::grc::file::parse(&text, "t.grc").unwrap();
        f.blocks.into_iter().next().unwrap()
    }

    fn conn(src_port: &str, dst_port: &str) -> GrcConnection {
        GrcConnection {
            src: "a".into(),
            src_port: src_port.into(),
            dst: "b".into(),
            dst_port: dst_port.into(),
            pos: Pos::default(),
            index: 0,
        }
    }

    #[test]
    fn bus_connections_become_one_a_port() {
        let a = block(
            "a",
            &[("bus_structure_source", "[[0, 1], [2, 3]]")],
            true,
            false,
        );
        let b = block(
            "b",
            &[("bus_structure_sink", "[[3, 2], [1, 0]]")],
            false,
            true,
        );
        let blocks = BTreeMap::from([("a".to_string(), &a), ("b".to_string(), &b)]);
        let env = Env::new();
        let out = expand(vec![conn("5", "4")], &blocks, &env);
        let pairs: Vec<(&str, &str)> = out
            .iter()
            .map(|c| (c.src_port.as_str(), c.dst_port.as_str()))
            .collect();
        assert_eq!(pairs, [("2", "3"), ("3", "2")]);
        // Not a bus port, or a structure that is no list of lists: as written.
        for (s, d) in [("0", "1"), ("5", "9")] {
            let out = expand(vec![conn(s, d)], &blocks, &env);
            assert_eq!((out[0].src_port.as_str(), out[0].dst_port.as_str()), (s, d));
        }
        let bad = block("b", &[("bus_structure_sink", "[1, None]")], false, true);
        let blocks = BTreeMap::from([("a".to_string(), &a), ("b".to_string(), &bad)]);
        assert_eq!(expand(vec![conn("5", "2")], &blocks, &env).len(), 1);
    }
}
