//! The ports of a flattened block as its registry spec declares them for
//! its parameters (repeated ports counted, `type`-dependent item types
//! resolved), and the checks of every connection against them: unknown
//! ports (with the closest name), item types of both ends, an input
//! written twice, a port left out where the block has several. Runs
//! before anything is constructed.

use super::expand::{Exposed, FlatBlock, FlatConn};
use crate::model::{ConnectionKind, Endpoint, FileError, PortDirection};
use rfgraph::registry::suggest::closest;
use rfgraph::registry::{ItemKind, PortItem, PortSpec};
use std::collections::BTreeMap;

/// One block's ports: `(name, item type)` for streams, names for
/// messages.
#[derive(Clone, Debug, Default)]
pub(crate) struct PortTable {
    pub inputs: Vec<(String, String)>,
    pub outputs: Vec<(String, String)>,
    pub message_inputs: Vec<String>,
    pub message_outputs: Vec<String>,
    /// Stream ports that may stay unconnected.
    pub optional: Vec<String>,
}

/// Bytes per item of an item type name (1 for one the registry has no
/// name for).
pub(crate) fn item_bytes(item: &str) -> usize {
    match ItemKind::parse(item) {
        Some(ItemKind::C32 | ItemKind::F64) => 8,
        Some(ItemKind::F32 | ItemKind::I32) => 4,
        Some(ItemKind::I16) => 2,
        _ => 1,
    }
}

/// The ports of one side (`inputs`: the input side) of `b`.
fn expand(
    b: &FlatBlock,
    specs: &[PortSpec],
    inputs: bool,
    optional: &mut Vec<String>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for p in specs {
        let first = out.len();
        let item = match &p.item {
            PortItem::Fixed(k) => k.name().to_string(),
            PortItem::OfType => b
                .params
                .take::<ItemKind>("type")
                .map_or_else(|_| "`type`".to_string(), |k| k.name().to_string()),
            PortItem::OfParam(param) => b
                .params
                .take::<ItemKind>(param)
                .map_or_else(|_| format!("`{param}`"), |k| k.name().to_string()),
            PortItem::Other(s) => s.to_string(),
        };
        match p.count {
            None => out.push((p.name.to_string(), item)),
            Some(param) => {
                // A count, or a list with one entry per port
                // (`stream_mux`'s `lengths`); a matrix (a list of
                // rows) has an input per column, an output per row.
                let n = b
                    .params
                    .take::<usize>(param)
                    .ok()
                    .or_else(|| match b.params.raw(param).ok()? {
                        rfgraph::Pmt::List(v) if inputs && !v.is_empty() => match &v[0] {
                            rfgraph::Pmt::List(row) => Some(row.len()),
                            rfgraph::Pmt::VecF32(row) => Some(row.len()),
                            rfgraph::Pmt::VecComplexF32(row) => Some(row.len()),
                            _ => Some(v.len()),
                        },
                        rfgraph::Pmt::List(v) => Some(v.len()),
                        rfgraph::Pmt::VecF32(v) => Some(v.len()),
                        rfgraph::Pmt::VecComplexF32(v) => Some(v.len()),
                        _ => None,
                    })
                    .unwrap_or(0)
                    .min(rfgraph::params::limits::MAX_PORTS);
                out.extend((0..n).map(|i| (format!("{}{i}", p.name), item.clone())));
            }
        }
        if p.optional {
            optional.extend(out[first..].iter().map(|(name, _)| name.clone()));
        }
    }
    out
}

/// The names in `b`'s list parameter `param` (message ports named per
/// instance, see `BlockSpec::message_inputs_named_by`); entries that are
/// no strings are skipped (the block refuses them when built).
fn named_by(b: &FlatBlock, param: Option<&str>) -> Vec<String> {
    match param.and_then(|p| b.params.raw(p).ok()) {
        Some(rfgraph::Pmt::List(names)) => names
            .iter()
            .filter_map(|n| n.as_str().map(str::to_string))
            .take(rfgraph::params::limits::MAX_PORTS)
            .collect(),
        _ => Vec::new(),
    }
}

