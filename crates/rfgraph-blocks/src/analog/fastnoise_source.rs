//! `fastnoise_source` (GNU Radio `analog_fastnoise_source_x`): noise
//! drawn at random from a pool computed once.

use crate::generate::distributions::BLOCK;
use crate::generate::gr_noise::{self, GrPool};
use crate::generate::gr_random::GrRandom;
use crate::generate::rng::Xoshiro256PlusPlus;

use crate::NoiseGenerator;
use crate::generate::complex_kind;
use crate::limit::Limit;
use crate::{NoiseItem, NoiseKind};
use num_complex::Complex32;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, ParamSet, Ports, StreamOutput, WorkIo};

/// The distribution of a [`FastNoiseSource`]'s pool. GNU Radio's
/// `GR_UNIFORM`, `GR_GAUSSIAN`, `GR_LAPLACIAN` and `GR_IMPULSE` parse too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum FastNoiseKind {
    /// Uniform in `(−amplitude, amplitude)` (complex: per component, with
    /// `amplitude/√2`).
    #[choice(alias = "gr_uniform", alias = "analog.gr_uniform")]
    Uniform,
    /// Normal with standard deviation `amplitude` (complex: circular, of
    /// total power `amplitude²`).
    #[choice(alias = "normal", alias = "gr_gaussian", alias = "analog.gr_gaussian")]
    Gaussian,
    /// Laplacian of scale `amplitude`; real items only, as in GNU Radio.
    #[choice(alias = "gr_laplacian", alias = "analog.gr_laplacian")]
    Laplacian,
    /// Impulses above 9 times `amplitude`; real items only, as in GNU
    /// Radio.
    #[choice(alias = "gr_impulse", alias = "analog.gr_impulse")]
    Impulse,
}

impl From<FastNoiseKind> for NoiseKind {
    fn from(kind: FastNoiseKind) -> Self {
        match kind {
            FastNoiseKind::Uniform => NoiseKind::Uniform,
            FastNoiseKind::Gaussian => NoiseKind::Gaussian,
            FastNoiseKind::Laplacian => NoiseKind::Laplacian,
            FastNoiseKind::Impulse => NoiseKind::Impulse,
        }
    }
}

/// The parameters of [`FastNoiseSource`] (`fastnoise_source`, GNU Radio's
/// `analog_fastnoise_source_x`). The kind and the amplitude may change
/// while it runs, as GNU Radio's `set_type` and `set_amplitude` allow.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct FastNoiseParams {
    /// the distribution; a change draws a new pool from the generator
    #[param(default = FastNoiseKind::Gaussian, alias = "noise_type", settable)]
    pub kind: FastNoiseKind,
    /// standard deviation (gaussian) or bound (uniform); a negative one
    /// flips the sign
    #[param(default = 1.0, alias = "amp", settable)]
    pub amplitude: f32,
    /// generator seed (GNU Radio's signed seeds are taken modulo 2⁶⁴)
    #[param(default = 0)]
    pub seed: i64,
    /// the generator: `fast` (rfgraph's) or `gnuradio` (GNU Radio's pool
    /// and picks, value for value)
    #[param(default = NoiseGenerator::Fast)]
    pub generator: NoiseGenerator,
    /// pool size
    #[param(default = 8192, min = 1, max = limits::MAX_ELEMENTS)]
    pub samples: usize,
    /// stop after this many items (endless when not set)
    #[param(unit = "items")]
    pub items: Option<u64>,
    /// stream item type (`i16` and `i32`: the float noise truncated,
    /// as GNU Radio's `fastnoise_source_s` / `_i` cast it)
    #[param(name = "type", kinds(F32, C32, I16, I32))]
    pub item: ItemKind,
}

