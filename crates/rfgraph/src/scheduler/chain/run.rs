//! [`ChainRun`]: one run of the `chain` scheduler once it started: which
//! worker runs which block (and lane), the data-parallel segments, and the
//! calibration window that measures time in `work` and decides whether to
//! move blocks. `Chain::execute` drives it; `workers` runs the jobs.

use crate::runner::BlockRunner;
use crate::scheduler::partition::{Node, Partition, group_by_component};
use crate::scheduler::refine::{Refine, WorkerWaker, on_one_core, refined};
use crate::scheduler::segment::ParallelSegment;
use crate::scheduler::task::Task;
use crate::stats::StatsCell;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::thread::Thread;
use std::time::Instant;

/// What a worker gets to run: its blocks (and lanes), grouped by
/// connected component.
pub(super) type Job = Vec<Vec<Task>>;

/// A data-parallel segment and the workers running its lanes.
pub(super) struct PlacedSegment {
    pub(super) segment: Arc<ParallelSegment>,
    /// Worker of each lane, ascending.
    pub(super) workers: Vec<usize>,
}

/// One run of the chain scheduler: the partitioner's view of its blocks
/// and the handles that follow them between workers.
pub(super) struct ChainRun {
    pub(super) stats: Vec<Arc<StatsCell>>,
    /// Partitioner slot of each block index.
    pub(super) slot_of: HashMap<usize, usize>,
    /// Block index of each slot.
    pub(super) index_of: Vec<usize>,
    pub(super) nodes: Vec<Node>,
    pub(super) cores: Vec<usize>,
    /// Per slot.
    pub(super) wakers: Vec<Arc<WorkerWaker>>,
    pub(super) segments: Vec<PlacedSegment>,
    /// Per slot: the segment (index into `segments`) it belongs to.
    pub(super) segment_of: Vec<Option<usize>>,
    /// Per slot: busy time when the warm-up ended.
    pub(super) busy_ticks_at_warmup: Vec<f64>,
    /// The clock (`cycles::now`) when the warm-up ended.
    pub(super) clock_at_warmup: u64,
    /// Items moved by all slots when the warm-up ended.
    pub(super) items_at_warmup: u64,
    /// Workers that handed their runners back during calibration.
    pub(super) reported: usize,
    /// Blocks whose memory blocks on threads of their own free in place.
    pub(super) freed_by_own_threads: Vec<usize>,
    /// Per slot: the cost the refinement uses instead of measuring
    /// (`Chain::refine_with_costs`).
    pub(super) injected_costs: Option<Vec<f64>>,
}

/// How a calibration window ended.
pub(super) enum Calibrated {
    /// Every worker finished its blocks: all runners.
    Finished(Vec<BlockRunner>),
    /// The partition stays; the runners of the workers that finished.
    Keep(Vec<BlockRunner>),
    /// Every worker paused: all runners, the partition to move to, and
    /// the measured costs that chose it.
    Move(Vec<BlockRunner>, Partition, Vec<f64>),
}

impl ChainRun {
    /// A run of `local` (the runners polled by workers, in partitioner
    /// slot order) as `nodes` on `cores`; `freed_by_own_threads`: blocks
    /// whose memory blocking blocks on threads of their own free in place.
    pub(super) fn new(
        local: &[BlockRunner],
        nodes: Vec<Node>,
        cores: Vec<usize>,
        freed_by_own_threads: &[usize],
    ) -> Self {
        Self {
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
            busy_ticks_at_warmup: Vec::new(),
            clock_at_warmup: 0,
            items_at_warmup: 0,
            reported: 0,
            freed_by_own_threads: freed_by_own_threads.to_vec(),
            injected_costs: None,
        }
    }

