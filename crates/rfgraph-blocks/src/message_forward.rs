//! `MessageForward`: re-posts every message from `in` on `out`.

use rfgraph::params::ParamSet;
use rfgraph::{Block, BoxError, MessageOutput, Pmt, Ports, WorkIo};

/// The parameters of [`MessageForward`] (`message_forward`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct MessageForwardParams {
    /// messages to forward (all when not set); later ones are dropped, so
    /// that a message cycle through this block ends
    #[param(unit = "messages")]
    pub limit: Option<u64>,
}

/// Forwards messages unchanged; finishes with its message group.
///
/// # Parameters
/// [`MessageForwardParams`].
pub struct MessageForward {
    output: MessageOutput,
    params: MessageForwardParams,
    forwarded: u64,
}

impl MessageForward {
    /// Forwards everything.
    pub fn new() -> Self {
        Self::from_params(MessageForwardParams::default())
    }

    /// Forwards only the first `limit` messages and drops the rest, so that
    /// a message cycle through this block ends.
    pub fn with_limit(limit: u64) -> Self {
        Self::from_params(MessageForwardParams { limit: Some(limit) })
    }

    /// The forwarder `params` describe (any values are valid).
    pub fn from_params(params: MessageForwardParams) -> Self {
        Self {
            output: MessageOutput::new("out"),
            params,
            forwarded: 0,
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

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        if self.params.limit.is_none_or(|l| self.forwarded < l) {
            self.forwarded += 1;
            self.output.post(msg);
        }
        Ok(Pmt::Null)
    }
}

/// The registry entry: `message_forward`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::BlockSpec;
    BlockSpec::of::<MessageForwardParams>(
        "message_forward",
        "Message Tools",
        "Re-posts every message it receives.",
        |p| Ok(Box::new(MessageForward::from_params(p))),
    )
    .doc(
        "Posts every message from `in` on `out` unchanged. With `limit`, only the \
          first `limit` messages go on and the rest are dropped, so that a message \
          cycle through this block ends.",
    )
    .message_input("in")
    .message_output("out")
}
