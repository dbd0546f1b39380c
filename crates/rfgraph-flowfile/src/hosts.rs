//! Flowgraphs that span hosts: which blocks run on which host, and the
//! part of a [`Document`] one host runs.
//!
//! A file names its hosts (`[hosts.NAME] address = ..., port = ...`) and
//! puts each block on one (`options = { host = "NAME" }`; the first host
//! when not set). `rfgraph run FILE --host NAME` builds [`part`]: the
//! blocks of that host, their connections among themselves, and for each
//! connection that crosses to or from another host, one end of a link:
//!
//! - a stream edge becomes a `host_link_sink` on the writer's host and a
//!   `host_link_source` on the reader's (gr-zeromq PUSH/PULL with tags,
//!   back-pressure end to end, end of stream, liveness: see
//!   `rfgraph_net::link`), with the `[links]` settings;
//! - a message edge becomes a `zmq_push_msg_sink` and a
//!   `zmq_pull_msg_source`.
//!
//! The writer's host listens: the `n`th crossing connection that leaves a
//! host (in file order, counting from 0) uses its `port + 2n` (the link's
//! acknowledgements the next port). Every host derives the same numbers
//! from the same file, so the two ends meet without more configuration.

use crate::model::{
    BlockInstance, BlockOptions, Connection, ConnectionKind, Document, Endpoint, FileError, Host,
    ParamValue, Value,
};
use rfgraph::registry::{PortItem, Registry};

/// The first port of a host's links when its `[hosts.NAME]` gives none.
pub const DEFAULT_PORT: u16 = 5600;

/// The host block `name` of `doc` runs on.
fn host_of<'a>(doc: &'a Document, block: &BlockInstance) -> Result<&'a Host, FileError> {
    match &block.options.host {
        None => Ok(&doc.hosts[0]),
        Some(name) => doc.hosts.iter().find(|h| &h.name == name).ok_or_else(|| {
            FileError::new(
                block.at.clone(),
                format!("blocks.{}.options.host", block.name),
                format!("no host `{name}`; the file's hosts: {}", names(doc)),
            )
        }),
    }
}

