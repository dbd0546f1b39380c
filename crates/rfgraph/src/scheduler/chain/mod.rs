//! `chain`: the GRCon'19 paper's "advanced scheduler". Partitions the graph
//! over the cores (see [`partition`](super::partition)), pins one worker
//! per core, and has each worker run its blocks round robin in topological
//! order, so a block's consumers run right after it on the chunk it just
//! produced. Edges inside a core signal with plain stores (no fences, no
//! wake-ups); only edges across cores use the full protocol. Buffers
//! default to a size that keeps a producer/consumer pair in L1. After a
//! short calibration window the partition is refined from measured time
//! in `work` (see [`refine`](super::refine)). A run of stateless in-place
//! blocks that the partition cuts between cores runs data-parallel on
//! those cores instead (see `segment`); such runs keep their partition.

use super::cache::{l2_bytes, local_ring_bytes, segment_ring_bytes};
use super::partition::{Node, Partition, nodes_of, partition};
use super::placement::{Placement as Placed, PlacementView, Worker as PlacedWorker};
use super::refine::{Refine, WorkerWaker, with_costs};
use super::segment;
use super::thread::{
    RealtimePriority, ThreadSettings, fail_worker_start, start_blocking, workers_refused,
};
use super::{GraphShape, Scheduler};
use crate::error::RunError;
use crate::runner::BlockRunner;
use run::{Calibrated, ChainRun, Job, collect};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::Thread;
use workers::Worker;

mod run;
mod workers;

/// The cache-aware partitioned scheduler.
#[derive(Clone, Debug, Default)]
pub struct Chain {
    cores: Option<Vec<usize>>,
    buffer_bytes: Option<usize>,
    costs: HashMap<usize, f64>,
    /// Costs the refinement uses instead of the time it measures.
    refine_costs: HashMap<usize, f64>,
    explain: bool,
    realtime_priority: Option<RealtimePriority>,
    timer_slack: Option<std::time::Duration>,
    unpinned: bool,
    /// `None`: keep the first partition.
    refine: Option<Refine>,
    static_partition: bool,
    /// Never run segments of stateless blocks data-parallel.
    no_data_parallel: bool,
    /// Partitions of past runs (block indices per core), shared by clones.
    history: Arc<Mutex<Vec<Vec<Vec<usize>>>>>,
    /// Segments of past runs that ran data-parallel, shared by clones.
    segment_history: Arc<Mutex<Vec<Vec<usize>>>>,
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

    /// Uses one worker per listed core, pinned to it. An empty list fails
    /// the run.
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

    /// Refines the partition with `refine`'s timing instead of the
    /// default (see [`Refine`]).
    pub fn refine(mut self, refine: Refine) -> Self {
        self.refine = Some(refine);
        self.static_partition = false;
        self
    }

    /// Makes the refinement act on these per-block costs (block index →
    /// cost; unlisted blocks cost 1) instead of the time it measures: it
    /// still runs the first partition for the warm-up and the window,
    /// then moves blocks mid-run, but its decision no longer depends on
    /// how a loaded machine timed them. For reproducing a refinement, and
    /// for tests of the migration itself.
    pub fn refine_with_costs(mut self, costs: impl IntoIterator<Item = (usize, f64)>) -> Self {
        self.refine_costs = costs.into_iter().collect();
        self.static_partition = false;
        self
    }

    /// Keeps the first partition for the whole run (no refinement from
    /// measured costs).
    pub fn static_partition(mut self) -> Self {
        self.static_partition = true;
        self
    }

