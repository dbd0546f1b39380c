//! [`WorkTally`]: the `work` counters of one block, kept by the thread
//! running it and added to the block's shared cell in batches.
//!
//! A steady call must cost the tally a decrement, two comparisons and two
//! adds, and touch nothing shared; the tally must never hand the cell a
//! call's time without the call (see [`WorkTally::settle`]).

use super::StatsCell;
use super::report::HISTOGRAM_BUCKETS;
use super::sampler::Sample;

/// Most `work` calls a `WorkTally` holds before it adds them to the
/// block's `StatsCell`. Adding costs a locked add per counter (tens of
/// nanoseconds in all), so a block whose calls take a few hundred
/// nanoseconds adds once per this many.
pub const TALLY_CALLS: u64 = 256;

/// About how much work time (in [`cycles`](crate::cycles) ticks, some
/// 50 µs at common TSC rates) a `WorkTally` holds before it adds it to the
/// block's `StatsCell`, judged by the last timed call: a block whose calls
/// take that long adds after every call.
const TALLY_TICKS: u64 = 1 << 17;

/// The `work` counters of one block, kept by the thread running it in the
/// runner's own memory and added to the shared [`StatsCell`] in batches:
/// once a batch holds about [`TALLY_TICKS`] of work, judged by the last
/// timed call, and at most every [`TALLY_CALLS`] calls; before a call
/// lands in a different histogram bucket; and whenever the block idles or
/// finishes. A call then touches no line of the shared cell; in a chain
/// of blocks sharing one core, that is two lines per call fewer pushed out
/// by each data chunk. Live snapshots of a busy block lag by less than a
/// batch; those of an idle or finished block are exact.
///
/// `repr(C)`: what a steady call touches comes first.
#[derive(Debug)]
#[repr(C)]
pub(crate) struct WorkTally {
    /// Calls the batch takes before it flushes, at least one between
    /// calls: the tally holds `flush_at - room` calls (see
    /// [`calls`](Self::calls)). Counting down, a steady call's count
    /// costs one decrement.
    pub(super) room: u64,
    /// Items consumed and produced by the last call counted (its bucket
    /// is `bucket`).
    pub(super) last_items: (u64, u64),
    pub(super) consumed: u64,
    pub(super) produced: u64,
    /// The batch size: calls in the tally at which it flushes (see the
    /// type); kept across flushes.
    pub(super) flush_at: u64,
    /// The histogram bucket of every call in the tally.
    pub(super) bucket: usize,
    pub(super) early_calls: u64,
    pub(super) early_ticks: u64,
    pub(super) sampled_calls: u64,
    pub(super) sampled_ticks: u64,
    /// The time of the timed call not yet counted (see
    /// [`record_time`](Self::record_time)).
    pub(super) timed: Option<(Sample, u64, u64)>,
}

impl Default for WorkTally {
    fn default() -> Self {
        Self {
            flush_at: TALLY_CALLS,
            room: TALLY_CALLS,
            consumed: 0,
            produced: 0,
            last_items: (0, 0),
            bucket: 0,
            early_calls: 0,
            early_ticks: 0,
            sampled_calls: 0,
            sampled_ticks: 0,
            timed: None,
        }
    }
}

impl WorkTally {
    /// Bytes from the start of a tally that a steady call touches (see
    /// [`count_steady`](Self::count_steady)).
    #[cfg(test)]
    pub(crate) const STEADY_BYTES: usize = std::mem::offset_of!(WorkTally, flush_at);

    /// Counts one `work` call that consumed and produced these items,
    /// flushing into `cell` as described on the type. A timed call gave
    /// its time to [`record_time`](Self::record_time) first, so an untimed
    /// call carries nothing about time. A call that moves as many items as
    /// the last one and does not fill the batch (the steady state) costs
    /// two comparisons, a decrement and two adds, and calls nothing; a
    /// timed call always takes the other path.
    #[inline(always)]
    pub(crate) fn count(&mut self, cell: &StatsCell, consumed: u64, produced: u64) {
        if !self.count_steady(consumed, produced) {
            self.settle(cell, consumed, produced);
        }
    }

    /// The steady half of [`count`](Self::count): takes the call from the
    /// batch's room and counts it if it moved the same items as the last
    /// call and the batch has room left (true); otherwise leaves it to
    /// [`settle`](Self::settle) (false).
    #[inline(always)]
    pub(crate) fn count_steady(&mut self, consumed: u64, produced: u64) -> bool {
        self.room -= 1;
        if self.room != 0 && (consumed, produced) == self.last_items {
            self.count_items(consumed, produced);
            true
        } else {
            false
        }
    }

    /// Calls in the tally.
    pub(super) fn calls(&self) -> u64 {
        self.flush_at - self.room
    }

    /// Makes the batch `flush_at` calls long, or as long as the calls the
    /// tally holds if they are more (it then flushes at the next count).
    fn resize_batch(&mut self, flush_at: u64) {
        let calls = self.calls();
        self.flush_at = flush_at.max(calls);
        self.room = self.flush_at - calls;
    }

