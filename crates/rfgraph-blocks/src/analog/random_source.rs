//! `random_source` (GNU Radio `analog_random_source_x`): a vector of
//! uniformly random integers, played once or repeated.

use crate::generate::rng::Xoshiro256PlusPlus;
use crate::limit::Limit;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Item, ParamError, ParamSet, Ports, StreamOutput, WorkIo};

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

/// The parameters of [`RandomSource`] (`random_source`, GNU Radio's
/// `analog_random_source_x`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct RandomSourceParams {
    /// smallest value, within the item type
    #[param(default = 0)]
    pub min: i64,
    /// one past the largest value, above `min`
    #[param(default = 2)]
    pub max: i64,
    /// length of the random vector
    #[param(default = 1000, min = 1, max = limits::MAX_ELEMENTS)]
    pub num_samps: usize,
    /// repeat the vector endlessly
    #[param(default = true)]
    pub repeat: bool,
    /// generator seed
    #[param(default = 0)]
    pub seed: u64,
    /// stop after this many items (endless when not set)
    #[param(unit = "items")]
    pub items: Option<u64>,
    /// stream item type
    #[param(name = "type", kinds(U8, I16, I32))]
    pub item: ItemKind,
}

impl RandomSourceParams {
    /// The values of the item type.
    fn bounds(&self) -> (i64, i64) {
        match self.item {
            ItemKind::I16 => (i16::MIN.into(), i16::MAX.into()),
            ItemKind::I32 => (i32::MIN.into(), i32::MAX.into()),
            _ => (u8::MIN.into(), u8::MAX.into()),
        }
    }

    fn check(&self) -> Result<(), ParamError> {
        let (lo, hi) = self.bounds();
        if self.min >= self.max {
            return Err(ParamError::new(
                "random_source",
                "max",
                format!("must exceed min ({}), got {}", self.min, self.max),
            ));
        }
        if self.min < lo || self.max - 1 > hi {
            return Err(ParamError::new(
                "random_source",
                "min",
                format!(
                    "[{}, {}) does not fit {lo}..={hi} (`{}`)",
                    self.min, self.max, self.item
                ),
            ));
        }
        Ok(())
    }
}

/// Draws `num_samps` integers uniformly from `[min, max)` when built,
/// then writes them once or, with `repeat`, over and over (GNU Radio's
/// `random_source_x`, which draws with numpy). The values are those of
/// `seed` (xoshiro256++), not numpy's.
///
/// # Parameters
/// [`RandomSourceParams`]; `T` is the item type.
///
/// # Stream Outputs
/// - `out`: `T` (`u8`, `i16`, `i32`)
///
/// # Usage
/// ```
/// use rfgraph::params::ItemKind;
/// use rfgraph_blocks::analog::{RandomSource, RandomSourceParams};
/// let bytes = RandomSource::<u8>::new(RandomSourceParams {
///     max: 256,
///     repeat: false,
///     seed: 1,
///     ..Default::default()
/// })?;
/// # let _ = bytes;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct RandomSource<T: RandomItem> {
    output: StreamOutput<T>,
    params: RandomSourceParams,
    values: Vec<T>,
    next: usize,
    limit: Limit,
}

impl<T: RandomItem> RandomSource<T> {
    /// `params.num_samps` values from `[params.min, params.max)` (the item
    /// type is `T`'s; `params.item` is what the registry builds from).
    ///
    /// Errors: an empty range, a range outside `T`, no samples.
    pub fn new(params: RandomSourceParams) -> Result<Self, ParamError> {
        params.validate()?;
        let (min, max) = (params.min, params.max);
        if min < T::MIN || max - 1 > T::MAX {
            return Err(ParamError::new(
                "RandomSource",
                "min",
                format!("[{min}, {max}) does not fit {}..={}", T::MIN, T::MAX),
            ));
        }
        let mut rng = Xoshiro256PlusPlus::from_seed(params.seed);
        let span = (max - min) as u64;
        let values = (0..params.num_samps)
            // Multiply-high maps a 64-bit word onto 0..span evenly enough
            // (bias below 2^-32 for spans under 2^32).
            .map(|_| T::of(min + ((rng.next_u64() as u128 * span as u128) >> 64) as i64))
            .collect();
        Ok(Self {
            output: StreamOutput::new("out"),
            values,
            next: 0,
            limit: Limit::new(params.items),
            params,
        })
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

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
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
            if self.next == self.values.len() && self.params.repeat {
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
    BlockSpec::of::<RandomSourceParams>(
        "random_source",
        "Sources",
        "Uniform random integers in [min, max), once or repeated.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { U8 => u8, I16 => i16, I32 => i32 } as T
                => RandomSource::<T>::new(p)?)
        },
    )
    .doc(
        "GNU Radio's `analog_random_source_x`: `num_samps` values drawn once from [min, max), \
         written once or repeated. Seeded (xoshiro256++), so the values differ from GNU \
         Radio's numpy draw; the distribution is the same.",
    )
    .output(PortSpec::new("out", PortItem::OfType))
}
