//! `RandomIntegers`: seeded uniformly distributed `i16` or `i32` items in
//! a half-open range, GNU Radio's `random_uniform_source_s`/`_i`. Shares
//! its parameters and registry entry (`random_uniform_source`) with
//! [`RandomBytes`](super::RandomBytes); owns the integer block.

use super::RandomBytesParams;
use super::chunked::Chunked;
use super::distributions::BLOCK;
use crate::limit::Limit;
use rfgraph::{Block, BoxError, Item, ParamError, ParamSet, Ports, StreamOutput, WorkIo};

/// An integer item type [`RandomIntegers`] makes.
pub trait RandomInteger: Item + Copy + Default {
    /// `v`, which the parameters' check keeps in range.
    fn from_i64(v: i64) -> Self;
}

impl RandomInteger for i16 {
    fn from_i64(v: i64) -> Self {
        v as i16
    }
}

impl RandomInteger for i32 {
    fn from_i64(v: i64) -> Self {
        v as i32
    }
}

/// Seeded integers uniformly distributed in `[minimum, maximum)`, like
/// GNU Radio's `random_uniform_source_s` and `_i` (with another
/// generator, so not GNU Radio's values).
///
/// Each item maps 32 random bits from xoshiro256++ (seeded through
/// SplitMix64) to `minimum + ⌊bits · span / 2^32⌋`, made in blocks of 256
/// items, so a seed gives the same stream on every scheduler however the
/// output is split; no value is favoured by more than `span / 2^32`.
///
/// # Stream Outputs
/// - `out`: `i16` or `i32`
///
/// # Parameters
/// [`RandomBytesParams`] with `type` `i16` or `i32`.
///
/// # Usage
/// ```
/// use rfgraph::params::ItemKind;
/// use rfgraph_blocks::{RandomBytesParams, RandomIntegers};
/// let dice = RandomIntegers::<i32>::from_params(RandomBytesParams {
///     minimum: -3,
///     maximum: 4,
///     seed: 1,
///     items: Some(100),
///     item: ItemKind::I32,
/// })?;
/// # let _ = dice;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct RandomIntegers<T: RandomInteger> {
    output: StreamOutput<T>,
    stream: Chunked<T>,
    params: RandomBytesParams,
    limit: Limit,
}

impl<T: RandomInteger> RandomIntegers<T> {
    /// A source with `params`.
    ///
    /// Errors: an empty range, or one the item type cannot hold.
    pub fn from_params(params: RandomBytesParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            output: StreamOutput::new("out"),
            stream: Chunked::new(params.seed),
            limit: Limit::new(params.items),
            params,
        })
    }
}

impl<T: RandomInteger> Block for RandomIntegers<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.output.slice();
        let n = self.limit.allow(out.len());
        let minimum = self.params.minimum;
        // The check keeps minimum < maximum with a span of at most 2^32,
        // so `bits · span` (bits < 2^32) fits 64 bits.
        let span = (self.params.maximum - minimum) as u64;
        self.stream.fill(&mut out[..n], |rng, block| {
            let mut words = [0u64; BLOCK / 2];
            rng.fill(&mut words);
            for (pair, w) in block.as_chunks_mut::<2>().0.iter_mut().zip(words) {
                let pick = |bits: u64| T::from_i64(minimum + ((bits * span) >> 32) as i64);
                pair[0] = pick(w & 0xFFFF_FFFF);
                pair[1] = pick(w >> 32);
            }
        });
        self.output.produce(n);
        self.limit.spend(n, io);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rfgraph::params::ItemKind;

    fn params(minimum: i64, maximum: i64, item: ItemKind) -> RandomBytesParams {
        RandomBytesParams {
            minimum,
            maximum,
            seed: 3,
            items: Some(10_000),
            item,
        }
    }

    #[test]
    fn ranges_must_fit_the_item_type() {
        assert!(RandomIntegers::<i16>::from_params(params(-32768, 32768, ItemKind::I16)).is_ok());
        assert!(RandomIntegers::<i16>::from_params(params(-32769, 0, ItemKind::I16)).is_err());
        assert!(RandomIntegers::<i32>::from_params(params(0, 1 << 31, ItemKind::I32)).is_ok());
        assert!(
            RandomIntegers::<i32>::from_params(params(0, (1 << 31) + 1, ItemKind::I32)).is_err()
        );
        assert!(RandomIntegers::<i32>::from_params(params(5, 5, ItemKind::I32)).is_err());
    }

    #[test]
    fn every_value_of_a_small_range_comes_and_nothing_outside() {
        let mut stream = Chunked::<i32>::new(9);
        let mut out = vec![0i32; 4096];
        let (minimum, span) = (-3i64, 7u64);
        stream.fill(&mut out, |rng, block| {
            let mut words = [0u64; BLOCK / 2];
            rng.fill(&mut words);
            for (pair, w) in block.as_chunks_mut::<2>().0.iter_mut().zip(words) {
                pair[0] = (minimum + (((w & 0xFFFF_FFFF) * span) >> 32) as i64) as i32;
                pair[1] = (minimum + (((w >> 32) * span) >> 32) as i64) as i32;
            }
        });
        assert!(out.iter().all(|v| (-3..4).contains(v)));
        for v in -3..4 {
            assert!(out.contains(&v), "{v} never came");
        }
    }
}