/// An output item of a [`FastNoiseSource`] whose pool holds `T` noise:
/// the noise itself, or for `i16` / `i32` the float noise truncated as
/// GNU Radio's C cast truncates it (through a 32-bit integer; NaN and
/// values beyond it give `i32::MIN`, whose low 16 bits are 0).
pub trait FastNoiseOutput<T>: rfgraph::Item + Copy + Default {
    /// The output item of pool value `x`.
    fn from_noise(x: T) -> Self;

    /// GNU Radio's pool value of `kind` times `amplitude` for this item
    /// type (`None` for a kind it does not have).
    #[doc(hidden)]
    fn gnuradio(rng: &mut GrRandom, kind: NoiseKind, amplitude: f32) -> Option<Self>;
}

impl FastNoiseOutput<f32> for f32 {
    #[inline]
    fn from_noise(x: f32) -> Self {
        x
    }

    fn gnuradio(rng: &mut GrRandom, kind: NoiseKind, amplitude: f32) -> Option<Self> {
        Some(gr_noise::real(rng, kind, amplitude))
    }
}

impl FastNoiseOutput<Complex32> for Complex32 {
    #[inline]
    fn from_noise(x: Complex32) -> Self {
        x
    }

    fn gnuradio(rng: &mut GrRandom, kind: NoiseKind, amplitude: f32) -> Option<Self> {
        gr_noise::complex(rng, kind, gr_noise::complex_amplitude(amplitude))
    }
}

/// GNU Radio's integer pool value: its uniform noise is a double product
/// cast straight to the integer (`cvttsd2si`), the others a `float`.
fn gnuradio_integer(rng: &mut GrRandom, kind: NoiseKind, amplitude: f32) -> i32 {
    if kind == NoiseKind::Uniform {
        let x = gr_noise::uniform_wide(rng, amplitude);
        if (-2147483648.0..2147483648.0).contains(&x) {
            x as i32
        } else {
            i32::MIN
        }
    } else {
        truncate_i32(gr_noise::real(rng, kind, amplitude))
    }
}

/// x86's `cvttss2si`: truncation, `i32::MIN` when out of range.
#[inline]
fn truncate_i32(x: f32) -> i32 {
    if !(-2147483648.0..2147483648.0).contains(&x) {
        i32::MIN
    } else {
        x as i32
    }
}

impl FastNoiseOutput<f32> for i32 {
    #[inline]
    fn from_noise(x: f32) -> Self {
        truncate_i32(x)
    }

    fn gnuradio(rng: &mut GrRandom, kind: NoiseKind, amplitude: f32) -> Option<Self> {
        Some(gnuradio_integer(rng, kind, amplitude))
    }
}

impl FastNoiseOutput<f32> for i16 {
    #[inline]
    fn from_noise(x: f32) -> Self {
        truncate_i32(x) as i16
    }

    fn gnuradio(rng: &mut GrRandom, kind: NoiseKind, amplitude: f32) -> Option<Self> {
        Some(gnuradio_integer(rng, kind, amplitude) as i16)
    }
}

/// Fast noise: a pool of `samples` noise values is made once, then each
/// output is a uniformly random pick from it (GNU Radio's
/// `fastnoise_source_f` / `_c`, same scaling as [`NoiseSource`](crate::NoiseSource)).
/// With `generator = gnuradio` the pool and the picks are GNU Radio's,
/// value for value, and a new kind or amplitude draws a new pool from the
/// running generator, as GNU Radio's `set_type` and `set_amplitude` do.
/// With the default `fast` generator (rfgraph's) the values are only
/// distributed alike; a new kind draws a new pool, a new amplitude
/// rescales the pool from the next item on.
///
/// # Parameters
/// [`FastNoiseParams`]; `T` is the noise's type, `O` the item type
/// (`T`, or `i16` / `i32` for `f32` noise, see [`FastNoiseOutput`]).
///
/// # Stream Outputs
/// - `out`: `O` (`f32`, `Complex32`, `i16` or `i32`)
///
/// # Usage
/// ```
/// use num_complex::Complex32;
/// use rfgraph_blocks::analog::{FastNoiseParams, FastNoiseSource};
/// let noise = FastNoiseSource::<Complex32>::new(FastNoiseParams {
///     amplitude: 0.1,
///     items: Some(1000),
///     ..Default::default()
/// })?;
/// # let _ = noise;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct FastNoiseSource<T: NoiseItem, O: FastNoiseOutput<T> = T> {
    output: StreamOutput<O>,
    params: FastNoiseParams,
    generator: Generator<T, O>,
    limit: Limit,
}

