//! Whether a call ends its block (README, "Termination"): what the runner
//! notes before `work` (writers finished, outputs drained), the rules it
//! applies after, and the step that follows.
//!
//! Owns deciding *whether* a block is done; `lifecycle` carries the finish
//! out. The checks must never move a position, handle a message or call
//! the block.

use super::{BlockRunner, Step};
use crate::block::WorkIo;

impl BlockRunner {
    /// Notes which writers have finished, before `work` runs (so that
    /// `work` saw all their items); returns whether a call that makes no
    /// progress now proves the block stuck: every writer was done (so all
    /// data was visible) and every output drained. Output space only grows
    /// while the block is idle, so the outputs must be seen drained
    /// *before* `work` to prove the block was given every chance.
    ///
    /// A finishing writer notifies its readers, so unless the signal says
    /// something arrived (`notified`, see [`Signal::begin_look`]) no writer
    /// can have finished since the last look.
    ///
    /// [`Signal::begin_look`]: crate::signal::Signal::begin_look
    #[inline(always)]
    pub(super) fn look_before_work(&mut self, notified: bool) -> bool {
        if notified && self.writers_done < self.inputs.len() {
            for input in &mut self.inputs {
                if !input.writer_done && input.edge.words().writer_finished() {
                    input.writer_done = true;
                    self.writers_done += 1;
                    self.steady = false;
                }
            }
        }
        self.writers_done == self.inputs.len()
            && !self.inputs.is_empty()
            && self.outputs.iter().all(|o| o.edge.words().unread() == 0)
    }

    /// Whether a finish rule holds after a call (README, "Termination"):
    /// `stuck_if_idle` from [`look_before_work`](Self::look_before_work).
    #[inline(always)]
    fn should_finish(&self, io: &WorkIo, progress: bool, stuck_if_idle: bool) -> bool {
        if io.finished {
            return true;
        }
        // The writer stops when all its readers are gone.
        if let Some(first) = self.outputs.first()
            && first.edge.words().attached_readers() == 0
            && self
                .outputs
                .iter()
                .all(|o| o.edge.words().attached_readers() == 0)
        {
            return true;
        }
        let waiting = io.is_waiting();
        // A writer done before the call, and fewer of its items left than
        // the block needs to move (none, or a remainder short of a
        // decimation group). Waiting for outputs to drain instead would
        // wait for ever when a reader keeps a remainder of its own, and
        // so would waiting for output room: that room may come only once
        // this block has finished (a reader joining this block's other
        // branch waits for its end). A block that holds consumed items
        // until it has room says so (a timer or `io.in_flight()`).
        if self.writers_done > 0
            && !waiting
            && self
                .inputs
                .iter()
                .any(|i| i.writer_done && i.edge.words().written() - i.last < i.min_items)
        {
            return true;
        }
        // Every writer was done, every output empty before the call, and
        // the block made no progress: it never will (e.g. a remainder
        // shorter than a decimation group).
        if stuck_if_idle && !progress && !waiting {
            return true;
        }
        if let Some(g) = &self.group {
            return !self.holding && self.inbox.is_empty() && g.is_quiescent();
        }
        false
    }

    /// The step after a call that may end the block: finishes it if a
    /// finish rule holds (see [`should_finish`](Self::should_finish)),
    /// else runs it again after progress or idles it.
    #[inline(never)]
    pub(super) fn conclude(&mut self, io: &WorkIo, progress: bool, stuck_if_idle: bool) -> Step {
        if self.should_finish(io, progress, stuck_if_idle) {
            self.finish();
            Step::Done
        } else if progress {
            Step::Progress
        } else {
            self.idle(io)
        }
    }
}
