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
use super::partition::{Node, Partition, group_by_component, nodes_of, partition};
use super::refine::{Refine, WorkerWaker, refined, with_costs};
use super::segment::{self, ParallelSegment};
use super::single::{LOCAL_POLL_INTERVAL, Poll, poll_until_done};
use super::task::Task;
use super::thread::{RealtimePriority, ThreadSettings, start_blocking};
use super::{GraphShape, Scheduler};
use crate::runner::BlockRunner;
use crate::stats::StatsCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::Thread;
use std::time::Instant;

/// The cache-aware partitioned scheduler.
#[derive(Clone, Debug, Default)]
pub struct Chain {
    cores: Option<Vec<usize>>,
    buffer_bytes: Option<usize>,
    costs: HashMap<usize, f64>,
    explain: bool,
    realtime_priority: Option<RealtimePriority>,
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

    /// Refines the partition with `refine`'s timing instead of the
    /// default (see [`Refine`]).
    pub fn refine(mut self, refine: Refine) -> Self {
        self.refine = Some(refine);
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
            None if self.no_data_parallel => crossing,
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

    fn execute(&self, runners: Vec<BlockRunner>) -> Vec<BlockRunner> {
        let (local, own_threads) = start_blocking(runners);
        let cores = self.core_list();
        let mean = if self.costs.is_empty() {
            1.0
        } else {
            self.costs.values().sum::<f64>() / self.costs.len() as f64
        };
        let nodes = nodes_of(&local, |b| self.costs.get(&b).copied().unwrap_or(mean));
        let plan = partition(&nodes, cores.len());
        let segments = if self.no_data_parallel {
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
        let mut run = ChainRun {
            stats: local.iter().map(|r| r.stats.clone()).collect(),
            slot_of: local
                .iter()
                .enumerate()
                .map(|(s, r)| (r.index(), s))
                .collect(),
            index_of: local.iter().map(|r| r.index()).collect(),
            nodes,
            cores,
            wakers: Vec::new(),
            segments: Vec::new(),
            segment_of: Vec::new(),
            work_ticks_at_warmup: Vec::new(),
            reported: 0,
            freed_by_own_threads: own_threads.frees_space_of().to_vec(),
        };
        self.record(&run, &plan);
        let pause = AtomicBool::new(false);
        let control = local.first().map(|r| r.control.clone());
        let mut out: Vec<BlockRunner> = std::thread::scope(|scope| {
            let (done_tx, done_rx) = channel();
            let (jobs, threads): (Vec<Sender<Job>>, Vec<Thread>) = run
                .cores
                .iter()
                .enumerate()
                .map(|(p, &core)| {
                    let (job_tx, job_rx) = channel::<Job>();
                    let settings = ThreadSettings {
                        cpus: if self.unpinned {
                            Vec::new()
                        } else {
                            vec![core]
                        },
                        realtime_priority: self.realtime_priority,
                    };
                    let done_tx = done_tx.clone();
                    let pause = &pause;
                    let control = control.clone();
                    let handle = std::thread::Builder::new()
                        .name(format!("rfgraph-chain-{p}"))
                        .spawn_scoped(scope, move || {
                            settings.apply();
                            while let Ok(groups) = job_rx.recv() {
                                let poll = Poll {
                                    max_sleep: Some(LOCAL_POLL_INTERVAL),
                                    pause: Some(pause),
                                    install_waker: false,
                                };
                                // After a panic the run fails and the
                                // worker's runners are lost; report none
                                // so the run does not wait for them.
                                let runners =
                                    super::contain_panic(|| poll_until_done(groups, poll))
                                        .unwrap_or_else(|panic| {
                                            let place = format!("`chain` worker {p}");
                                            panic.fail_run(control.as_deref(), &place);
                                            Vec::new()
                                        });
                                let _ = done_tx.send(runners);
                            }
                        })
                        .expect("cannot spawn a chain worker");
                    (job_tx, handle.thread().clone())
                })
                .unzip();
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

/// What a worker gets to run: its blocks (and lanes), grouped by
/// connected component.
type Job = Vec<Vec<Task>>;

/// A data-parallel segment and the workers running its lanes.
struct PlacedSegment {
    segment: Arc<ParallelSegment>,
    /// Worker of each lane, ascending.
    workers: Vec<usize>,
}

/// One run of the chain scheduler: the partitioner's view of its blocks
/// and the handles that follow them between workers.
struct ChainRun {
    stats: Vec<Arc<StatsCell>>,
    /// Partitioner slot of each block index.
    slot_of: HashMap<usize, usize>,
    /// Block index of each slot.
    index_of: Vec<usize>,
    nodes: Vec<Node>,
    cores: Vec<usize>,
    /// Per slot.
    wakers: Vec<Arc<WorkerWaker>>,
    segments: Vec<PlacedSegment>,
    /// Per slot: the segment (index into `segments`) it belongs to.
    segment_of: Vec<Option<usize>>,
    /// Per slot: time in `work` when the warm-up ended.
    work_ticks_at_warmup: Vec<f64>,
    /// Workers that handed their runners back during calibration.
    reported: usize,
    /// Blocks whose memory blocks on threads of their own free in place.
    freed_by_own_threads: Vec<usize>,
}

/// How a calibration window ended.
enum Calibrated {
    /// Every worker finished its blocks: all runners.
    Finished(Vec<BlockRunner>),
    /// The partition stays; the runners of the workers that finished.
    Keep(Vec<BlockRunner>),
    /// Every worker paused: all runners, the partition to move to, and
    /// the measured costs that chose it.
    Move(Vec<BlockRunner>, Partition, Vec<f64>),
}

impl ChainRun {
    /// Marks same-thread edges for `plan`, points every waker at its
    /// block's worker and hands each worker its blocks, grouped by
    /// connected component in topological order.
    fn dispatch(&self, mut runners: Vec<BlockRunner>, plan: &Partition, jobs: &[Sender<Job>]) {
        let part_of = plan.part_of(self.nodes.len());
        // Lanes run anywhere: edges to a segment always signal.
        super::mark_local_polling(&mut runners, &self.freed_by_own_threads, |me, peer| {
            let mine = part_of[self.slot_of[&me]];
            self.slot_of
                .get(&peer)
                .is_some_and(|&s| part_of[s] == mine && self.segment_of[s].is_none())
        });
        let mut by_slot: Vec<Option<BlockRunner>> = (0..self.nodes.len()).map(|_| None).collect();
        for r in runners {
            let slot = self.slot_of[&r.index()];
            self.wakers[slot].move_to(part_of[slot]);
            by_slot[slot] = Some(r);
        }
        for (worker, (members, job)) in plan.parts.iter().zip(jobs).enumerate() {
            let mut lane_given = vec![false; self.segments.len()];
            let groups: Vec<Vec<Task>> = group_by_component(&self.nodes, members)
                .into_iter()
                .map(|g| {
                    g.into_iter()
                        .filter_map(|s| match self.segment_of[s] {
                            // The lane takes the place of the segment's
                            // first block on this worker.
                            Some(k) if !lane_given[k] => {
                                lane_given[k] = true;
                                let placed = &self.segments[k];
                                let lane = placed.workers.iter().position(|&w| w == worker)?;
                                // A blocking upstream has a thread (and no slot) of its own.
                                let beside = self
                                    .slot_of
                                    .get(&placed.segment.upstream_block())
                                    .is_some_and(|&u| part_of[u] == worker);
                                Some(Task::Lane(placed.segment.lane(lane, beside)))
                            }
                            Some(_) => None,
                            None => by_slot[s].take().map(Task::Block),
                        })
                        .collect()
                })
                .collect();
            let _ = job.send(groups);
        }
    }

    /// Hands the runners of every segment in `found` (slot lists from
    /// [`segment::find`]) to a [`ParallelSegment`] with one lane per
    /// worker its blocks were given in `part_of`; returns the other
    /// runners.
    fn start_segments(
        &mut self,
        local: Vec<BlockRunner>,
        found: &[Vec<usize>],
        part_of: &[usize],
        threads: &[Thread],
    ) -> Vec<BlockRunner> {
        self.segment_of = vec![None; local.len()];
        let mut by_slot: Vec<Option<BlockRunner>> = local.into_iter().map(Some).collect();
        for members in found {
            let mut workers: Vec<usize> = members.iter().map(|&m| part_of[m]).collect();
            workers.sort_unstable();
            workers.dedup();
            let runners: Vec<BlockRunner> =
                members.iter().filter_map(|&m| by_slot[m].take()).collect();
            let lane_threads: Vec<Thread> = workers.iter().map(|&w| threads[w].clone()).collect();
            match ParallelSegment::new(runners, &lane_threads) {
                Ok(segment) => {
                    for &m in members {
                        self.segment_of[m] = Some(self.segments.len());
                    }
                    self.segments.push(PlacedSegment { segment, workers });
                }
                Err(runners) => {
                    for (r, &m) in runners.into_iter().zip(members) {
                        by_slot[m] = Some(r);
                    }
                }
            }
        }
        by_slot.into_iter().flatten().collect()
    }

    /// The `--explain` lines for data-parallel segments.
    fn explain_segments(&self) -> String {
        let mut out = String::new();
        for placed in &self.segments {
            let names: Vec<&str> = placed
                .segment
                .block_indices()
                .iter()
                .map(|b| self.nodes[self.slot_of[b]].name.as_str())
                .collect();
            let cores: Vec<usize> = placed.workers.iter().map(|&w| self.cores[w]).collect();
            out += &format!(
                "  data-parallel on cores {cores:?}: {}\n    because: {} stateless in-place blocks were cut between cores; each core now takes whole chunks through all of them, so only the chunks another core claims cross, and claiming balances the cores\n",
                names.join(", "),
                names.len()
            );
        }
        out
    }

    /// Runs the warm-up and the measuring window on `current`, snapshotting
    /// time in `work` (live, without stopping anyone), and pauses the
    /// workers only when the measured costs give a partition worth moving
    /// blocks for: a pause costs the run more than its length (workers
    /// restart cold).
    fn calibrate(
        &mut self,
        refine: &Refine,
        current: &Partition,
        done: &Receiver<Vec<BlockRunner>>,
        pause: &AtomicBool,
        threads: &[Thread],
    ) -> Calibrated {
        let start = Instant::now();
        let workers = threads.len();
        let mut returned = Vec::new();
        self.reported = 0;
        for (deadline, snapshot) in [
            (refine.warmup, true),
            (refine.warmup + refine.window, false),
        ] {
            self.reported += collect_into(
                &mut returned,
                done,
                workers - self.reported,
                Some(start + deadline),
            );
            if self.reported == workers {
                return Calibrated::Finished(returned);
            }
            if snapshot {
                self.work_ticks_at_warmup = self.work_ticks();
            }
        }
        let measured = self.measured();
        let Some(better) = refined(
            &self.nodes,
            &measured,
            current,
            self.cores.len(),
            refine.min_gain,
        ) else {
            return Calibrated::Keep(returned);
        };
        pause.store(true, Ordering::Release);
        for t in threads {
            t.unpark();
        }
        collect_into(&mut returned, done, workers - self.reported, None);
        pause.store(false, Ordering::Release);
        for r in &mut returned {
            r.flush_stats();
        }
        Calibrated::Move(returned, better, measured)
    }

    /// Time in `work` per slot so far, in clock ticks (raw ticks: turning
    /// them into nanoseconds calibrates the clock with a 2 ms spin).
    fn work_ticks(&self) -> Vec<f64> {
        self.stats.iter().map(|s| s.work_ticks() as f64).collect()
    }

    /// Time in `work` per slot since the warm-up ended, in clock ticks.
    fn measured(&self) -> Vec<f64> {
        self.work_ticks()
            .iter()
            .zip(&self.work_ticks_at_warmup)
            .map(|(now, then)| (now - then).max(1.0))
            .collect()
    }
}

/// Receives the runners of `workers` workers (all of them, or as many as
/// report before `deadline`) into `into`; returns how many reported.
fn collect_into(
    into: &mut Vec<BlockRunner>,
    done: &Receiver<Vec<BlockRunner>>,
    workers: usize,
    deadline: Option<Instant>,
) -> usize {
    let mut count = 0;
    while count < workers {
        let next = match deadline {
            Some(d) => done.recv_timeout(d.saturating_duration_since(Instant::now())),
            None => done.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match next {
            Ok(runners) => {
                into.extend(runners);
                count += 1;
            }
            Err(RecvTimeoutError::Timeout) => break,
            Err(RecvTimeoutError::Disconnected) => unreachable!("chain workers outlive the run"),
        }
    }
    count
}

/// Receives the runners of all `workers` workers.
fn collect(done: &Receiver<Vec<BlockRunner>>, workers: usize) -> Vec<BlockRunner> {
    let mut out = Vec::new();
    collect_into(&mut out, done, workers, None);
    out
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
