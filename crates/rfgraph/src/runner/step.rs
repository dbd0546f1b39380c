//! One call of a block: [`BlockRunner::run_once`] and the paths it takes
//! (the steady path of a quiet block polled locally, the checked path of
//! every other call), ending in the [`Step`] the scheduler acts on.
//!
//! Owns the order of a call: look, messages, `work`, publish, count, then
//! the finish rules, which live in the sibling files. It must never wait:
//! a block with nothing to do returns [`Step::Idle`].

use super::BlockRunner;
use crate::block::WorkIo;
use crate::signal::Activity;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

/// The result of one [`BlockRunner::run_once`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The block consumed, produced or handled something: run it again.
    Progress,
    /// Nothing to do until the block's signal fires (or `until` passes).
    Idle {
        /// A timer the block asked for.
        until: Option<Instant>,
    },
    /// The block is finished; do not run it again.
    Done,
}

impl BlockRunner {
    /// Handles pending messages, calls `work` once, and decides what next.
    ///
    /// Every block call of every scheduler comes through here, dozens per
    /// cache-sized chunk in a long chain. A block polled locally that heard
    /// nothing since its last look, has no message ports and whose writers
    /// all run on takes the steady path (`run_steady`), after two loads:
    /// nothing but its own call can finish it then. Every other call looks
    /// at its signal and takes `run_checked`, out of line.
    #[inline(always)]
    pub fn run_once(&mut self) -> Step {
        // `steady` is cleared when the block finishes, and a look at a
        // quiet local signal would report nothing and change nothing.
        if self.steady && self.signal.is_quiet_local() {
            return self.run_steady();
        }
        self.run_looking()
    }

    /// [`run_once`](Self::run_once) for a block that is done, not steady,
    /// or whose signal may have something to say.
    #[inline(never)]
    fn run_looking(&mut self) -> Step {
        if self.done {
            return Step::Done;
        }
        // Look first: `begin_look` clears the pending flag before the stop
        // is read, so a stop requested meanwhile is either seen here or
        // notifies again (`request_stop` raises the stop flag, then
        // notifies); read the other way round, a stop landing between the
        // two finds the flag still set, wakes no one and is lost.
        // A stop notifies every block after raising the flag, so a look
        // that heard nothing need not read it (and a look that heard
        // something sees it: see `Signal::begin_look`).
        let notified = self.signal.begin_look();
        // After the look: a stall watch that sees `Running` (or the
        // notification) never takes this block for stuck.
        self.signal.set_activity(Activity::Running);
        if notified && self.control.is_stopping() {
            self.finish();
            return Step::Done;
        }
        if let Some(due) = self.timer_due.take() {
            self.note_timer(due);
        }
        self.run_checked(notified)
    }

    /// [`run_once`](Self::run_once) for a plain block that heard nothing
    /// and whose writers were all running at its last look. What the
    /// checked path would find is then known before the call: no writer
    /// finished (finishing notifies), so none is done and the block cannot
    /// be proven stuck; no message can be handled. A call that moves items
    /// and does not finish the block is progress, with no rule to apply.
    ///
    /// A call the sampler times takes `run_steady_timed`, out of line, so
    /// that the untimed call keeps nothing about timing in registers.
    #[inline(always)]
    fn run_steady(&mut self) -> Step {
        if self.timing.due() {
            return self.run_steady_timed();
        }
        let mut io = WorkIo::default();
        let block = &mut self.block;
        let result = catch_unwind(AssertUnwindSafe(|| block.work(&mut io)));
        if let Err(step) = self.work_outcome(result) {
            return step;
        }
        self.after_steady_call(&io)
    }

    /// [`run_steady`](Self::run_steady) for a call the sampler times.
    #[inline(never)]
    #[cold]
    fn run_steady_timed(&mut self) -> Step {
        let mut io = WorkIo::default();
        let block = &mut self.block;
        let result = self.timing.run_due(&mut self.tally, || {
            catch_unwind(AssertUnwindSafe(|| block.work(&mut io)))
        });
        if let Err(step) = self.work_outcome(result) {
            return step;
        }
        self.after_steady_call(&io)
    }