/// The random numbers behind a fast noise source, and the pool they fill.
enum Generator<T, O> {
    /// rfgraph's: one generator for the pool and the picks, and its state
    /// when the pool's unit noise was drawn, to draw the same again for a
    /// new amplitude.
    Fast {
        rng: Xoshiro256PlusPlus,
        drawn_from: Xoshiro256PlusPlus,
        /// The noise the output picks from: unit noise times the
        /// amplitude.
        pool: Vec<T>,
    },
    /// GNU Radio's: `gr::random` for the pool, a second xoroshiro128+ of
    /// the same seed for the picks.
    Gnuradio {
        draws: GrRandom,
        picks: GrRandom,
        /// GNU Radio's pool, in the output's type as GNU Radio keeps it.
        pool: GrPool<O>,
    },
}

impl<T: NoiseItem, O: FastNoiseOutput<T>> FastNoiseSource<T, O> {
    /// A pool of `params.samples` values of `params.kind` noise scaled by
    /// `params.amplitude` (the item type is `T`'s; `params.item` is what
    /// the registry builds from).
    ///
    /// Errors: a parameter out of its range.
    pub fn new(params: FastNoiseParams) -> Result<Self, ParamError> {
        params.validate()?;
        complex_kind("fastnoise_source", T::KIND, params.kind.into())?;
        let seed = params.seed as u64;
        let generator = match params.generator {
            NoiseGenerator::Fast => {
                let mut rng = Xoshiro256PlusPlus::from_seed(seed);
                Generator::Fast {
                    drawn_from: rng.clone(),
                    pool: scaled_pool(&params, &mut rng),
                    rng,
                }
            }
            NoiseGenerator::Gnuradio => {
                let mut draws = GrRandom::new(seed);
                Generator::Gnuradio {
                    pool: gr_pool(&params, &mut draws),
                    draws,
                    picks: GrRandom::new(seed),
                }
            }
        };
        Ok(Self {
            output: StreamOutput::new("out"),
            limit: Limit::new(params.items),
            generator,
            params,
        })
    }

    /// Draws a new pool from the running generator.
    fn draw(&mut self) {
        match &mut self.generator {
            Generator::Fast {
                rng,
                drawn_from,
                pool,
            } => {
                *drawn_from = rng.clone();
                *pool = scaled_pool(&self.params, rng);
            }
            Generator::Gnuradio { draws, pool, .. } => *pool = gr_pool(&self.params, draws),
        }
    }

    /// The pool for a new amplitude: rfgraph's generator rescales the same
    /// unit noise, GNU Radio's draws a new pool.
    fn rescale(&mut self) {
        match &mut self.generator {
            Generator::Fast {
                drawn_from, pool, ..
            } => *pool = scaled_pool(&self.params, &mut drawn_from.clone()),
            Generator::Gnuradio { .. } => self.draw(),
        }
    }
}

impl FastNoiseParams {
    /// Complex noise of a kind it does not have is refused when the file
    /// is checked, not only when the block is built.
    fn check(&self) -> Result<(), ParamError> {
        complex_kind("fastnoise_source", self.item, self.kind.into())
    }
}

/// GNU Radio's pool: `params.samples` values of `params.kind` noise times
/// `params.amplitude`, drawn from `rng`.
fn gr_pool<T, O: FastNoiseOutput<T>>(params: &FastNoiseParams, rng: &mut GrRandom) -> GrPool<O> {
    let (kind, amplitude) = (params.kind.into(), params.amplitude);
    GrPool::new(
        (0..params.samples)
            .map(|_| O::gnuradio(rng, kind, amplitude).unwrap_or_default())
            .collect(),
    )
}

