//! `NoiseSource`: seeded uniform, Gaussian, Laplacian or impulse noise
//! for `f32` and `Complex32`, GNU Radio's `noise_source_f`/`noise_source_c`.
//! Owns the block and its parameters; the numbers come from
//! `distributions` (rfgraph's fast generator, its split-independent
//! stream from `chunked`) or from `gr_noise` (GNU Radio's own values).

use super::chunked::Chunked;
use super::distributions::{self, BLOCK};
use super::gr_noise;
use super::gr_random::GrRandom;
use super::rng::Xoshiro256PlusPlus;
use crate::limit::Limit;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, ParamChoice};
use rfgraph::{Block, BoxError, Item, ParamError, ParamSet, Pmt, Ports, StreamOutput, WorkIo};
use std::fmt;
use std::str::FromStr;

/// The distribution of a [`NoiseSource`]. As a parameter it is its name
/// in any case; `normal` and GNU Radio's `GR_UNIFORM`, `GR_GAUSSIAN`,
/// `GR_LAPLACIAN` and `GR_IMPULSE` parse too.
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
    /// Laplacian of scale `amplitude` (`ln 2u` for a uniform `u ≤ ½`,
    /// `−ln 2(1 − u)` above); real items only, as in GNU Radio.
    #[choice(alias = "gr_laplacian")]
    Laplacian,
    /// Impulses: `−√2·ln u` of a uniform `u` where that exceeds 9, else 0,
    /// times `amplitude`; real items only, as in GNU Radio.
    #[choice(alias = "gr_impulse")]
    Impulse,
}

/// Which generator a noise source draws from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum NoiseGenerator {
    /// rfgraph's: xoshiro256++ a block of 256 values at a time, each block
    /// one vectorised loop. A seed's stream is part of the block's
    /// contract, but it is not GNU Radio's.
    #[default]
    Fast,
    /// GNU Radio 3.10's `gr::random` (xoroshiro128+, its `ran1`, `gasdev`,
    /// `laplacian` and `impulse`), one value at a time: a seed gives GNU
    /// Radio's very values. GNU Radio Companion files use it.
    #[choice(alias = "gr", alias = "gnu_radio")]
    Gnuradio,
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
        NoiseKind::from_choice(s).ok_or_else(|| {
            format!("unknown noise kind `{s}` (expected uniform, gaussian, laplacian or impulse)")
        })
    }
}

pub(crate) mod sealed {
    use super::NoiseKind;
    use crate::generate::gr_random::GrRandom;
    use rfgraph::params::ItemKind;

    /// Keeps [`NoiseItem`](super::NoiseItem) implemented here only, and
    /// holds what the item types do with GNU Radio's generator.
    pub trait Sealed: Sized {
        /// The item kind of this type, as parameters name it.
        const KIND: ItemKind;

        /// Whether this item type has `kind` noise (complex noise is
        /// uniform or Gaussian only, as GNU Radio's).
        fn has(kind: NoiseKind) -> bool;

        /// GNU Radio's next value of `kind` times `amplitude` (`None`
        /// where [`has`](Self::has) is false).
        fn gnuradio(rng: &mut GrRandom, kind: NoiseKind, amplitude: f32) -> Option<Self>;
    }
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

impl sealed::Sealed for f32 {
    const KIND: ItemKind = ItemKind::F32;

    fn has(_: NoiseKind) -> bool {
        true
    }

    fn gnuradio(rng: &mut GrRandom, kind: NoiseKind, amplitude: f32) -> Option<Self> {
        Some(gr_noise::real(rng, kind, amplitude))
    }
}

impl NoiseItem for f32 {
    fn unit_block(kind: NoiseKind, rng: &mut Xoshiro256PlusPlus, out: &mut [f32; BLOCK]) {
        match kind {
            NoiseKind::Uniform => distributions::uniform_f32(rng, out),
            NoiseKind::Gaussian => distributions::gaussian_f32(rng, out),
            NoiseKind::Laplacian => distributions::laplacian_f32(rng, out),
            NoiseKind::Impulse => distributions::impulse_f32(rng, out),
        }
    }

