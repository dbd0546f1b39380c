//! `MessageBurst`: posts K copies of a message at start, optionally a final
//! "done" message, then finishes (the GRCon'19 message benchmark's source).
//! The copies are made when the block is built, so a run only moves them
//! (the paper preallocates its messages too).

use rfgraph::params::{ParamSet, limits};
use rfgraph::{Block, BoxError, MessageOutput, ParamError, Pmt, Ports, WorkIo};

/// The parameters of [`MessageBurst`] (`message_burst`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct MessageBurstParams {
    /// the message to post
    #[param(default = Pmt::Null)]
    pub message: Pmt,
    /// copies to post (all made when the block is built)
    #[param(default = 1, max = limits::MAX_ELEMENTS)]
    pub count: usize,
    /// a last message after the burst (none when null)
    #[param(default = Pmt::Null)]
    pub done: Pmt,
}

/// Posts `count` copies of `message` on `out`, then `done` if set, then finishes.
///
/// # Parameters
/// [`MessageBurstParams`].
pub struct MessageBurst {
    output: MessageOutput,
    params: MessageBurstParams,
    messages: Vec<Pmt>,
}

impl MessageBurst {
    /// `count` copies of `message`.
    pub fn new(message: Pmt, count: usize) -> Self {
        Self {
            output: MessageOutput::new("out"),
            messages: vec![message.clone(); count],
            params: MessageBurstParams {
                message,
                count,
                done: Pmt::Null,
            },
        }
    }

    /// The burst `params` describe.
    ///
    /// Errors: a `count` beyond its bound.
    pub fn from_params(params: MessageBurstParams) -> Result<Self, ParamError> {
        params.validate()?;
        let burst = Self::new(params.message.clone(), params.count);
        Ok(match params.done {
            Pmt::Null => burst,
            done => burst.with_done(done),
        })
    }

    /// Also posts `done` after the burst.
    pub fn with_done(mut self, done: Pmt) -> Self {
        self.messages.push(done.clone());
        self.params.done = done;
        self
    }
}

impl Block for MessageBurst {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        for message in self.messages.drain(..) {
            self.output.post(message);
        }
        io.finish();
        Ok(())
    }
}

/// The registry entry: `message_burst`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::BlockSpec;
    BlockSpec::of::<MessageBurstParams>(
        "message_burst",
        "Message Tools",
        "Posts N copies of a message at start, then finishes.",
        |p| Ok(Box::new(MessageBurst::from_params(p)?)),
    )
    .doc(
        "Posts `count` copies of `message` on `out` when the flowgraph starts, then \
          `done` if it is set, then finishes. The copies are made when the block is \
          built, so a run only moves them.",
    )
    .message_output("out")
}
