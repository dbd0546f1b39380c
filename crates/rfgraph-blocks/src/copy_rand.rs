//! `CopyRand`: a copy that moves a random 1..=max items per call, like
//! gr-sched's `copy_rand`, to shake out scheduling and buffer bugs.

use rfgraph::{Block, BoxError, Item, Ports, StreamInput, StreamOutput, WorkIo};

/// Copies a random number of items (1..=`max`, limited by what is
/// available) per call, from a seeded xorshift generator.
pub struct CopyRand<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    max: usize,
    state: u64,
}

impl<T: Item> CopyRand<T> {
    /// Moves at most `max` items per call; `seed` makes runs repeatable.
    pub fn new(max: usize, seed: u64) -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            max: max.max(1),
            state: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
        }
    }

    fn next_count(&mut self) -> usize {
        // xorshift64*
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        let r = self.state.wrapping_mul(0x2545_F491_4F6C_DD1D);
        1 + (r % self.max as u64) as usize
    }
}

impl<T: Item> Block for CopyRand<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let want = self.next_count();
        let i = self.input.slice();
        let o = self.output.slice();
        let n = i.len().min(o.len()).min(want);
        rfgraph::copy_items(o, &i[..n]);
        self.input.consume(n);
        self.output.produce(n);
        Ok(())
    }
}

/// The registry entry: `copy_rand`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use crate::spec_util::{ALL_KINDS, for_any_item};
    use rfgraph::registry::{BlockSpec, ParamSpec, PortItem, PortSpec};
    BlockSpec::new(
        "copy_rand",
        "Stream Operators",
        "Passes items through, a random number per call (scheduler testing).",
        |p| {
            let max = p.usize("max")?;
            let seed = p.u64("seed")?;
            for_any_item!(p, T => CopyRand::<T>::new(max, seed))
        },
    )
    .doc(
        "Copies `in` to `out` unchanged, moving a random 1 to `max` items per call \
          (gr-sched's `copy_rand`), to shake out scheduling and buffer bugs.",
    )
    .param(
        ParamSpec::uint("max")
            .default(1024u64)
            .doc("most items moved per call"),
    )
    .param(
        ParamSpec::uint("seed")
            .default(0u64)
            .doc("seed of the item counts"),
    )
    .param(ParamSpec::item_type(&ALL_KINDS))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