impl PortTable {
    /// The ports of `b`.
    pub fn of(b: &FlatBlock) -> Self {
        let mut message_inputs: Vec<String> = b
            .spec
            .message_input_names()
            .into_iter()
            .map(str::to_string)
            .collect();
        message_inputs.extend(named_by(b, b.spec.message_inputs_param));
        let mut message_outputs: Vec<String> = b
            .spec
            .message_outputs
            .iter()
            .map(|s| s.to_string())
            .collect();
        message_outputs.extend(named_by(b, b.spec.message_outputs_param));
        let mut optional = Vec::new();
        Self {
            inputs: expand(b, &b.spec.inputs, true, &mut optional),
            outputs: expand(b, &b.spec.outputs, false, &mut optional),
            optional,
            message_inputs,
            message_outputs,
        }
    }
}

/// A checked stream or message edge, ports named.
#[derive(Clone, Debug)]
pub(crate) struct Edge {
    pub from: (usize, String),
    pub to: (usize, String),
    pub kind: ConnectionKind,
    /// The item type (streams).
    pub item: String,
}

/// Checks `conns` against the blocks' ports and returns them with block
/// indices and port names filled in.
pub(crate) fn check(
    blocks: &[FlatBlock],
    tables: &[PortTable],
    conns: &[FlatConn],
) -> Result<Vec<Edge>, FileError> {
    let index: BTreeMap<&str, usize> = blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.name.as_str(), i))
        .collect();
    let mut edges: Vec<Edge> = Vec::new();
    let mut written: BTreeMap<(usize, String), usize> = BTreeMap::new();
    for (ci, c) in conns.iter().enumerate() {
        let err = |msg: String| FileError::new(c.at.clone(), c.key.clone(), msg);
        let find = |ep: &Endpoint| -> Result<usize, FileError> {
            index.get(ep.block.as_str()).copied().ok_or_else(|| {
                err(format!("no block named `{}`", ep.block))
                    .suggest(closest(&ep.block, index.keys().copied()))
            })
        };
        let (src, dst) = (find(&c.from)?, find(&c.to)?);
        let (ts, td) = (&tables[src], &tables[dst]);
        let (from_port, to_port, item) = match c.kind {
            ConnectionKind::Stream => {
                let o = pick(&c.from, &ts.outputs, "stream output", &blocks[src]).map_err(&err)?;
                let i = pick(&c.to, &td.inputs, "stream input", &blocks[dst]).map_err(&err)?;
                if o.1 != i.1 {
                    return Err(err(format!(
                        "item types differ: `{}.{}` writes {} but `{}.{}` reads {}",
                        c.from.block, o.0, o.1, c.to.block, i.0, i.1
                    )));
                }
                if let Some(prev) = written.insert((dst, i.0.clone()), ci) {
                    return Err(err(format!(
                        "input `{}.{}` is already connected ({}); an input takes one writer",
                        c.to.block, i.0, conns[prev].key
                    )));
                }
                (o.0, i.0, o.1)
            }
            ConnectionKind::Message => {
                let o = pick_name(&c.from, &ts.message_outputs, "message output", &blocks[src])
                    .map_err(&err)?;
                let i = pick_name(&c.to, &td.message_inputs, "message input", &blocks[dst])
                    .map_err(&err)?;
                (o, i, String::new())
            }
        };
        edges.push(Edge {
            from: (src, from_port),
            to: (dst, to_port),
            kind: c.kind,
            item,
        });
    }
    check_acyclic(blocks, &edges, conns)?;
    Ok(edges)
}

fn describe_ports<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let list: Vec<&str> = names.collect();
    if list.is_empty() {
        "none".to_string()
    } else {
        list.join(", ")
    }
}

fn pick(
    ep: &Endpoint,
    ports: &[(String, String)],
    what: &str,
    b: &FlatBlock,
) -> Result<(String, String), String> {
    if ep.port.is_empty() {
        return match ports {
            [only] => Ok(only.clone()),
            _ => Err(format!(
                "`{}` ({}) has {} {what}s; name one (`{}.port`): {}",
                ep.block,
                b.spec.name,
                ports.len(),
                ep.block,
                describe_ports(ports.iter().map(|p| p.0.as_str()))
            )),
        };
    }
    ports
        .iter()
        .find(|p| p.0 == ep.port)
        .cloned()
        .ok_or_else(|| {
            let hint = closest(&ep.port, ports.iter().map(|p| p.0.as_str()))
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            format!(
                "`{}` ({}) has no {what} `{}`; it has: {}{hint}",
                ep.block,
                b.spec.name,
                ep.port,
                describe_ports(ports.iter().map(|p| p.0.as_str()))
            )
        })
}