/// `params.samples` values of `params.kind` noise from `rng`, times
/// `params.amplitude`.
fn scaled_pool<T: NoiseItem>(params: &FastNoiseParams, rng: &mut Xoshiro256PlusPlus) -> Vec<T> {
    let mut pool = Vec::with_capacity(params.samples.next_multiple_of(BLOCK));
    let mut block = [T::default(); BLOCK];
    while pool.len() < params.samples {
        T::unit_block(params.kind.into(), rng, &mut block);
        pool.extend_from_slice(&block);
    }
    pool.truncate(params.samples);
    T::scale(&mut pool, params.amplitude);
    pool
}

impl<T: NoiseItem, O: FastNoiseOutput<T>> Block for FastNoiseSource<T, O> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        if name == "kind" {
            complex_kind("fastnoise_source", T::KIND, self.params.kind.into())?;
            self.draw();
        } else {
            self.rescale();
        }
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.output.slice();
        let n = self.limit.allow(out.len());
        match &mut self.generator {
            Generator::Fast { rng, pool, .. } => {
                let len = pool.len() as u128;
                for o in &mut out[..n] {
                    let i = ((rng.next_u64() as u128 * len) >> 64) as usize;
                    *o = O::from_noise(pool[i]);
                }
            }
            Generator::Gnuradio { picks, pool, .. } => {
                for o in &mut out[..n] {
                    *o = pool.pick(picks);
                }
            }
        }
        self.output.produce(n);
        self.limit.spend(n, io);
        Ok(())
    }
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<FastNoiseParams>(
        "fastnoise_source",
        "Sources",
        "Noise picked at random from a precomputed pool.",
        |p| match p.item {
            ItemKind::I16 => Ok(Box::new(FastNoiseSource::<f32, i16>::new(p)?) as Box<dyn Block>),
            ItemKind::I32 => Ok(Box::new(FastNoiseSource::<f32, i32>::new(p)?) as Box<dyn Block>),
            _ => rfgraph::for_item_kinds!(p.item, { F32 => f32, C32 => Complex32 } as T
                    => FastNoiseSource::<T>::new(p)?),
        },
    )
    .doc(
        "GNU Radio's `analog_fastnoise_source_x`: a pool of `samples` noise values, each \
         output a random pick from it (`i16` and `i32` items: the float pick truncated, as GNU \
         Radio's integer sources cast it). Uniform, Gaussian, and for real items Laplacian and \
         impulse noise; scaling as `noise_source`. `generator = gnuradio` gives GNU Radio's \
         pool and picks value for value (GNU Radio Companion files use it). The kind and the \
         amplitude may change while it runs, as with GNU Radio's `set_type` and \
         `set_amplitude`: a new kind draws a new pool from the running generator; a new \
         amplitude rescales the pool (GNU Radio's generator: draws a new one, as GNU Radio \
         does). Endless unless `items` is set.",
    )
    .output(PortSpec::new("out", PortItem::OfType))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_items_truncate_as_gnu_radio_casts() {
        assert_eq!(i16::from_noise(2.9), 2);
        assert_eq!(i16::from_noise(-2.9), -2);
        assert_eq!(i32::from_noise(f32::NAN), i32::MIN);
        assert_eq!(i32::from_noise(3e9), i32::MIN);
        assert_eq!(i16::from_noise(70000.5), 70000i32 as i16);
        let mut given = std::collections::BTreeMap::new();
        given.insert("type".to_string(), rfgraph::Pmt::String("i16".into()));
        given.insert("amp".to_string(), rfgraph::Pmt::F64(100.0));
        assert!(spec().build(given.clone()).is_ok());
        given.insert("type".to_string(), rfgraph::Pmt::String("i32".into()));
        assert!(spec().build(given).is_ok());
    }
}
