//! [`StreamCounters`]: what a hardware block counts while it streams,
//! readable from any thread while the flowgraph runs.
//!
//! The runtime's `BlockStats` has no room for a block's own counters, so
//! the blocks keep these beside it: shared through an `Arc` (the
//! [`counters`](crate::SdrSource::counters) handle works before, during
//! and after a run), reported by the blocks' `status` message input, and
//! logged (see `xrun_log`). Relaxed atomics, written by the block's own
//! thread once per `work` call: this module must never lock.

use std::sync::atomic::{AtomicU64, Ordering};

/// Counters of one hardware stream.
#[derive(Debug, Default)]
pub struct StreamCounters {
    items: AtomicU64,
    overflows: AtomicU64,
    underflows: AtomicU64,
    timeouts: AtomicU64,
}

impl StreamCounters {
    /// Samples moved: read from the device (RX) or written to it (TX).
    pub fn items(&self) -> u64 {
        self.items.load(Ordering::Relaxed)
    }

    /// Overflows the device reported (RX): each one lost samples.
    pub fn overflows(&self) -> u64 {
        self.overflows.load(Ordering::Relaxed)
    }

    /// Underflows the device reported (TX): each one left a gap on air.
    pub fn underflows(&self) -> u64 {
        self.underflows.load(Ordering::Relaxed)
    }

    /// Reads or writes that timed out with nothing moved (a device
    /// slower than the timeout, or one that stopped streaming).
    pub fn timeouts(&self) -> u64 {
        self.timeouts.load(Ordering::Relaxed)
    }

    pub(crate) fn add_items(&self, n: usize) {
        self.items.fetch_add(n as u64, Ordering::Relaxed);
    }

    /// Counts an overflow; returns the total so far.
    pub(crate) fn add_overflow(&self) -> u64 {
        self.overflows.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Counts an underflow; returns the total so far.
    pub(crate) fn add_underflow(&self) -> u64 {
        self.underflows.fetch_add(1, Ordering::Relaxed) + 1
    }

    pub(crate) fn add_timeout(&self) {
        self.timeouts.fetch_add(1, Ordering::Relaxed);
    }
}
