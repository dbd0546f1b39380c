//! `chain`: the GRCon'19 paper's "advanced scheduler". Partitions the graph
//! over the cores (see [`partition`](super::partition)), pins one worker
//! per core, and has each worker run its blocks round robin in topological
//! order, so a block's consumers run right after it on the chunk it just
//! produced. Edges inside a core signal with plain stores (no fences, no
//! wake-ups); only edges across cores use the full protocol. Buffers
//! default to a size that keeps a producer/consumer pair in L1.

use super::Scheduler;
use super::cache::{l2_bytes, local_ring_bytes};
use super::partition::{Node, group_by_component, nodes_of, partition};
use super::single::{LOCAL_POLL_INTERVAL, poll_until_done};
use super::thread::{RealtimePriority, ThreadSettings, start_blocking};
use crate::runner::BlockRunner;
use std::collections::HashMap;

/// The cache-aware partitioned scheduler.
#[derive(Clone, Debug, Default)]
pub struct Chain {
    cores: Option<Vec<usize>>,
    buffer_bytes: Option<usize>,
    costs: HashMap<usize, f64>,
    explain: bool,
    realtime_priority: Option<RealtimePriority>,
    unpinned: bool,
}

impl Chain {
    /// One worker per available core.
    pub fn new() -> Self {
        Self::default()
    }

    /// Uses `n` workers pinned to cores `0..n`.
    pub fn workers(mut self, n: usize) -> Self {
        self.cores = Some((0..n.max(1)).collect());
        self
    }

    /// Uses one worker per listed core, pinned to it.
    pub fn on_cores(mut self, cores: &[usize]) -> Self {
        self.cores = Some(cores.to_vec());
        self
    }

    /// Default ring size for edges (overrides the cache-derived size).
    pub fn buffer_bytes(mut self, bytes: usize) -> Self {
        self.buffer_bytes = Some(bytes);
        self
    }

    /// Per-block costs for the partitioner, by block index (e.g. `work_ns`
    /// of an earlier run's statistics). Blocks not listed cost the mean.
    pub fn costs(mut self, costs: impl IntoIterator<Item = (usize, f64)>) -> Self {
        self.costs = costs.into_iter().collect();
        self
    }

    /// Leaves workers unpinned (the OS may move them); pinned by default.
    pub fn unpinned(mut self) -> Self {
        self.unpinned = true;
        self
    }

    /// Prints the partition (blocks per core, and why) on stderr at start.
    pub fn explain(mut self, on: bool) -> Self {
        self.explain = on;
        self
    }

    /// Runs workers with a real-time `priority` (an `i32` means SCHED_FIFO) (warns and goes on if refused).
    pub fn realtime_priority(mut self, priority: impl Into<RealtimePriority>) -> Self {
        self.realtime_priority = Some(priority.into());
        self
    }

    fn core_list(&self) -> Vec<usize> {
        self.cores.clone().unwrap_or_else(|| {
            let n = std::thread::available_parallelism().map_or(1, |n| n.get());
            (0..n).collect()
        })
    }
}

impl Scheduler for Chain {
    fn name(&self) -> &str {
        "chain"
    }

    fn default_buffer_bytes(&self) -> Option<usize> {
        Some(self.buffer_bytes.unwrap_or_else(local_ring_bytes))
    }

    /// Edges inside a core get L1-sized rings (depth-first chunks stay in
    /// cache); edges that cross cores, or touch a blocking block, get half
    /// an L2 so the two sides synchronise rarely.
    fn plan_buffer_bytes(&self, blocking: &[bool], edges: &[(usize, usize)]) -> Option<Vec<usize>> {
        let local = self.default_buffer_bytes()?;
        let crossing = self
            .buffer_bytes
            .unwrap_or_else(|| (l2_bytes() / 2).max(local));
        let slot: Vec<Option<usize>> = {
            let mut next = 0;
            blocking
                .iter()
                .map(|&b| {
                    (!b).then(|| {
                        next += 1;
                        next - 1
                    })
                })
                .collect()
        };
        let mut nodes: Vec<Node> = (0..slot.iter().flatten().count())
            .map(|_| Node {
                cost: 1.0,
                ..Node::default()
            })
            .collect();
        for &(a, b) in edges {
            if let (Some(x), Some(y)) = (slot[a], slot[b]) {
                nodes[x].downstream.push(y);
            }
        }
        let part_of = partition(&nodes, self.core_list().len()).part_of(nodes.len());
        Some(
            edges
                .iter()
                .map(|&(a, b)| match (slot[a], slot[b]) {
                    (Some(x), Some(y)) if part_of[x] == part_of[y] => local,
                    _ => crossing,
                })
                .collect(),
        )
    }

    fn execute(&self, runners: Vec<BlockRunner>) -> Vec<BlockRunner> {
        let (mut local, own_threads) = start_blocking(runners);
        let cores = self.core_list();
        // Dense numbering of the non-blocking blocks for the partitioner.
        let slot_of: HashMap<usize, usize> = local
            .iter()
            .enumerate()
            .map(|(s, r)| (r.index(), s))
            .collect();
        let mean = if self.costs.is_empty() {
            1.0
        } else {
            self.costs.values().sum::<f64>() / self.costs.len() as f64
        };
        let nodes = nodes_of(&local, |b| self.costs.get(&b).copied().unwrap_or(mean));
        let plan = partition(&nodes, cores.len());
        if self.explain {
            eprint!("{}", plan.explain(&nodes, &cores));
        }
        let part_of = plan.part_of(nodes.len());
        for r in &mut local {
            let mine = part_of[slot_of[&r.index()]];
            let all_local = r.mark_same_thread_peers(|peer| {
                slot_of.get(&peer).is_some_and(|&s| part_of[s] == mine)
            });
            // Workers re-poll at least every LOCAL_POLL_INTERVAL, so blocks whose
            // peers are all local may skip the fence (see Signal).
            r.signal().set_polled_locally(all_local);
        }
        let mut by_slot: Vec<Option<BlockRunner>> = local.into_iter().map(Some).collect();
        // Per core, its blocks grouped by connected component (a branch, or
        // the piece of one), each in topological order.
        let groups: Vec<Vec<Vec<BlockRunner>>> = plan
            .parts
            .iter()
            .map(|members| {
                group_by_component(&nodes, members)
                    .into_iter()
                    .map(|g| g.into_iter().filter_map(|s| by_slot[s].take()).collect())
                    .collect()
            })
            .collect();
        let mut out: Vec<BlockRunner> = std::thread::scope(|scope| {
            let handles: Vec<_> = groups
                .into_iter()
                .zip(&cores)
                .enumerate()
                .filter(|(_, (group, _))| !group.is_empty())
                .map(|(p, (group, &core))| {
                    let settings = ThreadSettings {
                        cpus: if self.unpinned {
                            Vec::new()
                        } else {
                            vec![core]
                        },
                        realtime_priority: self.realtime_priority,
                    };
                    std::thread::Builder::new()
                        .name(format!("rfgraph-chain-{p}"))
                        .spawn_scoped(scope, move || {
                            settings.apply();
                            poll_until_done(group, Some(LOCAL_POLL_INTERVAL))
                        })
                        .expect("cannot spawn a chain worker")
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("chain workers catch block panics"))
                .collect()
        });
        out.extend(own_threads.join());
        out
    }
}
