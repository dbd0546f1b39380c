//! `RandomBytes`: seeded random bytes, GNU Radio's
//! `random_uniform_source_b`. Owns the block; the split-independent stream
//! comes from `chunked`.

use super::chunked::Chunked;
use super::distributions::BLOCK;
use super::integers::RandomIntegers;
use crate::limit::Limit;
use rfgraph::params::ItemKind;
use rfgraph::{Block, BoxError, ParamError, ParamSet, Ports, StreamOutput, WorkIo};

/// The parameters of [`RandomBytes`] (`random_uniform_source`, GNU
/// Radio's `analog_random_uniform_source_b`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct RandomBytesParams {
    /// smallest value (bytes: from 0; `i16`: from -32768; `i32`: from
    /// -2^31)
    #[param(default = 0)]
    pub minimum: i64,
    /// one above the largest value, above `minimum` (bytes: up to 256;
    /// `i16`: up to 32768; `i32`: up to 2^31)
    #[param(default = 256)]
    pub maximum: i64,
    /// seed of the generator
    #[param(default = 0)]
    pub seed: u64,
    /// stop after this many items (endless when not set)
    #[param(unit = "items")]
    pub items: Option<u64>,
    /// stream item type
    #[param(name = "type", kinds(U8, I16, I32))]
    pub item: ItemKind,
}

impl RandomBytesParams {
    /// The range holds a value, and the item type holds the range.
    fn check(&self) -> Result<(), ParamError> {
        let (lo, hi) = match self.item {
            ItemKind::I16 => (i64::from(i16::MIN), i64::from(i16::MAX) + 1),
            ItemKind::I32 => (i64::from(i32::MIN), i64::from(i32::MAX) + 1),
            _ => (0, 256),
        };
        let (param, value) = if self.maximum > hi {
            ("maximum", self.maximum)
        } else {
            ("minimum", self.minimum)
        };
        if self.minimum < lo || self.maximum > hi {
            return Err(ParamError::new(
                "random_uniform_source",
                param,
                format!(
                    "{value} is out of range for {} items: the range must lie in [{lo}, {hi})",
                    self.item.name()
                ),
            ));
        }
        if self.minimum >= self.maximum {
            return Err(ParamError::new(
                "random_uniform_source",
                "maximum",
                format!(
                    "the range [{}, {}) is empty: maximum must be above minimum",
                    self.minimum, self.maximum
                ),
            ));
        }
        Ok(())
    }
}

/// Seeded uniformly distributed bytes, all 256 values or a range
/// `[minimum, maximum)` like GNU Radio's `random_uniform_source_b`.
///
/// The stream comes from xoshiro256++ seeded through SplitMix64, in
/// blocks of 256 bytes, so a seed gives the same bytes on every scheduler
/// however the output is split. The full range takes eight bytes of each
/// 64-bit word; a range maps 32 random bits to each byte
/// (`minimum + ⌊bits · span / 2^32⌋`, so no value is favoured by more
/// than `span / 2^32`, below 6·10⁻⁸).
///
/// # Stream Outputs
/// - `out`: `u8`
///
/// # Parameters
/// [`RandomBytesParams`]: the half-open range of values
/// (`0 ≤ minimum < maximum ≤ 256`, all bytes by default, or
/// [`range`](Self::range)), the seed, and a limit
/// ([`limit`](Self::limit)), endless by default.
///
/// # Usage
/// ```
/// use rfgraph::scheduler::Tpb;
/// use rfgraph::Flowgraph;
/// use rfgraph_blocks::{RandomBytes, VectorSink};
///
/// let mut fg = Flowgraph::new();
/// let dice = fg.add(RandomBytes::new(7).range(1, 7)?.limit(100));
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(dice, "out", sink, "in")?;
/// let done = fg.run(Tpb::new())?;
/// let rolls = done.block::<VectorSink<u8>>(sink).unwrap().items();
/// assert!(rolls.iter().all(|r| (1..7).contains(r)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct RandomBytes {
    output: StreamOutput<u8>,
    stream: Chunked<u8>,
    params: RandomBytesParams,
    limit: Limit,
}

