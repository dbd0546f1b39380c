//! `MessageBurst`: posts K copies of a message at start, optionally a final
//! "done" message, then finishes (the GRCon'19 message benchmark's source).

use rfgraph::{Block, BoxError, MessageOutput, Pmt, Ports, WorkIo};

/// Posts `count` copies of `message` on `out`, then `done` if set, then finishes.
pub struct MessageBurst {
    output: MessageOutput,
    message: Pmt,
    count: usize,
    done: Option<Pmt>,
}

impl MessageBurst {
    /// `count` copies of `message`.
    pub fn new(message: Pmt, count: usize) -> Self {
        Self {
            output: MessageOutput::new("out"),
            message,
            count,
            done: None,
        }
    }

    /// Also posts `done` after the burst.
    pub fn with_done(mut self, done: Pmt) -> Self {
        self.done = Some(done);
        self
    }
}

impl Block for MessageBurst {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_output(&mut self.output)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        for _ in 0..self.count {
            self.output.post(self.message.clone());
        }
        if let Some(done) = self.done.take() {
            self.output.post(done);
        }
        io.finish();
        Ok(())
    }
}
