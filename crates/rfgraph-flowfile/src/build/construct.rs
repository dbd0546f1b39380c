//! Construction: builds each checked block through its spec, adds and
//! connects them in a [`Flowgraph`], applies block options and scheduler
//! settings, validates the whole graph (unconnected ports) before it can
//! start, and gathers what `rfgraph run` reports (sinks, finite sources,
//! settable variables).

use super::expand::Flat;
use super::ports::{self, Edge, PortTable, item_bytes};
use super::{BuildOptions, Built};
use crate::model::{ConnectionKind, Document, FileError, Location};
use rfgraph::error::GraphError;
use rfgraph::scheduler::{self, Chain, Pool, Scheduler, Single, Tpb};
use rfgraph::{BlockId, Flowgraph};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// A registry block of the built graph.
#[derive(Clone, Debug)]
pub struct BuiltBlock {
    /// Instance name (`outer/inner` inside hierarchical blocks).
    pub name: String,
    /// Registry name.
    pub kind: String,
    /// Its id in the flowgraph.
    pub id: BlockId,
    /// Where it is defined.
    pub at: Location,
}

/// A connection of the built graph.
#[derive(Clone, Debug)]
pub struct BuiltEdge {
    /// `block.port` it leaves.
    pub from: String,
    /// `block.port` it enters.
    pub to: String,
    /// Stream or messages.
    pub kind: ConnectionKind,
    /// The stream item type (empty for messages).
    pub item: String,
}

/// A source that ends: a file source, or one bounded by `items`.
#[derive(Clone, Debug)]
pub struct FiniteSource {
    /// Instance name.
    pub block: String,
    /// Its id in the flowgraph.
    pub id: BlockId,
    /// How many items it will produce (estimated from the file size for
    /// file sources).
    pub total_items: u64,
}

/// A variable that may change while the graph runs, and the block
/// parameters it reaches (directly or through other variables).
#[derive(Clone, Debug)]
pub struct SettableVariable {
    /// The variable.
    pub name: String,
    /// `(block, parameter, settable)`: the parameter is a setting of the
    /// block when `settable`, else it only applies at the next build.
    pub reaches: Vec<(String, String, bool)>,
}

/// The scheduler a file asks for, with its settings.
#[derive(Clone, Debug)]
pub struct SchedulerPlan {
    /// `tpb`, `single`, `pool` or `chain`.
    pub name: String,
    /// Worker threads (pool, chain).
    pub cores: Option<usize>,
    /// The CPUs to run on, when named one by one (the Python package's
    /// `cores=[0, 1]`); overrides `cores` and `pins`: `chain` and `pool`
    /// get one worker per listed CPU (`chain`'s pinned to it), `tpb` and
    /// `single` keep every thread on these CPUs.
    pub cpus: Option<Vec<usize>>,
    /// CPU pinning per block (tpb; single takes the first block's).
    pub pins: Vec<(BlockId, Vec<usize>)>,
    /// The latency budget (`--max-latency`, else `[scheduler]
    /// max_latency`), already set on the flowgraph.
    pub max_latency: Option<std::time::Duration>,
    /// How many blocks the flowgraph has (for pinning every one).
    pub blocks: usize,
}

impl SchedulerPlan {
    /// The scheduler, configured.
    ///
    /// Errors: an unknown name (listing the known ones).
    pub fn scheduler(&self) -> Result<Box<dyn Scheduler>, String> {
        Ok(match self.name.as_str() {
            "tpb" => {
                let mut s = Tpb::new();
                match &self.cpus {
                    Some(cpus) => {
                        for id in 0..self.blocks {
                            s = s.pin(BlockId(id), cpus);
                        }
                    }
                    None => {
                        for (id, cpus) in &self.pins {
                            s = s.pin(*id, cpus);
                        }
                    }
                }
                Box::new(s)
            }
            "single" => {
                let mut s = Single::new();
                if let Some(cpus) = &self.cpus {
                    s = s.pin(cpus);
                } else if let Some((_, cpus)) = self.pins.first() {
                    s = s.pin(cpus);
                }
                Box::new(s)
            }
            "pool" => Box::new(match (&self.cpus, self.cores) {
                (Some(cpus), _) => Pool::new().workers(cpus.len()),
                (None, Some(n)) => Pool::new().workers(n),
                (None, None) => Pool::new(),
            }),
            "chain" => Box::new(match (&self.cpus, self.cores) {
                (Some(cpus), _) => Chain::new().on_cores(cpus),
                (None, Some(n)) => Chain::new().workers(n),
                (None, None) => Chain::new(),
            }),
            other => return scheduler::by_name(other),
        })
    }
}

