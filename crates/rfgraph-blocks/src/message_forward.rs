//! `MessageForward`: re-posts every message from `in` on `out`.

use rfgraph::{Block, BoxError, MessageOutput, Pmt, Ports, WorkIo};

/// Forwards messages unchanged; finishes with its message group.
pub struct MessageForward {
    output: MessageOutput,
    forwarded: u64,
    /// Drop messages after this many forwards (lets a cycle drain).
    limit: Option<u64>,
}

impl MessageForward {
    /// Forwards everything.
    pub fn new() -> Self {
        Self {
            output: MessageOutput::new("out"),
            forwarded: 0,
            limit: None,
        }
    }

    /// Forwards only the first `limit` messages and drops the rest, so that
    /// a message cycle through this block ends.
    pub fn with_limit(limit: u64) -> Self {
        Self {
            limit: Some(limit),
            ..Self::new()
        }
    }

    /// Messages forwarded so far.
    pub fn forwarded(&self) -> u64 {
        self.forwarded
    }
}

impl Default for MessageForward {
    fn default() -> Self {
        Self::new()
    }
}

impl Block for MessageForward {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input("in")
            .message_output(&mut self.output)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        if self.limit.is_none_or(|l| self.forwarded < l) {
            self.forwarded += 1;
            self.output.post(msg);
        }
        Ok(Pmt::Null)
    }
}

/// The registry entry: `message_forward`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, ParamSpec};
    BlockSpec::new(
        "message_forward",
        "Message Tools",
        "Re-posts every message it receives.",
        |p| {
            let limit: Option<u64> = p.opt("limit")?;
            Ok(Box::new(match limit {
                Some(l) => MessageForward::with_limit(l),
                None => MessageForward::new(),
            }) as Box<dyn Block>)
        },
    )
    .doc(
        "Posts every message from `in` on `out` unchanged. With `limit`, only the \
          first `limit` messages go on and the rest are dropped, so that a message \
          cycle through this block ends.",
    )
    .param(
        ParamSpec::uint("limit")
            .optional()
            .doc("messages to forward (all when not set)"),
    )
    .message_input("in")
    .message_output("out")
}