    /// The rest of a steady call once `work` returned.
    #[inline(always)]
    fn after_steady_call(&mut self, io: &WorkIo) -> Step {
        let (consumed, produced) = self.publish();
        #[cfg(test)]
        crate::scheduler::contain::inject_fault(self.name(), consumed + produced);
        if !self.tally.count_steady(consumed, produced) {
            self.settle_tally(consumed, produced);
        }
        let progress = consumed | produced != 0;
        if progress && !io.finished {
            return Step::Progress;
        }
        self.conclude(io, progress, false)
    }

    /// The general [`run_once`](Self::run_once), after the look and the
    /// stop check: notes finished writers, handles messages, calls `work`
    /// unless a handler finished the block, settles message groups, and
    /// applies every finish rule.
    #[inline(never)]
    fn run_checked(&mut self, notified: bool) -> Step {
        let stuck_if_idle = self.look_before_work(notified);
        // Members of a message group: whether an output lacked the room
        // `work` needs, seen before the call (see `settle_group`).
        let starved = self.group.is_some() && self.outputs_starved();
        let mut io = WorkIo::default();
        // Messages arrive on message inputs, and queries of a parameter or
        // reading on any block; a query notifies, so a block without
        // message inputs looks at its inbox only when notified.
        let handled = (notified || !self.message_inputs.is_empty())
            && match self.take_messages(&mut io) {
                Ok(handled) => handled,
                Err(e) => return self.fail(e),
            };
        let called = !io.finished;
        if called && let Err(step) = self.call_work(&mut io) {
            return step;
        }
        // Also after handlers alone: they may have produced stream items.
        let (consumed, produced) = self.publish();
        #[cfg(test)]
        crate::scheduler::contain::inject_fault(self.name(), consumed + produced);
        if called {
            self.tally.count(&self.stats, consumed, produced);
        } else {
            self.tally.count_items(consumed, produced);
        }
        if self.group.is_some() {
            self.settle_group(&io, produced > 0 || starved);
        }
        let progress = handled || consumed + produced > 0;
        // Whatever can finish a block that keeps moving (readers leaving,
        // writers finishing, messages) notifies it: a block polled
        // locally that moved and heard nothing need not look (see
        // `Signal::begin_look`).
        // A call that handled messages counts as a look too: a call that
        // left messages queued skips the rules below, and a notification
        // it consumed (readers gone) must be answered by the call that
        // empties the queue, which may hear nothing new.
        let may_finish = notified
            || handled
            || !progress
            || io.finished
            || self.writers_done > 0
            || self.group.is_some();
        // Messages still queued (beyond one call's share, or new ones) are
        // handled before any finish rule but the block's own.
        let more_messages = handled && !io.finished && !self.inbox.is_empty();
        if may_finish && !more_messages {
            self.conclude(&io, progress, stuck_if_idle)
        } else {
            Step::Progress
        }
    }

    /// Calls `work`, timed when the sampler says so (the time waits in the
    /// tally for the call's count), with panics caught; the `Err` is the
    /// step of a call that failed (which fails the run).
    #[inline(always)]
    fn call_work(&mut self, io: &mut WorkIo) -> Result<(), Step> {
        let block = &mut self.block;
        let result = self.timing.run(&mut self.tally, || {
            catch_unwind(AssertUnwindSafe(|| block.work(io)))
        });
        self.work_outcome(result)
    }

    /// What a `work` call's result means: a failure or panic fails the run
    /// (the `Err` is the step to return).
    #[inline(always)]
    fn work_outcome(
        &mut self,
        result: std::thread::Result<Result<(), crate::BoxError>>,
    ) -> Result<(), Step> {
        match result {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(self.work_failed(e.to_string())),
            Err(p) => Err(self.work_panicked(&*p)),
        }
    }

