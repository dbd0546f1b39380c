//! Data-parallel segments for `chain`: a run of stateless in-place blocks
//! that the partition would cut between cores runs on all those cores at
//! once instead, each core taking whole chunks through every block of the
//! run.
//!
//! Cutting such a run (saxpy: source → 12 × `a·x + b` → sink on 2 cores)
//! moves every chunk from one core to the other in the middle of the run,
//! and the balance is only as good as the cut. A segment instead gives
//! each core a *lane*: a lane claims the next chunk its upstream published,
//! applies every block's arithmetic to it where it lies, and completes it.
//! Only the chunks another core claims move, and a core that also runs the
//! source simply claims fewer chunks. Blocks opt in through
//! [`Block::parallel_in_place`](crate::Block::parallel_in_place).
//!
//! The protocol, on the segment's input edge (its first block's input)
//! and output edge (its last block's output), which share one ring:
//! - `claimed` is the first unclaimed position. A lane first announces the
//!   position it is about to claim in its own `in_flight` word, then
//!   advances `claimed` past its chunk with a compare-and-swap, and resets
//!   `in_flight` when the chunk is done.
//! - Every item below `claimed` and below every announced position is
//!   done, so any lane may publish that position as the output's write
//!   position (`fetch_max`: the output never moves back). All of these
//!   accesses are sequentially consistent; see [`ParallelSegment::publish`].
//! - The upstream writer reuses ring space only below what the output's
//!   readers consumed (the in-place rule of `positions`), and they never
//!   read past the published position, so a claimed chunk belongs to its
//!   lane alone until it is completed.
//!
//! This module owns segment discovery and the lanes; it never decides
//! where lanes run (that is `chain`'s partition).

use super::thread::ThreadWaker;
use crate::block::stateless::ParallelInPlace;
use crate::buffer::circular::CircularBuffer;
use crate::buffer::{EdgeHandle, downcast_edge};
use crate::control::RunControl;
use crate::cycles;
use crate::error::RunError;
use crate::runner::{BlockRunner, Step, panic_message};
use crate::signal::{Signal, Wake};
use crate::stats::{StatsCell, ThreadUsage, TimingSampler, WorkTally};
use crossbeam_utils::CachePadded;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::Thread;

/// `in_flight` value of a lane holding no chunk.
const IDLE: u64 = u64::MAX;

/// The runs of blocks (partitioner slots, in stream order) worth running
/// data-parallel: maximal chains of runners that offer
/// [`BlockRunner::parallel_in_place`], each the only reader of the one
/// before, whose blocks `part_of` spreads over two or more workers.
pub(crate) fn find(runners: &[BlockRunner], part_of: &[usize]) -> Vec<Vec<usize>> {
    let slot_of: std::collections::HashMap<usize, usize> = runners
        .iter()
        .enumerate()
        .map(|(s, r)| (r.index(), s))
        .collect();
    let eligible: Vec<bool> = runners
        .iter()
        .map(|r| r.parallel_in_place().is_some())
        .collect();
    // The eligible block right after slot `s` in a segment.
    let next = |s: usize| -> Option<usize> {
        let readers: Vec<usize> = runners[s].downstream().collect();
        match readers[..] {
            [reader] => slot_of.get(&reader).copied().filter(|&n| eligible[n]),
            _ => None,
        }
    };
    let mut has_prev = vec![false; runners.len()];
    for s in (0..runners.len()).filter(|&s| eligible[s]) {
        if let Some(n) = next(s) {
            has_prev[n] = true;
        }
    }
    let mut segments = Vec::new();
    for start in (0..runners.len()).filter(|&s| eligible[s] && !has_prev[s]) {
        let mut members = vec![start];
        while let Some(n) = next(*members.last().expect("non-empty")) {
            members.push(n);
        }
        let first = part_of[start];
        if members.iter().any(|&m| part_of[m] != first) {
            segments.push(members);
        }
    }
    segments
}

/// The waker of a segment's first and last blocks: passes every
/// notification of their signals (input items, input finished, stop,
/// output readers detaching) on to each lane's own signal. Lanes cannot
/// share a block's flag: one lane's look would clear a notification
/// another lane has not seen.
struct FanOut(Vec<Arc<Signal>>);

impl Wake for FanOut {
    fn wake(&self) {
        for s in &self.0 {
            s.notify();
        }
    }
}

