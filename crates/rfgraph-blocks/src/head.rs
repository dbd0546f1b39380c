//! `Head`: passes the first N items, then finishes (detaching upstream).

use rfgraph::{Block, BoxError, Item, Ports, StreamInput, StreamOutput, WorkIo};

/// Copies the first `n` items and finishes.
pub struct Head<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    left: u64,
}

impl<T: Item> Head<T> {
    /// Passes `n` items.
    pub fn new(n: u64) -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            left: n,
        }
    }
}

impl<T: Item> Block for Head<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let i = self.input.slice();
        let o = self.output.slice();
        let n = (i.len().min(o.len()) as u64).min(self.left) as usize;
        o[..n].copy_from_slice(&i[..n]);
        self.input.consume(n);
        self.output.produce(n);
        self.left -= n as u64;
        if self.left == 0 {
            io.finish();
        }
        Ok(())
    }
}