    /// Counts items that message handlers moved in a call that did not
    /// reach `work` (a handler finished the block): no `work` call to
    /// count, but the items went through the block's ports.
    #[inline(always)]
    pub(crate) fn count_items(&mut self, consumed: u64, produced: u64) {
        self.consumed += consumed;
        self.produced += produced;
    }

    /// Counts a call that [`count_steady`](Self::count_steady) took from
    /// the batch's room but left uncounted: one that was timed, moved
    /// other items than the last, or fills the batch.
    #[inline(never)]
    #[cold]
    pub(crate) fn settle(&mut self, cell: &StatsCell, consumed: u64, produced: u64) {
        // The call's time joins the tally with its count, after the flush
        // of another bucket's calls: no flush hands the cell a time
        // without its call.
        let timed = self.timed.take();
        if (consumed, produced) != self.last_items {
            // The earlier calls settle without this one.
            self.room += 1;
            self.enter_bucket_of(cell, consumed, produced);
            self.room -= 1;
        }
        self.count_items(consumed, produced);
        // A timed call sizes the batch anew (see `add_time`); a tally that
        // already holds that many calls flushes now, and the next batch
        // has the new size too.
        let batch = timed.map(|(sample, ticks, weight)| self.add_time(sample, ticks, weight));
        if let Some(batch) = batch {
            self.resize_batch(batch);
        }
        if self.room == 0 {
            cell.add_tally(self);
            if let Some(batch) = batch {
                self.resize_batch(batch);
            }
        }
    }

    /// Moves the tally to the histogram bucket of calls that consume and
    /// produce these items (the bucket of the items produced, or of those
    /// consumed by a call that produced none), flushing the calls of
    /// another bucket first.
    #[inline(never)]
    fn enter_bucket_of(&mut self, cell: &StatsCell, consumed: u64, produced: u64) {
        let n = if produced > 0 { produced } else { consumed };
        let bucket = ((64 - n.leading_zeros()) as usize).min(HISTOGRAM_BUCKETS - 1);
        if bucket != self.bucket {
            cell.add_tally(self);
            self.bucket = bucket;
        }
        self.last_items = (consumed, produced);
    }

    /// Notes the time of a timed `work` call, before
    /// [`count`](Self::count) counts the call and adds the time with it.
    /// A random sample counts `weight` times: the mean distance between
    /// samples of the sampler that drew it. Samplers sharing one cell
    /// (the lanes of a data-parallel segment) may space their samples
    /// differently, and unweighted, the one sampling most often would
    /// stand for every call.
    #[inline(never)]
    pub(crate) fn record_time(&mut self, sample: Sample, ticks: u64, weight: u64) {
        self.timed = Some((sample, ticks, weight.max(1)));
        // Sends the call's count down `settle` (its count takes
        // the last room), which sets the batch size again from `ticks`.
        self.resize_batch(self.calls() + 1);
    }

