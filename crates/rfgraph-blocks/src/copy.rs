//! `Copy`: passes items through unchanged (the benchmark's unit of work).

use rfgraph::{Block, BoxError, Item, Ports, StreamInput, StreamOutput, WorkIo};

/// Copies input `in` to output `out`, as many items as fit.
pub struct Copy<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
}

impl<T: Item> Copy<T> {
    /// A new copy block.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
        }
    }
}

impl<T: Item> Default for Copy<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Item> Block for Copy<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    #[inline]
    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let i = self.input.slice();
        let o = self.output.slice();
        let n = i.len().min(o.len());
        rfgraph::copy_items(o, &i[..n]);
        self.input.consume(n);
        self.output.produce(n);
        Ok(())
    }
}

/// The registry entry: `copy`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use crate::spec_util::{ALL_KINDS, for_any_item};
    use rfgraph::registry::{BlockSpec, ParamSpec, PortItem, PortSpec};
    BlockSpec::new(
        "copy",
        "Stream Operators",
        "Passes items through unchanged.",
        |p| for_any_item!(p, T => Copy::<T>::new()),
    )
    .doc(
        "Copies every item of `in` to `out`, as many as fit per call. GNU Radio's \
          `blocks_copy` (always enabled).",
    )
    .param(ParamSpec::item_type(&ALL_KINDS))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