fn pick_name(ep: &Endpoint, ports: &[String], what: &str, b: &FlatBlock) -> Result<String, String> {
    let pairs: Vec<(String, String)> = ports.iter().map(|p| (p.clone(), String::new())).collect();
    pick(ep, &pairs, what, b).map(|p| p.0)
}

/// Stream edges must not form a cycle (messages may).
fn check_acyclic(
    blocks: &[FlatBlock],
    edges: &[Edge],
    conns: &[FlatConn],
) -> Result<(), FileError> {
    let n = blocks.len();
    let mut next: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (i, e) in edges.iter().enumerate() {
        if e.kind == ConnectionKind::Stream {
            next[e.from.0].push((e.to.0, i));
        }
    }
    // Iterative DFS: 0 new, 1 on the stack, 2 done.
    let mut state = vec![0u8; n];
    for start in 0..n {
        if state[start] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize, usize)> = vec![(start, 0, usize::MAX)];
        state[start] = 1;
        while let Some(&mut (node, ref mut k, _)) = stack.last_mut() {
            if *k < next[node].len() {
                let (to, edge) = next[node][*k];
                *k += 1;
                match state[to] {
                    0 => {
                        state[to] = 1;
                        stack.push((to, 0, edge));
                    }
                    1 => {
                        let pos = stack.iter().position(|s| s.0 == to).unwrap_or(0);
                        let mut names: Vec<&str> = stack[pos..]
                            .iter()
                            .map(|s| blocks[s.0].name.as_str())
                            .collect();
                        names.push(&blocks[to].name);
                        return Err(FileError::new(
                            conns[edge].at.clone(),
                            conns[edge].key.clone(),
                            format!(
                                "stream connections form a cycle: {} (streams cannot loop; use messages for feedback)",
                                names.join(" -> ")
                            ),
                        ));
                    }
                    _ => {}
                }
            } else {
                state[node] = 2;
                stack.pop();
            }
        }
    }
    Ok(())
}

/// The inner stream ports the document's exposed stream ports stand
/// for (a hierarchical block's pads), as `(block index, port name)`:
/// whoever uses the block connects them.
pub(crate) fn exposed_streams(
    blocks: &[FlatBlock],
    tables: &[PortTable],
    exposed: &[Exposed],
) -> Vec<(usize, String)> {
    exposed
        .iter()
        .filter(|p| p.kind == ConnectionKind::Stream)
        .filter_map(|p| {
            let i = blocks.iter().position(|b| b.name == p.inner.block)?;
            let ports = match p.direction {
                PortDirection::Input => &tables[i].inputs,
                PortDirection::Output => &tables[i].outputs,
            };
            let (port, _) = pick(&p.inner, ports, "stream port", &blocks[i]).ok()?;
            Some((i, port))
        })
        .collect()
}

/// Checks that every stream port a block's spec does not mark optional
/// has a connection, or is one of `exposed` (see [`exposed_streams`]):
/// the first one left out is an error at its block.
pub(crate) fn check_connected(
    blocks: &[FlatBlock],
    tables: &[PortTable],
    edges: &[Edge],
    exposed: &[(usize, String)],
) -> Result<(), FileError> {
    let streams = || edges.iter().filter(|e| e.kind == ConnectionKind::Stream);
    for (i, (b, t)) in blocks.iter().zip(tables).enumerate() {
        let sides = [("input", &t.inputs, true), ("output", &t.outputs, false)];
        for (side, ports, is_input) in sides {
            for (port, _) in ports {
                let connected = streams().any(|e| {
                    let end = if is_input { &e.to } else { &e.from };
                    end.0 == i && end.1 == *port
                }) || exposed.iter().any(|(j, p)| *j == i && p == port);
                if !connected && !t.optional.contains(port) {
                    return Err(FileError::new(
                        b.at.clone(),
                        format!("blocks.{}", b.name),
                        format!(
                            "stream {side} `{port}` of block `{}` is not connected",
                            b.name
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}
