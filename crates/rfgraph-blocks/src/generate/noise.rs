//! `NoiseSource`: seeded uniform or Gaussian noise for `f32` and
//! `Complex32`, GNU Radio's `noise_source_f`/`noise_source_c`. Owns the
//! block and its settings; the numbers come from `distributions`, the
//! split-independent stream from `chunked`.

use super::chunked::Chunked;
use super::distributions::{self, BLOCK};
use super::rng::Xoshiro256PlusPlus;
use crate::limit::Limit;
use num_complex::Complex32;
use rfgraph::{
    Block, BoxError, Item, ParamError, ParamInfo, Pmt, Ports, Setting, Settings, StreamOutput,
    WorkIo,
};
use std::fmt;
use std::str::FromStr;

/// The distribution of a [`NoiseSource`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoiseKind {
    /// Uniform in `(−amplitude, amplitude)` (complex: per component, with
    /// `amplitude/√2`).
    Uniform,
    /// Normal with standard deviation `amplitude` (complex: circular, of
    /// total power `amplitude²`).
    Gaussian,
}

impl NoiseKind {
    /// The name the `kind` setting and flowgraph files use.
    pub fn name(self) -> &'static str {
        match self {
            NoiseKind::Uniform => "uniform",
            NoiseKind::Gaussian => "gaussian",
        }
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
        match s.trim().to_ascii_lowercase().as_str() {
            "uniform" | "gr_uniform" => Ok(NoiseKind::Uniform),
            "gaussian" | "normal" | "gr_gaussian" => Ok(NoiseKind::Gaussian),
            _ => Err(format!(
                "unknown noise kind `{s}` (expected uniform or gaussian)"
            )),
        }
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
/// # Stream Outputs
/// - `out`: `T` (`f32` or `Complex32`)
///
/// # Message Inputs
/// - `amplitude`: the amplitude (float), from the next item on.
/// - `kind`: `uniform` or `gaussian` (string), from the next item on.
///
/// # Parameters
/// - `kind`: see [`NoiseKind`].
/// - `amplitude`: standard deviation (Gaussian) or bound (uniform); finite.
/// - `seed`: any `u64`.
/// - `limit` ([`limit`](Self::limit)): stop after this many items;
///   endless by default.
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
    kind: NoiseKind,
    amplitude: f32,
    limit: Limit,
    settings: Settings<Self>,
}

/// `amplitude` if finite, else an error.
fn check_amplitude(amplitude: f32) -> Result<f32, ParamError> {
    if amplitude.is_finite() {
        Ok(amplitude)
    } else {
        Err(ParamError::new(
            "NoiseSource",
            "amplitude",
            format!("must be finite, not {amplitude}"),
        ))
    }
}

impl<T: NoiseItem> NoiseSource<T> {
    /// Endless noise of `kind` and `amplitude`, the stream of `seed`.
    ///
    /// Errors: a non-finite amplitude.
    pub fn new(kind: NoiseKind, amplitude: f32, seed: u64) -> Result<Self, ParamError> {
        Ok(Self {
            output: StreamOutput::new("out"),
            stream: Chunked::new(seed),
            kind,
            amplitude: check_amplitude(amplitude)?,
            limit: Limit::unlimited(),
            settings: Settings::new()
                .with(
                    Setting::try_new("amplitude", |s: &mut Self, a: f32| s.set_amplitude(a))
                        .doc("standard deviation (gaussian) or bound (uniform)"),
                )
                .with(
                    Setting::try_new("kind", |s: &mut Self, k: String| {
                        k.parse().map(|k| s.set_kind(k))
                    })
                    .doc("uniform or gaussian"),
                ),
        })
    }

    /// Stops after `items` items.
    pub fn limit(mut self, items: u64) -> Self {
        self.limit = Limit::of(items);
        self
    }

    /// Changes the amplitude from the next item on.
    pub fn set_amplitude(&mut self, amplitude: f32) -> Result<(), ParamError> {
        self.amplitude = check_amplitude(amplitude)?;
        Ok(())
    }

    /// Changes the distribution from the next item on (the rest of the
    /// current block of the old one is dropped).
    pub fn set_kind(&mut self, kind: NoiseKind) {
        if kind != self.kind {
            self.kind = kind;
            self.stream.discard();
        }
    }

    /// The amplitude.
    pub fn amplitude(&self) -> f32 {
        self.amplitude
    }

    /// The distribution.
    pub fn kind(&self) -> NoiseKind {
        self.kind
    }
}

impl<T: NoiseItem> Block for NoiseSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        self.settings
            .message_inputs(Ports::new().output(&mut self.output))
    }

    fn handle_message(&mut self, port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        Settings::dispatch(self, |s| &mut s.settings, port, msg)
    }

    fn settings(&self) -> Vec<ParamInfo> {
        self.settings.infos()
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.output.slice();
        let n = self.limit.allow(out.len());
        let kind = self.kind;
        self.stream
            .fill(&mut out[..n], |rng, block| T::unit_block(kind, rng, block));
        T::scale(&mut out[..n], self.amplitude);
        self.output.produce(n);
        self.limit.spend(n, io);
        Ok(())
    }
}

/// The registry entry: `noise_source`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use crate::spec_util::items_param;
    use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};

    BlockSpec::new(
        "noise_source",
        "Waveform Generators",
        "Seeded uniform or Gaussian noise.",
        |p| {
            let kind: NoiseKind = p
                .string("kind")?
                .parse()
                .map_err(|e: String| p.invalid("kind", e))?;
            let amplitude = p.f32("amplitude")?;
            let seed = p.u64("seed")?;
            let items: Option<u64> = p.opt("items")?;
            rfgraph::for_item_kinds!(p, p.item_type()?, { F32 => f32, C32 => Complex32 } as T => {
                let block = NoiseSource::<T>::new(kind, amplitude, seed)
                    .map_err(|e| p.invalid("amplitude", e.to_string()))?;
                match items {
                    Some(n) => block.limit(n),
                    None => block,
                }
            })
        },
    )
    .doc(
        "GNU Radio's `analog_noise_source_x` for its uniform and Gaussian kinds: \
         Gaussian noise has standard deviation `amplitude` (complex: circular, of total \
         power `amplitude²`); uniform noise lies in `(−amplitude, amplitude)` (complex: \
         per component, with `amplitude/√2`). The numbers come from a seeded generator \
         in fixed-size blocks, so a seed gives the same stream on every scheduler. \
         `amplitude` and `kind` are settable while it runs. Endless unless `items` is set.",
    )
    .param(
        ParamSpec::string("kind")
            .default("gaussian")
            .choices(&["uniform", "gaussian"])
            .doc("the distribution")
            .settable(),
    )
    .param(
        ParamSpec::float("amplitude")
            .default(1.0)
            .doc("standard deviation (Gaussian) or bound (uniform)")
            .settable(),
    )
    .param(
        ParamSpec::uint("seed")
            .default(0u64)
            .doc("seed of the generator"),
    )
    .param(items_param())
    .param(ParamSpec::item_type(&[ItemKind::C32, ItemKind::F32]))
    .output(PortSpec::new("out", PortItem::OfType))
}
