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
    /// Nanoseconds spent inside `work` and message handlers. Handlers are
    /// timed always; `work` calls are timed on a random sample (every call
    /// for the first [`ALWAYS_TIMED_CALLS`], then one in
    /// [`TIMING_PERIOD`] to [`MAX_TIMING_PERIOD`] on average, the cheaper
    /// the calls the fewer) and the total is scaled from it: reading the
    /// clock twice per call costs more than a small chunk's copy in a VM.
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

/// `work` calls timed before sampling starts.
pub const ALWAYS_TIMED_CALLS: u64 = 64;
/// Shortest mean distance between timed `work` calls after the first
/// [`ALWAYS_TIMED_CALLS`]. A clock read costs tens of nanoseconds in this
/// VM; with one timed call in 16, the reads alone were 3–5 % of a block
/// call's runtime overhead (saxpy, 512-item chunks), and a run of
/// thousands of calls still yields hundreds of samples at 64.
pub const TIMING_PERIOD: u32 = 64;

/// Longest mean distance between timed `work` calls (see
/// [`TIMING_BUDGET_TICKS`]).
pub const MAX_TIMING_PERIOD: u32 = 1024;

/// Mean distance × mean length of a call (in [`cycles`](crate::cycles)
/// ticks) that sampling aims at: a timed call costs about 100 ticks here
/// (two clock reads and the bookkeeping), so timing stays near 1/160 of a
/// block's own time. Calls of a few hundred ticks or more are timed one
/// in [`TIMING_PERIOD`]; the cheapest (a source that only counts, ten
/// nanoseconds a call) one in several hundred, which an 8 ms refinement
/// window of theirs still samples dozens of times.
const TIMING_BUDGET_TICKS: u64 = 1 << 14;

/// Decides which `work` calls of one block get timed: all of the first
/// [`ALWAYS_TIMED_CALLS`], then one at random every 1 to 2 × P - 1 calls,
/// so periodic patterns in call lengths cannot bias the estimate. The
/// mean distance P is set once, from the early calls' mean length (see
/// [`TIMING_BUDGET_TICKS`]), so every later call has the same chance.
/// Owned by the thread running the block.
#[derive(Debug)]
#[repr(C)]
pub(crate) struct TimingSampler {
    /// Calls until the next timed one; the untimed calls in between cost
    /// a decrement and a branch.
    countdown: u16,
    /// Early calls still to time.
    early_left: u16,
    /// The mean distance between random samples.
    period: u16,
    state: u32,
    /// Ticks of the early calls timed so far (saturating: calls of a
    /// second make the period the shortest anyway). Small fields keep the
    /// sampler to 16 bytes, so that the runner's steady fields fit two
    /// cache lines.
    early_ticks: u32,
}

impl TimingSampler {
    pub(crate) fn new(seed: usize) -> Self {
        Self {
            countdown: 1,
            early_left: ALWAYS_TIMED_CALLS as u16,
            state: (seed as u32).wrapping_mul(0x9E37_79B9) | 1,
            period: TIMING_PERIOD as u16,
            early_ticks: 0,
        }
    }

    /// Whether the next `work` call is timed: a decrement and a branch.
    /// When it says so, [`take`](Self::take) tells how.
    #[inline(always)]
    pub(crate) fn due(&mut self) -> bool {
        self.countdown -= 1;
        self.countdown == 0
    }

    /// Runs `call`, timing it when the sampler says so (see
    /// [`due`](Self::due)); a timed call's time waits in `tally` for
    /// [`WorkTally::count`] to count the call, so the untimed case carries
    /// nothing about time. The timed case runs out of line.
    #[inline(always)]
    pub(crate) fn run<R>(&mut self, tally: &mut WorkTally, call: impl FnOnce() -> R) -> R {
        if self.due() {
            self.run_due(tally, call)
        } else {
            call()
        }
    }

