//! [`SkipHead`]: drops the first N items of a stream (GNU Radio's
//! `blocks_skiphead`), with its registry entry.

use super::tags::forward;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Item, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo};

/// Drops the first `skip` items, then copies the rest. Tags of dropped
/// items are dropped; the others move with their items.
///
/// # Stream Inputs
/// - `in`: `T`.
///
/// # Stream Outputs
/// - `out`: `T`.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::{SkipHead, VectorSink, VectorSource};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8, 2, 3]));
/// let skip = fg.add(SkipHead::<u8>::new(2));
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, "out", skip, "in")?;
/// fg.connect(skip, "out", sink, "in")?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(done.block::<VectorSink<u8>>(sink).unwrap().items(), &[3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SkipHead<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    skip: u64,
}

impl<T: Item> SkipHead<T> {
    /// Drops the first `skip` items.
    pub fn new(skip: u64) -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            skip,
        }
    }
}

impl<T: Item> Block for SkipHead<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let start = self.input.position();
        let i = self.input.slice();
        let dropped = (self.skip.saturating_sub(start)).min(i.len() as u64) as usize;
        let o = self.output.slice();
        let n = (i.len() - dropped).min(o.len());
        rfgraph::copy_items(&mut o[..n], &i[dropped..dropped + n]);
        let first = start + dropped as u64;
        forward(&self.input, first..first + n as u64, &self.output, |i| {
            Some((i - first) as usize)
        });
        self.input.consume(dropped + n);
        self.output.produce(n);
        Ok(())
    }
}

/// `skiphead`: GNU Radio's `blocks_skiphead`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new(
        "skiphead",
        "Stream Operators",
        "Drops the first `skip` items of a stream.",
        |p: &Params| {
            let n = p.u64("skip")?;
            super::any_item!(p, T => SkipHead::<T>::new(n))
        },
    )
    .doc("Drops the first `skip` items of the stream (counted from its start, over any number of calls), then copies the rest unchanged; any item type. `skip` 0 passes everything. Tags on the dropped items are dropped; later ones move with their items, `skip` earlier. GNU Radio's `blocks_skiphead`.")
    .param(ParamSpec::item_type(&ItemKind::ALL))
    .param(
        ParamSpec::uint("skip")
            .default(0u64)
            .unit("items")
            .doc("items to drop"),
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
