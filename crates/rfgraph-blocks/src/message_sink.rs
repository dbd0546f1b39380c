//! `MessageSink`: counts messages and keeps (up to a cap) what it received.

use rfgraph::params::ParamSet;
use rfgraph::{Block, BoxError, Pmt, Ports, WorkIo};

/// The parameters of [`MessageSink`] (`message_sink`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct MessageSinkParams {
    /// messages to keep (all when not set); every message is counted
    #[param(unit = "messages")]
    pub keep: Option<usize>,
}

/// Counts messages on `in` and keeps the first `keep` of them.
///
/// # Parameters
/// [`MessageSinkParams`].
pub struct MessageSink {
    params: MessageSinkParams,
    received: u64,
    kept: Vec<Pmt>,
}

impl MessageSink {
    /// Counts and keeps every message.
    pub fn new() -> Self {
        Self::from_params(MessageSinkParams::default())
    }

    /// Counts every message but keeps only the first `keep`.
    pub fn keeping(keep: usize) -> Self {
        Self::from_params(MessageSinkParams { keep: Some(keep) })
    }

    /// The sink `params` describe (any values are valid).
    pub fn from_params(params: MessageSinkParams) -> Self {
        Self {
            params,
            received: 0,
            kept: Vec::new(),
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

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        self.received += 1;
        if self.params.keep.is_none_or(|k| self.kept.len() < k) {
            self.kept.push(msg);
        }
        Ok(Pmt::U64(self.received))
    }
}

/// The registry entry: `message_sink`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::BlockSpec;
    BlockSpec::of::<MessageSinkParams>(
        "message_sink",
        "Message Tools",
        "Counts the messages it receives and keeps the first N.",
        |p| Ok(Box::new(MessageSink::from_params(p))),
    )
    .doc(
        "Counts every message on `in` and keeps the first `keep` of them (all when \
          not set), for tools and tests that inspect the finished flowgraph.",
    )
    .message_input("in")
}
