//! `single`: every non-blocking block on one thread, round robin — GNU
//! Radio's single-threaded scheduler and the deterministic choice for
//! debugging. Blocks marked blocking still get a thread each.

use super::Scheduler;
use super::partition::{group_by_component, nodes_of, partition};
use super::thread::{RealtimePriority, ThreadSettings, ThreadWaker, start_blocking};
use crate::runner::{BlockRunner, Step};
use crate::stats::ThreadUsage;
use std::sync::Arc;
use std::time::Instant;

/// The single-threaded round-robin scheduler.
#[derive(Clone, Debug, Default)]
pub struct Single {
    settings: ThreadSettings,
}

impl Single {
    /// Runs on the calling thread with its current affinity and priority.
    pub fn new() -> Self {
        Self::default()
    }

    /// Pins the scheduler thread to `cpus`.
    pub fn pin(mut self, cpus: &[usize]) -> Self {
        self.settings.cpus = cpus.to_vec();
        self
    }

    /// Runs the scheduler thread with a real-time `priority` (an `i32` means SCHED_FIFO) (warns and goes
    /// on if the OS refuses).
    pub fn realtime_priority(mut self, priority: impl Into<RealtimePriority>) -> Self {
        self.settings.realtime_priority = Some(priority.into());
        self
    }
}

struct Slot {
    runner: BlockRunner,
    /// Made progress last time: run again without waiting for a signal.
    again: bool,
    timer: Option<Instant>,
}

/// Rounds a group may run in a row while it progresses, before the next
/// group gets the thread. Long enough to amortise refilling the cache with
/// a group's buffers, short enough (well under a millisecond of copying)
/// to keep latency low.
const QUANTUM_ROUNDS: usize = 64;

/// Runs `groups` of runners on the calling thread until all are done,
/// parking when none can progress. A *round* runs every due block of a
/// group once, in the given (topological) order, so consumers run right
/// after their producers; a group keeps the thread for up to
/// [`QUANTUM_ROUNDS`] rounds so its buffers stay in cache. Shared by
/// `single` and each core of `chain`. Records the thread's context switches
/// on every runner.
///
/// `max_sleep` caps every park (schedulers whose blocks skip fences need it).
pub(crate) fn poll_until_done(
    groups: Vec<Vec<BlockRunner>>,
    max_sleep: Option<std::time::Duration>,
) -> Vec<BlockRunner> {
    let before = ThreadUsage::current();
    let waker = Arc::new(ThreadWaker(std::thread::current()));
    let mut groups: Vec<Vec<Slot>> = groups
        .into_iter()
        .map(|g| {
            g.into_iter()
                .map(|runner| {
                    runner.signal().set_waker(waker.clone());
                    Slot {
                        runner,
                        again: true,
                        timer: None,
                    }
                })
                .collect()
        })
        .collect();
    let mut live: usize = groups.iter().map(Vec::len).sum();
    while live > 0 {
        let mut progressed = false;
        let mut next_timer: Option<Instant> = None;
        for group in &mut groups {
            for _ in 0..QUANTUM_ROUNDS {
                let (moved, finished, timer) = run_round(group);
                live -= finished;
                if let Some(t) = timer {
                    next_timer = Some(next_timer.map_or(t, |n: Instant| n.min(t)));
                }
                if !moved {
                    break;
                }
                progressed = true;
            }
        }
        if !progressed && live > 0 {
            let pending = groups
                .iter()
                .flatten()
                .any(|s| !s.runner.is_done() && s.runner.signal().is_pending());
            if !pending {
                let until_timer = next_timer.map(|t| t.saturating_duration_since(Instant::now()));
                match (until_timer, max_sleep) {
                    (Some(a), Some(b)) => std::thread::park_timeout(a.min(b)),
                    (Some(d), None) | (None, Some(d)) => std::thread::park_timeout(d),
                    (None, None) => std::thread::park(),
                }
            }
        }
    }
    let usage = ThreadUsage::current().since(before);
    let slots: Vec<Slot> = groups.into_iter().flatten().collect();
    let sharing = slots.len();
    slots
        .into_iter()
        .map(|s| {
            s.runner.record_thread_usage(usage, sharing);
            s.runner
        })
        .collect()
}

/// Runs every due block of `group` once. Returns whether anything moved,
/// how many blocks finished, and the earliest timer asked for.
fn run_round(group: &mut [Slot]) -> (bool, usize, Option<Instant>) {
    let now = Instant::now();
    let (mut moved, mut finished, mut next_timer) = (false, 0, None::<Instant>);
    for slot in group.iter_mut().filter(|s| !s.runner.is_done()) {
        let due =
            slot.again || slot.runner.signal().is_pending() || slot.timer.is_some_and(|t| t <= now);
        if due {
            match slot.runner.run_once() {
                Step::Progress => {
                    slot.again = true;
                    moved = true;
                }
                Step::Idle { until } => {
                    slot.again = false;
                    slot.timer = until;
                }
                Step::Done => {
                    finished += 1;
                    moved = true;
                    continue;
                }
            }
        }
        if let Some(t) = slot.timer {
            next_timer = Some(next_timer.map_or(t, |n| n.min(t)));
        }
    }
    (moved, finished, next_timer)
}

/// Orders `runners` topologically and groups them by connected component.
pub(crate) fn component_groups(runners: Vec<BlockRunner>) -> Vec<Vec<BlockRunner>> {
    let nodes = nodes_of(&runners, |_| 1.0);
    let order = partition(&nodes, 1);
    let groups = group_by_component(&nodes, &order.parts[0]);
    let mut by_slot: Vec<Option<BlockRunner>> = runners.into_iter().map(Some).collect();
    groups
        .into_iter()
        .map(|g| g.into_iter().filter_map(|s| by_slot[s].take()).collect())
        .collect()
}

impl Scheduler for Single {
    fn name(&self) -> &str {
        "single"
    }

    fn execute(&self, runners: Vec<BlockRunner>) -> Vec<BlockRunner> {
        let (local, own_threads) = start_blocking(runners);
        self.settings.apply();
        let mut out = poll_until_done(component_groups(local), None);
        out.extend(own_threads.join());
        out
    }
}
