//! `single`: every non-blocking block on one thread, round robin — GNU
//! Radio's single-threaded scheduler and the deterministic choice for
//! debugging. Blocks marked blocking still get a thread each.

use super::Scheduler;
use super::thread::{ThreadSettings, ThreadWaker};
use super::tpb::spawn_or_fail;
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

    /// Runs the scheduler thread with SCHED_FIFO `priority` (warns and goes
    /// on if the OS refuses).
    pub fn realtime_priority(mut self, priority: i32) -> Self {
        self.settings.realtime_priority = Some(priority);
        self
    }
}

struct Slot {
    runner: BlockRunner,
    /// Made progress last time: run again without waiting for a signal.
    again: bool,
    timer: Option<Instant>,
}

impl Scheduler for Single {
    fn name(&self) -> &str {
        "single"
    }

    fn execute(&self, runners: Vec<BlockRunner>) -> Vec<BlockRunner> {
        let (blocking, local): (Vec<_>, Vec<_>) =
            runners.into_iter().partition(|r| r.is_blocking());
        let threads: Vec<_> = blocking
            .into_iter()
            .filter_map(|r| spawn_or_fail(r, ThreadSettings::default()))
            .collect();
        self.settings.apply();
        let before = ThreadUsage::current();
        let waker = Arc::new(ThreadWaker(std::thread::current()));
        let mut slots: Vec<Slot> = local
            .into_iter()
            .map(|runner| {
                runner.signal().set_waker(waker.clone());
                Slot {
                    runner,
                    again: true,
                    timer: None,
                }
            })
            .collect();
        let mut live = slots.len();
        while live > 0 {
            let mut progressed = false;
            let mut next_timer: Option<Instant> = None;
            let now = Instant::now();
            for slot in slots.iter_mut().filter(|s| !s.runner.is_done()) {
                let due = slot.again
                    || slot.runner.signal().is_pending()
                    || slot.timer.is_some_and(|t| t <= now);
                if due {
                    match slot.runner.run_once() {
                        Step::Progress => {
                            slot.again = true;
                            progressed = true;
                        }
                        Step::Idle { until } => {
                            slot.again = false;
                            slot.timer = until;
                        }
                        Step::Done => {
                            live -= 1;
                            progressed = true;
                            continue;
                        }
                    }
                }
                if let Some(t) = slot.timer {
                    next_timer = Some(next_timer.map_or(t, |n: Instant| n.min(t)));
                }
            }
            if !progressed && live > 0 {
                let pending = slots
                    .iter()
                    .any(|s| !s.runner.is_done() && s.runner.signal().is_pending());
                if !pending {
                    match next_timer {
                        Some(t) => {
                            let now = Instant::now();
                            if t > now {
                                std::thread::park_timeout(t - now);
                            }
                        }
                        None => std::thread::park(),
                    }
                }
            }
        }
        let usage = ThreadUsage::current().since(before);
        let sharing = slots.len();
        let mut out: Vec<BlockRunner> = slots
            .into_iter()
            .map(|s| {
                s.runner.record_thread_usage(usage, sharing);
                s.runner
            })
            .collect();
        out.extend(threads.into_iter().map(|t| {
            t.join()
                .expect("block threads catch panics; a join failure is an rfgraph bug")
        }));
        out
    }
}
