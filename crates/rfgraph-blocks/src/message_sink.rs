//! `MessageSink`: counts messages and keeps (up to a cap) what it received.

use rfgraph::{Block, BoxError, Pmt, Ports, WorkIo};

/// Counts messages on `in` and keeps the first `keep` of them.
pub struct MessageSink {
    received: u64,
    kept: Vec<Pmt>,
    keep: usize,
}

impl MessageSink {
    /// Counts and keeps every message.
    pub fn new() -> Self {
        Self::keeping(usize::MAX)
    }

    /// Counts every message but keeps only the first `keep`.
    pub fn keeping(keep: usize) -> Self {
        Self {
            received: 0,
            kept: Vec::new(),
            keep,
        }
    }

    /// Messages received.
    pub fn received(&self) -> u64 {
        self.received
    }

    /// Messages kept, in arrival order.
    pub fn messages(&self) -> &[Pmt] {
        &self.kept
    }
}

impl Default for MessageSink {
    fn default() -> Self {
        Self::new()
    }
}

impl Block for MessageSink {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("in")
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        self.received += 1;
        if self.kept.len() < self.keep {
            self.kept.push(msg);
        }
        Ok(Pmt::U64(self.received))
    }
}

/// The registry entry: `message_sink`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, ParamSpec};
    BlockSpec::new(
        "message_sink",
        "Message Tools",
        "Counts the messages it receives and keeps the first N.",
        |p| {
            let keep: Option<usize> = p.opt("keep")?;
            Ok(Box::new(MessageSink::keeping(keep.unwrap_or(usize::MAX))) as Box<dyn Block>)
        },
    )
    .doc(
        "Counts every message on `in` and keeps the first `keep` of them (all when \
          not set), for tools and tests that inspect the finished flowgraph.",
    )
    .param(
        ParamSpec::uint("keep")
            .optional()
            .doc("messages to keep (all when not set)"),
    )
    .message_input("in")
}
