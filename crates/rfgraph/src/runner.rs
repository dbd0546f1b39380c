//! [`BlockRunner`]: one block plus everything needed to run it one step.
//!
//! Every scheduler drives blocks only through [`BlockRunner::run_once`], so
//! the lifecycle rules live here once: message dispatch, calling `work` with
//! panic capture, statistics, tag propagation, and deciding when a block is
//! done (DESIGN §2 lifecycle). Schedulers decide *when* and *where* a runner
//! runs; they never look inside blocks.

use crate::block::stateless::ParallelInPlace;
use crate::block::{Block, TagPolicy, WorkIo};
use crate::buffer::positions::EdgePositions;
use crate::buffer::{EdgeHandle, ReaderHandle};
use crate::control::RunControl;
use crate::cycles;
use crate::error::RunError;
use crate::message::{Inbox, Message, MessageGroup};
use crate::signal::Signal;
use crate::stats::{StatsCell, ThreadUsage, TimingSampler, WorkTally};
use crate::tag::Tag;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
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

impl InputEdge {
    /// Publishes the reader's staged position unless the items it
    /// consumed since the last publication may carry tags (`None`: they
    /// must be propagated first, see `BlockRunner::publish_tagged`);
    /// returns how many items that was.
    #[inline(always)]
    fn publish_untagged(&mut self) -> Option<u64> {
        let now = self.edge.slot().staged();
        if now == self.last {
            return Some(0);
        }
        let words = self.edge.words();
        if words.may_have_tags(self.last..now) {
            return None;
        }
        self.edge.slot().publish(words, now);
        let consumed = now - self.last;
        self.last = now;
        Some(consumed)
    }
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

impl OutputEdge {
    /// Publishes the writer's staged position; returns how many items it
    /// moved since the last publication.
    #[inline(always)]
    fn publish(&mut self) -> u64 {
        let words = self.edge.words();
        let now = words.staged_write();
        if now == self.last {
            return 0;
        }
        words.publish_write_at(now);
        let produced = now - self.last;
        self.last = now;
        produced
    }
}

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
}

/// Messages a runner handles in a row before it records them in the
/// block's statistics: a burst is often handled in one call, and live
/// readers (the `chain` scheduler's refinement, which weighs blocks by
/// their time in `work` and handlers) must not see a long one only once
/// it is over. A clock read per this many messages costs well under a
/// nanosecond per message.
const MESSAGES_PER_RECORD: u64 = 16;

/// Most messages one call handles. A burst handled in one call held its
/// thread for as long as it took: the other blocks polled there waited,
/// and so did `chain`'s refinement, which pauses workers between calls.
/// At tens of nanoseconds a message this bounds a call to some
/// microseconds, while the call's own cost stays negligible per message.
const MESSAGES_PER_CALL: usize = 256;

/// Copies the tags on `range` of `input` to every output, with indices
/// scaled by `policy` (none are copied under [`TagPolicy::Manual`]).
#[inline(never)]
fn propagate_tags(
    input: &EdgePositions,
    range: std::ops::Range<u64>,
    policy: TagPolicy,
    outputs: &[OutputEdge],
) {
    if let TagPolicy::Propagate {
        interpolation,
        decimation,
    } = policy
    {
        input.for_each_tag(range, &mut |t: &Tag| {
            let index = scaled_index(t.index, interpolation, decimation);
            for out in outputs {
                out.edge.words().add_tag(Tag { index, ..t.clone() });
            }
        });
    }
}

