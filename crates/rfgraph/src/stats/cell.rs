//! [`StatsCell`]: the live counters of one block, shared by the threads
//! that run it and whoever reads them, and the estimates made from them
//! (time in `work` scaled from samples, busy time, snapshots).
//!
//! Written only in batches (a [`WorkTally`] at a time, a burst of messages,
//! a thread's end), with relaxed atomic adds: it must never take a lock
//! or be written on every block call.

use super::report::{BlockStats, HISTOGRAM_BUCKETS};
use super::{ThreadUsage, WorkTally};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The live counters of one block; the `work` counters come first, on one
/// cache line (they arrive in batches, see [`WorkTally`]).
#[repr(C)]
pub(crate) struct StatsCell {
    work_calls: AtomicU64,
    consumed: AtomicU64,
    produced: AtomicU64,
    /// The first calls, every one timed: their count and total time.
    early_calls: AtomicU64,
    early_ticks: AtomicU64,
    /// The calls that the samples timed at random after those stand for
    /// (each weighted by its sampler's spacing, see
    /// [`WorkTally::record_time`]), and their weighted time. Times are in
    /// [`cycles`](crate::cycles) ticks.
    sampled_calls: AtomicU64,
    sampled_ticks: AtomicU64,
    messages: AtomicU64,
    /// Time in message handlers, in ticks.
    message_ticks: AtomicU64,
    histogram: [AtomicU64; HISTOGRAM_BUCKETS],
    pub(crate) block: String,
    pub(crate) type_name: String,
    pub(crate) transfer: bool,
    voluntary: AtomicU64,
    involuntary: AtomicU64,
    sharing: AtomicU64,
    /// Worst lateness of a timer the block asked for, in nanoseconds.
    timer_late_max_ns: AtomicU64,
    /// Timers served later than the flowgraph's latency budget.
    timers_over_budget: AtomicU64,
    /// The block's own counters (see `Block::counters`), read only by
    /// snapshots.
    own: Vec<(&'static str, Arc<AtomicU64>)>,
}

/// Adds `by` to a counter. An atomic add, not a load and a store: the
/// lanes of a data-parallel segment (`scheduler::segment`) add to one
/// block's counters from several threads. Counters are added in batches
/// (see [`WorkTally`]), so the locked add costs a few cycles per call.
#[inline]
fn bump(a: &AtomicU64, by: u64) {
    a.fetch_add(by, Relaxed);
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
            early_calls: AtomicU64::new(0),
            early_ticks: AtomicU64::new(0),
            sampled_calls: AtomicU64::new(0),
            sampled_ticks: AtomicU64::new(0),
            messages: AtomicU64::new(0),
            message_ticks: AtomicU64::new(0),
            histogram: std::array::from_fn(|_| AtomicU64::new(0)),
            voluntary: AtomicU64::new(0),
            involuntary: AtomicU64::new(0),
            sharing: AtomicU64::new(1),
            timer_late_max_ns: AtomicU64::new(0),
            timers_over_budget: AtomicU64::new(0),
            own: Vec::new(),
        }
    }

    /// Adds the calls counted in `tally` and empties it.
    #[inline(never)]
    pub(crate) fn add_tally(&self, tally: &mut WorkTally) {
        // Each add is a locked instruction: skip the counters this batch
        // left at zero (a source consumes nothing, most batches hold no
        // early call).
        for (counter, by) in [
            (&self.work_calls, tally.calls()),
            (&self.histogram[tally.bucket], tally.calls()),
            (&self.consumed, tally.consumed),
            (&self.produced, tally.produced),
            (&self.early_calls, tally.early_calls),
            (&self.early_ticks, tally.early_ticks),
            (&self.sampled_calls, tally.sampled_calls),
            (&self.sampled_ticks, tally.sampled_ticks),
        ] {
            if by != 0 {
                bump(counter, by);
            }
        }
        *tally = WorkTally {
            flush_at: tally.flush_at,
            room: tally.flush_at,
            bucket: tally.bucket,
            last_items: tally.last_items,
            ..WorkTally::default()
        };
    }

    #[inline]
    pub(crate) fn record_messages(&self, count: u64, ticks: u64) {
        bump(&self.messages, count);
        bump(&self.message_ticks, ticks);
    }

    /// Items consumed and produced so far (as recorded: a burst in
    /// progress shows in steps).
    pub(crate) fn items_moved(&self) -> u64 {
        self.consumed.load(Relaxed) + self.produced.load(Relaxed)
    }

    /// Messages handled so far (as recorded: a burst in progress shows
    /// in steps of a few).
    pub(crate) fn messages(&self) -> u64 {
        self.messages.load(Relaxed)
    }

    /// A timer the block asked for was served `late` after its instant;
    /// `over_budget`: later than the flowgraph's latency budget.
    #[cold]
    pub(crate) fn record_timer_lateness(&self, late: std::time::Duration, over_budget: bool) {
        let ns = u64::try_from(late.as_nanos()).unwrap_or(u64::MAX);
        self.timer_late_max_ns.fetch_max(ns, Relaxed);
        if over_budget {
            bump(&self.timers_over_budget, 1);
        }
    }

    pub(crate) fn record_thread(&self, usage: ThreadUsage, sharing: u64) {
        bump(&self.voluntary, usage.voluntary);
        bump(&self.involuntary, usage.involuntary);
        self.sharing.store(sharing.max(1), Relaxed);
    }

    /// Estimated ticks in all `work` calls: the early calls as measured,
    /// plus the random samples scaled up to every later call.
    pub(crate) fn work_ticks(&self) -> u64 {
        let calls = self.work_calls.load(Relaxed) as u128;
        let early_calls = self.early_calls.load(Relaxed) as u128;
        let early = self.early_ticks.load(Relaxed) as u128;
        let sampled_calls = self.sampled_calls.load(Relaxed) as u128;
        let sampled = self.sampled_ticks.load(Relaxed) as u128;
        let later = calls.saturating_sub(early_calls);
        // With no sample yet, the early calls are all there is to go on.
        let ticks = (sampled * later)
            .checked_div(sampled_calls)
            .map(|rest| early + rest)
            .or_else(|| (early * calls).checked_div(early_calls))
            .unwrap_or(0);
        ticks as u64
    }

    /// Estimated ticks in `work` and in message handlers: the block's
    /// whole cost to the thread running it.
    pub(crate) fn busy_ticks(&self) -> u64 {
        self.work_ticks() + self.message_ticks.load(Relaxed)
    }

    pub(crate) fn snapshot(&self) -> BlockStats {
        BlockStats {
            block: self.block.clone(),
            type_name: self.type_name.clone(),
            work_calls: self.work_calls.load(Relaxed),
            items_consumed: self.consumed.load(Relaxed),
            items_produced: self.produced.load(Relaxed),
            messages_handled: self.messages.load(Relaxed),
            work_ns: crate::cycles::to_ns(self.busy_ticks()),
            items_per_call_log2: self.histogram.iter().map(|h| h.load(Relaxed)).collect(),
            voluntary_context_switches: self.voluntary.load(Relaxed),
            involuntary_context_switches: self.involuntary.load(Relaxed),
            blocks_sharing_thread: self.sharing.load(Relaxed),
            transfer: self.transfer,
            timer_late_max_ns: self.timer_late_max_ns.load(Relaxed),
            timers_over_budget: self.timers_over_budget.load(Relaxed),
            counters: self
                .own
                .iter()
                .map(|(name, c)| (name.to_string(), c.load(Relaxed)))
                .collect(),
        }
    }

    /// Adds the block's own counters to its snapshots.
    pub(crate) fn with_counters(mut self, own: Vec<(&'static str, Arc<AtomicU64>)>) -> Self {
        self.own = own;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::sampler::Sample;
    use crate::stats::tally::tests::call;

    #[test]
    fn sampled_work_time_is_scaled_to_every_call() {
        let s = StatsCell::new("b".into(), "T".into(), false);
        let mut tally = WorkTally::default();
        // 4 early calls of 5000 ticks, then 10 sampled calls of 1000 ticks
        // and 30 untimed ones of the same length: the slow early calls
        // stand for themselves only.
        for _ in 0..4 {
            call(&mut tally, &s, 1, 1, Some(Sample::Early), 5000);
        }
        for i in 0..40 {
            let sample = if i % 4 == 0 {
                Some(Sample::Random)
            } else {
                None
            };
            call(&mut tally, &s, 1, 1, sample, 1000);
        }
        s.add_tally(&mut tally);
        assert_eq!(s.work_ticks(), 4 * 5000 + 40_000);
        // Before the first sample, the early calls are scaled.
        let early = StatsCell::new("b".into(), "T".into(), false);
        call(&mut tally, &early, 1, 1, Some(Sample::Early), 700);
        call(&mut tally, &early, 1, 1, None, 0);
        early.add_tally(&mut tally);
        assert_eq!(early.work_ticks(), 1400);
        let none = StatsCell::new("b".into(), "T".into(), false);
        call(&mut tally, &none, 1, 1, None, 0);
        none.add_tally(&mut tally);
        assert_eq!(none.work_ticks(), 0);
    }

    #[test]
    fn busy_time_counts_message_handlers_too() {
        let s = StatsCell::new("b".into(), "T".into(), false);
        let mut tally = WorkTally::default();
        call(&mut tally, &s, 1, 1, Some(Sample::Early), 700);
        s.add_tally(&mut tally);
        s.record_messages(3, 9000);
        assert_eq!(s.work_ticks(), 700);
        assert_eq!(s.busy_ticks(), 9700);
    }
}
