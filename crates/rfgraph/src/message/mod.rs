//! Message delivery: per-block inboxes and the quiescence groups that let
//! message-only parts of a graph (including cycles) finish.
//!
//! A block is *message-driven* when it has message inputs but no stream
//! inputs. Message-driven blocks joined by message edges form a [`MessageGroup`].
//! A group ends when every block feeding it from outside (its roots) has
//! finished and no message is in flight inside it. This module owns that
//! bookkeeping; it never runs handlers itself.

pub mod inbox;

pub use inbox::{Inbox, Message, MessageGroup, ReplyTo};
