//! The assembled FM receiver: [`Receiver`] turns an [`FmConfig`] into the
//! blocks of one station's chain and adds them to a flowgraph behind a
//! source, so that the command line, the tests and flowgraph files build
//! the same receiver. Owns the topology only; rates and filters come from
//! [`plan`](super::plan), the arithmetic from the blocks.
//!
//! ```text
//! source ─ ChannelFilter ── MpxDemod ─ [resampler] ─┬─ Deemphasis ─ audio filter ─────────┐ sum
//!          (channel, ÷D)   (quad_rate)   (MPX)      │                                     StereoMatrix ─ left, right
//!                                                   ├─ StereoDemod ─ Deemphasis ─ audio filter ┘ diff
//!                                                   └─ RdsDemod ─ RdsDecoder ─ messages
//! ```
//!
//! De-emphasis is applied to L+R and L−R at the MPX rate: it is linear, so
//! that is the same as de-emphasising L and R, and at 240 kS/s the
//! bilinear transform stays within 0.1 dB of the analogue 50/75 µs curve up
//! to 15 kHz (at 48 kHz it would be 1.6 dB off there). The audio filter
//! (15 kHz, 70 dB at 19 kHz) also brings each path to the audio rate. In
//! mono the difference path is left out and both outputs are the sum
//! path's one port.

use super::channel::{ChannelFilter, ChannelInput};
use super::error::FmError;
use super::matrix::StereoMatrix;
use super::mpx::MpxDemod;
use super::plan::{AudioPlan, ChannelPlan, DEVIATION_HZ, MPX_RATE, Resampling};
use super::stereo::StereoDemod;
use num_complex::Complex32;
use rfgraph::{BlockId, BoxError, Flowgraph, Item, ParamSet};
use rfgraph_blocks::DspBlock;
use rfgraph_dsp::{
    ArbitraryResampler, DecimatingFir, Deemphasis, Fff, Fir, Isa, Kernel, RationalResampler,
};

/// The instance names [`Receiver::build`] gives the blocks a user may
/// want to address (statistics, the control port's readings and
/// parameters); the RDS blocks are `rds_demod` and `rds_decoder`
/// ([`connect_receiver`](crate::rds::connect_receiver)).
pub mod names {
    /// The channel filter ([`ReceiverPorts::channel`](super::ReceiverPorts::channel)):
    /// `Complex32` (or `cu8` bytes) in at the input rate, the channel out
    /// at the plan's `quad_rate`; settable `offset`.
    pub const CHANNEL: &str = "channel";
    /// The FM demodulator: the channel in, the MPX out at the plan's
    /// `quad_rate` (before any resampling to the MPX rate).
    pub const FM_DEMOD: &str = "fm_demod";
    /// The [`StereoDemod`](super::StereoDemod): readings `stereo`,
    /// `pilot_level`, `pilot_hz`.
    pub const STEREO: &str = "stereo_demod";
}

/// The pre-emphasis the station applied, which the receiver undoes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Emphasis {
    /// 50 µs: Europe and most of the world.
    #[default]
    Tau50us,
    /// 75 µs: the Americas and South Korea.
    Tau75us,
    /// None (no de-emphasis: for measurements, or a flat MPX).
    None,
}

impl Emphasis {
    /// The time constant in seconds, if any.
    pub fn tau(self) -> Option<f64> {
        match self {
            Emphasis::Tau50us => Some(Deemphasis::TAU_50US),
            Emphasis::Tau75us => Some(Deemphasis::TAU_75US),
            Emphasis::None => None,
        }
    }
}

/// What the receiver receives and produces.
#[derive(Clone, Debug, PartialEq)]
pub struct FmConfig {
    /// The source's rate, samples per second (at least 240 kS/s).
    pub input_rate: f64,
    /// The station's frequency minus the source's centre frequency, Hz.
    pub offset: f64,
    /// The audio rate, Hz.
    pub audio_rate: u32,
    /// The de-emphasis.
    pub emphasis: Emphasis,
    /// Decode stereo (with mono fallback); `false` gives mono always.
    pub stereo: bool,
    /// Decode RDS from the MPX.
    pub rds: bool,
}

impl Default for FmConfig {
    /// 2.4 MS/s, no offset, 48 kHz, 50 µs, stereo and RDS.
    fn default() -> Self {
        FmConfig {
            input_rate: 2.4e6,
            offset: 0.0,
            audio_rate: 48_000,
            emphasis: Emphasis::Tau50us,
            stereo: true,
            rds: true,
        }
    }
}