/// `index × interpolation / decimation` without overflow (rates are
/// positive: the flowgraph checks them), saturating at `u64::MAX`.
fn scaled_index(index: u64, interpolation: u64, decimation: u64) -> u64 {
    let scaled = u128::from(index) * u128::from(interpolation) / u128::from(decimation.max(1));
    u64::try_from(scaled).unwrap_or(u64::MAX)
}

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
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        index: usize,
        block: Box<dyn Block>,
        inputs: Vec<InputEdge>,
        outputs: Vec<OutputEdge>,
        message_inputs: Vec<&'static str>,
        inbox: Arc<Inbox>,
        signal: Arc<Signal>,
        control: Arc<RunControl>,
        stats: Arc<StatsCell>,
    ) -> Self {
        let tag_policy = block.tag_policy();
        let blocking = block.is_blocking();
        let message_inputs_empty = message_inputs.is_empty();
        Self {
            index,
            block,
            inputs: inputs.into_boxed_slice(),
            outputs: outputs.into_boxed_slice(),
            message_inputs,
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
            steady: message_inputs_empty,
        }
    }

    /// Makes the block a member of the message `group`; `posts_in_group`:
    /// it posts to other members (see `settle_group`).
    pub(crate) fn join_group(&mut self, group: Arc<MessageGroup>, posts_in_group: bool) {
        self.group = Some(group);
        self.posts_in_group = posts_in_group;
        self.steady = false;
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

    /// Indices of the blocks this block reads from, one per connected input.
    pub fn upstream(&self) -> impl Iterator<Item = usize> + '_ {
        self.inputs.iter().map(|i| i.writer)
    }

    /// Indices of the blocks reading this block's outputs.
    pub fn downstream(&self) -> impl Iterator<Item = usize> + '_ {
        self.outputs.iter().flat_map(|o| o.readers.iter().copied())
    }

    /// Declares which stream peers run on the same thread as this block
    /// (`same_thread(peer)`): edges between such blocks then send no
    /// signal at all, so the scheduler takes over: after this block makes
    /// progress (or finishes) it must run those peers again. Only for
    /// schedulers that poll blocks on one thread; call before running, on
    /// both ends of each edge.
    ///
    /// Returns true when *every* stream peer is on the same thread.
    pub fn mark_same_thread_peers(&mut self, same_thread: impl Fn(usize) -> bool) -> bool {
        let mut all = true;
        for out in &self.outputs {
            for (reader, &block) in out.readers.iter().enumerate() {
                let same = same_thread(block);
                out.edge.words().set_same_thread(reader, same);
                all &= same;
            }
        }
        for input in &self.inputs {
            if let Some(root) = input.frees_space_of {
                input
                    .edge
                    .words()
                    .set_root_writer_same_thread(input.reader, same_thread(root));
            }
        }
        self.local_peers = self
            .downstream()
            .chain(self.upstream())
            .chain(self.space_roots())
            .filter(|&b| same_thread(b))
            .collect();
        self.local_peers.sort_unstable();
        self.local_peers.dedup();
        all && self.inputs.iter().all(|i| same_thread(i.writer))
    }

    /// The first writers of the memory this block reads in place, whose
    /// space it frees (see [`InputEdge::frees_space_of`]).
    pub(crate) fn space_roots(&self) -> impl Iterator<Item = usize> + '_ {
        self.inputs.iter().filter_map(|i| i.frees_space_of)
    }

    /// The blocks declared to run on this block's thread that must run
    /// after it moves: stream peers, and the first writer of memory it
    /// reads in place (see [`mark_same_thread_peers`](Self::mark_same_thread_peers)).
    pub fn local_peers(&self) -> &[usize] {
        &self.local_peers
    }

    /// The block's shareable arithmetic when it may run data-parallel: it
    /// offers one (see [`Block::parallel_in_place`]), has exactly one
    /// stream input and one output, no message ports, propagates tags 1:1,
    /// and the flowgraph made its output an in-place view of its input.
    pub(crate) fn parallel_in_place(&self) -> Option<Arc<dyn ParallelInPlace>> {
        let ([input], [output]) = (&self.inputs[..], &self.outputs[..]) else {
            return None;
        };
        let plain = self.message_inputs.is_empty()
            && self.group.is_none()
            && self.feeds.is_empty()
            && matches!(
                self.tag_policy,
                TagPolicy::Propagate {
                    interpolation: 1,
                    decimation: 1
                }
            );
        let in_place = input
            .edge
            .words()
            .passes_to(input.reader)
            .is_some_and(|next| std::ptr::eq(next, output.edge.words()));
        if plain && in_place {
            self.block.parallel_in_place()
        } else {
            None
        }
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

    /// Counts a call that [`WorkTally::count_steady`] left uncounted; out
    /// of line, so that the steady call loads nothing for it.
    #[inline(never)]
    #[cold]
    fn settle_tally(&mut self, consumed: u64, produced: u64) {
        self.tally.settle(&self.stats, consumed, produced);
    }

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
        if notified && self.control.is_stopping() {
            self.finish();
            return Step::Done;
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
        // Messages only ever arrive on message inputs.
        let handled = !self.message_inputs.is_empty()
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

    /// The step after a call that may end the block: finishes it if a
    /// finish rule holds (see [`should_finish`](Self::should_finish)),
    /// else runs it again after progress or idles it.
    #[inline(never)]
    fn conclude(&mut self, io: &WorkIo, progress: bool, stuck_if_idle: bool) -> Step {
        if self.should_finish(io, progress, stuck_if_idle) {
            self.finish();
            Step::Done
        } else if progress {
            Step::Progress
        } else {
            self.idle(io)
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

    /// Handles every queued message; returns whether there was any.
    #[inline(never)]
    fn take_messages(&mut self, io: &mut WorkIo) -> Result<bool, RunError> {
        match self.inbox.pop() {
            Some(first) => self.handle_messages(first, io).map(|()| true),
            None => Ok(false),
        }
    }

    /// The step of a call that moved nothing: wait for a signal or the
    /// timer the block asked for.
    #[inline(never)]
    fn idle(&mut self, io: &WorkIo) -> Step {
        // Statistics of an idle block are exact (see `WorkTally`).
        self.stats.add_tally(&mut self.tally);
        Step::Idle {
            until: io.call_again_at,
        }
    }

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
    #[inline(always)]
    fn look_before_work(&mut self, notified: bool) -> bool {
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

    /// Handles `first` and further queued messages, at most
    /// [`MESSAGES_PER_CALL`] (and none after the block finishes),
    /// recording their count and time every [`MESSAGES_PER_RECORD`]
    /// messages and at the end. Messages left queued are handled in the
    /// next call: a call with messages is progress, so the block runs
    /// again. The group count is settled after `work` (see
    /// [`settle_group`](Self::settle_group)).
    #[inline(never)]
    fn handle_messages(&mut self, first: Message, io: &mut WorkIo) -> Result<(), RunError> {
        let mut since = cycles::now();
        let (mut handled, mut unrecorded) = (0, 0);
        let mut next = Some(first);
        let mut result = Ok(());
        while let Some(msg) = next {
            handled += 1;
            unrecorded += 1;
            result = self.handle_message(msg, io);
            if result.is_err() || io.finished {
                break;
            }
            if unrecorded == MESSAGES_PER_RECORD {
                let now = cycles::now();
                self.stats
                    .record_messages(unrecorded, now.wrapping_sub(since));
                (since, unrecorded) = (now, 0);
            }
            if handled == MESSAGES_PER_CALL {
                break;
            }
            next = self.inbox.pop();
        }
        self.stats
            .record_messages(unrecorded, cycles::now().wrapping_sub(since));
        if self.group.is_some() {
            self.unsettled += handled;
        }
        result
    }

    fn handle_message(&mut self, msg: Message, io: &mut WorkIo) -> Result<(), RunError> {
        let port = self.message_inputs.get(msg.port).copied().unwrap_or("?");
        let result = catch_unwind(AssertUnwindSafe(|| {
            self.block.handle_message(port, msg.data, io)
        }));
        match (result, msg.reply) {
            (Ok(Ok(value)), reply) => {
                if let Some(r) = reply {
                    let _ = r.try_send(Ok(value));
                }
                Ok(())
            }
            // An awaited call's error belongs to the caller, not the run.
            (Ok(Err(e)), Some(reply)) => {
                let _ = reply.try_send(Err(e.to_string()));
                Ok(())
            }
            (Ok(Err(e)), None) => Err(RunError::BlockFailed {
                block: self.name().to_string(),
                cause: format!("message handler `{port}`: {e}"),
            }),
            (Err(p), reply) => {
                let message = panic_message(&*p);
                if let Some(r) = reply {
                    let _ = r.try_send(Err(format!("handler panicked: {message}")));
                }
                Err(RunError::BlockPanicked {
                    block: self.name().to_string(),
                    message,
                })
            }
        }
    }

    /// After `work` and handlers: propagates the tags of consumed items to
    /// the outputs and publishes each input's consumption, then publishes
    /// the outputs, so tags always precede their items. Returns the items
    /// consumed and produced. Consumed items that may carry tags take the
    /// out-of-line [`publish_tagged`](Self::publish_tagged), so that the
    /// common case calls nothing.
    #[inline(always)]
    fn publish(&mut self) -> (u64, u64) {
        // Most blocks have at most one input and one output: those are
        // published without a loop.
        let consumed = match &mut self.inputs[..] {
            [] => 0,
            [input] => match input.publish_untagged() {
                Some(consumed) => consumed,
                None => return self.publish_tagged(0),
            },
            inputs => {
                let mut consumed = 0;
                for input in inputs {
                    match input.publish_untagged() {
                        Some(n) => consumed += n,
                        None => return self.publish_tagged(consumed),
                    }
                }
                consumed
            }
        };
        (consumed, self.publish_outputs())
    }

    /// [`publish`](Self::publish) from the first input whose consumed items
    /// may carry tags (the inputs before it are published, `consumed` of
    /// their items).
    #[inline(never)]
    #[cold]
    fn publish_tagged(&mut self, mut consumed: u64) -> (u64, u64) {
        for input in &mut self.inputs {
            let now = input.edge.slot().staged();
            if now != input.last {
                let words = input.edge.words();
                if words.may_have_tags(input.last..now) {
                    propagate_tags(words, input.last..now, self.tag_policy, &self.outputs);
                }
                input.edge.slot().publish(words, now);
                consumed += now - input.last;
                input.last = now;
            }
        }
        (consumed, self.publish_outputs())
    }

    /// Publishes every output's staged items; returns how many there were.
    #[inline(always)]
    fn publish_outputs(&mut self) -> u64 {
        match &mut self.outputs[..] {
            [] => 0,
            [output] => output.publish(),
            outputs => outputs.iter_mut().map(OutputEdge::publish).sum(),
        }
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

    /// True when some output has less room than its port's `min_items`.
    #[inline(never)]
    fn outputs_starved(&self) -> bool {
        self.outputs.iter().any(|o| {
            let words = o.edge.words();
            (words.capacity() as u64).saturating_sub(words.unread()) < o.min_items
        })
    }

    /// After a call of a message group member: notes whether the member
    /// holds work of its own, and if it posts to other members counts
    /// that in the group; then settles the messages it handled, in that
    /// order (see [`MessageGroup`]). A member holds work while it waits
    /// for a timer, for work in flight outside the runtime, or to write
    /// stream output (`writing`: it produced items, or an output lacked
    /// the room it needs before the call). A holding member is not
    /// finished by the group's end; a holding member that posts to others
    /// keeps the group going, since it may post again. Without this a
    /// group whose queues ran empty finished such a member with its timer
    /// pending or its output half written, and messages it posted from
    /// `work` could arrive after the other members had finished. A member
    /// that posts to no one holds only itself: two such generators
    /// feeding one stream block must not wait for each other.
    #[inline(never)]
    fn settle_group(&mut self, io: &WorkIo, writing: bool) {
        let Some(group) = &self.group else { return };
        let holds = writing || io.is_waiting();
        let counted = self.holds_group();
        let counts = holds && self.posts_in_group;
        if counts && !counted {
            group.hold();
        }
        let released = std::mem::take(&mut self.unsettled) + usize::from(counted && !counts);
        self.holding = holds;
        group.release(released);
    }

    /// This member's held work counts in its group (see `settle_group`).
    fn holds_group(&self) -> bool {
        self.holding && self.posts_in_group
    }

    #[cold]
    #[inline(never)]
    fn work_failed(&mut self, cause: String) -> Step {
        let block = self.name().to_string();
        self.fail(RunError::BlockFailed { block, cause })
    }

    #[cold]
    #[inline(never)]
    fn work_panicked(&mut self, payload: &(dyn std::any::Any + Send)) -> Step {
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
    fn fail(&mut self, error: RunError) -> Step {
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

#[cfg(test)]
mod tests {
    use super::scaled_index;

    #[test]
    fn tag_indices_scale_without_overflow() {
        assert_eq!(scaled_index(10, 3, 2), 15);
        assert_eq!(scaled_index(7, 1, 4), 1);
        // index × interpolation exceeds u64 but the result fits.
        assert_eq!(scaled_index(u64::MAX / 2, 4, 8), u64::MAX / 4);
        assert_eq!(scaled_index(u64::MAX, 2, 1), u64::MAX);
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
    /// lines per slot of a streaming round (see `scheduler::single`).
    #[test]
    fn a_steady_call_touches_the_first_120_bytes() {
        let hot_end = offset_of!(BlockRunner, tally) + WorkTally::STEADY_BYTES;
        assert!(hot_end <= 120, "{hot_end}");
        assert!(offset_of!(BlockRunner, timing) < offset_of!(BlockRunner, tally));
    }
}
