//! `random_source` (GNU Radio `analog_random_source_x`): a vector of
//! uniformly random integers, played once or repeated.

use super::{items, items_param};
use crate::generate::rng::Xoshiro256PlusPlus;
use crate::limit::Limit;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Item, ParamError, Ports, StreamOutput, WorkIo};

/// An integer item [`RandomSource`] makes (`u8`, `i16`, `i32`).
pub trait RandomItem: Item {
    /// The smallest value.
    const MIN: i64;
    /// The largest value.
    const MAX: i64;
    /// `v`, known to be in range.
    fn of(v: i64) -> Self;
}

macro_rules! random_item {
    ($($t:ty),*) => {$(
        impl RandomItem for $t {
            const MIN: i64 = <$t>::MIN as i64;
            const MAX: i64 = <$t>::MAX as i64;
            fn of(v: i64) -> Self {
                v as $t
            }
        }
    )*};
}
random_item!(u8, i16, i32);

/// Draws `num_samps` integers uniformly from `[min, max)` when built,
/// then writes them once or, with `repeat`, over and over (GNU Radio's
/// `random_source_x`, which draws with numpy). The values are those of
/// `seed` (xoshiro256++), not numpy's.
///
/// # Stream Outputs
/// - `out`: `T` (`u8`, `i16`, `i32`)
///
/// # Parameters
/// - `min`, `max`: the range `[min, max)`, within `T`'s values.
/// - `num_samps`: length of the vector (≥ 1).
/// - `repeat`: play the vector endlessly.
/// - `seed`: the generator's seed.
///
/// # Usage
/// ```
/// use rfgraph_blocks::analog::RandomSource;
/// let bytes = RandomSource::<u8>::new(0, 256, 1000, false, 1)?;
/// # let _ = bytes;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct RandomSource<T: RandomItem> {
    output: StreamOutput<T>,
    values: Vec<T>,
    repeat: bool,
    next: usize,
    limit: Limit,
}

impl<T: RandomItem> RandomSource<T> {
    /// `num_samps` values from `[min, max)`.
    ///
    /// Errors: an empty range, a range outside `T`, no samples.
    pub fn new(
        min: i64,
        max: i64,
        num_samps: usize,
        repeat: bool,
        seed: u64,
    ) -> Result<Self, ParamError> {
        let err = |p: &str, m: String| ParamError::new("RandomSource", p, m);
        if min >= max {
            return Err(err("max", format!("must exceed min ({min}), got {max}")));
        }
        if min < T::MIN || max - 1 > T::MAX {
            return Err(err(
                "min",
                format!("[{min}, {max}) does not fit {}..={}", T::MIN, T::MAX),
            ));
        }
        if num_samps == 0 || num_samps > 1 << 28 {
            return Err(err(
                "num_samps",
                format!("must be 1..=2^28, got {num_samps}"),
            ));
        }
        let mut rng = Xoshiro256PlusPlus::from_seed(seed);
        let span = (max - min) as u64;
        let values = (0..num_samps)
            // Multiply-high maps a 64-bit word onto 0..span evenly enough
            // (bias below 2^-32 for spans under 2^32).
            .map(|_| T::of(min + ((rng.next_u64() as u128 * span as u128) >> 64) as i64))
            .collect();
        Ok(Self {
            output: StreamOutput::new("out"),
            values,
            repeat,
            next: 0,
            limit: Limit::unlimited(),
        })
    }

    /// Stops after `items` items.
    pub fn limit(mut self, items: u64) -> Self {
        self.limit = Limit::of(items);
        self
    }

    /// The drawn vector.
    pub fn values(&self) -> &[T] {
        &self.values
    }
}

impl<T: RandomItem> Block for RandomSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.output.slice();
        let room = self.limit.allow(out.len());
        let mut filled = 0;
        // One slice per call (see `VectorSource`).
        while filled < room && self.next < self.values.len() {
            let n = (room - filled).min(self.values.len() - self.next);
            rfgraph::copy_items(
                &mut out[filled..filled + n],
                &self.values[self.next..self.next + n],
            );
            filled += n;
            self.next += n;
            if self.next == self.values.len() && self.repeat {
                self.next = 0;
            }
        }
        self.output.produce(filled);
        self.limit.spend(filled, io);
        if self.next == self.values.len() {
            io.finish();
        }
        Ok(())
    }
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new("random_source", "Sources", "Uniform random integers in [min, max), once or repeated.", |p| {
        let (min, max, n, repeat, seed) =
            (p.i64("min")?, p.i64("max")?, p.usize("num_samps")?, p.bool("repeat")?, p.u64("seed")?);
        let items = items(p)?;
        macro_rules! build {
            ($t:ty) => {{
                let s = RandomSource::<$t>::new(min, max, n, repeat, seed).map_err(|e| p.refused(e))?;
                match items {
                    Some(i) => s.limit(i),
                    None => s,
                }
            }};
        }
        rfgraph::for_item_kinds!(p, p.item_type()?, { U8 => u8, I16 => i16, I32 => i32 } as T => build!(T))
    })
    .doc("GNU Radio's `analog_random_source_x`: `num_samps` values drawn once from [min, max), written once or repeated. Seeded (xoshiro256++), so the values differ from GNU Radio's numpy draw; the distribution is the same.")
    .param(ParamSpec::int("min").default(0i64).doc("smallest value"))
    .param(ParamSpec::int("max").default(2i64).doc("one past the largest value"))
    .param(ParamSpec::uint("num_samps").default(1000u64).doc("length of the random vector"))
    .param(ParamSpec::bool("repeat").default(true).doc("repeat the vector endlessly"))
    .param(ParamSpec::uint("seed").default(0u64).doc("generator seed"))
    .param(items_param())
    .param(ParamSpec::item_type(&[ItemKind::U8, ItemKind::I16, ItemKind::I32]))
    .output(PortSpec::new("out", PortItem::OfType))
}
