//! `fastnoise_source` (GNU Radio `analog_fastnoise_source_x`): noise
//! drawn at random from a pool computed once.

use super::{items, items_param};
use crate::generate::distributions::BLOCK;
use crate::generate::rng::Xoshiro256PlusPlus;
use crate::limit::Limit;
use crate::{NoiseItem, NoiseKind};
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, Ports, StreamOutput, WorkIo};

/// Fast noise: a pool of `samples` noise values is made once, then each
/// output is a uniformly random pick from it (GNU Radio's
/// `fastnoise_source_f` / `_c`, same scaling as [`NoiseSource`](crate::NoiseSource);
/// GNU Radio's generator differs, so the values are only distributed
/// alike).
///
/// # Stream Outputs
/// - `out`: `T` (`f32` or `Complex32`)
///
/// # Parameters
/// - `kind`: uniform or Gaussian.
/// - `amplitude`: standard deviation (Gaussian) or bound (uniform).
/// - `seed`: the generator's seed.
/// - `samples`: pool size (≥ 1).
///
/// # Usage
/// ```
/// use num_complex::Complex32;
/// use rfgraph_blocks::NoiseKind;
/// use rfgraph_blocks::analog::FastNoiseSource;
/// let noise = FastNoiseSource::<Complex32>::new(NoiseKind::Gaussian, 0.1, 0, 8192)?.limit(1000);
/// # let _ = noise;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct FastNoiseSource<T: NoiseItem> {
    output: StreamOutput<T>,
    pool: Vec<T>,
    rng: Xoshiro256PlusPlus,
    limit: Limit,
}

impl<T: NoiseItem> FastNoiseSource<T> {
    /// A pool of `samples` values of `kind` noise scaled by `amplitude`.
    ///
    /// Errors: a non-finite amplitude, an empty or huge pool.
    pub fn new(
        kind: NoiseKind,
        amplitude: f32,
        seed: u64,
        samples: usize,
    ) -> Result<Self, ParamError> {
        if !amplitude.is_finite() {
            return Err(ParamError::new(
                "FastNoiseSource",
                "amplitude",
                format!("must be finite, not {amplitude}"),
            ));
        }
        if samples == 0 || samples > 1 << 26 {
            return Err(ParamError::new(
                "FastNoiseSource",
                "samples",
                format!("must be 1..=2^26, got {samples}"),
            ));
        }
        let mut rng = Xoshiro256PlusPlus::from_seed(seed);
        let mut pool = Vec::with_capacity(samples.next_multiple_of(BLOCK));
        let mut block = [T::default(); BLOCK];
        while pool.len() < samples {
            T::unit_block(kind, &mut rng, &mut block);
            pool.extend_from_slice(&block);
        }
        pool.truncate(samples);
        T::scale(&mut pool, amplitude);
        Ok(Self {
            output: StreamOutput::new("out"),
            pool,
            rng,
            limit: Limit::unlimited(),
        })
    }

    /// Stops after `items` items.
    pub fn limit(mut self, items: u64) -> Self {
        self.limit = Limit::of(items);
        self
    }
}

impl<T: NoiseItem> Block for FastNoiseSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.output.slice();
        let n = self.limit.allow(out.len());
        let len = self.pool.len() as u128;
        for o in &mut out[..n] {
            let i = ((self.rng.next_u64() as u128 * len) >> 64) as usize;
            *o = self.pool[i];
        }
        self.output.produce(n);
        self.limit.spend(n, io);
        Ok(())
    }
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new("fastnoise_source", "Sources", "Noise picked at random from a precomputed pool.", |p| {
        let kind: NoiseKind = p.string("kind")?.parse().map_err(|e| p.invalid("kind", e))?;
        let (amp, seed, samples) = (p.f32("amplitude")?, p.u64("seed")?, p.usize("samples")?);
        let items = items(p)?;
        macro_rules! build {
            ($t:ty) => {{
                let s = FastNoiseSource::<$t>::new(kind, amp, seed, samples).map_err(|e| p.refused(e))?;
                match items {
                    Some(i) => s.limit(i),
                    None => s,
                }
            }};
        }
        rfgraph::for_item_kinds!(p, p.item_type()?, { F32 => f32, C32 => Complex32 } as T => build!(T))
    })
    .doc("GNU Radio's `analog_fastnoise_source_x`: a pool of `samples` noise values, each output a random pick from it. Uniform and Gaussian noise (GNU Radio's Laplacian and impulse kinds are not implemented); scaling as `noise_source`.")
    .param(ParamSpec::string("kind").default("gaussian").doc("`uniform` or `gaussian` (GNU Radio's `GR_GAUSSIAN` accepted)"))
    .param(ParamSpec::float("amplitude").default(1.0).doc("standard deviation (gaussian) or bound (uniform)"))
    .param(ParamSpec::uint("seed").default(0u64).doc("generator seed"))
    .param(ParamSpec::uint("samples").default(8192u64).doc("pool size"))
    .param(items_param())
    .param(ParamSpec::item_type(&[ItemKind::F32, ItemKind::C32]))
    .output(PortSpec::new("out", PortItem::OfType))
}
