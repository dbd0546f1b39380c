//! What a runner keeps about each stream edge of its block: the edge's
//! handle, the position it last published there, the blocks at the other
//! end and the port's `min_items`.
//!
//! Plain data: the rules that read and move these fields live beside it
//! (`publish`, `finish_rules`, `peers`); nothing here publishes, wakes or
//! decides anything.

use crate::buffer::{EdgeHandle, ReaderHandle};

pub(crate) struct InputEdge {
    pub(crate) edge: ReaderHandle,
    pub(crate) reader: usize,
    pub(crate) last: u64,
    /// Index of the writing block.
    pub(crate) writer: usize,
    /// The writer was seen finished before some step began (it stays so).
    pub(crate) writer_done: bool,
    /// When the edge reuses memory in place: the block that writes that
    /// memory first, whose space this reader frees.
    pub(crate) frees_space_of: Option<usize>,
    /// The fewest items `work` needs on this input to make progress (the
    /// port's `min_items`): fewer left once the writer is done never will.
    pub(crate) min_items: u64,
}

pub(crate) struct OutputEdge {
    pub(crate) edge: EdgeHandle,
    pub(crate) last: u64,
    /// Index of each reading block, in reader order.
    pub(crate) readers: Vec<usize>,
    /// The fewest free items `work` needs on this output to make progress
    /// (the port's `min_items`).
    pub(crate) min_items: u64,
}
