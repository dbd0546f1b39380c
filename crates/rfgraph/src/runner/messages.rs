//! Messages: handling the block's queued messages within a call, replying
//! to awaited calls, and a message group member's accounting (the messages
//! it handled, and whether it holds work of its own).
//!
//! A call must never handle more than [`MESSAGES_PER_CALL`] messages, nor
//! any after a handler finished the block; a member's handled messages
//! are settled with its group only after `work` ran (see
//! [`settle_group`](BlockRunner::settle_group)).

use super::BlockRunner;
use super::lifecycle::panic_message;
use crate::block::WorkIo;
use crate::cycles;
use crate::error::RunError;
use crate::message::{Message, MessageGroup};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

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

/// The port of a message that asks for a parameter's current value (its
/// data the name) rather than delivering to an input.
pub(crate) const PARAM_QUERY: usize = usize::MAX;

/// The port of a message that asks for a reading's current value (see
/// `Block::reading`), its data the name.
pub(crate) const READING_QUERY: usize = usize::MAX - 1;

impl BlockRunner {
    /// Makes the block a member of the message `group`; `posts_in_group`:
    /// it posts to other members (see `settle_group`).
    pub(crate) fn join_group(&mut self, group: Arc<MessageGroup>, posts_in_group: bool) {
        self.group = Some(group);
        self.posts_in_group = posts_in_group;
        self.steady = false;
    }

    /// Handles every queued message; returns whether there was any.
    #[inline(never)]
    pub(super) fn take_messages(&mut self, io: &mut WorkIo) -> Result<bool, RunError> {
        match self.inbox.pop() {
            Some(first) => self.handle_messages(first, io).map(|()| true),
            None => Ok(false),
        }
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
        let param = self.message_params.get(msg.port).copied().flatten();
        let block = self.block.as_mut();
        let result = catch_unwind(AssertUnwindSafe(|| match (msg.port, param) {
            (PARAM_QUERY, _) => query_param(block, &msg.data),
            (READING_QUERY, _) => query_reading(block, &msg.data),
            (_, Some(param)) => crate::params::apply(block, param, msg.data),
            (_, None) => block.handle_message(port, msg.data, io),
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

    /// True when some output has less room than its port's `min_items`.
    #[inline(never)]
    pub(super) fn outputs_starved(&self) -> bool {
        self.outputs.iter().any(|o| {
            let words = o.edge.words();
            (words.fill_items() as u64).saturating_sub(words.unread()) < o.min_items
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
    pub(super) fn settle_group(&mut self, io: &WorkIo, writing: bool) {
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
    pub(super) fn holds_group(&self) -> bool {
        self.holding && self.posts_in_group
    }
}

/// The reply to a [`PARAM_QUERY`]: the current value of the parameter
/// `name` names.
fn query_param(
    block: &mut dyn crate::Block,
    name: &crate::Pmt,
) -> Result<crate::Pmt, crate::BoxError> {
    let name = name.as_str().unwrap_or_default();
    block
        .params()
        .and_then(|p| p.get(name))
        .ok_or_else(|| format!("no parameter `{name}`").into())
}

/// The reply to a [`READING_QUERY`]: the current value of the reading
/// `name` names.
fn query_reading(
    block: &mut dyn crate::Block,
    name: &crate::Pmt,
) -> Result<crate::Pmt, crate::BoxError> {
    let name = name.as_str().unwrap_or_default();
    block.reading(name).ok_or_else(|| {
        let known = block.readings();
        if known.is_empty() {
            format!("no reading `{name}`: the block has none").into()
        } else {
            format!("no reading `{name}` (it has {})", known.join(", ")).into()
        }
    })
}
