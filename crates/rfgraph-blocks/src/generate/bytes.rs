//! `RandomBytes`: seeded random bytes, GNU Radio's
//! `random_uniform_source_b`. Owns the block; the split-independent stream
//! comes from `chunked`.

use super::chunked::Chunked;
use super::distributions::BLOCK;
use crate::limit::Limit;
use rfgraph::{Block, BoxError, ParamError, Ports, StreamOutput, WorkIo};

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
/// - `seed`: any `u64`.
/// - `minimum`, `maximum` ([`range`](Self::range)): the half-open range of
///   values, `0 ≤ minimum < maximum ≤ 256`; all bytes by default.
/// - `limit` ([`limit`](Self::limit)): stop after this many bytes;
///   endless by default.
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
    minimum: u8,
    /// `maximum − minimum`, 1 to 256.
    span: u32,
    limit: Limit,
}

impl RandomBytes {
    /// Endless bytes of every value, the stream of `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            output: StreamOutput::new("out"),
            stream: Chunked::new(seed),
            minimum: 0,
            span: 256,
            limit: Limit::unlimited(),
        }
    }

    /// Only values in `[minimum, maximum)`.
    ///
    /// Errors: `minimum >= maximum` or `maximum > 256`.
    pub fn range(mut self, minimum: u16, maximum: u16) -> Result<Self, ParamError> {
        if minimum >= maximum || maximum > 256 {
            return Err(ParamError::new(
                "RandomBytes",
                "range",
                format!("needs 0 ≤ minimum < maximum ≤ 256, not [{minimum}, {maximum})"),
            ));
        }
        // minimum < maximum ≤ 256, so minimum ≤ 255.
        self.minimum = minimum as u8;
        self.span = u32::from(maximum - minimum);
        Ok(self)
    }

    /// Stops after `items` bytes.
    pub fn limit(mut self, items: u64) -> Self {
        self.limit = Limit::of(items);
        self
    }
}

impl Block for RandomBytes {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.output.slice();
        let n = self.limit.allow(out.len());
        let (minimum, span) = (self.minimum, u64::from(self.span));
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
    use crate::spec_util::items_param;
    use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};

    BlockSpec::new(
        "random_uniform_source",
        "Waveform Generators",
        "Seeded uniformly distributed bytes in [minimum, maximum).",
        |p| {
            let (min, max) = (p.get::<u32>("minimum")?, p.get::<u32>("maximum")?);
            let narrow = |v: u32, name: &str| {
                u16::try_from(v).map_err(|_| p.invalid(name, "must be at most 256"))
            };
            let block = RandomBytes::new(p.u64("seed")?)
                .range(narrow(min, "minimum")?, narrow(max, "maximum")?)
                .map_err(|e| p.invalid("maximum", e.to_string()))?;
            let items: Option<u64> = p.opt("items")?;
            Ok(Box::new(match items {
                Some(n) => block.limit(n),
                None => block,
            }) as Box<dyn Block>)
        },
    )
    .doc(
        "GNU Radio's `analog_random_uniform_source_x` for bytes: values uniformly \
         distributed in the half-open range `[minimum, maximum)`, `0 ≤ minimum < \
         maximum ≤ 256`. The stream comes from a seeded generator in fixed-size blocks, \
         so a seed gives the same bytes on every scheduler. Endless unless `items` is set.",
    )
    .param(
        ParamSpec::uint("minimum")
            .default(0u64)
            .doc("smallest value"),
    )
    .param(
        ParamSpec::uint("maximum")
            .default(256u64)
            .doc("one above the largest value"),
    )
    .param(
        ParamSpec::uint("seed")
            .default(0u64)
            .doc("seed of the generator"),
    )
    .param(items_param())
    .param(ParamSpec::item_type(&[ItemKind::U8]))
    .output(PortSpec::new("out", PortItem::OfType))
}
