//! The message output port: fans a [`Pmt`] out to every connected input.

use crate::message::{Inbox, Message};
use crate::pmt::Pmt;
use std::sync::Arc;

/// One connected message input.
#[derive(Clone)]
pub(crate) struct MessageTarget {
    pub(crate) inbox: Arc<Inbox>,
    pub(crate) port: usize,
}

/// A message output. Keep it as a field of the block and call
/// [`post`](Self::post) from `work` or a message handler.
pub struct MessageOutput {
    name: &'static str,
    targets: Vec<MessageTarget>,
}

impl MessageOutput {
    /// An output named `name`.
    pub fn new(name: &'static str) -> Self {
        Self {
            name,
            targets: Vec::new(),
        }
    }

    /// The port's name.
    pub fn name(&self) -> &str {
        self.name
    }

    /// Number of connected inputs.
    pub fn connections(&self) -> usize {
        self.targets.len()
    }

    /// Sends `msg` to every connected input (cloned for all but the last).
    /// Inputs of finished blocks drop it.
    pub fn post(&self, msg: Pmt) {
        if let Some((last, rest)) = self.targets.split_last() {
            for t in rest {
                t.inbox.post(Message {
                    port: t.port,
                    data: msg.clone(),
                    reply: None,
                });
            }
            last.inbox.post(Message {
                port: last.port,
                data: msg,
                reply: None,
            });
        }
    }

    pub(crate) fn set_targets(&mut self, targets: Vec<MessageTarget>) {
        self.targets = targets;
    }
}
