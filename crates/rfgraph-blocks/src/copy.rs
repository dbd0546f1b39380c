//! `Copy`: passes items through unchanged (the benchmark's unit of work),
//! or, disabled, drops them (GNU Radio's `blocks_copy` and its
//! `set_enabled`).

use crate::spec_util::kind_of;
use rfgraph::params::{ItemKind, ParamSet};
use rfgraph::{Block, BoxError, Item, ParamError, Ports, StreamInput, StreamOutput, WorkIo};

/// The parameters of [`Copy`](struct@Copy) (`copy`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct CopyParams {
    /// copy (true), or consume every input item and write nothing (false),
    /// as GNU Radio's disabled copy does
    #[param(default = true, alias = "en", settable)]
    pub enabled: bool,
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
}

/// Copies input `in` to output `out`, as many items as fit; while not
/// `enabled` it consumes its input and writes nothing. Tags keep their
/// index, as in GNU Radio.
///
/// # Parameters
/// [`CopyParams`]; `enabled` (alias `en`, GNU Radio's message port) may
/// change while the block runs.
pub struct Copy<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    params: CopyParams,
}

impl<T: Item> Copy<T> {
    /// A new, enabled copy block.
    pub fn new() -> Self {
        Self::with(CopyParams {
            enabled: true,
            item: kind_of::<T>().unwrap_or(ItemKind::F32),
        })
    }

    /// A copy block with `params` (the item type is `T`'s).
    ///
    /// Errors: none today; the parameters are checked as a file's are.
    pub fn from_params(params: CopyParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self::with(params))
    }

    fn with(mut params: CopyParams) -> Self {
        params.item = kind_of::<T>().unwrap_or(params.item);
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            params,
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

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn idle_when_drained(&self) -> bool {
        true
    }

    #[inline]
    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        if !self.params.enabled {
            let n = self.input.available();
            self.input.consume(n);
            return Ok(());
        }
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
    use crate::spec_util::for_any_item;
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
    BlockSpec::of::<CopyParams>(
        "copy",
        "Stream Operators",
        "Passes items through unchanged (or drops them while disabled).",
        |p| for_any_item!(kind = p.item, T => Copy::<T>::from_params(p)?),
    )
    .doc(
        "Copies every item of `in` to `out`, as many as fit per call. While `enabled` \
          is false it consumes its input and writes nothing, as GNU Radio's \
          `blocks_copy` does; `enabled` (and its alias `en`, GNU Radio's message \
          port) may change while the flowgraph runs, from the next call on.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
