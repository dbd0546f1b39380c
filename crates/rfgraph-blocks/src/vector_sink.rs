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

/// The registry entry: `vector_sink`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use crate::spec_util::{ALL_KINDS, for_any_item};
    use rfgraph::registry::{BlockSpec, ParamSpec, PortItem, PortSpec};
    BlockSpec::new(
        "vector_sink",
        "Sinks",
        "Keeps every item and tag it receives, in memory.",
        |p| for_any_item!(p, T => VectorSink::<T>::new()),
    )
    .doc(
        "GNU Radio's `blocks_vector_sink_x`: keeps every item of `in` and its tags in \
         memory, for a program that runs the flowgraph and then reads them \
         (`Finished::block::<VectorSink<T>>`). It keeps everything, so bound an endless \
         source (`items`, `head`) before it; a flowgraph file run from the command line \
         has no way to read it back.",
    )
    .param(ParamSpec::item_type(&ALL_KINDS))
    .input(PortSpec::new("in", PortItem::OfType))
}