    /// The step of a call that moved nothing: wait for a signal or the
    /// timer the block asked for.
    #[inline(never)]
    pub(super) fn idle(&mut self, io: &WorkIo) -> Step {
        // Statistics of an idle block are exact (see `WorkTally`).
        self.stats.add_tally(&mut self.tally);
        if self.ask_for_room() {
            // Room came while asking: nothing to wait for.
            self.signal.notify();
        }
        if io.call_again_at.is_some() {
            // A block waiting on a clock: its next call notes how late the
            // scheduler served the timer, so it looks before every call
            // (it runs once a timer period; the look costs nothing there).
            self.timer_due = io.call_again_at;
            self.steady = false;
        }
        self.signal.set_activity(if io.in_flight {
            Activity::InFlight
        } else if io.call_again_at.is_some() {
            Activity::Timer
        } else {
            Activity::Waiting
        });
        Step::Idle {
            until: io.call_again_at,
        }
    }

    /// For a scheduler that parks a thread per block: from now on,
    /// [`drained`](Self::drained) may answer true for this block (when it
    /// declares [`idle_when_drained`](crate::Block::idle_when_drained)).
    pub fn rest_when_drained(&mut self) {
        self.rests_when_drained = self.block.idle_when_drained();
    }

    /// After a call that progressed: true when the block has nothing to do
    /// until new items arrive (see
    /// [`idle_when_drained`](crate::Block::idle_when_drained)): every input
    /// holds fewer items than its `min_items`, from a writer still
    /// running. The block is then booked idle (`idle`), as a call that
    /// moved nothing would have booked it, and the caller parks unless its
    /// signal is pending. A writer that publishes after the
    /// look this call began with notifies the block, so nothing is missed.
    pub fn drained(&mut self) -> bool {
        // Messages left for the next call (beyond one call's share) were
        // announced before this call's look: no notification is left to
        // wake the thread for them.
        if !self.rests_when_drained || self.done || self.inputs.is_empty() || !self.inbox.is_empty()
        {
            return false;
        }
        let empty = self.inputs.iter().all(|i| {
            let words = i.edge.words();
            !words.writer_finished() && words.published_write() - i.last < i.min_items
        });
        if empty {
            // Booked as the empty call it saves would have booked it.
            self.idle(&WorkIo::default());
        }
        empty
    }

    /// Records how late the call after the timer due at `due` came (0 if
    /// a signal woke the block before it).
    #[cold]
    #[inline(never)]
    fn note_timer(&self, due: Instant) {
        let late = Instant::now().saturating_duration_since(due);
        let over = self.timer_budget.is_some_and(|b| late > b);
        self.stats.record_timer_lateness(late, over);
    }

    /// Asks the readers of every output that is short of room to wake
    /// this block when they free some; true when one got its room
    /// meanwhile. Short of room: less free than the port's `min_items`
    /// (what `work` needs to move), or than half the ring (half the fill
    /// a latency budget allows, when it caps the fill). The half
    /// covers blocks that need more than they declared, and a block idle
    /// with half its ring free waits for input, not for room: its readers
    /// need not wake it.
    fn ask_for_room(&self) -> bool {
        self.outputs.iter().any(|o| {
            let words = o.edge.words();
            let room = o.min_items.max(words.fill_items() as u64 / 2);
            words.want_room(room)
        })
    }

    /// Counts a call that [`WorkTally::count_steady`] left uncounted; out
    /// of line, so that the steady call loads nothing for it.
    ///
    /// [`WorkTally::count_steady`]: crate::stats::WorkTally::count_steady
    #[inline(never)]
    #[cold]
    fn settle_tally(&mut self, consumed: u64, produced: u64) {
        self.tally.settle(&self.stats, consumed, produced);
    }
}
