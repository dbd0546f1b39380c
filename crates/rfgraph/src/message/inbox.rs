//! A block's inbox (lock-free MPMC queue) and its message group counters.

use crate::pmt::Pmt;
use crate::signal::Signal;
use crossbeam_queue::SegQueue;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, OnceLock};

/// Where a handler's reply goes (only for posts that await one).
pub type ReplyTo = SyncSender<Result<Pmt, String>>;

/// One message in an inbox.
pub struct Message {
    /// Index of the receiving message input.
    pub port: usize,
    /// The value.
    pub data: Pmt,
    /// The waiting caller, if any.
    pub reply: Option<ReplyTo>,
}

/// Counters shared by the message-driven blocks of one group. The group is
/// over once no block feeding it is alive and nothing is *pending*: no
/// message queued or being handled, and no member holding work of its own
/// (a timer, work in flight outside the runtime, output still to write;
/// see [`hold`](Self::hold)). Both kinds share one counter: whoever causes
/// new pending work counts it before settling the work that caused it, so
/// the counter cannot pass through zero while work is still under way
/// (two counters read one after the other could both look empty).
#[derive(Default)]
pub struct MessageGroup {
    pending: AtomicUsize,
    roots_alive: AtomicUsize,
    members: OnceLock<Vec<Arc<Signal>>>,
}

impl MessageGroup {
    /// A group waiting for `roots` feeding blocks to finish.
    pub fn new(roots: usize) -> Arc<Self> {
        Arc::new(Self {
            pending: AtomicUsize::new(0),
            roots_alive: AtomicUsize::new(roots),
            members: OnceLock::new(),
        })
    }

    /// Sets the members' signals (once, when the graph is built).
    pub fn set_members(&self, members: Vec<Arc<Signal>>) {
        let _ = self.members.set(members);
    }

    fn wake_members(&self) {
        for s in self.members.get().into_iter().flatten() {
            s.notify();
        }
    }

    /// A feeding block finished.
    pub fn root_finished(&self) {
        if self.roots_alive.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.wake_members();
        }
    }

    /// Counts one more pending thing: a message posted to a member, or a
    /// member starting to hold work of its own.
    pub fn hold(&self) {
        self.pending.fetch_add(1, Ordering::AcqRel);
    }

    /// `n` pending things are settled: messages handled or dropped, or
    /// members that held work and no longer do. Whatever they caused (the
    /// messages their handlers and `work` posted, a member's own hold)
    /// must have been counted first.
    pub fn release(&self, n: usize) {
        if n > 0 && self.pending.fetch_sub(n, Ordering::AcqRel) == n {
            self.wake_members();
        }
    }

    /// True when no root is alive and nothing is pending: the group is over.
    pub fn is_quiescent(&self) -> bool {
        self.roots_alive.load(Ordering::Acquire) == 0 && self.pending.load(Ordering::Acquire) == 0
    }
}

/// The inbox of one block.
pub struct Inbox {
    queue: SegQueue<Message>,
    signal: Arc<Signal>,
    group: OnceLock<Arc<MessageGroup>>,
    closed: AtomicBool,
}

impl Inbox {
    /// An inbox that wakes `signal` on delivery.
    pub fn new(signal: Arc<Signal>) -> Arc<Self> {
        Arc::new(Self {
            queue: SegQueue::new(),
            signal,
            group: OnceLock::new(),
            closed: AtomicBool::new(false),
        })
    }

    /// Makes the inbox count its messages in `group`.
    pub fn join_group(&self, group: Arc<MessageGroup>) {
        let _ = self.group.set(group);
    }

    /// Delivers a message. Returns false (and drops it) if the block finished.
    pub fn post(&self, msg: Message) -> bool {
        if self.closed.load(Ordering::Acquire) {
            return false;
        }
        if let Some(g) = self.group.get() {
            g.hold();
        }
        self.queue.push(msg);
        // Pairs with `close`: either the closer's drain sees our message or
        // we see `closed` and drain it ourselves.
        std::sync::atomic::fence(Ordering::SeqCst);
        if self.closed.load(Ordering::Relaxed) {
            self.drain_rejected();
            return false;
        }
        // The fence above also orders the push before the signal check.
        self.signal.notify_after_fence();
        true
    }

    /// Takes the next message, if any.
    #[inline]
    pub fn pop(&self) -> Option<Message> {
        self.queue.pop()
    }

    /// True when no message waits.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// The group counter, for the runner to settle handled messages.
    pub fn group(&self) -> Option<&Arc<MessageGroup>> {
        self.group.get()
    }

    /// True once [`close`](Self::close)d: the block finished.
    pub(crate) fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }

    /// Refuses further messages and rejects those still queued.
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.drain_rejected();
    }

    fn drain_rejected(&self) {
        while let Some(m) = self.queue.pop() {
            if let Some(reply) = m.reply {
                let _ = reply.try_send(Err("block finished".into()));
            }
            if let Some(g) = self.group.get() {
                g.release(1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_quiesces_after_roots_and_messages() {
        let g = MessageGroup::new(1);
        let inbox = Inbox::new(Signal::new());
        inbox.join_group(g.clone());
        assert!(inbox.post(Message {
            port: 0,
            data: Pmt::Null,
            reply: None
        }));
        g.root_finished();
        assert!(!g.is_quiescent());
        let _m = inbox.pop().unwrap();
        g.release(1);
        assert!(g.is_quiescent());
    }

    #[test]
    fn a_member_holding_work_keeps_the_group_alive() {
        let g = MessageGroup::new(0);
        let member = Signal::new();
        g.set_members(vec![member.clone()]);
        g.hold();
        assert!(!g.is_quiescent());
        assert!(!member.is_pending());
        // A message caused by the held work is counted before the hold
        // is released, so the count never passes through zero.
        g.hold();
        g.release(1);
        assert!(!g.is_quiescent());
        assert!(!member.is_pending());
        g.release(1);
        assert!(g.is_quiescent());
        assert!(member.is_pending(), "the last release wakes the members");
    }

    #[test]
    fn closed_inbox_rejects_and_settles() {
        let g = MessageGroup::new(0);
        let inbox = Inbox::new(Signal::new());
        inbox.join_group(g.clone());
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        inbox.post(Message {
            port: 0,
            data: Pmt::Null,
            reply: Some(tx),
        });
        inbox.close();
        assert!(rx.recv().unwrap().is_err());
        assert!(g.is_quiescent());
        assert!(!inbox.post(Message {
            port: 0,
            data: Pmt::Null,
            reply: None
        }));
    }
}
