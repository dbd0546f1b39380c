//! Turns a validated [`Flowgraph`] into runnable parts: one ring buffer per
//! connected output, message targets, message groups, signals, statistics
//! cells and one [`BlockRunner`] per block. Runs once, before `init`.

use super::Flowgraph;
use super::in_place;
use super::stall::{StallWatch, WatchedBlock, WatchedInput, WatchedOutput};
use crate::buffer::circular::CircularBuffer;
use crate::buffer::{EdgeBuffer, EdgeHandle, EdgeSpec, ReaderHandle, downcast_edge};
use crate::control::RunControl;
use crate::error::GraphError;
use crate::message::{Inbox, MessageGroup};
use crate::port::InPlaceGrant;
use crate::port::message::MessageTarget;
use crate::runner::{BlockRunner, InputEdge, OutputEdge};
use crate::signal::{Signal, Waker};
use crate::stats::StatsCell;
use std::collections::BTreeSet;
use std::sync::Arc;

/// What the handle needs to address a block from outside.
pub(crate) struct HandleEntry {
    pub(crate) name: String,
    pub(crate) inbox: Arc<Inbox>,
    pub(crate) message_inputs: Vec<&'static str>,
    /// The block's parameter declarations (empty without any).
    pub(crate) params: Vec<crate::params::ParamSpec>,
    /// The names of the block's readings (`Block::readings`).
    pub(crate) readings: &'static [&'static str],
    pub(crate) stats: Arc<StatsCell>,
}

/// The runnable form of a flowgraph.
pub(crate) struct Parts {
    pub(crate) runners: Vec<BlockRunner>,
    /// The graph's shape, and each stream edge's ring and reader (in
    /// the order of `topology.streams`).
    pub(crate) topology: super::topology::Topology,
    pub(crate) live_edges: Vec<super::topology::LiveEdge>,
    pub(crate) control: Arc<RunControl>,
    pub(crate) entries: Vec<HandleEntry>,
    pub(crate) watch: StallWatch,
    /// The caps the latency budget set (timers are added at the end).
    pub(crate) latency: super::latency::LatencyReport,
}

fn find(parent: &mut [usize], x: usize) -> usize {
    let mut root = x;
    while parent[root] != root {
        root = parent[root];
    }
    let mut x = x;
    while parent[x] != root {
        let next = parent[x];
        parent[x] = root;
        x = next;
    }
    root
}

/// What sizes one output's ring from below: its item size, its writer's
/// `min_items` and the largest `min_items` of its readers.
struct EdgeMinimums {
    item_size: usize,
    writer: usize,
    reader: usize,
}

impl EdgeMinimums {
    /// Those of output `src_port` of `src`, read by `edges`.
    fn of(fg: &mut Flowgraph, src: usize, src_port: usize, edges: &[usize]) -> Self {
        let (writer, item_size) = {
            let ports = fg.blocks[src].block.ports();
            let port = &ports.outputs[src_port];
            (port.min_items(), port.item_type().size().max(1))
        };
        let reader = edges
            .iter()
            .map(|&i| {
                let (dst, dst_port) = (fg.streams[i].dst, fg.streams[i].dst_port);
                fg.blocks[dst].block.ports().inputs[dst_port].min_items()
            })
            .max()
            .unwrap_or(1);
        Self {
            item_size,
            writer,
            reader,
        }
    }

    /// The fewest items the ring may hold so that the writer and each
    /// reader reach their minimum chunks at the same time: a writer
    /// waiting for `w` free items and a reader waiting for `r` items can
    /// both stall only while `capacity < w + r - 1`.
    fn floor(&self) -> usize {
        self.writer + self.reader
    }
}

