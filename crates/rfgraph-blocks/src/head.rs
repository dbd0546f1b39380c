//! `Head`: passes the first N items, then finishes (detaching upstream).

use crate::limit::Limit;
use rfgraph::{Block, BoxError, Item, Ports, StreamInput, StreamOutput, WorkIo};

/// Copies the first `n` items and finishes.
pub struct Head<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    limit: Limit,
}

impl<T: Item> Head<T> {
    /// Passes `n` items.
    pub fn new(n: u64) -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            limit: Limit::of(n),
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
        let n = self.limit.allow(i.len().min(o.len()));
        rfgraph::copy_items(o, &i[..n]);
        self.input.consume(n);
        self.output.produce(n);
        self.limit.spend(n, io);
        Ok(())
    }
}

/// The registry entry: `head`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use crate::spec_util::{ALL_KINDS, for_any_item};
    use rfgraph::registry::{BlockSpec, ParamSpec, PortItem, PortSpec};
    BlockSpec::new(
        "head",
        "Stream Operators",
        "Passes the first N items, then finishes.",
        |p| {
            let items = p.u64("items")?;
            for_any_item!(p, T => Head::<T>::new(items))
        },
    )
    .doc(
        "Copies the first `items` items of `in` to `out` and finishes, which ends \
          the blocks before it once nothing else reads them. GNU Radio's `blocks_head`.",
    )
    .param(ParamSpec::uint("items").doc("items to pass"))
    .param(ParamSpec::item_type(&ALL_KINDS))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
