//! `MessageBurst`: posts K copies of a message at start, optionally a final
//! "done" message, then finishes (the GRCon'19 message benchmark's source).
//! The copies are made when the block is built, so a run only moves them
//! (the paper preallocates its messages too).

use rfgraph::{Block, BoxError, MessageOutput, Pmt, Ports, WorkIo};

/// Posts `count` copies of `message` on `out`, then `done` if set, then finishes.
pub struct MessageBurst {
    output: MessageOutput,
    messages: Vec<Pmt>,
}

impl MessageBurst {
    /// `count` copies of `message`.
    pub fn new(message: Pmt, count: usize) -> Self {
        Self {
            output: MessageOutput::new("out"),
            messages: vec![message; count],
        }
    }

    /// Also posts `done` after the burst.
    pub fn with_done(mut self, done: Pmt) -> Self {
        self.messages.push(done);
        self
    }
}

impl Block for MessageBurst {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_output(&mut self.output)
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
    use rfgraph::registry::{BlockSpec, ParamSpec};
    BlockSpec::new(
        "message_burst",
        "Message Tools",
        "Posts N copies of a message at start, then finishes.",
        |p| {
            let message = p.raw("message")?.clone();
            let count = p.usize("count")?;
            let done = p.raw("done")?.clone();
            let block = MessageBurst::new(message, count);
            Ok(Box::new(match done {
                Pmt::Null => block,
                done => block.with_done(done),
            }) as Box<dyn Block>)
        },
    )
    .doc(
        "Posts `count` copies of `message` on `out` when the flowgraph starts, then \
          `done` if it is set, then finishes. The copies are made when the block is \
          built, so a run only moves them.",
    )
    .param(
        ParamSpec::any("message")
            .default(Pmt::Null)
            .doc("the message to post"),
    )
    .param(ParamSpec::uint("count").default(1u64).doc("copies to post"))
    .param(
        ParamSpec::any("done")
            .default(Pmt::Null)
            .doc("a last message after the burst (none when null)"),
    )
    .message_output("out")
}