/// One data-parallel segment: its blocks' runners (kept for their
/// lifecycle and statistics; their `work` is never called), their shared
/// arithmetic, and the claim words its lanes share.
pub(crate) struct ParallelSegment {
    runners: Mutex<Vec<BlockRunner>>,
    kernels: Vec<Arc<dyn ParallelInPlace>>,
    stats: Vec<Arc<StatsCell>>,
    names: Vec<String>,
    indices: Vec<usize>,
    upstream: usize,
    /// The first block's input edge and the memory of its ring.
    input: EdgeHandle,
    ring: Arc<CircularBuffer>,
    /// The last block's output edge (a view of the same ring).
    output: EdgeHandle,
    /// Most items one claim takes.
    chunk: u64,
    /// Unclaimed items a lane beside the upstream writer leaves to the
    /// other lanes: half the ring. That lane's worker produces every
    /// chunk; when it claimed whatever appeared, the writer waited behind
    /// its chunk, the other lanes starved, and it did most of the work
    /// (saxpy, 12 blocks on 2 cores: 2.1e10 block-items/s; with half a
    /// ring of reserve 3.0e10, and within 2 % of that from a third to two
    /// thirds of a ring; two chunks: 2.8e10).
    reserve: u64,
    item_size: usize,
    claimed: CachePadded<AtomicU64>,
    /// Per lane: the position it announced or holds, or [`IDLE`].
    in_flight: Box<[CachePadded<AtomicU64>]>,
    finished: AtomicBool,
    control: Arc<RunControl>,
    /// The first block's signal: notified when the input gets items or
    /// finishes, and on stop; passes that on to `lane_signals`.
    signal: Arc<Signal>,
    /// The last block's signal: notified when the output's readers
    /// consume or detach; passes that on to `lane_signals`.
    output_signal: Arc<Signal>,
    /// Per lane: the flag that makes it due, waking its worker.
    lane_signals: Vec<Arc<Signal>>,
}

impl ParallelSegment {
    /// Takes over `runners` (a segment found by [`find`], in stream order)
    /// for one lane per thread of `lane_threads`, and installs the wakers
    /// of its first and last blocks. Hands the runners back, untouched, if
    /// the first block's input is not a host ring.
    pub(crate) fn new(
        runners: Vec<BlockRunner>,
        lane_threads: &[Thread],
    ) -> Result<Arc<Self>, Vec<BlockRunner>> {
        let kernels: Option<Vec<_>> = runners.iter().map(|r| r.parallel_in_place()).collect();
        let first = &runners[0].inputs[0].edge;
        let ring = downcast_edge::<CircularBuffer>(first.edge().clone());
        let (Some(kernels), Some(ring)) = (kernels, ring) else {
            return Err(runners);
        };
        if kernels.iter().any(|k| k.item_size() != ring.item_size()) {
            return Err(runners);
        }
        let last = runners.last().expect("segments are not empty");
        let output = EdgeHandle::new(last.outputs[0].edge.edge().clone());
        let input = EdgeHandle::new(first.edge().clone());
        let chunk = input.words().chunk_items().max(1) as u64;
        // Where the first block stopped reading (0 on a fresh run).
        let start = input.words().read_by(runners[0].inputs[0].reader);
        // Every lane completes up to a chunk per round of its worker, so
        // the output's readers may take that many chunks per call: at one
        // chunk per call, a reader sharing a worker with one lane falls
        // behind the others and stalls the upstream writer for space.
        let lanes = lane_threads.len().max(1);
        output
            .words()
            .limit_chunk(input.words().chunk_items().saturating_mul(lanes));
        let lane_signals: Vec<Arc<Signal>> = lane_threads
            .iter()
            .map(|t| {
                let s = Signal::new();
                s.set_waker(Arc::new(ThreadWaker(t.clone())));
                s
            })
            .collect();
        let signal = runners[0].signal.clone();
        let output_signal = last.signal.clone();
        // The first block's signal hears of input items, the input's end
        // and stop; the last block's of the output's readers detaching
        // (a `Head` downstream). Lanes look at both.
        for s in [&signal, &output_signal] {
            s.set_waker(Arc::new(FanOut(lane_signals.clone())));
            // Lanes on other cores look at these signals: keep the fence.
            s.set_polled_locally(false);
        }
        Ok(Arc::new(Self {
            kernels,
            stats: runners.iter().map(|r| r.stats.clone()).collect(),
            names: runners.iter().map(|r| r.name().to_string()).collect(),
            indices: runners.iter().map(|r| r.index()).collect(),
            upstream: runners[0].inputs[0].writer,
            item_size: ring.item_size(),
            reserve: (input.words().capacity() as u64 / 2).max(chunk),
            input,
            ring,
            output,
            chunk,
            claimed: CachePadded::new(AtomicU64::new(start)),
            in_flight: (0..lane_threads.len())
                .map(|_| CachePadded::new(AtomicU64::new(IDLE)))
                .collect(),
            finished: AtomicBool::new(false),
            control: runners[0].control.clone(),
            signal,
            output_signal,
            lane_signals,
            runners: Mutex::new(runners),
        }))
    }