    /// The partitions this scheduler (and its clones) used, oldest first:
    /// per run, the first partition and, when refinement changed it, the
    /// refined one; each lists the block indices per worker.
    pub fn partitions(&self) -> Vec<Vec<Vec<usize>>> {
        self.history
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Whether a run of stateless in-place blocks (see
    /// [`Block::parallel_in_place`](crate::Block::parallel_in_place)) that
    /// the partition spreads over several cores runs data-parallel on
    /// those cores, each taking whole chunks through the run (on by
    /// default). Runs with such segments keep their first partition.
    pub fn data_parallel(mut self, on: bool) -> Self {
        self.no_data_parallel = !on;
        self
    }

    /// The segments this scheduler (and its clones) ran data-parallel,
    /// oldest first: the block indices of each, in stream order.
    pub fn parallel_segments(&self) -> Vec<Vec<usize>> {
        self.segment_history
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
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

    /// The timer slack of every worker thread (default
    /// [`DEFAULT_TIMER_SLACK`](super::thread::DEFAULT_TIMER_SLACK)).
    pub fn timer_slack(mut self, slack: std::time::Duration) -> Self {
        self.timer_slack = Some(slack);
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
    /// an L2 so the two sides synchronise rarely. An edge across cores
    /// between two stateless blocks will be the ring of a data-parallel
    /// segment, which gets three quarters of an L2 (see
    /// [`segment_ring_bytes`]). The plan is a forecast: it partitions with
    /// equal costs, and a segment also needs in-place edges, one reader per
    /// edge and no message ports, so a few edges get the larger ring and
    /// run as ordinary edges (or the other way round); only speed differs.
    fn plan_buffer_bytes(&self, shape: &GraphShape) -> Option<Vec<usize>> {
        let local = self.default_buffer_bytes()?;
        let crossing = self
            .buffer_bytes
            .unwrap_or_else(|| (l2_bytes() / 2).max(local));
        let shared = match self.buffer_bytes {
            Some(bytes) => bytes,
            None if self.no_data_parallel || shape.paced => crossing,
            None => segment_ring_bytes().max(local),
        };
        let slot: Vec<Option<usize>> = {
            let mut next = 0;
            shape
                .blocking
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
        for &(a, b) in &shape.edges {
            if let (Some(x), Some(y)) = (slot[a], slot[b]) {
                nodes[x].downstream.push(y);
            }
        }
        let part_of = partition(&nodes, self.core_list().len()).part_of(nodes.len());
        let stateless = |b: usize| shape.stateless.get(b).copied().unwrap_or(false);
        Some(
            shape
                .edges
                .iter()
                .map(|&(a, b)| match (slot[a], slot[b]) {
                    (Some(x), Some(y)) if part_of[x] == part_of[y] => local,
                    (Some(_), Some(_)) if stateless(a) && stateless(b) => shared,
                    _ => crossing,
                })
                .collect(),
        )
    }

    /// The latest partition of this run (one worker per core; blocking
    /// blocks on threads of their own) and its data-parallel segments.
    /// The view reads the partitions this run records, so a run that
    /// shares its scheduler's history with a concurrent one (a clone
    /// started at the same time) may show the other's.
    fn placement(&self, runners: &[BlockRunner]) -> Option<PlacementView> {
        let history = self.history.clone();
        let segments = self.segment_history.clone();
        let (from, from_segments) = (
            history.lock().unwrap_or_else(|e| e.into_inner()).len(),
            segments.lock().unwrap_or_else(|e| e.into_inner()).len(),
        );
        let cores = self.core_list();
        let unpinned = self.unpinned;
        let blocks = runners.len();
        Some(PlacementView::new(move || {
            let parts = history
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(from..)
                .and_then(|h| h.last().cloned())
                .unwrap_or_default();
            let workers = parts
                .into_iter()
                .enumerate()
                .map(|(p, blocks)| PlacedWorker {
                    core: cores.get(p).copied().filter(|_| !unpinned),
                    blocks,
                })
                .collect();
            let parallel_segments = segments
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(from_segments..)
                .map(<[_]>::to_vec)
                .unwrap_or_default();
            Placed {
                workers,
                parallel_segments,
            }
            .complete(blocks)
        }))
    }

    fn execute(&self, runners: Vec<BlockRunner>) -> Vec<BlockRunner> {
        let cores = self.core_list();
        if cores.is_empty() {
            // `on_cores(&[])`: fail the run rather than run nothing and
            // report success.
            if let Some(r) = runners.first() {
                r.control.fail(RunError::Scheduler(
                    "`chain` was given no cores to run on".to_string(),
                ));
            }
            return runners;
        }
        // A paced graph's load is the clock's: it is measured first and
        // spread over cores only if one cannot keep up (see `calibrate`),
        // so no segment is formed up front.
        let paced = runners.iter().any(|r| r.block.paced_rate().is_some());
        let (local, own_threads) = start_blocking(runners);
        let mean = if self.costs.is_empty() {
            1.0
        } else {
            self.costs.values().sum::<f64>() / self.costs.len() as f64
        };
        let nodes = nodes_of(&local, |b| self.costs.get(&b).copied().unwrap_or(mean));
        let plan = partition(&nodes, cores.len());
        let segments = if self.no_data_parallel || paced {
            Vec::new()
        } else {
            segment::find(&local, &plan.part_of(nodes.len()))
        };
        if self.explain {
            eprint!("{}", plan.explain(&nodes, &cores));
        }
        // One core leaves nothing to refine.
        let refine =
            (!self.static_partition && cores.len() > 1).then(|| self.refine.unwrap_or_default());
        let mut run = ChainRun::new(&local, nodes, cores, own_threads.frees_space_of());
        if !self.refine_costs.is_empty() {
            run.injected_costs = Some(
                run.index_of
                    .iter()
                    .map(|b| self.refine_costs.get(b).copied().unwrap_or(1.0))
                    .collect(),
            );
        }
        self.record(&run, &plan);
        let pause = AtomicBool::new(false);
        let mut out: Vec<BlockRunner> = std::thread::scope(|scope| {
            let (done_tx, done_rx) = channel();
            let settings = |core: usize| ThreadSettings {
                cpus: if self.unpinned {
                    Vec::new()
                } else {
                    vec![core]
                },
                realtime_priority: self.realtime_priority,
                timer_slack: self.timer_slack,
            };
            let refused = workers_refused(local.iter().map(|r| r.name()));
            let started: std::io::Result<Vec<(Sender<Job>, Thread)>> = run
                .cores
                .iter()
                .enumerate()
                .map(|(p, &core)| {
                    let worker = Worker {
                        index: p,
                        settings: settings(core),
                        pause: &pause,
                        done: done_tx.clone(),
                    };
                    worker.spawn(scope, refused)
                })
                .collect();
            let (jobs, threads): (Vec<Sender<Job>>, Vec<Thread>) = match started {
                Ok(started) => started.into_iter().unzip(),
                Err(e) => {
                    // The workers that started leave when their job
                    // channels drop; no block ran yet.
                    let control = local.first().map(|r| r.control.clone());
                    fail_worker_start(control.as_deref(), "rfgraph-chain", &e);
                    let mut local = local;
                    local.iter_mut().for_each(BlockRunner::finish);
                    return local;
                }
            };
            let threads: Arc<[Thread]> = threads.into();
            let part_of = plan.part_of(run.nodes.len());
            let local = run.start_segments(local, &segments, &part_of, &threads);
            self.segment_history
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend(
                    run.segments
                        .iter()
                        .map(|p| p.segment.block_indices().to_vec()),
                );
            if self.explain {
                eprint!("{}", run.explain_segments());
            }
            run.wakers = part_of
                .iter()
                .map(|&p| WorkerWaker::new(threads.clone(), p))
                .collect();
            for runner in &local {
                let slot = run.slot_of[&runner.index()];
                runner.signal().set_waker(run.wakers[slot].clone());
            }
            let mut runners = local;
            let mut current = plan;
            // Segments balance themselves, and lanes cannot pause.
            let mut phase_refine = refine.filter(|_| run.segments.is_empty());
            loop {
                run.dispatch(runners, &current, &jobs);
                let Some(r) = phase_refine.take() else {
                    runners = collect(&done_rx, jobs.len());
                    break;
                };
                match run.calibrate(&r, &current, &done_rx, &pause, &threads) {
                    Calibrated::Finished(all) => {
                        runners = all;
                        break;
                    }
                    Calibrated::Keep(returned) => {
                        runners = returned;
                        runners.extend(collect(&done_rx, jobs.len() - run.reported));
                        break;
                    }
                    Calibrated::Move(returned, better, measured) => {
                        if self.explain {
                            let costed = with_costs(&run.nodes, &measured);
                            eprintln!(
                                "chain scheduler: refined after {:?} from measured time in work (clock ticks)",
                                r.warmup + r.window
                            );
                            eprint!("{}", better.explain(&costed, &run.cores));
                        }
                        self.record(&run, &better);
                        current = better;
                        runners = returned;
                    }
                }
            }
            drop(jobs);
            for placed in run.segments.drain(..) {
                runners.extend(placed.segment.into_runners());
            }
            runners
        });
        out.extend(own_threads.join());
        out
    }
}

impl Chain {
    fn record(&self, run: &ChainRun, plan: &Partition) {
        let parts = plan
            .parts
            .iter()
            .map(|m| m.iter().map(|&s| run.index_of[s]).collect())
            .collect();
        self.history
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(parts);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// source → four steps → sink, the steps stateless or not.
    fn line(stateless_steps: bool) -> GraphShape {
        GraphShape {
            blocking: vec![false; 6],
            stateless: (0..6)
                .map(|b| stateless_steps && (1..=4).contains(&b))
                .collect(),
            edges: (0..5).map(|b| (b, b + 1)).collect(),
            paced: false,
        }
    }

    #[test]
    fn a_cut_between_stateless_blocks_gets_the_segment_ring() {
        let (local, crossing) = (local_ring_bytes(), (l2_bytes() / 2).max(local_ring_bytes()));
        let two = Chain::new().workers(2);
        // Three blocks per core: the edge 2 → 3 crosses.
        let mut want = vec![local; 5];
        want[2] = segment_ring_bytes().max(local);
        assert_eq!(two.plan_buffer_bytes(&line(true)), Some(want.clone()));
        want[2] = crossing;
        assert_eq!(two.plan_buffer_bytes(&line(false)), Some(want.clone()));
        let sequential = Chain::new().workers(2).data_parallel(false);
        assert_eq!(sequential.plan_buffer_bytes(&line(true)), Some(want));
        let one = Chain::new().workers(1);
        assert_eq!(one.plan_buffer_bytes(&line(true)), Some(vec![local; 5]));
    }
}
