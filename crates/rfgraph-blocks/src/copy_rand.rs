//! `CopyRand`: a copy that moves a random 1..=max items per call, like
//! gr-sched's `copy_rand`, to shake out scheduling and buffer bugs.

use crate::spec_util::kind_of;
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::{Block, BoxError, Item, ParamError, Ports, StreamInput, StreamOutput, WorkIo};

/// The parameters of [`CopyRand`] (`copy_rand`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct CopyRandParams {
    /// most items moved per call
    #[param(default = 1024, min = 1, max = limits::MAX_BUFFER_ITEMS)]
    pub max: usize,
    /// seed of the item counts
    #[param(default = 0)]
    pub seed: u64,
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
}

/// Copies a random number of items (1..=`max`, limited by what is
/// available) per call, from a seeded xorshift generator.
///
/// # Parameters
/// [`CopyRandParams`].
pub struct CopyRand<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    params: CopyRandParams,
    state: u64,
}

impl<T: Item> CopyRand<T> {
    /// Moves at most `max` items per call (at least 1); `seed` makes runs
    /// repeatable.
    pub fn new(max: usize, seed: u64) -> Self {
        Self::with(CopyRandParams {
            max: max.clamp(1, limits::MAX_BUFFER_ITEMS),
            seed,
            item: ItemKind::F32,
        })
    }

    /// A block with `params` (the item type is `T`'s).
    ///
    /// Errors: a `max` out of its range.
    pub fn from_params(params: CopyRandParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self::with(params))
    }

    fn with(mut params: CopyRandParams) -> Self {
        params.item = kind_of::<T>().unwrap_or(params.item);
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            state: params.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            params,
        }
    }

    fn next_count(&mut self) -> usize {
        // xorshift64*
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        let r = self.state.wrapping_mul(0x2545_F491_4F6C_DD1D);
        1 + (r % self.params.max as u64) as usize
    }
}

impl<T: Item> Block for CopyRand<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
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
    use crate::spec_util::for_any_item;
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
    BlockSpec::of::<CopyRandParams>(
        "copy_rand",
        "Stream Operators",
        "Passes items through, a random number per call (scheduler testing).",
        |p| for_any_item!(kind = p.item, T => CopyRand::<T>::from_params(p)?),
    )
    .doc(
        "Copies `in` to `out` unchanged, moving a random 1 to `max` items per call \
          (gr-sched's `copy_rand`), to shake out scheduling and buffer bugs.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
