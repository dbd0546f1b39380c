//! `NoiseSource`: seeded uniform or Gaussian noise for `f32` and
//! `Complex32`, GNU Radio's `noise_source_f`/`noise_source_c`. Owns the
//! block and its parameters; the numbers come from `distributions`, the
//! split-independent stream from `chunked`.

use super::chunked::Chunked;
use super::distributions::{self, BLOCK};
use super::rng::Xoshiro256PlusPlus;
use crate::limit::Limit;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, ParamChoice};
use rfgraph::{Block, BoxError, Item, ParamError, ParamSet, Pmt, Ports, StreamOutput, WorkIo};
use std::fmt;
use std::str::FromStr;

/// The distribution of a [`NoiseSource`]. As a parameter it is its name
/// in any case; `normal` and GNU Radio's `GR_UNIFORM`/`GR_GAUSSIAN` parse
/// too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum NoiseKind {
    /// Uniform in `(−amplitude, amplitude)` (complex: per component, with
    /// `amplitude/√2`).
    #[choice(alias = "gr_uniform")]
    Uniform,
    /// Normal with standard deviation `amplitude` (complex: circular, of
    /// total power `amplitude²`).
    #[choice(alias = "normal", alias = "gr_gaussian")]
    Gaussian,
}

impl NoiseKind {
    /// The name the `kind` parameter and flowgraph files use.
    pub fn name(self) -> &'static str {
        self.choice_name()
    }
}

impl fmt::Display for NoiseKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for NoiseKind {
    type Err = String;

    /// `uniform` or `gaussian` in any case (`normal`, GNU Radio's
    /// `GR_UNIFORM`/`GR_GAUSSIAN` too).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        NoiseKind::from_choice(s)
            .ok_or_else(|| format!("unknown noise kind `{s}` (expected uniform or gaussian)"))
    }
}

pub(crate) mod sealed {
    /// Keeps [`NoiseItem`](super::NoiseItem) implemented here only.
    pub trait Sealed {}
}

/// An item type [`NoiseSource`] can produce: `f32` or [`Complex32`].
pub trait NoiseItem: Item + Default + sealed::Sealed {
    /// Fills `out` with unit-scale noise of `kind`.
    #[doc(hidden)]
    fn unit_block(kind: NoiseKind, rng: &mut Xoshiro256PlusPlus, out: &mut [Self; BLOCK]);

    /// Multiplies every item by `gain`.
    #[doc(hidden)]
    fn scale(items: &mut [Self], gain: f32);
}

impl sealed::Sealed for f32 {}

impl NoiseItem for f32 {
    fn unit_block(kind: NoiseKind, rng: &mut Xoshiro256PlusPlus, out: &mut [f32; BLOCK]) {
        match kind {
            NoiseKind::Uniform => distributions::uniform_f32(rng, out),
            NoiseKind::Gaussian => distributions::gaussian_f32(rng, out),
        }
    }

    fn scale(items: &mut [f32], gain: f32) {
        for x in items {
            *x *= gain;
        }
    }
}

impl sealed::Sealed for Complex32 {}

impl NoiseItem for Complex32 {
    fn unit_block(kind: NoiseKind, rng: &mut Xoshiro256PlusPlus, out: &mut [Complex32; BLOCK]) {
        match kind {
            NoiseKind::Uniform => distributions::uniform_c32(rng, out),
            NoiseKind::Gaussian => distributions::gaussian_c32(rng, out),
        }
    }

    fn scale(items: &mut [Complex32], gain: f32) {
        for x in items {
            *x *= gain;
        }
    }
}

/// The parameters of [`NoiseSource`] (`noise_source`, GNU Radio's
/// `analog_noise_source_x`); the kind and the amplitude may change while
/// it runs.
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct NoiseSourceParams {
    /// the distribution, from the next item on (the rest of the current
    /// block of 256 of the old one is dropped)
    #[param(default = NoiseKind::Gaussian, alias = "noise_type", settable)]
    pub kind: NoiseKind,
    /// standard deviation (Gaussian) or bound (uniform), from the next item
    /// on; a negative one flips the stream
    #[param(default = 1.0, alias = "amp", settable)]
    pub amplitude: f32,
    /// seed of the generator
    #[param(default = 0)]
    pub seed: u64,
    /// stop after this many items (endless when not set)
    #[param(unit = "items")]
    pub items: Option<u64>,
    /// stream item type
    #[param(name = "type", kinds(C32, F32))]
    pub item: ItemKind,
}

