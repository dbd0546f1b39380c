//! [`StreamCounters`]: what a hardware block counts while it streams,
//! readable from any thread while the flowgraph runs.
//!
//! The blocks report these in the runtime's statistics
//! (`BlockStats::counters`, through `Block::counters`), share them through
//! an `Arc` (the [`counters`](crate::SdrSource::counters) handle works
//! before, during and after a run), answer them to the `status` message
//! input, and log them (see `xrun_log`). Relaxed atomics, written by the
//! block's own thread once per `work` call: this module must never lock.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Counters of one hardware stream.
#[derive(Debug, Default)]
pub struct StreamCounters {
    items: Arc<AtomicU64>,
    overflows: Arc<AtomicU64>,
    underflows: Arc<AtomicU64>,
    timeouts: Arc<AtomicU64>,
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

    /// The counters by name, for the runtime's statistics: `overflows`
    /// and `timeouts` (RX) or `underflows` and `timeouts` (TX).
    pub(crate) fn for_stats(&self, rx: bool) -> Vec<(&'static str, Arc<AtomicU64>)> {
        let xruns = if rx {
            ("overflows", self.overflows.clone())
        } else {
            ("underflows", self.underflows.clone())
        };
        vec![xruns, ("timeouts", self.timeouts.clone())]
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