    /// Block indices of the segment, in stream order.
    pub(crate) fn block_indices(&self) -> &[usize] {
        &self.indices
    }

    /// Block index of the segment's upstream writer (its input's writer).
    pub(crate) fn upstream_block(&self) -> usize {
        self.upstream
    }

    /// The lane `id` (its thread is `lane_threads[id]` of [`new`](Self::new)).
    /// `beside_upstream`: its worker also runs the upstream writer.
    pub(crate) fn lane(self: &Arc<Self>, id: usize, beside_upstream: bool) -> Lane {
        let blocks = self.kernels.len();
        Lane {
            segment: self.clone(),
            id,
            timing: (0..blocks)
                .map(|k| TimingSampler::new(self.indices[k] * 31 + id))
                .collect(),
            tallies: (0..blocks).map(|_| WorkTally::default()).collect(),
            done: false,
            beside_upstream,
        }
    }

    /// Hands the runners back once every lane is gone (all finished).
    pub(crate) fn into_runners(self: Arc<Self>) -> Vec<BlockRunner> {
        std::mem::take(&mut *self.runners.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Claims the next chunk below `written` for lane `lane`.
    fn claim(&self, lane: usize, written: u64) -> Option<(u64, u64)> {
        let announced = &self.in_flight[lane];
        loop {
            let at = self.claimed.load(Ordering::SeqCst);
            if at >= written {
                // A stale announcement (another lane claimed that chunk
                // first) may have held back its publication: publish now,
                // or those items could wait for the next chunk for ever.
                if announced.swap(IDLE, Ordering::SeqCst) != IDLE {
                    self.publish();
                }
                return None;
            }
            // Announce before claiming: whoever sees the claim moved past
            // this chunk then also sees it is not done (see `publish`).
            announced.store(at, Ordering::SeqCst);
            let end = written.min(at + self.chunk);
            if self
                .claimed
                .compare_exchange(at, end, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return Some((at, end));
            }
        }
    }

    /// Lane `lane` completed its chunk: publish what is done.
    fn complete(&self, lane: usize) {
        self.in_flight[lane].store(IDLE, Ordering::SeqCst);
        self.publish();
    }

    /// Publishes every completed item as written on the output. A chunk
    /// that was claimed before `claimed` is read below was announced
    /// before that claim (program order, and a single total order over
    /// these sequentially consistent accesses), so the scan below sees its
    /// announcement, or a later value stored after it completed, whose
    /// load then orders the chunk's items before the publication.
    fn publish(&self) {
        let claimed = self.claimed.load(Ordering::SeqCst);
        let done = self
            .in_flight
            .iter()
            .map(|a| a.load(Ordering::SeqCst))
            .fold(claimed, u64::min);
        self.output.words().publish_write_at_least(done);
    }

    /// True once every item `written` upstream is claimed and completed.
    fn drained(&self, written: u64) -> bool {
        self.claimed.load(Ordering::SeqCst) >= written
            && self
                .in_flight
                .iter()
                .all(|a| a.load(Ordering::SeqCst) == IDLE)
    }

    /// Ends the segment (once): publishes what is done, then finishes
    /// every block (outputs end, inputs detach) and wakes all lanes.
    fn finish(&self) {
        if self.finished.swap(true, Ordering::AcqRel) {
            return;
        }
        self.publish();
        for r in self
            .runners
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter_mut()
        {
            r.finish();
        }
        for s in &self.lane_signals {
            s.notify();
        }
    }
}

/// One core's share of a [`ParallelSegment`], run by that core's worker
/// like a block.
pub(crate) struct Lane {
    segment: Arc<ParallelSegment>,
    id: usize,
    /// Per block of the segment.
    timing: Vec<TimingSampler>,
    /// Per block: counters not yet added to its statistics.
    tallies: Vec<WorkTally>,
    done: bool,
    /// The worker also runs the segment's upstream writer: while that
    /// writer is producing, claim only beyond a backlog of
    /// [`ParallelSegment::reserve`] items (see there).
    beside_upstream: bool,
}

impl Lane {
    /// True once the lane stopped.
    pub(crate) fn is_done(&self) -> bool {
        self.done
    }

    /// Adds the lane's thread's context switches to every block of the
    /// segment (`sharing`: tasks on that thread).
    pub(crate) fn record_thread_usage(&self, usage: ThreadUsage, sharing: usize) {
        for stats in &self.segment.stats {
            stats.record_thread(usage, sharing as u64);
        }
    }

    /// The signal that makes this lane due.
    pub(crate) fn signal(&self) -> &Arc<Signal> {
        &self.segment.lane_signals[self.id]
    }

    /// Claims and processes one chunk, or decides the segment is over.
    pub(crate) fn run_once(&mut self) -> Step {
        if self.done {
            return Step::Done;
        }
        let seg = Arc::clone(&self.segment);
        if seg.finished.load(Ordering::Acquire) {
            return self.retire();
        }
        if seg.control.is_stopping() || seg.output.words().attached_readers() == 0 {
            seg.finish();
            return self.retire();
        }
        // While chunks keep coming, skip the wake-up flags: clearing the
        // block's flag writes a line the upstream writer and every lane
        // touch. The poller runs a lane again after progress anyway.
        if let Some(step) = self.try_chunk(&seg) {
            return step;
        }
        // Nothing to claim: look (own flag first, then the blocks': a
        // notification after any of them reaches this lane's flag again,
        // see `FanOut`), then check once more before idling.
        seg.lane_signals[self.id].begin_look();
        seg.signal.begin_look();
        seg.output_signal.begin_look();
        if seg.output.words().attached_readers() == 0 {
            seg.finish();
            return self.retire();
        }
        if let Some(step) = self.try_chunk(&seg) {
            return step;
        }
        Step::Idle { until: None }
    }

    /// Claims and processes a chunk, or ends the segment when the upstream
    /// writer finished and every item is done; `None` if neither.
    fn try_chunk(&mut self, seg: &ParallelSegment) -> Option<Step> {
        // Read "finished" before the position: then `written` is final.
        let upstream_done = seg.input.words().writer_finished();
        let written = seg.input.words().published_write();
        let backlog = written.saturating_sub(seg.claimed.load(Ordering::Relaxed));
        if self.beside_upstream && !upstream_done && backlog < seg.reserve {
            return None;
        }
        if let Some((from, to)) = seg.claim(self.id, written) {
            if !self.process(seg, from, to) {
                // Half-processed: the announcement stays, so nothing from
                // `from` on is ever published.
                seg.finish();
                return Some(self.retire());
            }
            seg.complete(self.id);
            return Some(Step::Progress);
        }
        if upstream_done && seg.drained(written) {
            seg.finish();
            return Some(self.retire());
        }
        None
    }

    /// Applies every block of the segment to items `from..to`, then
    /// forwards their tags to the output. False if a block panicked (the
    /// run is then failing).
    fn process(&mut self, seg: &ParallelSegment, from: u64, to: u64) -> bool {
        let n = (to - from) as usize;
        // SAFETY: `from..to` lies below the input's published write
        // position (acquired in `try_chunk`), so the upstream block wrote
        // those items and released them; this lane claimed them alone
        // (`claim`'s compare-and-swap); the output's readers see nothing
        // past `from` until this lane completes them (`publish` stops at
        // announced positions), and the upstream writer reuses only slots
        // those readers consumed. `n` is at most the ring's chunk limit,
        // at most its capacity, and the ring is mapped twice in a row, so
        // `n` items from `item_ptr(from)` are one valid, exclusive range,
        // aligned for the item type (the ring starts on a page).
        let items =
            unsafe { std::slice::from_raw_parts_mut(seg.ring.item_ptr(from), n * seg.item_size) };
        for (k, kernel) in seg.kernels.iter().enumerate() {
            let sample = self.timing[k].time_next();
            let start = if sample.timed() { cycles::now() } else { 0 };
            let result = catch_unwind(AssertUnwindSafe(|| kernel.apply(items)));
            let ticks = if sample.timed() {
                cycles::now().wrapping_sub(start)
            } else {
                0
            };
            if let Err(payload) = result {
                seg.control.fail(RunError::BlockPanicked {
                    block: seg.names[k].clone(),
                    message: panic_message(&*payload),
                });
                return false;
            }
            self.tallies[k].record(&seg.stats[k], n as u64, n as u64, sample, ticks);
        }
        // Blocks of a segment propagate tags 1:1: they arrive unchanged.
        let output = seg.output.words();
        seg.input
            .words()
            .for_each_tag(from..to, &mut |t| output.add_tag(t.clone()));
        true
    }

    /// Stops the lane, adding its counters to the blocks' statistics.
    fn retire(&mut self) -> Step {
        self.done = true;
        for (tally, stats) in self.tallies.iter_mut().zip(&self.segment.stats) {
            stats.add_tally(tally);
        }
        Step::Done
    }
}