    fn scale(items: &mut [f32], gain: f32) {
        for x in items {
            *x *= gain;
        }
    }
}

impl sealed::Sealed for Complex32 {
    const KIND: ItemKind = ItemKind::C32;

    fn has(kind: NoiseKind) -> bool {
        matches!(kind, NoiseKind::Uniform | NoiseKind::Gaussian)
    }

    fn gnuradio(rng: &mut GrRandom, kind: NoiseKind, amplitude: f32) -> Option<Self> {
        gr_noise::complex(rng, kind, gr_noise::complex_amplitude(amplitude))
    }
}

impl NoiseItem for Complex32 {
    fn unit_block(kind: NoiseKind, rng: &mut Xoshiro256PlusPlus, out: &mut [Complex32; BLOCK]) {
        match kind {
            NoiseKind::Uniform => distributions::uniform_c32(rng, out),
            // Refused when the source is made or the kind set.
            NoiseKind::Gaussian | NoiseKind::Laplacian | NoiseKind::Impulse => {
                distributions::gaussian_c32(rng, out)
            }
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
#[params(check = Self::check)]
pub struct NoiseSourceParams {
    /// the distribution, from the next item on (the rest of the current
    /// block of 256 of the old one is dropped)
    #[param(default = NoiseKind::Gaussian, alias = "noise_type", settable)]
    pub kind: NoiseKind,
    /// standard deviation (Gaussian) or bound (uniform), from the next item
    /// on; a negative one flips the stream
    #[param(default = 1.0, alias = "amp", settable)]
    pub amplitude: f32,
    /// seed of the generator (GNU Radio's signed seeds are taken modulo
    /// 2⁶⁴, as its `gr::random` takes them)
    #[param(default = 0)]
    pub seed: i64,
    /// the generator: `fast` (rfgraph's, vectorised) or `gnuradio` (GNU
    /// Radio's values, one at a time)
    #[param(default = NoiseGenerator::Fast)]
    pub generator: NoiseGenerator,
    /// stop after this many items (endless when not set)
    #[param(unit = "items")]
    pub items: Option<u64>,
    /// stream item type
    #[param(name = "type", kinds(C32, F32))]
    pub item: ItemKind,
}

impl NoiseSourceParams {
    /// Complex noise of a kind it does not have is refused when the file
    /// is checked, not only when the block is built.
    fn check(&self) -> Result<(), ParamError> {
        complex_kind("noise_source", self.item, self.kind)
    }
}

/// Refuses Laplacian and impulse noise for complex items (`block`'s
/// `kind`), as GNU Radio's complex sources do.
pub(crate) fn complex_kind(
    block: &'static str,
    item: ItemKind,
    kind: NoiseKind,
) -> Result<(), ParamError> {
    if item == ItemKind::C32 && !<Complex32 as sealed::Sealed>::has(kind) {
        return Err(ParamError::new(
            block,
            "kind",
            format!("complex noise is uniform or gaussian (GNU Radio's too), not {kind}"),
        ));
    }
    Ok(())
}

/// Where a noise source's values come from.
enum Stream<T> {
    /// rfgraph's generator, a block at a time.
    Fast(Chunked<T>),
    /// GNU Radio's, a value at a time.
    Gnuradio(GrRandom),
}

impl<T: NoiseItem> Stream<T> {
    fn new(generator: NoiseGenerator, seed: i64) -> Self {
        match generator {
            NoiseGenerator::Fast => Stream::Fast(Chunked::new(seed as u64)),
            NoiseGenerator::Gnuradio => Stream::Gnuradio(GrRandom::new(seed as u64)),
        }
    }

    /// Fills `out` with `kind` noise of `amplitude`.
    fn fill(&mut self, out: &mut [T], kind: NoiseKind, amplitude: f32) {
        match self {
            Stream::Fast(chunked) => {
                chunked.fill(out, |rng, block| T::unit_block(kind, rng, block));
                T::scale(out, amplitude);
            }
            Stream::Gnuradio(rng) => {
                for o in out {
                    *o = T::gnuradio(rng, kind, amplitude).unwrap_or_default();
                }
            }
        }
    }

    /// Drops values made ahead for the old distribution.
    fn discard(&mut self) {
        if let Stream::Fast(chunked) = self {
            chunked.discard();
        }
    }
}

/// Seeded noise, GNU Radio's `analog.noise_source_f` and `noise_source_c`
/// (uniform, Gaussian, and for real items Laplacian and impulse).
///
/// The same seed gives the same items on every scheduler and however the
/// output is split. Two generators ([`NoiseGenerator`]):
/// - `fast` (the default): the stream is made in blocks of 256 items from
///   a xoshiro256++ generator seeded through SplitMix64, and each block
///   is one branch-free, vectorisable loop (Box–Muller with a polynomial
///   logarithm and the NCO's sine/cosine). The stream for a seed is part
///   of this block's contract and stays the same across versions; it is
///   not GNU Radio's, only distributed alike.
/// - `gnuradio`: GNU Radio 3.10's `gr::random`, a value at a time, so a
///   seed gives GNU Radio's very values (what GNU Radio Companion files
///   get, since their users compare outputs sample by sample).
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
    stream: Stream<T>,
    params: NoiseSourceParams,
    limit: Limit,
}

impl<T: NoiseItem> NoiseSource<T> {
    /// Endless noise of `kind` and `amplitude`, the fast generator's
    /// stream of `seed`.
    ///
    /// Errors: a non-finite amplitude; a kind complex noise does not have.
    pub fn new(kind: NoiseKind, amplitude: f32, seed: i64) -> Result<Self, ParamError> {
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
    /// Errors: a parameter out of its range (a non-finite amplitude); a
    /// kind complex noise does not have.
    pub fn from_params(params: NoiseSourceParams) -> Result<Self, ParamError> {
        params.validate()?;
        complex_kind("noise_source", T::KIND, params.kind)?;
        Ok(Self {
            output: StreamOutput::new("out"),
            stream: Stream::new(params.generator, params.seed),
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
    ///
    /// Errors: a kind complex noise does not have (nothing changes).
    pub fn set_kind(&mut self, kind: NoiseKind) -> Result<(), ParamError> {
        complex_kind("noise_source", T::KIND, kind)?;
        if kind != self.params.kind {
            self.params.kind = kind;
            self.stream.discard();
        }
        Ok(())
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
            complex_kind("noise_source", T::KIND, self.params.kind)?;
            // The block of the old distribution made ahead goes.
            self.stream.discard();
        }
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.output.slice();
        let n = self.limit.allow(out.len());
        self.stream
            .fill(&mut out[..n], self.params.kind, self.params.amplitude);
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
        "Seeded uniform, Gaussian, Laplacian or impulse noise.",
        |p| rfgraph::for_item_kinds!(p.item, { F32 => f32, C32 => Complex32 } as T => NoiseSource::<T>::from_params(p)?),
    )
    .doc(
        "GNU Radio's `analog_noise_source_x`: Gaussian noise has standard deviation \
         `amplitude` (complex: circular, of total power `amplitude²`); uniform noise lies in \
         `(−amplitude, amplitude)` (complex: per component, with `amplitude/√2`); Laplacian \
         and impulse noise for real items. `generator = gnuradio` draws GNU Radio's very \
         values (GNU Radio Companion files use it); the default `fast` generator makes \
         them in vectorised blocks, distributed alike. A seed gives the same stream on \
         every scheduler. \
         `amplitude` and `kind` may change while it runs (GNU Radio's `set_amplitude` \
         and `set_type`), from the next item on. Endless unless `items` is set.",
    )
    .output(PortSpec::new("out", PortItem::OfType))
}