/// What of the receiver changes while it runs: the parameters of its
/// channel filter block ([`ReceiverPorts::channel`]).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct ChannelParams {
    /// the station's frequency minus the input's centre; a change retunes
    /// the channel filter phase-continuously
    #[param(default = 0.0, unit = "Hz", settable)]
    pub offset: f64,
}

/// How the channel filter follows a change of [`ChannelParams`].
fn retune<I: ChannelInput>(
    k: &mut ChannelFilter<I>,
    p: &ChannelParams,
    _name: &str,
) -> Result<(), BoxError> {
    Ok(k.set_offset(p.offset)?)
}

/// A port of a block in the flowgraph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endpoint {
    /// The block.
    pub block: BlockId,
    /// The port's name.
    pub port: &'static str,
}

impl Endpoint {
    /// Port `port` of `block`.
    pub fn new(block: BlockId, port: &'static str) -> Self {
        Endpoint { block, port }
    }
}

/// Where the receiver's results leave the blocks [`Receiver::build`]
/// added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReceiverPorts {
    /// Left audio, `f32` at the audio rate.
    pub left: Endpoint,
    /// Right audio, `f32` at the audio rate (the same port as `left` in
    /// mono).
    pub right: Endpoint,
    /// The MPX, `f32` at [`MPX_RATE`], 75 kHz deviation = 1.0, for
    /// anything else that decodes it.
    pub mpx: Endpoint,
    /// The stereo decoder's message output (`stereo`: a map per change of
    /// the pilot's lock); `None` in mono. The audio carries the same
    /// state as [`STEREO_TAG`](super::STEREO_TAG) tags.
    pub stereo: Option<Endpoint>,
    /// The RDS decoder's message output (`out` of
    /// [`RdsDecoder`](crate::rds::RdsDecoder): a map of the fields that
    /// changed, always with `pi`), when RDS is decoded.
    pub rds: Option<Endpoint>,
    /// The channel filter, whose settable parameter `offset` (Hz,
    /// [`ChannelParams`]) retunes the receiver while it runs.
    pub channel: BlockId,
}

/// An FM broadcast receiver: planned from an [`FmConfig`], then added to
/// any number of flowgraphs with [`build`](Self::build).
///
/// ```
/// use rfgraph::Flowgraph;
/// use rfgraph_blocks::NullSource;
/// use rfgraph_radio::fm::{FmConfig, Receiver};
/// use num_complex::Complex32;
/// ///
/// let rx = Receiver::new(FmConfig { offset: 300e3, ..FmConfig::default() })?;
/// let mut fg = Flowgraph::new();
/// let src = fg.add(NullSource::<Complex32>::new());
/// let ports = rx.build(&mut fg, src, "out")?;
/// assert!(ports.stereo.is_some() && ports.left != ports.right);
/// # Ok::<(), rfgraph_radio::fm::FmError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Receiver {
    config: FmConfig,
    channel: ChannelPlan,
    audio: AudioPlan,
}

