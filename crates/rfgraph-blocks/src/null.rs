//! `NullSource` (endless zeros) and `NullSink` (discards everything).

use rfgraph::{Block, BoxError, Item, Ports, StreamInput, StreamOutput, WorkIo};

/// Writes zeros for ever (pair it with `Head` to bound a run).
pub struct NullSource<T: Item> {
    output: StreamOutput<T>,
}

impl<T: Item> NullSource<T> {
    /// A new source with output `out`.
    pub fn new() -> Self {
        Self {
            output: StreamOutput::new("out"),
        }
    }
}

impl<T: Item> Default for NullSource<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Item> Block for NullSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.output.slice();
        let n = out.len();
        out.fill(T::zeroed());
        self.output.produce(n);
        Ok(())
    }
}

/// Consumes and discards everything on input `in`.
pub struct NullSink<T: Item> {
    input: StreamInput<T>,
}

impl<T: Item> NullSink<T> {
    /// A new sink.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new("in"),
        }
    }
}

impl<T: Item> Default for NullSink<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Item> Block for NullSink<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let n = self.input.slice().len();
        self.input.consume(n);
        Ok(())
    }
}
