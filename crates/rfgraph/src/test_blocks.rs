//! Minimal blocks for the crate's own unit tests, which cannot use
//! `rfgraph-blocks` (it depends on this crate).

use crate::{Block, BoxError, Pmt, Ports, StreamInput, StreamOutput, WorkIo};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

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
/// Counts its `deinit` calls; its message input `ctl` answers `Null`.
pub(crate) struct Sink {
    input: StreamInput<f32>,
    blocking: bool,
    pub(crate) deinits: Arc<AtomicUsize>,
}

impl Sink {
    pub(crate) fn new(blocking: bool) -> Self {
        Self {
            input: StreamInput::new("in"),
            blocking,
            deinits: Arc::default(),
        }
    }
}

impl Block for Sink {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).message_input("ctl")
    }
    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let n = self.input.slice().len();
        self.input.consume(n);
        Ok(())
    }
    fn handle_message(
        &mut self,
        _port: &str,
        _msg: Pmt,
        _io: &mut WorkIo,
    ) -> Result<Pmt, BoxError> {
        Ok(Pmt::Null)
    }
    fn deinit(&mut self) -> Result<(), BoxError> {
        self.deinits.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
    fn is_blocking(&self) -> bool {
        self.blocking
    }
}