    /// Marks same-thread edges for `plan`, points every waker at its
    /// block's worker and hands each worker its blocks, grouped by
    /// connected component in topological order.
    pub(super) fn dispatch(
        &self,
        mut runners: Vec<BlockRunner>,
        plan: &Partition,
        jobs: &[Sender<Job>],
    ) {
        let part_of = plan.part_of(self.nodes.len());
        // Lanes run anywhere: edges to a segment always signal.
        crate::scheduler::mark_local_polling(
            &mut runners,
            &self.freed_by_own_threads,
            |me, peer| {
                let mine = part_of[self.slot_of[&me]];
                self.slot_of
                    .get(&peer)
                    .is_some_and(|&s| part_of[s] == mine && self.segment_of[s].is_none())
            },
        );
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
    /// [`segment::find`](crate::scheduler::segment::find)) to a [`ParallelSegment`] with one lane per
    /// worker its blocks were given in `part_of`; returns the other
    /// runners.
    pub(super) fn start_segments(
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
    pub(super) fn explain_segments(&self) -> String {
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
    pub(super) fn calibrate(
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
        let mut deadline = start + refine.warmup;
        // Windows until items moved: a graph whose source has not started
        // delivering (a device activating, a socket waiting for its peer)
        // measures nothing, and would look light.
        let moved = loop {
            self.reported +=
                collect_into(&mut returned, done, workers - self.reported, Some(deadline));
            if self.reported == workers {
                return Calibrated::Finished(returned);
            }
            if deadline > start + refine.warmup {
                let moved = self.items() > self.items_at_warmup;
                if moved || start.elapsed() >= IDLE_CALIBRATION {
                    break moved;
                }
            }
            self.busy_ticks_at_warmup = self.busy_ticks();
            self.clock_at_warmup = crate::cycles::now();
            self.items_at_warmup = self.items();
            deadline = Instant::now() + refine.window;
        };
        if !moved {
            // Nothing to measure: the partition stays.
            return Calibrated::Keep(returned);
        }
        let measured = self.measured();
        let spread = current.parts.iter().filter(|p| !p.is_empty()).count() > 1;
        let better = match self.load(&measured) {
            Some(load) if spread && load < refine.light_load => {
                Some(on_one_core(&self.nodes, self.cores.len(), load))
            }
            _ => refined(
                &self.nodes,
                &measured,
                current,
                self.cores.len(),
                refine.min_gain,
            ),
        };
        let Some(better) = better else {
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

    /// Time in `work` and message handlers per slot so far, in clock
    /// ticks (raw ticks: turning them into nanoseconds calibrates the
    /// clock with a 2 ms spin). Handlers count: a block that spends its
    /// time handling messages loads its core like one that spends it in
    /// `work`.
    fn busy_ticks(&self) -> Vec<f64> {
        self.stats.iter().map(|s| s.busy_ticks() as f64).collect()
    }

    /// Items consumed and produced by every slot so far (as recorded:
    /// counts are added in batches).
    fn items(&self) -> u64 {
        self.stats.iter().map(|s| s.items_moved()).sum()
    }

    /// How many cores' worth of time the blocks spent busy over the window
    /// (`measured`: busy ticks per slot since the warm-up); `None` with
    /// injected costs, which are not times.
    fn load(&self, measured: &[f64]) -> Option<f64> {
        if self.injected_costs.is_some() {
            return None;
        }
        let window = crate::cycles::now().saturating_sub(self.clock_at_warmup) as f64;
        (window > 0.0).then(|| measured.iter().sum::<f64>() / window)
    }

    /// Busy time per slot since the warm-up ended, in clock ticks (or the
    /// injected costs).
    fn measured(&self) -> Vec<f64> {
        if let Some(costs) = &self.injected_costs {
            return costs.clone();
        }
        self.busy_ticks()
            .iter()
            .zip(&self.busy_ticks_at_warmup)
            .map(|(now, then)| (now - then).max(1.0))
            .collect()
    }
}

/// How long calibration waits for a graph to move its first items before
/// it keeps the first partition.
const IDLE_CALIBRATION: std::time::Duration = std::time::Duration::from_secs(2);

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
pub(super) fn collect(done: &Receiver<Vec<BlockRunner>>, workers: usize) -> Vec<BlockRunner> {
    let mut out = Vec::new();
    collect_into(&mut out, done, workers, None);
    out
}
