//! [`BlockRunner`]: one block plus everything needed to run it one step.
//!
//! Every scheduler drives blocks only through [`BlockRunner::run_once`], so
//! the lifecycle rules live here once: message dispatch, calling `work` with
//! panic capture, statistics, tag propagation, and deciding when a block is
//! done (the lifecycle in `docs/architecture.md`). Schedulers decide *when* and *where* a runner
//! runs; they never look inside blocks.
//!
//! This module owns the runner's state: the struct, what it keeps about
//! each edge, and its construction. Each rule it applies lives in a file
//! of its own:
//! - `step`: one call, from the look at the signal to the [`Step`]
//!   returned;
//! - `publish`: publishing positions and propagating tags after a call;
//! - `finish_rules`: whether a call ends the block;
//! - `messages`: message dispatch and message-group accounting;
//! - `lifecycle`: `init`, `deinit`, failing and finishing (publishing
//!   and counting what `Block::finishing` settled);
//! - `peers`: the block's stream neighbours, for schedulers.
//!
//! A runner must never decide on which thread or when its block runs, nor
//! wait for anything itself: that is the scheduler's.

mod edges;
mod finish_rules;
mod lifecycle;
mod messages;
mod peers;
mod publish;
mod step;

pub(crate) use edges::{InputEdge, OutputEdge};
pub(crate) use lifecycle::panic_message;
pub(crate) use messages::{PARAM_QUERY, READING_QUERY};
pub use step::Step;

use crate::block::{Block, TagPolicy};
use crate::control::RunControl;
use crate::message::{Inbox, MessageGroup};
use crate::signal::Signal;
use crate::stats::{StatsCell, ThreadUsage, TimingSampler, WorkTally};
use std::sync::Arc;

/// A block ready to run, owned by whichever scheduler thread runs it.
///
/// `repr(C)`: what a steady call touches comes first, on as few cache
/// lines as possible (a chunk sweeping through L1 between two calls of a
/// chain on one core evicts what a round touches only once, so every
/// line counts); the rest follows.
#[repr(C)]
pub struct BlockRunner {
    /// Not done, no message inputs, no message group, and no writer seen
    /// done: a call that heard nothing may take the steady path (see
    /// [`run_once`](Self::run_once)). One flag, so that path tests one
    /// byte.
    steady: bool,
    pub(crate) done: bool,
    /// The block is [`idle_when_drained`](Block::idle_when_drained) and
    /// its scheduler asked to know (see [`drained`](Self::drained)); in
    /// the padding after the flags above.
    rests_when_drained: bool,
    pub(crate) signal: Arc<Signal>,
    pub(crate) block: Box<dyn Block>,
    /// Boxed slices rather than vectors: two words each, so that the
    /// steady call's fields fit two cache lines.
    pub(crate) inputs: Box<[InputEdge]>,
    pub(crate) outputs: Box<[OutputEdge]>,
    timing: TimingSampler,
    /// `work` counters not yet added to `stats`.
    tally: WorkTally,
    pub(crate) stats: Arc<StatsCell>,
    pub(crate) index: usize,
    pub(crate) message_inputs: Vec<&'static str>,
    /// For each message input, the parameter it sets (`None`: the
    /// block's `handle_message`).
    pub(crate) message_params: Vec<Option<&'static str>>,
    pub(crate) inbox: Arc<Inbox>,
    /// Set when the block is message-driven.
    pub(crate) group: Option<Arc<MessageGroup>>,
    /// Groups this block feeds from outside.
    pub(crate) feeds: Vec<Arc<MessageGroup>>,
    pub(crate) control: Arc<RunControl>,
    pub(crate) tag_policy: TagPolicy,
    pub(crate) blocking: bool,
    /// Inputs whose `writer_done` is set.
    writers_done: usize,
    /// Stream peers marked as running on this block's thread.
    local_peers: Vec<usize>,
    /// Handled messages not yet settled with the group (see
    /// [`settle_group`](Self::settle_group)).
    unsettled: usize,
    /// This group member holds work of its own (see `settle_group`).
    holding: bool,
    /// This group member posts to other members, so its held work keeps
    /// the whole group alive, not only itself (see
    /// [`join_group`](Self::join_group)).
    posts_in_group: bool,
    /// The instant of the timer the block last asked for, until a call
    /// after it notes how late it came (see `note_timer`).
    timer_due: Option<std::time::Instant>,
    /// Timers later than this break the latency budget (none: no budget).
    pub(crate) timer_budget: Option<std::time::Duration>,
}

impl BlockRunner {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        index: usize,
        block: Box<dyn Block>,
        blocking: bool,
        inputs: Vec<InputEdge>,
        outputs: Vec<OutputEdge>,
        message_inputs: &crate::flowgraph::MessageInputs,
        inbox: Arc<Inbox>,
        signal: Arc<Signal>,
        control: Arc<RunControl>,
        stats: Arc<StatsCell>,
    ) -> Self {
        let tag_policy = block.tag_policy();
        let message_inputs_empty = message_inputs.names.is_empty();
        Self {
            index,
            block,
            inputs: inputs.into_boxed_slice(),
            outputs: outputs.into_boxed_slice(),
            message_inputs: message_inputs.names.clone(),
            message_params: message_inputs.params.clone(),
            inbox,
            signal,
            group: None,
            feeds: Vec::new(),
            control,
            stats,
            tag_policy,
            blocking,
            done: false,
            writers_done: 0,
            timing: TimingSampler::new(index),
            tally: WorkTally::default(),
            local_peers: Vec::new(),
            unsettled: 0,
            holding: false,
            posts_in_group: false,
            rests_when_drained: false,
            timer_due: None,
            timer_budget: None,
            steady: message_inputs_empty,
        }
    }

    /// Position of the block in its flowgraph (its [`BlockId`](crate::BlockId) index).
    pub fn index(&self) -> usize {
        self.index
    }

    /// The block's instance name.
    pub fn name(&self) -> &str {
        &self.stats.block
    }

    /// The block's wake-up signal; schedulers install their waker on it.
    pub fn signal(&self) -> &Arc<Signal> {
        &self.signal
    }

    /// True for blocks that must get a thread of their own.
    pub fn is_blocking(&self) -> bool {
        self.blocking
    }

    /// True once the block finished.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Adds a thread's context switches to the block's statistics;
    /// `sharing` is the number of blocks that ran on that thread.
    pub fn record_thread_usage(&self, usage: ThreadUsage, sharing: usize) {
        self.stats.record_thread(usage, sharing as u64);
    }

    /// Adds the `work` counters not yet added to the block's statistics
    /// (see [`WorkTally`]); for schedulers that read them mid-run.
    pub(crate) fn flush_stats(&mut self) {
        self.stats.add_tally(&mut self.tally);
    }
}

#[cfg(test)]
mod layout {
    use super::BlockRunner;
    use crate::stats::WorkTally;
    use std::mem::offset_of;

    /// What a steady call touches (the flags, the signal, the block, its
    /// edges, the sampler's countdown and the tally's steady counters)
    /// ends within 120 bytes: with the task's tag before it, two cache
    /// lines per slot of a streaming round (see `scheduler::poll`).
    #[test]
    fn a_steady_call_touches_the_first_120_bytes() {
        let hot_end = offset_of!(BlockRunner, tally) + WorkTally::STEADY_BYTES;
        assert!(hot_end <= 120, "{hot_end}");
        assert!(offset_of!(BlockRunner, timing) < offset_of!(BlockRunner, tally));
    }
}