    /// Runs and times `call`, the call that [`due`](Self::due) just
    /// announced (see [`run`](Self::run)); out of line.
    #[inline(never)]
    #[cold]
    pub(crate) fn run_due<R>(&mut self, tally: &mut WorkTally, call: impl FnOnce() -> R) -> R {
        let sample = self.take();
        let start = crate::cycles::now();
        let result = call();
        let ticks = crate::cycles::now().wrapping_sub(start);
        if sample == Sample::Early {
            self.note_early(ticks);
        }
        // A random sample stands for the calls its distance was drawn
        // over: `period` on average (it changes only before the first).
        tally.record_time(sample, ticks, u64::from(self.period));
        result
    }

    /// Adds an early call's time; after the last one, sets the distance
    /// between random samples from their mean (see
    /// [`TIMING_BUDGET_TICKS`]) and draws the first: the call after the
    /// early ones is no likelier to be timed than any other.
    fn note_early(&mut self, ticks: u64) {
        let ticks = u32::try_from(ticks).unwrap_or(u32::MAX);
        self.early_ticks = self.early_ticks.saturating_add(ticks);
        if self.early_left == 0 {
            let mean = (u64::from(self.early_ticks) / ALWAYS_TIMED_CALLS).max(1);
            self.period = (TIMING_BUDGET_TICKS / mean)
                .clamp(u64::from(TIMING_PERIOD), u64::from(MAX_TIMING_PERIOD))
                as u16;
            self.countdown = self.draw_distance();
        }
    }

    /// Whether (and why) the next `work` call should be timed.
    #[cfg(test)]
    fn time_next(&mut self) -> Option<Sample> {
        self.due().then(|| self.take())
    }

    /// The timed call that [`due`](Self::due) announced: early, or a
    /// random sample that also draws the distance to the next one.
    #[inline(never)]
    fn take(&mut self) -> Sample {
        if self.early_left > 0 {
            self.early_left -= 1;
            self.countdown = 1;
            return Sample::Early;
        }
        self.countdown = self.draw_distance();
        Sample::Random
    }

    /// Calls to the next random sample: 1 to 2 × `period` - 1.
    fn draw_distance(&mut self) -> u16 {
        // xorshift32: cheap, and good enough to scatter sample points.
        let mut x = self.state;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.state = x;
        1 + (x % (2 * u32::from(self.period) - 1)) as u16
    }
}

