//! `tpb`: one OS thread per block, each sleeping on its block's signal —
//! GNU Radio 3.x's model, the baseline, and the home of blocks that block.

use super::Scheduler;
use super::cache::handover_ring_bytes;
use super::placement::{Placement, PlacementView, Worker};
use super::thread::{RealtimePriority, ThreadSettings, join_all, spawn_or_fail};
use crate::flowgraph::BlockId;
use crate::runner::BlockRunner;
use std::collections::HashMap;
use std::time::Duration;

/// Thread-per-block scheduler with optional per-block affinity and a
/// real-time priority for all block threads.
#[derive(Clone, Debug, Default)]
pub struct Tpb {
    cpus: HashMap<usize, Vec<usize>>,
    realtime_priority: Option<RealtimePriority>,
    timer_slack: Option<Duration>,
}

impl Tpb {
    /// Default settings: no pinning, normal priority.
    pub fn new() -> Self {
        Self::default()
    }

    /// Pins the thread of `block` to `cpus`.
    pub fn pin(mut self, block: BlockId, cpus: &[usize]) -> Self {
        self.cpus.insert(block.0, cpus.to_vec());
        self
    }

    /// Runs block threads with a real-time `priority` (an `i32` means SCHED_FIFO). If the OS refuses,
    /// one warning is printed and the threads run with normal priority.
    pub fn realtime_priority(mut self, priority: impl Into<RealtimePriority>) -> Self {
        self.realtime_priority = Some(priority.into());
        self
    }

    /// The timer slack of every block thread (default
    /// [`DEFAULT_TIMER_SLACK`](super::thread::DEFAULT_TIMER_SLACK)).
    pub fn timer_slack(mut self, slack: Duration) -> Self {
        self.timer_slack = Some(slack);
        self
    }
}

impl Scheduler for Tpb {
    fn name(&self) -> &str {
        "tpb"
    }

    /// Larger rings than the default: see [`handover_ring_bytes`].
    fn default_buffer_bytes(&self) -> Option<usize> {
        Some(handover_ring_bytes())
    }

    /// One worker per block, on its one pinned CPU if it has one.
    fn placement(&self, runners: &[BlockRunner]) -> Option<PlacementView> {
        let workers = runners
            .iter()
            .map(|r| Worker {
                core: match self.cpus.get(&r.index()).map(Vec::as_slice) {
                    Some(&[cpu]) => Some(cpu),
                    _ => None,
                },
                blocks: vec![r.index()],
            })
            .collect();
        Some(PlacementView::fixed(
            Placement {
                workers,
                parallel_segments: Vec::new(),
            }
            .complete(runners.len()),
        ))
    }

    fn execute(&self, runners: Vec<BlockRunner>) -> Vec<BlockRunner> {
        let mut threads = Vec::with_capacity(runners.len());
        for runner in runners {
            let settings = ThreadSettings {
                cpus: self.cpus.get(&runner.index()).cloned().unwrap_or_default(),
                realtime_priority: self.realtime_priority,
                timer_slack: self.timer_slack,
            };
            threads.push(spawn_or_fail(runner, settings));
        }
        join_all(threads.into_iter().flatten()).collect()
    }
}
