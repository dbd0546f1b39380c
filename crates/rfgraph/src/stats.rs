//! Per-block statistics (DESIGN §5): work calls, items, time in `work`, a
//! log2 histogram of items per call, messages, and the context switches of
//! the thread(s) that ran the block.
//!
//! The counters are atomics written only by the thread running the block
//! (plain load + store, no read-modify-write), so collecting them costs a few
//! uncontended stores per call; anyone may snapshot them at any time.

use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Buckets of the items-per-call histogram: bucket `k` counts calls that
/// moved `n` items with `2^(k-1) <= n < 2^k` (bucket 0: no items).
pub const HISTOGRAM_BUCKETS: usize = 33;

/// A snapshot of one block's counters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BlockStats {
    /// Block instance name.
    pub block: String,
    /// The block's Rust type.
    pub type_name: String,
    /// Calls to `work`.
    pub work_calls: u64,
    /// Items consumed, summed over stream inputs.
    pub items_consumed: u64,
    /// Items produced, summed over stream outputs.
    pub items_produced: u64,
    /// Messages handled.
    pub messages_handled: u64,
    /// Nanoseconds spent inside `work` and message handlers.
    pub work_ns: u64,
    /// Log2 histogram of items per call (produced, or consumed for sinks).
    pub items_per_call_log2: Vec<u64>,
    /// Voluntary context switches of the thread(s) that ran the block.
    pub voluntary_context_switches: u64,
    /// Involuntary context switches of the thread(s) that ran the block.
    pub involuntary_context_switches: u64,
    /// Blocks sharing those threads (1 under `tpb`; all blocks under `single`).
    pub blocks_sharing_thread: u64,
    /// True for a block the runtime inserted to move items between memory
    /// domains (host and a device); its items are the items transferred.
    pub transfer: bool,
}

impl BlockStats {
    /// The snapshot as a JSON object.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

/// Context-switch counts of one thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreadUsage {
    /// Voluntary switches (the thread slept).
    pub voluntary: u64,
    /// Involuntary switches (the thread was preempted).
    pub involuntary: u64,
}

impl ThreadUsage {
    /// The calling thread's counts so far (`getrusage(RUSAGE_THREAD)`).
    pub fn current() -> Self {
        // SAFETY: rusage is plain data; getrusage writes it fully on success.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: valid pointer to a rusage.
        if unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut ru) } != 0 {
            return Self::default();
        }
        Self {
            voluntary: ru.ru_nvcsw as u64,
            involuntary: ru.ru_nivcsw as u64,
        }
    }

    /// Counts since `earlier`.
    pub fn since(self, earlier: Self) -> Self {
        Self {
            voluntary: self.voluntary.saturating_sub(earlier.voluntary),
            involuntary: self.involuntary.saturating_sub(earlier.involuntary),
        }
    }
}

/// The live counters of one block.
pub(crate) struct StatsCell {
    pub(crate) block: String,
    pub(crate) type_name: String,
    pub(crate) transfer: bool,
    work_calls: AtomicU64,
    consumed: AtomicU64,
    produced: AtomicU64,
    messages: AtomicU64,
    /// Time in `work` and handlers, in [`cycles`](crate::cycles) ticks.
    work_ticks: AtomicU64,
    histogram: [AtomicU64; HISTOGRAM_BUCKETS],
    voluntary: AtomicU64,
    involuntary: AtomicU64,
    sharing: AtomicU64,
}

#[inline]
fn bump(a: &AtomicU64, by: u64) {
    a.store(a.load(Relaxed).wrapping_add(by), Relaxed);
}

impl StatsCell {
    pub(crate) fn new(block: String, type_name: String, transfer: bool) -> Self {
        Self {
            block,
            type_name,
            transfer,
            work_calls: AtomicU64::new(0),
            consumed: AtomicU64::new(0),
            produced: AtomicU64::new(0),
            messages: AtomicU64::new(0),
            work_ticks: AtomicU64::new(0),
            histogram: std::array::from_fn(|_| AtomicU64::new(0)),
            voluntary: AtomicU64::new(0),
            involuntary: AtomicU64::new(0),
            sharing: AtomicU64::new(1),
        }
    }

    /// Records one `work` call. Only the running thread calls this.
    #[inline]
    pub(crate) fn record_work(&self, consumed: u64, produced: u64, ticks: u64) {
        bump(&self.work_calls, 1);
        bump(&self.consumed, consumed);
        bump(&self.produced, produced);
        bump(&self.work_ticks, ticks);
        let n = if produced > 0 { produced } else { consumed };
        let bucket = (64 - n.leading_zeros()) as usize;
        bump(&self.histogram[bucket.min(HISTOGRAM_BUCKETS - 1)], 1);
    }

    #[inline]
    pub(crate) fn record_messages(&self, count: u64, ticks: u64) {
        bump(&self.messages, count);
        bump(&self.work_ticks, ticks);
    }

    pub(crate) fn record_thread(&self, usage: ThreadUsage, sharing: u64) {
        bump(&self.voluntary, usage.voluntary);
        bump(&self.involuntary, usage.involuntary);
        self.sharing.store(sharing.max(1), Relaxed);
    }

    pub(crate) fn snapshot(&self) -> BlockStats {
        BlockStats {
            block: self.block.clone(),
            type_name: self.type_name.clone(),
            work_calls: self.work_calls.load(Relaxed),
            items_consumed: self.consumed.load(Relaxed),
            items_produced: self.produced.load(Relaxed),
            messages_handled: self.messages.load(Relaxed),
            work_ns: crate::cycles::to_ns(self.work_ticks.load(Relaxed)),
            items_per_call_log2: self.histogram.iter().map(|h| h.load(Relaxed)).collect(),
            voluntary_context_switches: self.voluntary.load(Relaxed),
            involuntary_context_switches: self.involuntary.load(Relaxed),
            blocks_sharing_thread: self.sharing.load(Relaxed),
            transfer: self.transfer,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_log2() {
        let s = StatsCell::new("b".into(), "T".into(), false);
        s.record_work(0, 0, 1);
        s.record_work(1, 1, 1);
        s.record_work(1000, 1024, 1);
        s.record_work(7, 0, 1);
        let snap = s.snapshot();
        assert_eq!(snap.work_calls, 4);
        assert_eq!(snap.items_per_call_log2[0], 1);
        assert_eq!(snap.items_per_call_log2[1], 1);
        assert_eq!(snap.items_per_call_log2[11], 1); // 1024 = 2^10
        assert_eq!(snap.items_per_call_log2[3], 1); // 7 consumed by a sink
        assert_eq!(snap.items_consumed, 1008);
        assert!(snap.to_json()["work_calls"].as_u64() == Some(4));
    }

    #[test]
    fn thread_usage_counts_sleeps() {
        let before = ThreadUsage::current();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let after = ThreadUsage::current().since(before);
        assert!(after.voluntary >= 1);
    }
}
