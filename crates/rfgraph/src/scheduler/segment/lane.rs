//! [`Lane`]: one core's share of a [`ParallelSegment`], polled by that
//! core's worker like a block.

use super::ParallelSegment;
use crate::control::RunControl;
use crate::error::RunError;
use crate::runner::{Step, panic_message};
use crate::signal::{Activity, Signal};
use crate::stats::{ThreadUsage, TimingSampler, WorkTally};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::Ordering;

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
    /// Lane `id` of `segment`.
    pub(super) fn new(segment: Arc<ParallelSegment>, id: usize, beside_upstream: bool) -> Self {
        let blocks = segment.kernels.len();
        Self {
            timing: (0..blocks)
                .map(|k| TimingSampler::new(segment.indices[k] * 31 + id))
                .collect(),
            tallies: (0..blocks).map(|_| WorkTally::default()).collect(),
            segment,
            id,
            done: false,
            beside_upstream,
        }
    }

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

    /// The run's control.
    pub(crate) fn control(&self) -> &Arc<RunControl> {
        &self.segment.control
    }

    /// The signal that makes this lane due.
    pub(crate) fn signal(&self) -> &Arc<Signal> {
        &self.segment.lane_signals[self.id]
    }

    /// Claims and processes the next claim, or decides the segment is over.
    pub(crate) fn run_once(&mut self) -> Step {
        if self.done {
            return Step::Done;
        }
        let seg = Arc::clone(&self.segment);
        if seg.finished.load(Ordering::Acquire) {
            return self.retire();
        }
        // Readers detaching are checked after each completion (the
        // output's writer line is ours then) and before idling.
        if seg.control.is_stopping() {
            seg.finish();
            return self.retire();
        }
        // While items keep coming, skip the wake-up flags: clearing the
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
        self.idle(&seg)
    }

    /// The step of a lane with nothing to claim: its counters go to the
    /// blocks' statistics, as an idle runner's do, so live snapshots are
    /// exact while it waits; and the blocks count as waiting for the
    /// stall watch until a lane claims again.
    fn idle(&mut self, seg: &ParallelSegment) -> Step {
        for (tally, stats) in self.tallies.iter_mut().zip(&seg.stats) {
            stats.add_tally(tally);
        }
        // Another lane inside a claim still moves the blocks.
        if seg.no_claim_in_flight() {
            for s in &seg.block_signals {
                s.set_activity(Activity::Waiting);
            }
        }
        Step::Idle { until: None }
    }

    /// Claims and processes items, or ends the segment when the upstream
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
            // One load per block and claim while busy (a store only after
            // an idle spell): the stall watch must not take a lane inside
            // a long claim for a waiting block.
            for s in &seg.block_signals {
                s.set_activity(Activity::Running);
            }
            if !self.process(seg, from, to) {
                // Half-processed: the announcement stays, so nothing from
                // `from` on is ever published.
                seg.finish();
                return Some(self.retire());
            }
            seg.complete(self.id);
            if seg.output.words().attached_readers() == 0 {
                seg.finish();
                return Some(self.retire());
            }
            return Some(Step::Progress);
        }
        if upstream_done && seg.drained(written) {
            seg.finish_drained(written);
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
        // those readers consumed. `n` is at most one claim, at most the
        // ring's capacity (see `claim_items`), and the ring is mapped twice in a row, so
        // `n` items from `item_ptr(from)` are one valid, exclusive range,
        // aligned for the item type (the ring starts on a page).
        let items = unsafe {
            std::slice::from_raw_parts_mut(seg.ring.item_ptr(from), n * seg.ring.item_size())
        };
        // Every kernel on one L1-sized sub-chunk, then the next sub-chunk.
        for part in items.chunks_mut(seg.sub_chunk * seg.ring.item_size()) {
            let count = (part.len() / seg.ring.item_size()) as u64;
            for (k, kernel) in seg.kernels.iter().enumerate() {
                let result = self.timing[k].run(&mut self.tallies[k], || {
                    catch_unwind(AssertUnwindSafe(|| kernel.apply(part)))
                });
                if let Err(payload) = result {
                    seg.control.fail(RunError::BlockPanicked {
                        block: seg.names[k].clone(),
                        message: panic_message(&*payload),
                    });
                    return false;
                }
                self.tallies[k].count(&seg.stats[k], count, count);
            }
        }
        #[cfg(test)]
        for name in &seg.names {
            crate::scheduler::contain::inject_fault(name, to - from);
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
