//! [`Timers`]: the instants that idle `pool` tasks asked to run again at
//! ([`WorkIo::call_again_at`](crate::WorkIo)), shared by all workers.
//!
//! Busy workers must fire timers too, not only idle ones: a throttled
//! source next to branches that keep every worker busy would otherwise
//! never run again. So the earliest deadline is also kept outside the
//! lock, and a worker checks it after every task with one load while no
//! timer is set.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// `Timers::earliest` when no timer is set.
const NONE: u64 = u64::MAX;

/// Pending timers: (deadline, task index).
pub(crate) struct Timers {
    heap: Mutex<BinaryHeap<Reverse<(Instant, usize)>>>,
    /// The earliest deadline in nanoseconds since `epoch`, or [`NONE`];
    /// written under the lock, read without it.
    earliest: AtomicU64,
    epoch: Instant,
}

impl Timers {
    pub(crate) fn new() -> Self {
        Self {
            heap: Mutex::new(BinaryHeap::new()),
            earliest: AtomicU64::new(NONE),
            epoch: Instant::now(),
        }
    }

    /// Task `task` wants to run at `at`.
    pub(crate) fn add(&self, at: Instant, task: usize) {
        let mut heap = self.heap.lock().unwrap_or_else(|e| e.into_inner());
        heap.push(Reverse((at, task)));
        self.note_earliest(&heap);
    }

    /// True when the earliest deadline has passed: one load while no timer
    /// is set, and a clock read while one is.
    #[inline]
    pub(crate) fn any_due(&self) -> bool {
        let earliest = self.earliest.load(Ordering::Relaxed);
        earliest != NONE && self.since_epoch(Instant::now()) >= earliest
    }

    /// Moves the tasks whose deadline passed into `due`; returns the next
    /// deadline still pending.
    pub(crate) fn take_due(&self, due: &mut Vec<usize>) -> Option<Instant> {
        let mut heap = self.heap.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        while let Some(Reverse((at, task))) = heap.peek().copied() {
            if at > now {
                break;
            }
            heap.pop();
            due.push(task);
        }
        self.note_earliest(&heap);
        heap.peek().map(|Reverse((at, _))| *at)
    }

    fn note_earliest(&self, heap: &BinaryHeap<Reverse<(Instant, usize)>>) {
        let ns = heap
            .peek()
            .map_or(NONE, |Reverse((at, _))| self.since_epoch(*at));
        self.earliest.store(ns, Ordering::Relaxed);
    }

    /// `at` in nanoseconds since `epoch` (0 before it, saturating far
    /// after it).
    fn since_epoch(&self, at: Instant) -> u64 {
        let d = at.saturating_duration_since(self.epoch);
        u64::try_from(d.as_nanos()).unwrap_or(NONE - 1)
    }
}

impl std::fmt::Debug for Timers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let earliest = self.earliest.load(Ordering::Relaxed);
        f.debug_struct("Timers")
            .field(
                "earliest",
                &(earliest != NONE).then(|| Duration::from_nanos(earliest)),
            )
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn due_timers_come_out_in_deadline_order_and_others_stay() {
        let timers = Timers::new();
        let now = Instant::now();
        let later = now + Duration::from_secs(3600);
        timers.add(later, 7);
        assert!(!timers.any_due());
        timers.add(now, 2);
        timers.add(now + Duration::from_secs(7200), 9);
        timers.add(now - Duration::from_millis(1), 4);
        assert!(timers.any_due());
        let mut due = Vec::new();
        assert_eq!(timers.take_due(&mut due), Some(later));
        assert_eq!(due, [4, 2]);
        assert!(!timers.any_due(), "only far deadlines are left");
    }

    #[test]
    fn no_timer_is_never_due() {
        let timers = Timers::new();
        assert!(!timers.any_due());
        let mut due = Vec::new();
        assert_eq!(timers.take_due(&mut due), None);
        assert!(due.is_empty());
        timers.add(Instant::now(), 1);
        assert_eq!(timers.take_due(&mut due), None);
        assert_eq!(due, [1]);
        assert!(!timers.any_due());
    }
}