/// How a `work` call is timed (see [`TimingSampler`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sample {
    /// One of the first [`ALWAYS_TIMED_CALLS`]: these stand for themselves
    /// only. They often differ from the rest (ring pages faulted in, cold
    /// caches); scaling them up with the random samples would inflate the
    /// estimate.
    Early,
    /// A random sample standing for every later call, weighted by the
    /// calls between samples (see [`WorkTally::record_time`]).
    Random,
}

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
    room: u64,
    /// Items consumed and produced by the last call counted (its bucket
    /// is `bucket`).
    last_items: (u64, u64),
    consumed: u64,
    produced: u64,
    /// The batch size: calls in the tally at which it flushes (see the
    /// type); kept across flushes.
    flush_at: u64,
    /// The histogram bucket of every call in the tally.
    bucket: usize,
    early_calls: u64,
    early_ticks: u64,
    sampled_calls: u64,
    sampled_ticks: u64,
    /// The time of the timed call not yet counted (see
    /// [`record_time`](Self::record_time)).
    timed: Option<(Sample, u64, u64)>,
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
    fn calls(&self) -> u64 {
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One `work` call as the runner counts it (`ticks` count only when
    /// `sample` is timed).
    fn call(
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

    #[test]
    fn sampler_times_every_early_call_then_about_one_in_period() {
        let mut sampler = TimingSampler::new(7);
        let early = (0..ALWAYS_TIMED_CALLS)
            .filter(|_| sampler.time_next() == Some(Sample::Early))
            .count();
        assert_eq!(early as u64, ALWAYS_TIMED_CALLS);
        let later = 160_000;
        let timed = (0..later)
            .filter(|_| sampler.time_next() == Some(Sample::Random))
            .count();
        let expected = later / TIMING_PERIOD as usize;
        assert!(
            timed > expected * 8 / 10 && timed < expected * 12 / 10,
            "{timed} timed, expected about {expected}"
        );
        // Never two untimed stretches longer than the sampler allows.
        let mut gap = 0;
        for _ in 0..10_000 {
            if sampler.time_next().is_some() {
                gap = 0;
            } else {
                gap += 1;
                assert!(gap < 2 * TIMING_PERIOD as usize);
            }
        }
    }

    /// After the early calls, the mean distance between samples follows
    /// their mean length: cheap calls are timed less often, down to one
    /// in `MAX_TIMING_PERIOD`, long ones one in `TIMING_PERIOD`.
    #[test]
    fn cheap_calls_are_sampled_less_often() {
        for (ticks, period) in [(25, 655), (10_000, TIMING_PERIOD), (1, MAX_TIMING_PERIOD)] {
            let mut sampler = TimingSampler::new(3);
            for _ in 0..ALWAYS_TIMED_CALLS {
                assert_eq!(sampler.time_next(), Some(Sample::Early));
                sampler.note_early(ticks);
            }
            assert_eq!(u32::from(sampler.period), period, "calls of {ticks} ticks");
            let later = 400 * period as usize;
            let timed = (0..later)
                .filter(|_| sampler.time_next() == Some(Sample::Random))
                .count();
            assert!(
                (320..480).contains(&timed),
                "{timed} samples in {later} calls"
            );
        }
    }

    /// Samplers that space their samples differently and share one cell
    /// (a segment's lanes: a starved lane makes cheap calls) still
    /// estimate the cell's time: each sample stands for the calls its
    /// sampler skips. Unweighted, the lane sampling 16 times as often
    /// counted 16 times as much, and this estimate was 1.9 times the
    /// truth.
    #[test]
    fn lanes_sampling_at_different_rates_share_an_unbiased_estimate() {
        let cell = StatsCell::new("b".into(), "T".into(), false);
        let lanes = [(2000u64, TIMING_PERIOD), (10, MAX_TIMING_PERIOD)];
        let mut truth = 0u64;
        for (seed, &(ticks, period)) in lanes.iter().enumerate() {
            let mut sampler = TimingSampler::new(seed + 1);
            let mut tally = WorkTally::default();
            for _ in 0..ALWAYS_TIMED_CALLS {
                assert_eq!(sampler.time_next(), Some(Sample::Early));
                sampler.note_early(ticks);
                tally.record_time(Sample::Early, ticks, 1);
                tally.count(&cell, 1, 1);
            }
            assert_eq!(u32::from(sampler.period), period);
            for _ in 0..1_000_000 {
                if let Some(sample) = sampler.time_next() {
                    tally.record_time(sample, ticks, u64::from(sampler.period));
                }
                tally.count(&cell, 1, 1);
            }
            cell.add_tally(&mut tally);
            truth += (ALWAYS_TIMED_CALLS + 1_000_000) * ticks;
        }
        let ratio = cell.work_ticks() as f64 / truth as f64;
        assert!((0.95..1.05).contains(&ratio), "estimate / truth = {ratio}");
    }

    /// The first random sample after the early calls lands anywhere in
    /// its first distance, not always on the next call.
    #[test]
    fn the_first_random_sample_is_drawn_too() {
        let firsts: Vec<usize> = (0..50)
            .map(|seed| {
                let mut sampler = TimingSampler::new(seed);
                for _ in 0..ALWAYS_TIMED_CALLS {
                    sampler.time_next();
                    sampler.note_early(25);
                }
                (1..).find(|_| sampler.time_next().is_some()).unwrap()
            })
            .collect();
        assert!(firsts.iter().all(|&n| n < 2 * 655), "{firsts:?}");
        assert!(firsts.iter().filter(|&&n| n == 1).count() < 5, "{firsts:?}");
    }

    #[test]
    fn thread_usage_counts_sleeps() {
        let before = ThreadUsage::current();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let after = ThreadUsage::current().since(before);
        assert!(after.voluntary >= 1);
    }
}