/// Seeded noise, GNU Radio's `analog.noise_source_f` and `noise_source_c`
/// (uniform and Gaussian).
///
/// The same seed gives the same items on every scheduler and however the
/// output is split: the stream is made in blocks of 256 items from a
/// xoshiro256++ generator seeded through SplitMix64, and each block is
/// one branch-free, vectorisable loop (Box–Muller with a polynomial
/// logarithm and the NCO's sine/cosine). The stream for a seed is part of
/// this block's contract and stays the same across versions; it is not
/// GNU Radio's (whose generator differs), only distributed alike.
///
/// Scaling follows GNU Radio: real noise has standard deviation
/// `amplitude` (Gaussian) or bound `amplitude` (uniform); complex noise
/// has `amplitude/√2` per component, so complex Gaussian noise has total
/// power `amplitude²`. Gaussian values stay below 6.66 standard deviations
/// (a true normal exceeds that with probability 3·10⁻¹¹).
///
/// # Parameters
/// [`NoiseSourceParams`]; `kind` and `amplitude` have message inputs of
/// their names (and of GNU Radio's, `noise_type` and `amp`).
///
/// # Stream Outputs
/// - `out`: `T` (`f32` or `Complex32`)
///
/// # Usage
/// ```
/// use num_complex::Complex32;
/// use rfgraph::scheduler::Tpb;
/// use rfgraph::Flowgraph;
/// use rfgraph_blocks::{NoiseKind, NoiseSource, VectorSink};
///
/// let mut fg = Flowgraph::new();
/// let noise = fg.add(NoiseSource::<Complex32>::new(NoiseKind::Gaussian, 0.1, 42)?.limit(1000));
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(noise, "out", sink, "in")?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(done.block::<VectorSink<Complex32>>(sink).unwrap().items().len(), 1000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct NoiseSource<T: NoiseItem> {
    output: StreamOutput<T>,
    stream: Chunked<T>,
    params: NoiseSourceParams,
    limit: Limit,
}

impl<T: NoiseItem> NoiseSource<T> {
    /// Endless noise of `kind` and `amplitude`, the stream of `seed`.
    ///
    /// Errors: a non-finite amplitude.
    pub fn new(kind: NoiseKind, amplitude: f32, seed: u64) -> Result<Self, ParamError> {
        Self::from_params(NoiseSourceParams {
            kind,
            amplitude,
            seed,
            ..Default::default()
        })
    }

    /// A source with `params` (the item type is `T`'s; `params.item` is
    /// what the registry builds from).
    ///
    /// Errors: a parameter out of its range (a non-finite amplitude).
    pub fn from_params(params: NoiseSourceParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            output: StreamOutput::new("out"),
            stream: Chunked::new(params.seed),
            limit: Limit::new(params.items),
            params,
        })
    }

    /// Stops after `items` items.
    pub fn limit(mut self, items: u64) -> Self {
        self.params.items = Some(items);
        self.limit = Limit::of(items);
        self
    }

    /// Changes the amplitude from the next item on.
    ///
    /// Errors: a non-finite amplitude (nothing changes).
    pub fn set_amplitude(&mut self, amplitude: f32) -> Result<(), ParamError> {
        self.params
            .set("amplitude", Pmt::F64(f64::from(amplitude)))
            .map_err(|e| ParamError::new("NoiseSource", "amplitude", e.to_string()))
    }

    /// Changes the distribution from the next item on (the rest of the
    /// current block of the old one is dropped).
    pub fn set_kind(&mut self, kind: NoiseKind) {
        if kind != self.params.kind {
            self.params.kind = kind;
            self.stream.discard();
        }
    }

    /// The amplitude.
    pub fn amplitude(&self) -> f32 {
        self.params.amplitude
    }

    /// The distribution.
    pub fn kind(&self) -> NoiseKind {
        self.params.kind
    }
}

impl<T: NoiseItem> Block for NoiseSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        if name == "kind" {
            // The block of the old distribution made ahead goes.
            self.stream.discard();
        }
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.output.slice();
        let n = self.limit.allow(out.len());
        let kind = self.params.kind;
        self.stream
            .fill(&mut out[..n], |rng, block| T::unit_block(kind, rng, block));
        T::scale(&mut out[..n], self.params.amplitude);
        self.output.produce(n);
        self.limit.spend(n, io);
        Ok(())
    }
}

/// The registry entry: `noise_source`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};

    BlockSpec::of::<NoiseSourceParams>(
        "noise_source",
        "Waveform Generators",
        "Seeded uniform or Gaussian noise.",
        |p| rfgraph::for_item_kinds!(p.item, { F32 => f32, C32 => Complex32 } as T => NoiseSource::<T>::from_params(p)?),
    )
    .doc(
        "GNU Radio's `analog_noise_source_x` for its uniform and Gaussian kinds: \
         Gaussian noise has standard deviation `amplitude` (complex: circular, of total \
         power `amplitude²`); uniform noise lies in `(−amplitude, amplitude)` (complex: \
         per component, with `amplitude/√2`). The numbers come from a seeded generator \
         in fixed-size blocks, so a seed gives the same stream on every scheduler. \
         `amplitude` and `kind` may change while it runs (GNU Radio's `set_amplitude` \
         and `set_type`), from the next item on. Endless unless `items` is set.",
    )
    .output(PortSpec::new("out", PortItem::OfType))
}