impl RandomBytes {
    /// Endless bytes of every value, the stream of `seed`.
    pub fn new(seed: u64) -> Self {
        Self::with(RandomBytesParams {
            seed,
            ..Default::default()
        })
    }

    /// A source with `params`.
    ///
    /// Errors: an empty range, a bound beyond 256.
    pub fn from_params(params: RandomBytesParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self::with(params))
    }

    fn with(params: RandomBytesParams) -> Self {
        Self {
            output: StreamOutput::new("out"),
            stream: Chunked::new(params.seed),
            limit: Limit::new(params.items),
            params,
        }
    }

    /// Only values in `[minimum, maximum)`.
    ///
    /// Errors: `minimum >= maximum` or `maximum > 256`.
    pub fn range(self, minimum: u16, maximum: u16) -> Result<Self, ParamError> {
        let params = RandomBytesParams {
            minimum: i64::from(minimum),
            maximum: i64::from(maximum),
            ..self.params
        };
        params.validate().map_err(|e| {
            ParamError::new(
                "RandomBytes",
                "range",
                format!("needs 0 ≤ minimum < maximum ≤ 256, not [{minimum}, {maximum}): {e}"),
            )
        })?;
        Ok(Self { params, ..self })
    }

    /// Stops after `items` bytes.
    pub fn limit(mut self, items: u64) -> Self {
        self.params.items = Some(items);
        self.limit = Limit::of(items);
        self
    }
}

impl Block for RandomBytes {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.output.slice();
        let n = self.limit.allow(out.len());
        // The check keeps minimum < maximum ≤ 256, so minimum ≤ 255.
        let minimum = self.params.minimum as u8;
        let span = (self.params.maximum - self.params.minimum) as u64;
        self.stream.fill(&mut out[..n], |rng, block| {
            if span == 256 {
                let mut words = [0u64; BLOCK / 8];
                rng.fill(&mut words);
                for (bytes, w) in block.as_chunks_mut::<8>().0.iter_mut().zip(words) {
                    *bytes = w.to_le_bytes();
                }
            } else {
                let mut words = [0u64; BLOCK / 2];
                rng.fill(&mut words);
                for (pair, w) in block.as_chunks_mut::<2>().0.iter_mut().zip(words) {
                    let pick = |bits: u64| minimum.wrapping_add(((bits * span) >> 32) as u8);
                    pair[0] = pick(w & 0xFFFF_FFFF);
                    pair[1] = pick(w >> 32);
                }
            }
        });
        self.output.produce(n);
        self.limit.spend(n, io);
        Ok(())
    }
}

/// The registry entry: `random_uniform_source`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};

    BlockSpec::of::<RandomBytesParams>(
        "random_uniform_source",
        "Waveform Generators",
        "Seeded uniformly distributed integers in [minimum, maximum).",
        |p| {
            Ok(match p.item {
                ItemKind::I16 => Box::new(RandomIntegers::<i16>::from_params(p)?),
                ItemKind::I32 => Box::new(RandomIntegers::<i32>::from_params(p)?),
                _ => Box::new(RandomBytes::from_params(p)?) as Box<dyn Block>,
            })
        },
    )
    .doc(
        "GNU Radio's `analog_random_uniform_source_x` (`b`, `s`, `i`): values \
         uniformly distributed in the half-open range `[minimum, maximum)` of `u8`, \
         `i16` or `i32` items. The stream comes from a seeded generator in fixed-size \
         blocks, so a seed gives the same items on every scheduler (not GNU Radio's \
         values: its generator differs). Endless unless `items` is set.",
    )
    .output(PortSpec::new("out", PortItem::OfType))
}
