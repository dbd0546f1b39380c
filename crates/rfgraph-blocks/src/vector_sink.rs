//! `VectorSink`: keeps every item and tag it receives, for tests and tools.

use crate::spec_util::kind_of;
use rfgraph::params::{ItemKind, ParamSet};
use rfgraph::{Block, BoxError, Item, Ports, StreamInput, Tag, WorkIo};

/// The parameters of [`VectorSink`] (`vector_sink`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct VectorSinkParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
}

/// Collects items and tags (tags keep their absolute indices).
///
/// # Parameters
/// [`VectorSinkParams`].
pub struct VectorSink<T: Item> {
    input: StreamInput<T>,
    params: VectorSinkParams,
    items: Vec<T>,
    tags: Vec<Tag>,
}

impl<T: Item> VectorSink<T> {
    /// An empty sink.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new("in"),
            params: VectorSinkParams {
                item: kind_of::<T>().unwrap_or(ItemKind::F32),
            },
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

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
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
    use crate::spec_util::for_any_item;
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
    BlockSpec::of::<VectorSinkParams>(
        "vector_sink",
        "Sinks",
        "Keeps every item and tag it receives, in memory.",
        |p: VectorSinkParams| for_any_item!(kind = p.item, T => VectorSink::<T>::new()),
    )
    .doc(
        "GNU Radio's `blocks_vector_sink_x`: keeps every item of `in` and its tags in \
         memory, for a program that runs the flowgraph and then reads them \
         (`Finished::block::<VectorSink<T>>`). It keeps everything, so bound an endless \
         source (`items`, `head`) before it; a flowgraph file run from the command line \
         has no way to read it back.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
}