/// Builds the runnable parts. The flowgraph must be valid.
pub(crate) fn build(mut fg: Flowgraph) -> Result<Parts, GraphError> {
    let n = fg.blocks.len();
    let block_infos = super::topology::blocks(&mut fg);
    let message_infos = super::topology::message_edges(&fg, &block_infos);
    let mut stream_infos = Vec::new();
    let mut live_edges = Vec::new();
    let signals: Vec<Arc<Signal>> = (0..n).map(|_| Signal::new()).collect();
    let inboxes: Vec<Arc<Inbox>> = signals.iter().map(|s| Inbox::new(s.clone())).collect();
    let mut inputs: Vec<Vec<(usize, InputEdge)>> = (0..n).map(|_| Vec::new()).collect();
    let mut outputs: Vec<Vec<OutputEdge>> = (0..n).map(|_| Vec::new()).collect();
    let mut watched_inputs: Vec<Vec<WatchedInput>> = (0..n).map(|_| Vec::new()).collect();
    let mut watched_outputs: Vec<Vec<WatchedOutput>> = (0..n).map(|_| Vec::new()).collect();

    // Stream edges: one buffer per connected output, readers in edge order.
    let mut by_output: Vec<((usize, usize), Vec<usize>)> = Vec::new();
    for (i, e) in fg.streams.iter().enumerate() {
        match by_output
            .iter_mut()
            .find(|(key, _)| *key == (e.src, e.src_port))
        {
            Some((_, edges)) => edges.push(i),
            None => by_output.push(((e.src, e.src_port), vec![i])),
        }
    }
    // The user's size for each edge, else the scheduler's plan, else the
    // flowgraph default; readers of one output share the largest. A ring
    // reused in place serves its whole chain, so it takes the chain's
    // largest size.
    let reuses = in_place::plan(&mut fg, &by_output);
    let minimums: Vec<EdgeMinimums> = by_output
        .iter()
        .map(|((src, src_port), edges)| EdgeMinimums::of(&mut fg, *src, *src_port, edges))
        .collect();
    let mut sizes: Vec<usize> = by_output
        .iter()
        .zip(&minimums)
        .map(|((_, edges), minimums)| {
            edges
                .iter()
                .filter_map(|&i| fg.streams[i].min_bytes)
                .max()
                .or_else(|| {
                    edges
                        .iter()
                        .filter_map(|&i| fg.streams[i].planned_bytes)
                        .max()
                })
                .unwrap_or(fg.buffer_bytes)
                .max(minimums.floor() * minimums.item_size)
        })
        .collect();
    // A ring reused in place holds, at once, the room its first writer
    // needs and the remainder every hop down the chain keeps short of its
    // minimum (in-place blocks working on fixed groups, then a decimator).
    // Each edge's floor covers only its own writer and readers, so the
    // ring also takes its first writer's minimum plus, for each edge of
    // the chain, the most its reader can leave unread (an in-place hop
    // also waits for its own output's minimum). Without it that writer
    // waited for ever for room the remainders held (found by reviews: an
    // interpolator writing 1000 at a time, then in-place hops taking 999
    // and 998, then a sink taking 997, on 4 KiB rings).
    let mut kept = vec![0usize; by_output.len()];
    for h in 0..by_output.len() {
        let root = in_place::owner(&reuses, h);
        let child = reuses.iter().position(|&r| r == Some(h));
        if root == h && child.is_none() {
            continue;
        }
        let stall = child.map_or(minimums[h].reader, |c| {
            minimums[h].reader.max(minimums[c].writer)
        });
        kept[root] += stall - 1;
    }
    for root in 0..by_output.len() {
        if kept[root] > 0 {
            let need = minimums[root].writer + kept[root];
            sizes[root] = sizes[root].max(need * minimums[root].item_size);
        }
    }
    // Blocks on an in-place chain touch one buffer per call, not two, so
    // they move larger chunks; the chain's ring must hold one.
    let chunk_bytes = in_place::chunk_bytes(&reuses, fg.chunk_bytes);
    for g in 0..by_output.len() {
        if let (Some(bytes), Some(_)) = (chunk_bytes[g], reuses[g]) {
            sizes[g] = sizes[g].max(bytes);
        }
        let root = in_place::owner(&reuses, g);
        sizes[root] = sizes[root].max(sizes[g]);
    }
    // The latency budget's caps: never below what the edge's blocks need
    // to move, and for a ring reused in place, what its chain keeps.
    let floors: Vec<usize> = (0..by_output.len())
        .map(|g| {
            let chain = (kept[g] > 0).then(|| minimums[g].writer + kept[g]);
            minimums[g].floor().max(chain.unwrap_or(0))
        })
        .collect();
    let (fills, mut latency) = super::budget::plan(&mut fg, &by_output, &reuses, &floors);
    let depths = in_place::depths(&reuses);
    let mut order: Vec<usize> = (0..by_output.len()).collect();
    order.sort_by_key(|&g| depths[g]);
    let mut built: Vec<Option<Arc<dyn EdgeBuffer>>> = vec![None; by_output.len()];
    for g in order {
        let ((src, src_port), edges) = &by_output[g];
        let (src, src_port, edges) = (*src, *src_port, edges.clone());
        let min_bytes = sizes[g];
        let src_name = fg.blocks[src].name.clone();
        // The ring this output reuses in place, when it is host memory.
        let base = reuses[g]
            .and_then(|h| built[h].clone())
            .and_then(downcast_edge::<CircularBuffer>);
        let edge: Arc<dyn EdgeBuffer> = {
            let mut ports = fg.blocks[src].block.ports();
            let port = &mut ports.outputs[src_port];
            let spec = EdgeSpec {
                item_size: port.item_type().size(),
                min_bytes,
                writer_signal: signals[src].clone(),
                reader_signals: edges
                    .iter()
                    .map(|&i| signals[fg.streams[i].dst].clone())
                    .collect(),
            };
            let edge: Arc<dyn EdgeBuffer> = match &base {
                // Reader 0: the plan only reuses edges with one reader.
                Some(base) => CircularBuffer::in_place_of(base, 0, spec),
                None => port.create_edge(spec).map_err(|e| match e {
                    GraphError::Buffer { port, cause, .. } => GraphError::Buffer {
                        block: src_name.clone(),
                        port,
                        cause,
                    },
                    other => other,
                })?,
            };
            port.attach(edge.clone())
                .map_err(|cause| GraphError::Attach {
                    block: src_name.clone(),
                    port: port.name().to_string(),
                    cause,
                })?;
            if base.is_some() {
                port.grant_in_place(InPlaceGrant::new(edge.clone(), 0));
            }
            edge
        };
        if let Some(base) = base {
            let input = fg.blocks[src].block.ports().outputs[src_port].in_place_of();
            if let Some(input) = input {
                // Reader 0: the plan only reuses edges with one reader.
                fg.blocks[src].block.ports().inputs[input]
                    .grant_in_place(InPlaceGrant::new(base, 0));
            }
        }
        built[g] = Some(edge.clone());
        // Host rings only: device kinds choose their own transfer sizes.
        let host = downcast_edge::<CircularBuffer>(edge.clone()).is_some();
        if let (Some(bytes), true) = (chunk_bytes[g], host) {
            let minimums = &minimums[g];
            edge.limit_chunk((bytes / minimums.item_size).max(minimums.floor()));
        }
        if let Some(fill) = fills[g] {
            // The fill also caps the batch: no reader sees more than its
            // writer may have ahead of it.
            edge.limit_fill(fill);
            let words = edge.control_words();
            if words.fill_items() < words.capacity() {
                let port = fg.blocks[src].block.ports().outputs[src_port]
                    .name()
                    .to_string();
                latency.edges.push(super::latency::EdgeCap {
                    writer: src_name.clone(),
                    port,
                    capacity: words.capacity(),
                    fill: words.fill_items(),
                    batch: words.chunk_items().min(words.fill_items()),
                });
            }
        }
        let frees_space_of = reuses[g].map(|_| by_output[in_place::owner(&reuses, g)].0.0);
        let (writer_min_items, src_port_name) = {
            let ports = fg.blocks[src].block.ports();
            let port = &ports.outputs[src_port];
            (port.min_items() as u64, port.name().to_string())
        };
        watched_outputs[src].push(WatchedOutput {
            port: src_port_name,
            edge: edge.clone(),
            min_items: writer_min_items,
            readers: edges.iter().map(|&i| fg.streams[i].dst).collect(),
        });
        outputs[src].push(OutputEdge {
            edge: EdgeHandle::new(edge.clone()),
            last: 0,
            readers: edges.iter().map(|&i| fg.streams[i].dst).collect(),
            min_items: writer_min_items,
        });
        for (reader, &i) in edges.iter().enumerate() {
            let (dst, dst_port) = (fg.streams[i].dst, fg.streams[i].dst_port);
            let dst_name = fg.blocks[dst].name.clone();
            let mut ports = fg.blocks[dst].block.ports();
            let port = &mut ports.inputs[dst_port];
            let min_items = port.min_items() as u64;
            watched_inputs[dst].push(WatchedInput {
                port: port.name().to_string(),
                edge: edge.clone(),
                reader,
                min_items,
                writer: src,
            });
            stream_infos.push(super::topology::StreamEdgeInfo {
                edge: super::topology::EdgeInfo {
                    writer: src,
                    output: block_infos[src].outputs[src_port].name.clone(),
                    reader: dst,
                    input: port.name().to_string(),
                },
                capacity: edge.capacity(),
            });
            live_edges.push(super::topology::LiveEdge {
                ring: edge.clone(),
                reader,
            });
            port.attach(edge.clone(), reader)
                .map_err(|cause| GraphError::Attach {
                    block: dst_name,
                    port: port.name().to_string(),
                    cause,
                })?;
            inputs[dst].push((
                dst_port,
                InputEdge {
                    edge: ReaderHandle::new(edge.clone(), reader),
                    reader,
                    last: 0,
                    writer: src,
                    writer_done: false,
                    frees_space_of,
                    min_items,
                },
            ));
        }
    }

    // Message edges.
    let mut targets: Vec<Vec<Vec<MessageTarget>>> = fg
        .blocks
        .iter_mut()
        .map(|b| vec![Vec::new(); b.block.ports().message_outputs.len()])
        .collect();
    for e in &fg.messages {
        targets[e.src][e.src_port].push(MessageTarget {
            inbox: inboxes[e.dst].clone(),
            port: e.dst_port,
        });
    }
    for (entry, block_targets) in fg.blocks.iter_mut().zip(targets) {
        let mut ports = entry.block.ports();
        for (port, t) in ports.message_outputs.iter_mut().zip(block_targets) {
            port.set_targets(t);
        }
    }

    // Message groups: message-driven blocks joined by message edges.
    let message_inputs: Vec<super::MessageInputs> = fg
        .blocks
        .iter_mut()
        .map(|b| super::message_inputs(b.block.as_mut()))
        .collect();
    let driven: Vec<bool> = (0..n)
        .map(|b| inputs[b].is_empty() && !message_inputs[b].names.is_empty())
        .collect();
    let mut parent: Vec<usize> = (0..n).collect();
    for e in &fg.messages {
        if driven[e.src] && driven[e.dst] {
            let (a, b) = (find(&mut parent, e.src), find(&mut parent, e.dst));
            parent[a] = b;
        }
    }
    let mut roots_of_group: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
    for e in &fg.messages {
        if driven[e.dst] && !driven[e.src] {
            let g = find(&mut parent, e.dst);
            roots_of_group[g].insert(e.src);
        }
    }
    let mut groups: Vec<Option<Arc<MessageGroup>>> = vec![None; n];
    let mut rootless = Vec::new();
    for b in 0..n {
        if driven[b] && find(&mut parent, b) == b {
            let roots = roots_of_group[b].len();
            let group = MessageGroup::new(roots.max(1));
            if roots == 0 {
                rootless.push(group.clone());
            }
            groups[b] = Some(group);
        }
    }
    let group_of: Vec<Option<Arc<MessageGroup>>> = (0..n)
        .map(|b| {
            driven[b]
                .then(|| groups[find(&mut parent, b)].clone())
                .flatten()
        })
        .collect();
    for (root_block, group) in groups.iter().enumerate() {
        if let Some(g) = group {
            let members = (0..n)
                .filter(|&b| driven[b] && find(&mut parent, b) == root_block)
                .map(|b| signals[b].clone())
                .collect();
            g.set_members(members);
        }
    }

    let feeders = driven.iter().filter(|d| !**d).count();
    let control = RunControl::new(signals.clone(), feeders, rootless);
    let mut runners = Vec::with_capacity(n);
    let mut entries = Vec::with_capacity(n);
    let mut watched = Vec::with_capacity(n);
    for (b, mut entry) in fg.blocks.into_iter().enumerate() {
        entry.block.attach_waker(Waker::new(signals[b].clone()));
        let stats = Arc::new(
            StatsCell::new(entry.name.clone(), entry.type_name.clone(), entry.transfer)
                .with_counters(entry.block.counters()),
        );
        let mut ins = std::mem::take(&mut inputs[b]);
        ins.sort_by_key(|(port, _)| *port);
        let params = entry
            .block
            .params()
            .map(|p| p.describe())
            .unwrap_or_default();
        let readings = entry.block.readings();
        let blocking = entry.is_blocking();
        let mut runner = BlockRunner::new(
            b,
            entry.block,
            blocking,
            ins.into_iter().map(|(_, e)| e).collect(),
            std::mem::take(&mut outputs[b]),
            &message_inputs[b],
            inboxes[b].clone(),
            signals[b].clone(),
            control.clone(),
            stats.clone(),
        );
        runner.timer_budget = fg.max_latency;
        if let Some(g) = &group_of[b] {
            inboxes[b].join_group(g.clone());
            // Edges between driven blocks stay inside one group.
            let posts = fg.messages.iter().any(|e| e.src == b && driven[e.dst]);
            runner.join_group(g.clone(), posts);
        } else {
            let mut fed = BTreeSet::new();
            for e in fg.messages.iter().filter(|e| e.src == b && driven[e.dst]) {
                fed.insert(find(&mut parent, e.dst));
            }
            runner.feeds = fed.into_iter().filter_map(|g| groups[g].clone()).collect();
        }
        watched.push(WatchedBlock {
            name: entry.name.clone(),
            signal: signals[b].clone(),
            inbox: inboxes[b].clone(),
            stats: stats.clone(),
            inputs: std::mem::take(&mut watched_inputs[b]),
            outputs: std::mem::take(&mut watched_outputs[b]),
            message_writers: fg
                .messages
                .iter()
                .filter(|e| e.dst == b)
                .map(|e| e.src)
                .collect(),
        });
        entries.push(HandleEntry {
            name: entry.name,
            inbox: inboxes[b].clone(),
            message_inputs: message_inputs[b].names.clone(),
            params,
            readings,
            stats,
        });
        runners.push(runner);
    }
    Ok(Parts {
        runners,
        topology: super::topology::Topology {
            blocks: block_infos,
            streams: stream_infos,
            messages: message_infos,
        },
        live_edges,
        control,
        entries,
        watch: StallWatch { blocks: watched },
        latency,
    })
}
