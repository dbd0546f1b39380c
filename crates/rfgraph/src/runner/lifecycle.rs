//! A block's life around its calls: `init` and `deinit` with panics
//! caught, failing the run when `work` fails or panics, and finishing the
//! block (work in flight settles, and what that settles is published and
//! counted; outputs end, inputs detach, the inbox closes).
//!
//! A block finishes once, and its finish must never leave a peer waiting:
//! every output ends and every input detaches, whatever the block did.

use super::{BlockRunner, Step};
use crate::error::RunError;
use crate::signal::Activity;
use std::panic::{AssertUnwindSafe, catch_unwind};

pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".to_string()
    }
}

impl BlockRunner {
    /// Runs the block's `init`.
    pub(crate) fn init(&mut self) -> Result<(), RunError> {
        let name = self.name().to_string();
        match catch_unwind(AssertUnwindSafe(|| self.block.init())) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(RunError::Init {
                block: name,
                cause: e.to_string(),
            }),
            Err(p) => Err(RunError::BlockPanicked {
                block: name,
                message: panic_message(&*p),
            }),
        }
    }

    /// Runs the block's `deinit`.
    pub(crate) fn deinit(&mut self) -> Result<(), RunError> {
        let name = self.name().to_string();
        match catch_unwind(AssertUnwindSafe(|| self.block.deinit())) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(RunError::BlockFailed {
                block: name,
                cause: format!("in deinit: {e}"),
            }),
            Err(p) => Err(RunError::BlockPanicked {
                block: name,
                message: panic_message(&*p),
            }),
        }
    }

    #[cold]
    #[inline(never)]
    pub(super) fn work_failed(&mut self, cause: String) -> Step {
        let block = self.name().to_string();
        self.fail(RunError::BlockFailed { block, cause })
    }

    #[cold]
    #[inline(never)]
    pub(super) fn work_panicked(&mut self, payload: &(dyn std::any::Any + Send)) -> Step {
        let error = self.panicked(payload);
        self.fail(error)
    }

    /// The run's error for a panic in one of this block's methods.
    fn panicked(&self, payload: &(dyn std::any::Any + Send)) -> RunError {
        RunError::BlockPanicked {
            block: self.name().to_string(),
            message: panic_message(payload),
        }
    }

    #[cold]
    pub(super) fn fail(&mut self, error: RunError) -> Step {
        self.control.fail(error);
        self.finish();
        Step::Done
    }

    /// Finishes the block: work in flight settles (`Block::finishing`),
    /// outputs end, inputs detach, inbox closes.
    #[inline(never)]
    pub(crate) fn finish(&mut self) {
        if self.done {
            return;
        }
        self.done = true;
        self.steady = false;
        // Before the inputs detach: their writers may reuse the items at
        // once, and a copy in flight may still read them.
        let staged_reads = self.staged_reads();
        let block = &mut self.block;
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| block.finishing())) {
            self.control.fail(self.panicked(&*payload));
        }
        self.publish_finishing(staged_reads);
        self.stats.add_tally(&mut self.tally);
        // A finished member holds nothing: settle what it still counts.
        if let Some(group) = &self.group {
            let counted = self.holds_group();
            group.release(std::mem::take(&mut self.unsettled) + usize::from(counted));
            self.holding = false;
        }
        for o in &self.outputs {
            o.edge.words().finish_writer();
        }
        for i in &self.inputs {
            i.edge.words().detach_reader(i.reader);
        }
        self.inbox.close();
        for g in &self.feeds {
            g.root_finished();
        }
        self.signal.set_activity(Activity::Done);
        self.control.block_finished(self.group.is_some());
    }
}

// What `Block::finishing` settles is published and counted.
impl BlockRunner {
    /// Every input's staged read position, summed (wrapping): positions
    /// only move forward, by less than a lap of `u64`, so the sum changes
    /// exactly when one of them moved.
    fn staged_reads(&self) -> u64 {
        self.inputs
            .iter()
            .fold(0, |sum, i| sum.wrapping_add(i.edge.slot().staged()))
    }

    /// Publishes and counts what `finishing` staged, if it consumed
    /// anything (`staged_reads`: the sum before it): copies in flight
    /// that it saw complete, whose items `work` left unconsumed (and, for
    /// a copy to the host, unproduced) until then. Keyed to inputs, which
    /// only the block's own thread stages: the outputs of a data-parallel
    /// segment's last block move on other threads meanwhile.
    fn publish_finishing(&mut self, staged_reads: u64) {
        if self.staged_reads() != staged_reads {
            let (consumed, produced) = self.publish();
            self.tally.count_items(consumed, produced);
        }
    }
}
