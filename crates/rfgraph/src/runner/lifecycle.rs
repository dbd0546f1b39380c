//! A block's life around its calls: `init` and `deinit` with panics
//! caught, failing the run when `work` fails or panics, and finishing the
//! block (work in flight settles, outputs end, inputs detach, the inbox
//! closes).
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
        let block = &mut self.block;
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| block.finishing())) {
            self.control.fail(self.panicked(&*payload));
        }
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