/// Why a hierarchical block's definition (a document that exposes ports:
/// a GRC file of `generate_options: hb`, a TOML file with `[inputs]` or
/// `[outputs]`) is not run: as GNU Radio's `grcc` makes such a file a
/// block for other flowgraphs and not a program, it runs only inside one.
/// `rfgraph check` checks it.
fn hierarchical_definition(doc: &Document) -> FileError {
    let ports: Vec<&str> = doc.ports.iter().map(|p| p.name.as_str()).collect();
    let name = doc.path.file_name().map_or_else(
        || doc.path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    FileError::new(
        doc.ports[0].at.clone(),
        "ports",
        format!(
            "`{name}` defines a hierarchical block (ports {}): it does not run alone; \
             use it as a block of another flowgraph (`rfgraph check` checks it)",
            ports.join(", ")
        ),
    )
}

/// The default scheduler of flowgraph files.
pub const DEFAULT_SCHEDULER: &str = "tpb";

pub(crate) fn construct(
    doc: &Document,
    flat: Flat,
    options: &BuildOptions,
) -> Result<Built, FileError> {
    let tables: Vec<PortTable> = flat.blocks.iter().map(PortTable::of).collect();
    let edges = ports::check(&flat.blocks, &tables, &flat.conns)?;
    // A hierarchical block's definition: its exposed ports are connected
    // by whoever uses it.
    let exposed = ports::exposed_streams(&flat.blocks, &tables, &flat.exposed);
    ports::check_connected(&flat.blocks, &tables, &edges, &exposed)?;
    if !options.dry_run && !doc.ports.is_empty() {
        return Err(hierarchical_definition(doc));
    }
    let sched_name = options
        .scheduler
        .clone()
        .or_else(|| doc.scheduler.name.clone())
        .unwrap_or_else(|| DEFAULT_SCHEDULER.to_string());
    if !scheduler::SCHEDULERS.contains(&sched_name.as_str()) {
        let at = if options.scheduler.is_some() {
            Location::file(std::sync::Arc::new(PathBuf::from("--scheduler")))
        } else {
            doc.scheduler.at.clone()
        };
        return Err(FileError::new(
            at,
            "scheduler.name",
            format!(
                "unknown scheduler `{sched_name}` (known: {})",
                scheduler::SCHEDULERS.join(", ")
            ),
        )
        .suggest(rfgraph::registry::suggest::closest(
            &sched_name,
            scheduler::SCHEDULERS.iter().copied(),
        )));
    }
    let mut notices = flat.notices.clone();
    let mut fg = Flowgraph::new();
    if let Some(budget) = options.max_latency.or(doc.scheduler.max_latency) {
        fg.set_max_latency(budget);
    }
    let (setter, variable_requests) = crate::var_requests::channel();
    let mut blocks = Vec::with_capacity(flat.blocks.len());
    let mut pins = Vec::new();
    for b in &flat.blocks {
        let key = format!("blocks.{}", b.name);
        let id = if options.dry_run {
            // Every check `run` makes of the values, without building.
            // A hierarchical block's definition is checked with its
            // parameters' defaults, which GNU Radio never builds (its
            // users give the values): a refusal there is a notice.
            match b.spec.check(b.given.clone()).map_err(|e| b.error(&e)) {
                Err(e) if !doc.ports.is_empty() => notices.push(format!(
                    "{e} (with the hierarchical block's default parameters; \
                     the flowgraphs that use it give their own)"
                )),
                r => r?,
            }
            BlockId(blocks.len())
        } else {
            let block = if b.spec.name == crate::var_requests::KIND {
                // Its requests go to this graph's runner.
                crate::var_requests::spec(setter.clone()).build(b.given.clone())
            } else {
                b.spec.build(b.given.clone())
            }
            .map_err(|e| b.error(&e))?;
            fg.add_boxed(b.name.clone(), b.spec.name, block)
        };
        if let Some(cpus) = &b.options.affinity {
            match sched_name.as_str() {
                "tpb" | "single" => pins.push((id, cpus.clone())),
                other => notices.push(format!(
                    "{}: `affinity` applies under the tpb and single schedulers, not {other}; ignored",
                    b.at
                )),
            }
        }
        if b.options.blocking == Some(true) && !options.dry_run {
            fg.set_blocking(id)
                .map_err(|e| FileError::new(b.at.clone(), key.clone(), e.to_string()))?;
        }
        blocks.push(BuiltBlock {
            name: b.name.clone(),
            kind: b.spec.name.to_string(),
            id,
            at: b.at.clone(),
        });
    }
    let default_items = doc.scheduler.buffer_size;
    for (i, e) in edges.iter().enumerate() {
        if options.dry_run {
            break;
        }
        let c = &flat.conns[i];
        let (src, dst) = (blocks[e.from.0].id, blocks[e.to.0].id);
        let r = match e.kind {
            ConnectionKind::Stream => {
                let items = flat.blocks[e.from.0].options.buffer_size.or(default_items);
                match items {
                    Some(n) => fg.connect_with_buffer(
                        src,
                        &e.from.1,
                        dst,
                        &e.to.1,
                        n.saturating_mul(item_bytes(&e.item)),
                    ),
                    None => fg.connect(src, &e.from.1, dst, &e.to.1),
                }
            }
            ConnectionKind::Message => fg.connect_message(src, &e.from.1, dst, &e.to.1),
        };
        r.map_err(|g| FileError::new(c.at.clone(), c.key.clone(), g.to_string()))?;
    }
    if !options.dry_run
        && let Err(g) = rfgraph::flowgraph::validate::validate(&mut fg)
    {
        return Err(graph_error(doc, &blocks, g));
    }
    let built_edges = edges
        .iter()
        .map(|e: &Edge| BuiltEdge {
            from: format!("{}.{}", blocks[e.from.0].name, e.from.1),
            to: format!("{}.{}", blocks[e.to.0].name, e.to.1),
            kind: e.kind,
            item: e.item.clone(),
        })
        .collect();
    let sinks = flat
        .blocks
        .iter()
        .zip(&tables)
        .filter(|(_, t)| !t.inputs.is_empty() && t.outputs.is_empty())
        .map(|(b, _)| b.name.clone())
        .collect();
    let sources = finite_sources(&flat, &tables, &blocks);
    let settable = settable(doc, &flat);
    let ids: Vec<BlockId> = blocks.iter().map(|b| b.id).collect();
    let control = super::control::Controller::new(
        doc,
        flat.env.clone(),
        &options.overrides,
        &flat.blocks,
        &ids,
    );
    let variables = doc
        .variables
        .iter()
        .filter_map(|v| flat.env.get(&v.name).map(|x| (v.name.clone(), x.clone())))
        .collect();
    let probed: Vec<crate::var_probes::ProbedBlock<'_>> = flat
        .blocks
        .iter()
        .zip(&ids)
        .map(|(b, id)| crate::var_probes::ProbedBlock {
            name: &b.name,
            id: *id,
            params: &b.spec.params,
        })
        .collect();
    let variable_probes = crate::var_probes::VariableProbes::resolve(
        doc,
        &flat.env,
        (!options.dry_run).then_some(&fg),
        &probed,
        &mut notices,
    )?;
    let block_count = fg.len();
    Ok(Built {
        flowgraph: fg,
        scheduler: SchedulerPlan {
            name: sched_name,
            cores: options.cores.or(doc.scheduler.cores),
            cpus: None,
            pins,
            blocks: block_count,
            max_latency: options.max_latency.or(doc.scheduler.max_latency),
        },
        blocks,
        edges: built_edges,
        sinks,
        sources,
        settable,
        control,
        variable_requests,
        variable_probes,
        variables,
        title: doc.title.clone(),
        notices,
        exposed: flat
            .exposed
            .iter()
            .map(|p| {
                let (dir, arrow) = match p.direction {
                    crate::model::PortDirection::Input => ("input", "->"),
                    crate::model::PortDirection::Output => ("output", "<-"),
                };
                let kind = match p.kind {
                    ConnectionKind::Stream => "stream",
                    ConnectionKind::Message => "message",
                };
                let port = if p.inner.port.is_empty() {
                    p.inner.block.clone()
                } else {
                    format!("{}.{}", p.inner.block, p.inner.port)
                };
                format!("{kind} {dir} {} {arrow} {port}", p.name)
            })
            .collect(),
    })
}

fn graph_error(doc: &Document, blocks: &[super::BuiltBlock], g: GraphError) -> FileError {
    let block = match &g {
        GraphError::Unconnected { block, .. }
        | GraphError::UnknownPort { block, .. }
        | GraphError::InputAlreadyConnected { block, .. } => Some(block.clone()),
        _ => None,
    };
    match block.and_then(|n| blocks.iter().find(|b| b.name == n)) {
        Some(b) => FileError::new(b.at.clone(), format!("blocks.{}", b.name), g.to_string()),
        None => FileError::new(Location::file(doc.path.clone()), "", g.to_string()),
    }
}

fn finite_sources(
    flat: &Flat,
    tables: &[PortTable],
    blocks: &[super::BuiltBlock],
) -> Vec<FiniteSource> {
    let mut out = Vec::new();
    for ((b, t), built) in flat.blocks.iter().zip(tables).zip(blocks) {
        if !t.inputs.is_empty() || t.outputs.is_empty() {
            continue;
        }
        let total = if let Some(n) = b.given.get("items").and_then(|p| p.as_f64()) {
            Some(n as u64)
        } else if let Some(rfgraph::Pmt::String(path)) = b.given.get("path") {
            let (data, stored) = match path.strip_suffix(".sigmf-meta") {
                Some(stem) => (format!("{stem}.sigmf-data"), sigmf_datatype(path)),
                None => {
                    let format = match b.given.get("format") {
                        Some(rfgraph::Pmt::String(f)) => Some(f.clone()),
                        _ => None,
                    };
                    (path.clone(), format)
                }
            };
            let per = stored
                .as_deref()
                .and_then(datatype_bytes)
                .unwrap_or_else(|| item_bytes(&t.outputs[0].1));
            std::fs::metadata(&data).ok().map(|m| m.len() / per as u64)
        } else {
            None
        };
        if let Some(total_items) = total.filter(|&n| n > 0) {
            out.push(FiniteSource {
                block: b.name.clone(),
                id: built.id,
                total_items,
            });
        }
    }
    out
}

/// The `core:datatype` of a SigMF metadata file.
fn sigmf_datatype(meta: &str) -> Option<String> {
    let text = std::fs::read_to_string(meta).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json.get("global")?
        .get("core:datatype")?
        .as_str()
        .map(str::to_string)
}

/// Bytes per sample of a SigMF datatype or raw format name (`cu8`: 2,
/// `ci16_le`: 4, `cf32`: 8, `f32`: 4).
fn datatype_bytes(name: &str) -> Option<usize> {
    let name = name.trim().to_ascii_lowercase();
    let base = name.split('_').next()?;
    let (complex, scalar) = match (base.strip_prefix('c'), base.strip_prefix('r')) {
        (Some(rest), _) => (true, rest),
        (_, Some(rest)) => (false, rest),
        _ => (false, base),
    };
    let bits: usize = scalar.get(1..)?.parse().ok()?;
    if !matches!(scalar.as_bytes().first(), Some(b'u' | b'i' | b'f' | b's'))
        || !bits.is_multiple_of(8)
    {
        return None;
    }
    Some(bits / 8 * if complex { 2 } else { 1 })
}

fn settable(doc: &Document, flat: &Flat) -> Vec<SettableVariable> {
    // Which variables each variable reads, transitively.
    let direct: BTreeMap<&str, Vec<String>> = doc
        .variables
        .iter()
        .map(|v| (v.name.as_str(), super::vars::names_of(&v.value)))
        .collect();
    let mut out = Vec::new();
    for v in doc.variables.iter().filter(|v| v.settable) {
        // Every variable that depends on v, v included.
        let mut affected: BTreeSet<&str> = BTreeSet::from([v.name.as_str()]);
        loop {
            let before = affected.len();
            for (name, reads) in &direct {
                if reads.iter().any(|r| affected.contains(r.as_str())) {
                    affected.insert(name);
                }
            }
            if affected.len() == before {
                break;
            }
        }
        let mut reaches = Vec::new();
        for b in flat.blocks.iter().filter(|b| !b.name.contains('/')) {
            for (param, reads) in &b.reads {
                if reads.iter().any(|r| affected.contains(r.as_str())) {
                    let settable = b.spec.param_spec(param).is_some_and(|p| p.settable);
                    reaches.push((b.name.clone(), param.clone(), settable));
                }
            }
        }
        out.push(SettableVariable {
            name: v.name.clone(),
            reaches,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::datatype_bytes;

    #[test]
    fn sample_sizes_of_sigmf_and_raw_names() {
        for (name, bytes) in [
            ("cu8", Some(2)),
            ("ci16_le", Some(4)),
            ("cf32_le", Some(8)),
            ("rf32_be", Some(4)),
            ("ri8", Some(1)),
            ("f32", Some(4)),
            ("i16", Some(2)),
            ("cf64", Some(16)),
            ("wav", None),
            ("", None),
        ] {
            assert_eq!(datatype_bytes(name), bytes, "{name}");
        }
    }
}