    /// Adds a counted call's time, and sizes batches from it.
    /// Returns the batch size that time asks for.
    fn add_time(&mut self, sample: Sample, ticks: u64, weight: u64) -> u64 {
        if sample == Sample::Early {
            self.early_calls += 1;
            self.early_ticks += ticks;
        } else {
            self.sampled_calls += weight;
            self.sampled_ticks = self
                .sampled_ticks
                .saturating_add(ticks.saturating_mul(weight));
        }
        // Slow blocks flush in small batches (a call of `TALLY_TICKS` or
        // more at once, with its count): their flush is cheap next to
        // them, and live readers (the `chain` scheduler's calibration) see
        // them without waiting for hundreds of their calls.
        (TALLY_TICKS / ticks.max(1)).clamp(1, TALLY_CALLS)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// One `work` call as the runner counts it (`ticks` count only when
    /// `sample` is timed).
    pub(crate) fn call(
        tally: &mut WorkTally,
        cell: &StatsCell,
        consumed: u64,
        produced: u64,
        sample: Option<Sample>,
        ticks: u64,
    ) {
        if let Some(sample) = sample {
            tally.record_time(sample, ticks, 1);
        }
        tally.count(cell, consumed, produced);
    }

    #[test]
    fn a_timed_call_of_tally_ticks_flushes_at_once() {
        let s = StatsCell::new("b".into(), "T".into(), false);
        let mut tally = WorkTally::default();
        call(&mut tally, &s, 10, 10, None, 0);
        call(&mut tally, &s, 10, 10, Some(Sample::Random), 5);
        assert_eq!(s.snapshot().work_calls, 0, "short calls wait for the batch");
        call(&mut tally, &s, 10, 10, Some(Sample::Random), TALLY_TICKS);
        // The long call is in, counted with its time.
        let snap = s.snapshot();
        assert_eq!(snap.work_calls, 3);
        assert_eq!(snap.items_consumed, 30);
        assert_eq!(s.work_ticks(), 3 * (TALLY_TICKS + 5) / 2);
    }

    /// A live reader never sees a call's time before the call: a timed
    /// call that lands in a new bucket flushes the calls before it, and
    /// only those.
    #[test]
    fn a_snapshot_never_times_a_call_it_has_not_counted() {
        let cell = StatsCell::new("b".into(), "T".into(), false);
        let mut tally = WorkTally::default();
        call(&mut tally, &cell, 10, 10, Some(Sample::Early), 100);
        call(&mut tally, &cell, 1000, 1000, Some(Sample::Early), 50_000);
        let snap = cell.snapshot();
        assert_eq!(snap.work_calls, 1);
        assert_eq!(cell.work_ticks(), 100);
        cell.add_tally(&mut tally);
        assert_eq!(cell.snapshot().work_calls, 2);
        assert_eq!(cell.work_ticks(), 50_100);
    }

    /// A slow timed call after many fast ones flushes them with it, and
    /// the batches after it are as short as its time asks for, not as
    /// long as the tally was.
    #[test]
    fn a_slow_call_shortens_the_batches_after_it() {
        let s = StatsCell::new("b".into(), "T".into(), false);
        let mut tally = WorkTally::default();
        for _ in 0..100 {
            call(&mut tally, &s, 10, 10, None, 0);
        }
        assert_eq!(s.snapshot().work_calls, 0);
        call(&mut tally, &s, 10, 10, Some(Sample::Random), TALLY_TICKS);
        assert_eq!(s.snapshot().work_calls, 101);
        call(&mut tally, &s, 10, 10, None, 0);
        assert_eq!(s.snapshot().work_calls, 102, "a batch of one call");
        call(&mut tally, &s, 10, 10, None, 0);
        assert_eq!(s.snapshot().work_calls, 103);
    }

    #[test]
    fn batches_hold_about_tally_ticks_of_work() {
        let s = StatsCell::new("b".into(), "T".into(), false);
        let mut tally = WorkTally::default();
        // Calls of a quarter of the batch time: a batch of four.
        call(&mut tally, &s, 10, 10, Some(Sample::Early), TALLY_TICKS / 4);
        for _ in 0..2 {
            call(&mut tally, &s, 10, 10, None, 0);
        }
        assert_eq!(s.snapshot().work_calls, 0);
        call(&mut tally, &s, 10, 10, None, 0);
        assert_eq!(s.snapshot().work_calls, 4);
        // The batch size stays until the next timed call: fast calls then
        // wait for a full batch of `TALLY_CALLS`.
        for _ in 0..4 {
            call(&mut tally, &s, 10, 10, None, 0);
        }
        assert_eq!(s.snapshot().work_calls, 8);
        call(&mut tally, &s, 10, 10, Some(Sample::Random), 1);
        for _ in 0..TALLY_CALLS - 2 {
            call(&mut tally, &s, 10, 10, None, 0);
        }
        assert_eq!(
            s.snapshot().work_calls,
            8,
            "flushed before the batch was full"
        );
        call(&mut tally, &s, 10, 10, None, 0);
        assert_eq!(s.snapshot().work_calls, 8 + TALLY_CALLS);
        let snap = s.snapshot();
        assert_eq!(snap.items_consumed, 10 * snap.work_calls);
        assert_eq!(snap.items_per_call_log2[4], snap.work_calls); // 10 < 2^4
    }

    #[test]
    fn histogram_buckets_are_log2() {
        let s = StatsCell::new("b".into(), "T".into(), false);
        let mut tally = WorkTally::default();
        call(&mut tally, &s, 0, 0, Some(Sample::Early), 1);
        call(&mut tally, &s, 1, 1, Some(Sample::Early), 1);
        call(&mut tally, &s, 1000, 1024, Some(Sample::Early), 1);
        call(&mut tally, &s, 7, 0, Some(Sample::Early), 1);
        s.add_tally(&mut tally);
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
    fn a_tally_reaches_the_cell_in_batches_and_loses_nothing() {
        let s = StatsCell::new("b".into(), "T".into(), false);
        let mut tally = WorkTally::default();
        for _ in 0..TALLY_CALLS - 1 {
            call(&mut tally, &s, 100, 100, None, 0);
        }
        assert_eq!(
            s.snapshot().work_calls,
            0,
            "flushed before the batch was full"
        );
        call(&mut tally, &s, 100, 100, None, 0);
        assert_eq!(s.snapshot().work_calls, TALLY_CALLS);
        // A call in another bucket flushes the calls before it first.
        call(&mut tally, &s, 1, 1, None, 0);
        call(&mut tally, &s, 3000, 3000, Some(Sample::Random), 5);
        let snap = s.snapshot();
        assert_eq!(snap.work_calls, TALLY_CALLS + 1);
        assert_eq!(snap.items_per_call_log2[7], TALLY_CALLS); // 100 < 2^7
        assert_eq!(snap.items_per_call_log2[1], 1);
        s.add_tally(&mut tally);
        let snap = s.snapshot();
        assert_eq!(snap.work_calls, TALLY_CALLS + 2);
        assert_eq!(snap.items_per_call_log2[12], 1); // 3000 < 2^12
        assert_eq!(snap.items_consumed, 100 * TALLY_CALLS + 3001);
        assert_eq!(snap.items_produced, 100 * TALLY_CALLS + 3001);
    }
}
