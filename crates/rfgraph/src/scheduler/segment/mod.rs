//! Data-parallel segments for `chain`: a run of stateless in-place blocks
//! that the partition would cut between cores runs on all those cores at
//! once instead, each core taking whole claims of items through every
//! block of the run.
//!
//! Cutting such a run (saxpy: source → 12 × `a·x + b` → sink on 2 cores)
//! moves every chunk from one core to the other in the middle of the run,
//! and the balance is only as good as the cut. A segment instead gives
//! each core a *lane*: a lane claims the next items its upstream published
//! (at most [`claim_items`]: whole L1-sized sub-chunks, up to half the
//! ring shared among the lanes), applies every block's arithmetic to them
//! where they lie, one sub-chunk at a time, and completes them. Only the
//! items another core claims move, and a core that also runs the source
//! simply claims less. Blocks opt in through
//! [`Block::parallel_in_place`](crate::Block::parallel_in_place).
//!
//! The protocol, on the segment's input edge (its first block's input)
//! and output edge (its last block's output), which share one ring:
//! - `claimed` is the first unclaimed position. A lane first announces the
//!   position it is about to claim in its own `in_flight` word, then
//!   advances `claimed` past its claim with a compare-and-swap, and resets
//!   `in_flight` when the claim is done.
//! - Every item below `claimed` and below every announced position is
//!   done, so any lane may publish that position as the output's write
//!   position (`fetch_max`: the output never moves back). All of these
//!   accesses are sequentially consistent; see [`ParallelSegment::publish`].
//! - The upstream writer reuses ring space only below what the output's
//!   readers consumed (the in-place rule of `positions`), and they never
//!   read past the published position, so claimed items belong to their
//!   lane alone until it completes them.
//!
//! This module owns the shared state and its protocol; [`find`](fn@find) decides
//! which runs become segments and [`Lane`] is one core's share. Where
//! lanes run is `chain`'s partition.

use super::thread::ThreadWaker;
use crate::block::stateless::ParallelInPlace;
use crate::buffer::circular::CircularBuffer;
use crate::buffer::{EdgeHandle, downcast_edge};
use crate::control::RunControl;
use crate::runner::BlockRunner;
use crate::signal::{Signal, Wake};
use crate::stats::StatsCell;
use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::Thread;

mod find;
mod lane;

pub(crate) use find::find;
pub(crate) use lane::Lane;

/// `in_flight` value of a lane holding no chunk.
const IDLE: u64 = u64::MAX;

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

/// Most items one claim of a lane takes, given the ring's chunk limit
/// `sub_chunk` (sized for L1), its `capacity` and the number of `lanes`:
/// whole sub-chunks, as many as fit in half the ring shared among the
/// lanes (a quarter of it for two), at least one; the other half holds
/// the upstream writer's backlog (see `reserve`). A claim made when fewer
/// items are published takes what there is. A claim costs a
/// hand-shake of cache lines between cores (the claim word, the
/// announcement, the output's position) that does not grow with its
/// size, while the lane runs every kernel on one sub-chunk at a time, so
/// the data stays in L1 whatever the claim (saxpy, 12 blocks on 2 cores:
/// one sub-chunk per claim 2.95e10 block-items/s, four 3.30e10; see
/// [`segment_ring_bytes`](crate::scheduler::cache::segment_ring_bytes)).
fn claim_items(sub_chunk: usize, capacity: usize, lanes: usize) -> usize {
    let sub_chunk = sub_chunk.clamp(1, capacity.max(1));
    (capacity / (2 * lanes.max(1)) / sub_chunk).max(1) * sub_chunk
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
    /// Most items one claim takes (see [`claim_items`]).
    claim: u64,
    /// Items every kernel of the segment transforms before the next one
    /// starts: the ring's chunk limit, sized for L1.
    sub_chunk: usize,
    /// Unclaimed items a lane beside the upstream writer leaves to the
    /// other lanes: half the ring. That lane's worker produces every
    /// item; when it claimed whatever appeared, the writer waited behind
    /// its claim, the other lanes starved, and it did most of the work
    /// (measured with one-chunk claims on a 256 KiB ring, saxpy, 12 blocks
    /// on 2 cores: 2.1e10 block-items/s; with half a ring of reserve
    /// 3.0e10, and within 2 % of that from a third to two thirds of a
    /// ring; two chunks: 2.8e10).
    reserve: u64,
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
    /// Every block's own signal, where the lanes report what the blocks
    /// are doing (see [`Activity`](crate::signal::Activity)).
    block_signals: Vec<Arc<Signal>>,
}

impl ParallelSegment {
    /// True when no lane holds or announces a claim.
    fn no_claim_in_flight(&self) -> bool {
        self.in_flight
            .iter()
            .all(|p| p.load(Ordering::Acquire) == IDLE)
    }

    /// Takes over `runners` (a segment found by [`find`](fn@find), in stream order)
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
        let lanes = lane_threads.len().max(1);
        let sub_chunk = input.words().chunk_items().max(1);
        let claim = claim_items(sub_chunk, input.words().capacity(), lanes);
        // Where the first block stopped reading (0 on a fresh run).
        let start = input.words().read_by(runners[0].inputs[0].reader);
        // Every lane completes up to a claim per round of its worker, so
        // the output's readers may take that many claims per call: at one
        // claim per call, a reader sharing a worker with one lane falls
        // behind the others and stalls the upstream writer for space (at
        // one sub-chunk per lane, saxpy 12 blocks on 2 cores: 2.0e10
        // block-items/s against 2.8e10 in the same minutes). The price: a
        // reader that works on what it reads sees slices larger than L1.
        output.words().limit_chunk(claim.saturating_mul(lanes));
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
            block_signals: runners.iter().map(|r| r.signal.clone()).collect(),
            names: runners.iter().map(|r| r.name().to_string()).collect(),
            indices: runners.iter().map(|r| r.index()).collect(),
            upstream: runners[0].inputs[0].writer,
            reserve: (input.words().capacity() / 2).max(claim) as u64,
            input,
            ring,
            output,
            claim: claim as u64,
            sub_chunk,
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
        Lane::new(self.clone(), id, beside_upstream)
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
            let end = written.min(at + self.claim);
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

    /// Ends a segment that [`drained`](Self::drained) every item below
    /// `written`: publishes all of them first. [`publish`](Self::publish)
    /// alone might stop short: a lane that read `claimed` before the last
    /// claim may still be announcing that stale position, and it publishes
    /// again only after the output was marked finished, when a reader may
    /// already have taken the short position for the end.
    fn finish_drained(&self, written: u64) {
        self.output.words().publish_write_at_least(written);
        self.finish();
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

#[cfg(test)]
mod tests {
    use super::claim_items;

    #[test]
    fn claims_take_whole_sub_chunks_up_to_half_the_ring_per_lanes() {
        // 384 KiB of f32 with 24 KiB sub-chunks, 2 lanes: four sub-chunks.
        assert_eq!(claim_items(6144, 98304, 2), 4 * 6144);
        // 4 lanes share the same half: two each.
        assert_eq!(claim_items(6144, 98304, 4), 2 * 6144);
        // 256 KiB: a quarter holds 2.67 sub-chunks, so two.
        assert_eq!(claim_items(6144, 65536, 2), 2 * 6144);
        // A ring barely larger than its chunk still claims one chunk.
        assert_eq!(claim_items(6144, 8192, 2), 6144);
        assert_eq!(claim_items(0, 100, 2), 25);
        assert_eq!(claim_items(500, 100, 0), 100);
    }
}