impl Receiver {
    /// Checks `config` and plans the rates and filters.
    ///
    /// Errors: an input rate below 240 kS/s, an offset that puts the
    /// station outside the input's band, an audio rate outside 8–192 kHz.
    pub fn new(config: FmConfig) -> Result<Self, FmError> {
        let channel = ChannelPlan::new(config.input_rate, config.offset)?;
        let audio = AudioPlan::new(config.audio_rate)?;
        Ok(Receiver {
            config,
            channel,
            audio,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &FmConfig {
        &self.config
    }

    /// The channel filter, decimation and MPX resampling.
    pub fn channel_plan(&self) -> &ChannelPlan {
        &self.channel
    }

    /// The audio filter.
    pub fn audio_plan(&self) -> &AudioPlan {
        &self.audio
    }

    /// Adds the receiver's blocks to `fg`, fed from output `port` of
    /// `source` (`Complex32` at the configured input rate), and returns
    /// where its results leave. The audio outputs are left unconnected, for
    /// a WAV file, an audio device or a test's sink.
    ///
    /// Errors: `source` has no `Complex32` output `port`.
    pub fn build(
        &self,
        fg: &mut Flowgraph,
        source: BlockId,
        port: &str,
    ) -> Result<ReceiverPorts, FmError> {
        self.build_from::<Complex32>(fg, source, port)
    }

    /// As [`build`](Self::build) for a source of `cu8` bytes (`u8`, two
    /// per sample, as a `FileSource<u8>` reads an RTL-SDR recording): the
    /// channel filter decodes them itself, so the input never passes
    /// through a ring as 8-byte complex samples. The audio is the same,
    /// bit for bit, as from the `Complex32` the file source would decode.
    ///
    /// Errors: `source` has no `u8` output `port`.
    pub fn build_cu8(
        &self,
        fg: &mut Flowgraph,
        source: BlockId,
        port: &str,
    ) -> Result<ReceiverPorts, FmError> {
        self.build_from::<u8>(fg, source, port)
    }

    fn build_from<I: ChannelInput + Item>(
        &self,
        fg: &mut Flowgraph,
        source: BlockId,
        port: &str,
    ) -> Result<ReceiverPorts, FmError> {
        let plan = &self.channel;
        let params = ChannelParams {
            offset: self.config.offset,
        };
        params.validate()?;
        let channel = fg.add_named(
            names::CHANNEL,
            DspBlock::tuned(ChannelFilter::<I>::new(plan)?, params, retune::<I>),
        );
        fg.connect(source, port, channel, "in")?;
        let demod = fg.add_named(
            names::FM_DEMOD,
            DspBlock::new(MpxDemod::new(plan.quad_rate, DEVIATION_HZ)?),
        );
        fg.connect(channel, "out", demod, "in")?;
        let demod = Endpoint::new(demod, "out");
        let mpx = match plan.to_mpx {
            Resampling::None => demod,
            Resampling::Decimate(d) => add_after(fg, RationalResampler::<Fff>::new(1, d)?, demod)?,
            Resampling::Rational { interp, decim } => {
                add_after(fg, RationalResampler::<Fff>::new(interp, decim)?, demod)?
            }
            Resampling::Arbitrary(r) => add_after(fg, ArbitraryResampler::<Fff>::new(r)?, demod)?,
        };
        let sum = self.audio_path(fg, mpx)?;
        let (left, right, stereo) = if self.config.stereo {
            let decoder = fg.add_named(names::STEREO, StereoDemod::new(MPX_RATE)?);
            fg.connect(mpx.block, mpx.port, decoder, "in")?;
            let diff = self.audio_path(fg, Endpoint::new(decoder, "out"))?;
            let matrix = fg.add(StereoMatrix::new());
            fg.connect(sum.block, sum.port, matrix, "sum")?;
            fg.connect(diff.block, diff.port, matrix, "diff")?;
            (
                Endpoint::new(matrix, "left"),
                Endpoint::new(matrix, "right"),
                Some(Endpoint::new(decoder, "stereo")),
            )
        } else {
            (sum, sum, None)
        };
        let rds = if self.config.rds {
            let rds = crate::rds::connect_receiver(fg, mpx.block, mpx.port, MPX_RATE)?;
            Some(Endpoint::new(rds.decoder, "out"))
        } else {
            None
        };
        Ok(ReceiverPorts {
            left,
            right,
            mpx,
            stereo,
            rds,
            channel,
        })
    }

    /// De-emphasis and the audio filter behind `from` (at the MPX rate).
    fn audio_path(&self, fg: &mut Flowgraph, from: Endpoint) -> Result<Endpoint, FmError> {
        let from = match self.config.emphasis.tau() {
            Some(tau) => add_after(fg, Deemphasis::new(MPX_RATE, tau)?, from)?,
            None => from,
        };
        let a = &self.audio;
        let isa = Isa::detect();
        Ok(match a.resampling {
            Resampling::None => add_after(fg, Fir::<Fff>::new(&a.taps)?, from)?,
            Resampling::Decimate(d) => add_after(fg, DecimatingFir::<Fff>::new(&a.taps, d)?, from)?,
            Resampling::Rational { interp, decim } => add_after(
                fg,
                RationalResampler::<Fff>::with_taps(interp, decim, &a.taps, isa)?,
                from,
            )?,
            Resampling::Arbitrary(r) => add_after(
                fg,
                ArbitraryResampler::<Fff>::with_taps(r, a.filters, &a.taps, isa)?,
                from,
            )?,
        })
    }
}

/// Adds `kernel` in a [`DspBlock`] reading `from`; returns its output.
fn add_after<K>(fg: &mut Flowgraph, kernel: K, from: Endpoint) -> Result<Endpoint, FmError>
where
    K: Kernel + Send + 'static,
    K::Input: Item,
    K::Output: Item,
{
    let block = fg.add(DspBlock::new(kernel));
    fg.connect(from.block, from.port, block, "in")?;
    Ok(Endpoint::new(block, "out"))
}
