//! [`BlockStats`]: the snapshot of one block's counters that a run
//! reports, and its JSON form.
//!
//! Plain, serialisable data: it must never hold live counters or anything
//! of a running flowgraph (the live counters are `cell`'s).

use serde::{Deserialize, Serialize};

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
    /// Nanoseconds spent inside `work` and message handlers. Handlers are
    /// timed always; `work` calls are timed on a random sample (every call
    /// for the first [`ALWAYS_TIMED_CALLS`], then one in
    /// [`TIMING_PERIOD`] to [`MAX_TIMING_PERIOD`] on average, the cheaper
    /// the calls the fewer) and the total is scaled from it: reading the
    /// clock twice per call costs more than a small chunk's copy in a VM.
    ///
    /// [`ALWAYS_TIMED_CALLS`]: super::ALWAYS_TIMED_CALLS
    /// [`TIMING_PERIOD`]: super::TIMING_PERIOD
    /// [`MAX_TIMING_PERIOD`]: super::MAX_TIMING_PERIOD
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
    /// Worst lateness of a timer the block asked for
    /// ([`WorkIo::call_again_at`](crate::WorkIo::call_again_at)), in
    /// nanoseconds: how late the scheduler ran it (0 for blocks without
    /// timers).
    #[serde(default)]
    pub timer_late_max_ns: u64,
    /// Timers served later than the flowgraph's latency budget (see
    /// [`Flowgraph::set_max_latency`](crate::Flowgraph::set_max_latency)).
    #[serde(default)]
    pub timers_over_budget: u64,
    /// The block's own counters by name (see
    /// [`Block::counters`](crate::Block::counters)): a device's overflows,
    /// a decoder's frames.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub counters: std::collections::BTreeMap<String, u64>,
}

impl BlockStats {
    /// The snapshot as a JSON object.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}
