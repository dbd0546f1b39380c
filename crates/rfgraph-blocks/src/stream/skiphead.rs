//! [`SkipHead`]: drops the first N items of a stream (GNU Radio's
//! `blocks_skiphead`), with its registry entry.

use super::tags::forward;
use crate::spec_util::kind_of;
use rfgraph::params::{ItemKind, ParamSet};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, Item, ParamError, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};

/// The parameters of [`SkipHead`] (`skiphead`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct SkipHeadParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// items to drop
    #[param(default = 0, unit = "items")]
    pub skip: u64,
}

/// Drops the first `skip` items, then copies the rest. Tags of dropped
/// items are dropped; the others move with their items.
///
/// # Parameters
/// [`SkipHeadParams`].
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
    params: SkipHeadParams,
}

impl<T: Item> SkipHead<T> {
    /// Drops the first `skip` items.
    pub fn new(skip: u64) -> Self {
        Self::with(SkipHeadParams {
            item: ItemKind::F32,
            skip,
        })
    }

    /// The block `params` describe (the item type is `T`'s).
    ///
    /// Errors: none today; the parameters are checked as a file's are.
    pub fn from_params(params: SkipHeadParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self::with(params))
    }

    fn with(mut params: SkipHeadParams) -> Self {
        params.item = kind_of::<T>().unwrap_or(params.item);
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            params,
        }
    }
}

impl<T: Item> Block for SkipHead<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let start = self.input.position();
        let i = self.input.slice();
        let dropped = (self.params.skip.saturating_sub(start)).min(i.len() as u64) as usize;
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
    BlockSpec::of::<SkipHeadParams>(
        "skiphead",
        "Stream Operators",
        "Drops the first `skip` items of a stream.",
        |p| crate::spec_util::for_any_item!(kind = p.item, T => SkipHead::<T>::from_params(p)?),
    )
    .doc("Drops the first `skip` items of the stream (counted from its start, over any number of calls), then copies the rest unchanged; any item type. `skip` 0 passes everything. Tags on the dropped items are dropped; later ones move with their items, `skip` earlier. GNU Radio's `blocks_skiphead`.")
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
