//! `Head`: passes the first N items, then finishes (detaching upstream).
//! N may change while it runs, as GNU Radio's `head::set_length`.

use crate::spec_util::kind_of;
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::{Block, BoxError, Item, ParamError, Ports, StreamInput, StreamOutput, WorkIo};

/// The parameters of [`Head`] (`head`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct HeadParams {
    /// items to pass (vectors of `vlen`); a new value while running is the
    /// new total counted from the start, as GNU Radio's `set_length`: at
    /// or below what already passed, the block finishes
    #[param(unit = "items", alias = "num_items", settable)]
    pub items: u64,
    /// items per GNU Radio vector: `items` counts vectors
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
}

impl HeadParams {
    /// The items to pass in all.
    fn total(&self) -> u64 {
        self.items.saturating_mul(self.vlen as u64)
    }
}

/// Copies the first `items` items and finishes.
///
/// # Parameters
/// [`HeadParams`]; `items` may change while the block runs.
pub struct Head<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    params: HeadParams,
    /// Items passed so far.
    passed: u64,
}

impl<T: Item> Head<T> {
    /// Passes `n` items.
    pub fn new(n: u64) -> Self {
        Self::with(HeadParams {
            items: n,
            vlen: 1,
            item: ItemKind::F32,
        })
    }

    /// A head with `params` (the item type is `T`'s).
    ///
    /// Errors: a `vlen` out of its range.
    pub fn from_params(params: HeadParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self::with(params))
    }

    fn with(mut params: HeadParams) -> Self {
        params.item = kind_of::<T>().unwrap_or(params.item);
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            params,
            passed: 0,
        }
    }
}

impl<T: Item> Block for Head<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    /// It passes all it can; what is left waits for room or input.
    fn idle_when_drained(&self) -> bool {
        true
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let left = self.params.total().saturating_sub(self.passed);
        let i = self.input.slice();
        let o = self.output.slice();
        let n = (left.min(i.len().min(o.len()) as u64)) as usize;
        rfgraph::copy_items(o, &i[..n]);
        self.input.consume(n);
        self.output.produce(n);
        self.passed += n as u64;
        if self.passed >= self.params.total() {
            io.finish();
        }
        Ok(())
    }
}

/// The registry entry: `head`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use crate::spec_util::for_any_item;
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
    BlockSpec::of::<HeadParams>(
        "head",
        "Stream Operators",
        "Passes the first N items, then finishes.",
        |p| for_any_item!(kind = p.item, T => Head::<T>::from_params(p)?),
    )
    .doc(
        "Copies the first `items` items of `in` to `out` and finishes, which ends \
          the blocks before it once nothing else reads them. GNU Radio's `blocks_head`; \
          `items` may change while the flowgraph runs, as its `set_length` does: the \
          new total counts from the start, and a total already reached finishes the \
          block.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
