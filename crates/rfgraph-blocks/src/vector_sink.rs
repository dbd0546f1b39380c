//! `VectorSink`: keeps every item and tag it receives, for tests and tools.

use rfgraph::{Block, BoxError, Item, Ports, StreamInput, Tag, WorkIo};

/// Collects items and tags (tags keep their absolute indices).
pub struct VectorSink<T: Item> {
    input: StreamInput<T>,
    items: Vec<T>,
    tags: Vec<Tag>,
}

impl<T: Item> VectorSink<T> {
    /// An empty sink.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new("in"),
            items: Vec::new(),
            tags: Vec::new(),
        }
    }

    /// The items received.
    pub fn items(&self) -> &[T] {
        &self.items
    }

    /// The tags received, in index order.
    pub fn tags(&self) -> &[Tag] {
        &self.tags
    }
}

impl<T: Item> Default for VectorSink<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Item> Block for VectorSink<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let i = self.input.slice();
        let n = i.len();
        self.items.extend_from_slice(i);
        if n > 0 {
            self.tags.extend(self.input.tags());
        }
        self.input.consume(n);
        Ok(())
    }
}
