//! [`Task`]: what a polling worker (`single`, each core of `chain`) runs
//! round robin: a block, or one core's lane of a data-parallel segment.

use super::segment::Lane;
use crate::control::RunControl;
use crate::runner::{BlockRunner, Step};
use crate::signal::Signal;
use crate::stats::ThreadUsage;
use std::sync::Arc;

/// One entry of a worker's round.
// Blocks are nearly every task and are polled in the hot loop: keep them
// inline rather than behind a box to save the lanes' few bytes. An
// explicit tag, first: left to the compiler, it hides in some niche of
// the runner, on a line a steady call would not touch otherwise.
#[allow(clippy::large_enum_variant)]
#[repr(u8)]
pub(crate) enum Task {
    /// A block, run through its runner.
    Block(BlockRunner),
    /// A lane of a [`ParallelSegment`](super::segment::ParallelSegment).
    Lane(Lane),
}

impl Task {
    /// True once the task is finished.
    #[inline]
    pub(crate) fn is_done(&self) -> bool {
        match self {
            Task::Block(r) => r.is_done(),
            Task::Lane(l) => l.is_done(),
        }
    }

    /// Runs one step.
    #[inline]
    pub(crate) fn run_once(&mut self) -> Step {
        match self {
            Task::Block(r) => r.run_once(),
            Task::Lane(l) => l.run_once(),
        }
    }

    /// The signal that makes the task due.
    #[inline]
    pub(crate) fn signal(&self) -> &Arc<Signal> {
        match self {
            Task::Block(r) => r.signal(),
            Task::Lane(l) => l.signal(),
        }
    }

    /// The block's index in its flowgraph (`None` for lanes).
    pub(crate) fn index(&self) -> Option<usize> {
        match self {
            Task::Block(r) => Some(r.index()),
            Task::Lane(_) => None,
        }
    }

    /// Stream peers on this thread that are due after this task moves
    /// (see [`BlockRunner::local_peers`]); lanes signal their peers.
    pub(crate) fn local_peers(&self) -> &[usize] {
        match self {
            Task::Block(r) => r.local_peers(),
            Task::Lane(_) => &[],
        }
    }

    /// Records the thread's context switches on the task's blocks
    /// (`sharing`: tasks on that thread).
    pub(crate) fn record_thread_usage(&self, usage: ThreadUsage, sharing: usize) {
        match self {
            Task::Block(r) => r.record_thread_usage(usage, sharing),
            Task::Lane(l) => l.record_thread_usage(usage, sharing),
        }
    }

    /// The run's control.
    pub(crate) fn control(&self) -> &Arc<RunControl> {
        match self {
            Task::Block(r) => &r.control,
            Task::Lane(l) => l.control(),
        }
    }

    /// Finishes a block task (outputs end, inputs detach, inbox closes);
    /// lanes end with their segment.
    pub(crate) fn finish(&mut self) {
        if let Task::Block(r) = self {
            r.finish();
        }
    }

    /// The runner of a block task.
    pub(crate) fn into_runner(self) -> Option<BlockRunner> {
        match self {
            Task::Block(r) => Some(r),
            Task::Lane(_) => None,
        }
    }
}
