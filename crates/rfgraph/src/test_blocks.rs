//! Minimal blocks for the crate's own unit tests, which cannot use
//! `rfgraph-blocks` (it depends on this crate).

use crate::{Block, BoxError, Ports, StreamInput, StreamOutput, WorkIo};

/// Writes `left` ones, then finishes.
pub(crate) struct Source(pub(crate) StreamOutput<f32>, pub(crate) u64);

impl Source {
    pub(crate) fn new(items: u64) -> Self {
        Self(StreamOutput::new("out"), items)
    }
}

impl Block for Source {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.0)
    }
    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.0.slice();
        let n = out.len().min(usize::try_from(self.1).unwrap_or(usize::MAX));
        out[..n].fill(1.0);
        self.0.produce(n);
        self.1 -= n as u64;
        if self.1 == 0 {
            io.finish();
        }
        Ok(())
    }
}

/// Consumes everything; marked blocking (a thread of its own) when asked.
pub(crate) struct Sink(pub(crate) StreamInput<f32>, pub(crate) bool);

impl Sink {
    pub(crate) fn new(blocking: bool) -> Self {
        Self(StreamInput::new("in"), blocking)
    }
}

impl Block for Sink {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.0)
    }
    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let n = self.0.slice().len();
        self.0.consume(n);
        Ok(())
    }
    fn is_blocking(&self) -> bool {
        self.1
    }
}
