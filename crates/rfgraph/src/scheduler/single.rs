//! `single`: every non-blocking block on one thread, round robin — GNU
//! Radio's single-threaded scheduler and the deterministic choice for
//! debugging. Blocks marked blocking still get a thread each.
//!
//! This module owns the scheduler's settings and its setup: blocking
//! blocks get their threads, the rest are marked as polled locally and
//! grouped by connected component. It must never run blocks itself: the
//! poll engine (`scheduler::poll`), shared with `chain`, does.

use super::Scheduler;
use super::partition::{group_by_component, nodes_of, partition};
use super::placement::{Placement, PlacementView, Worker};
use super::poll::{LOCAL_POLL_INTERVAL, Poll, poll_until_done};
use super::task::Task;
use super::thread::{RealtimePriority, ThreadSettings, start_blocking};
use crate::runner::BlockRunner;

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

    /// The scheduler thread's timer slack (default
    /// [`DEFAULT_TIMER_SLACK`](super::thread::DEFAULT_TIMER_SLACK)).
    pub fn timer_slack(mut self, slack: std::time::Duration) -> Self {
        self.settings.timer_slack = Some(slack);
        self
    }
}

/// Orders `runners` topologically and groups them by connected component.
pub(crate) fn component_groups(runners: Vec<BlockRunner>) -> Vec<Vec<Task>> {
    let nodes = nodes_of(&runners, |_| 1.0);
    let order = partition(&nodes, 1);
    let groups = group_by_component(&nodes, &order.parts[0]);
    let mut by_slot: Vec<Option<BlockRunner>> = runners.into_iter().map(Some).collect();
    groups
        .into_iter()
        .map(|g| {
            g.into_iter()
                .filter_map(|s| by_slot[s].take().map(Task::Block))
                .collect()
        })
        .collect()
}

impl Scheduler for Single {
    fn name(&self) -> &str {
        "single"
    }

    fn default_buffer_bytes(&self) -> Option<usize> {
        Some(super::cache::local_ring_bytes())
    }

    /// One worker for every block but the blocking ones, which have a
    /// thread each.
    fn placement(&self, runners: &[BlockRunner]) -> Option<PlacementView> {
        let worker = Worker {
            core: match self.settings.cpus.as_slice() {
                &[cpu] => Some(cpu),
                _ => None,
            },
            blocks: runners
                .iter()
                .filter(|r| !r.is_blocking())
                .map(BlockRunner::index)
                .collect(),
        };
        Some(PlacementView::fixed(
            Placement {
                workers: vec![worker],
                parallel_segments: Vec::new(),
            }
            .complete(runners.len()),
        ))
    }

    fn execute(&self, runners: Vec<BlockRunner>) -> Vec<BlockRunner> {
        let (mut local, own_threads) = start_blocking(runners);
        self.settings.apply();
        let here: std::collections::HashSet<usize> = local.iter().map(|r| r.index()).collect();
        super::mark_local_polling(&mut local, own_threads.frees_space_of(), |_, peer| {
            here.contains(&peer)
        });
        let poll = Poll {
            max_sleep: Some(LOCAL_POLL_INTERVAL),
            pause: None,
            install_waker: true,
            place: "the `single` scheduler's thread",
        };
        let mut out = poll_until_done(component_groups(local), poll);
        out.extend(own_threads.join());
        out
    }
}