fn names(doc: &Document) -> String {
    doc.hosts
        .iter()
        .map(|h| format!("`{}`", h.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The item type of the output `port` of `block`, as a parameter value
/// for a link block's `type`.
fn output_type(
    block: &BlockInstance,
    port: &str,
    registry: &Registry,
    at: &Connection,
) -> Result<Value, FileError> {
    let unsupported = |why: String| FileError::new(at.at.clone(), "connections", why);
    let spec = registry.get(&block.kind).map_err(|_| {
        unsupported(format!(
            "`{}` crosses hosts: only registry blocks may",
            block.name
        ))
    })?;
    let output = spec
        .outputs
        .iter()
        .find(|o| {
            // A chained connection (`a -> b`) leaves the port to the
            // builder: the block's only output.
            (port.is_empty() && spec.outputs.len() == 1)
                || o.name == port
                || (o.count.is_some() && port.starts_with(o.name))
        })
        .ok_or_else(|| unsupported(format!("`{}` has no output `{port}`", block.name)))?;
    let param = match output.item {
        PortItem::Fixed(kind) => return Ok(Value::Text(kind.name().to_string())),
        PortItem::OfType => "type",
        PortItem::OfParam(p) => p,
        PortItem::Other(what) => {
            return Err(unsupported(format!(
                "`{}.{port}` carries {what}, which cannot cross hosts",
                block.name
            )));
        }
    };
    if let Some(given) = block.param(param) {
        return Ok(given.value.clone());
    }
    spec.params
        .iter()
        .find(|p| p.name == param)
        .and_then(|p| p.default.as_ref())
        .and_then(|d| d.as_str())
        .map(|d| Value::Text(d.to_string()))
        .ok_or_else(|| unsupported(format!("`{}` gives no `{param}`", block.name)))
}

/// A parameter set at the connection's place.
fn param(name: &str, value: Value, at: &Connection) -> ParamValue {
    ParamValue {
        name: name.to_string(),
        value,
        at: at.at.clone(),
    }
}

/// A link block standing in for the far end of `at`.
fn link_block(name: String, kind: &str, params: Vec<ParamValue>, at: &Connection) -> BlockInstance {
    BlockInstance {
        name,
        kind: kind.to_string(),
        at: at.at.clone(),
        kind_at: at.at.clone(),
        params,
        options: BlockOptions::default(),
    }
}

/// The part of `doc` that host `host` runs (see the module
/// documentation).
///
/// Errors: an unknown host (the file's hosts named), a block on an
/// unknown host, a crossing connection whose item type cannot be known.
pub fn part(doc: &Document, host: &str, registry: &Registry) -> Result<Document, FileError> {
    let here = doc.hosts.iter().find(|h| h.name == host).ok_or_else(|| {
        FileError::new(
            doc.scheduler.at.clone(),
            "--host",
            format!("no host `{host}`; the file's hosts: {}", names(doc)),
        )
    })?;
    let mut out = doc.clone();
    out.blocks.clear();
    out.connections.clear();
    let mut on_host = std::collections::BTreeMap::new();
    for block in &doc.blocks {
        let h = host_of(doc, block)?;
        on_host.insert(block.name.as_str(), h);
        if h.name == here.name {
            out.blocks.push(block.clone());
        }
    }
    let own = out.blocks.len();
    // How many crossing connections have left each host so far.
    let mut leaving: std::collections::BTreeMap<&str, u16> = Default::default();
    for c in &doc.connections {
        let (Some(from), Some(to)) = (
            on_host.get(c.from.block.as_str()),
            on_host.get(c.to.block.as_str()),
        ) else {
            // Unknown blocks: the builder reports them.
            out.connections.push(c.clone());
            continue;
        };
        if from.name == to.name {
            if from.name == here.name {
                out.connections.push(c.clone());
            }
            continue;
        }
        let n = leaving.entry(from.name.as_str()).or_default();
        let port = from
            .port
            .checked_add(2 * *n)
            .filter(|&p| p < u16::MAX)
            .ok_or_else(|| {
                FileError::new(
                    from.at.clone(),
                    format!("hosts.{}.port", from.name),
                    "too many links for the ports left above it",
                )
            })?;
        let index = *n;
        *n += 1;
        if from.name != here.name && to.name != here.name {
            continue;
        }
        let address = Value::Text(format!("tcp://{}:{port}", from.address));
        let writing = from.name == here.name;
        let (name, peer) = if writing {
            (format!("link_to_{}_{index}", to.name), &to.name)
        } else {
            (format!("link_from_{}_{index}", from.name), &from.name)
        };
        let block = match c.kind {
            ConnectionKind::Stream => {
                let writer = doc.block(&c.from.block).expect("a block on a host");
                let mut params = vec![
                    param("type", output_type(writer, &c.from.port, registry, c)?, c),
                    param("address", address, c),
                    param("peer", Value::Text(peer.clone()), c),
                ];
                if let Some(on_loss) = &doc.links.on_loss {
                    params.push(param("on_loss", Value::Text(on_loss.clone()), c));
                }
                if let Some(t) = doc.links.peer_timeout {
                    params.push(param("peer_timeout", Value::Float(t.as_secs_f64()), c));
                }
                if let Some(w) = doc.links.window {
                    params.push(param("window", Value::Int(w as i64), c));
                }
                let kind = if writing {
                    "host_link_sink"
                } else {
                    "host_link_source"
                };
                link_block(name, kind, params, c)
            }
            ConnectionKind::Message => {
                let params = vec![
                    param("address", address, c),
                    param("bind", Value::Bool(writing), c),
                ];
                let kind = if writing {
                    "zmq_push_msg_sink"
                } else {
                    "zmq_pull_msg_source"
                };
                link_block(name, kind, params, c)
            }
        };
        // Every link block's ports are `in` and `out`.
        let connection = if writing {
            Connection {
                to: Endpoint::new(block.name.clone(), "in"),
                ..c.clone()
            }
        } else {
            Connection {
                from: Endpoint::new(block.name.clone(), "out"),
                ..c.clone()
            }
        };
        out.blocks.push(block);
        out.connections.push(connection);
    }
    out.hosts.clear();
    out.notices.push(format!(
        "host `{}`: {} of the {} blocks, links on ports from {}",
        here.name,
        own,
        doc.blocks.len(),
        here.port
    ));
    Ok(out)
}
