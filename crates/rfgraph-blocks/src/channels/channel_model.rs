//! `channel_model` (GNU Radio `channels_channel_model`): timing offset,
//! multipath, frequency offset and additive Gaussian noise in one block.

use super::fxpt::FxptNco;
use crate::digital::params::dsp_error;
use crate::generate::distributions::BLOCK;
use crate::generate::gr_noise::{self, GrPool};
use crate::generate::gr_random::GrRandom;
use crate::generate::rng::Xoshiro256PlusPlus;
use crate::{NoiseGenerator, NoiseItem, NoiseKind};
use num_complex::Complex32;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};
use rfgraph_dsp::digital::MmseResampler;
use rfgraph_dsp::filter::FirCcc;
use rfgraph_dsp::{DspError, Kernel};

/// Noise pool size, as GNU Radio's channel model's fast noise source.
const POOL: usize = 8192;

/// The parameters of [`ChannelModel`] (`channel_model`, GNU Radio's
/// `channels_channel_model`). All but the seed may change while it runs,
/// as GNU Radio's setters allow.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ChannelModelParams {
    /// RMS of the complex noise
    #[param(default = 0.0, min = 0.0, settable)]
    pub noise_voltage: f32,
    /// carrier offset; phase-continuous when it changes
    #[param(default = 0.0, unit = "cycles/sample", alias = "freq_offset", settable)]
    pub frequency_offset: f64,
    /// input samples per output sample (timing offset; 1: none)
    #[param(
        default = 1.0,
        min = 1.0 / limits::MAX_FACTOR as f64,
        below = MAX_EPSILON,
        settable
    )]
    pub epsilon: f64,
    /// multipath taps (`[1]`: none); new taps keep the filter's history
    #[param(
        default = vec![Complex32::new(1.0, 0.0)],
        max_len = limits::MAX_TAPS,
        settable
    )]
    pub taps: Vec<Complex32>,
    /// noise seed (GNU Radio's signed seeds are taken modulo 2⁶⁴)
    #[param(default = 0)]
    pub seed: i64,
    /// `fast` (rfgraph's noise and a double-precision oscillator) or
    /// `gnuradio` (GNU Radio's noise pool and picks and its fixed-point
    /// oscillator, value for value)
    #[param(default = NoiseGenerator::Fast)]
    pub generator: NoiseGenerator,
    /// drop the input's tags instead of passing them on (GNU Radio's
    /// `block_tags`)
    #[param(default = false)]
    pub block_tags: bool,
}

/// The largest `epsilon` (the resampler's).
const MAX_EPSILON: f64 = 1e6;

impl ChannelModelParams {
    fn check(&self) -> Result<(), ParamError> {
        if self.taps.is_empty() {
            return Err(ParamError::new(
                "channel_model",
                "taps",
                "needs at least one tap",
            ));
        }
        Ok(())
    }

    /// True for the single unit tap: no multipath filter.
    fn identity(&self) -> bool {
        self.taps.len() == 1 && self.taps[0] == Complex32::new(1.0, 0.0)
    }
}

/// A basic channel, the chain of GNU Radio's `channel_model`: an MMSE
/// resampler reading `epsilon` input samples per output (which also delays
/// by three samples, as GNU Radio's does), an FIR filter with the
/// multipath `taps`, a rotation by `frequency_offset` cycles/sample, and
/// complex Gaussian noise of RMS `noise_voltage` picked from a pool of
/// 8192 values (GNU Radio's fast noise source). With `generator =
/// gnuradio` (what GNU Radio Companion files get) the rotation is GNU
/// Radio's fixed-point oscillator (`sig_source_c`), so without noise the
/// output is GNU Radio's to float rounding, and the noise is GNU Radio's
/// standalone `fastnoise_source_c` value for value. GNU Radio's channel
/// model itself gives that source's picks at every other item only (the
/// items between hold values that are in no pool; the cause was not
/// found), so noisy outputs agree with it in distribution and power,
/// not sample by sample. With the default `fast` generator the noise is
/// rfgraph's seeded stream, distributed alike, and the rotation is
/// computed in double precision. Every parameter but the seed may change while it
/// runs: new taps keep the filter's history, a new offset keeps the
/// phase, a new epsilon the resampler's phase (with GNU Radio's
/// generator a new noise voltage draws a new pool, as GNU Radio does).
///
/// # Parameters
/// [`ChannelModelParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`
///
/// # Stream Outputs
/// - `out`: `Complex32`, about `1/epsilon` per input
///
/// # Usage
/// ```
/// use rfgraph_blocks::channels::{ChannelModel, ChannelModelParams};
/// let ch = ChannelModel::new(ChannelModelParams {
///     noise_voltage: 0.1,
///     frequency_offset: 0.001,
///     seed: 42,
///     ..Default::default()
/// })?;
/// # let _ = ch;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct ChannelModel {
    input: StreamInput<Complex32>,
    output: StreamOutput<Complex32>,
    params: ChannelModelParams,
    resampler: MmseResampler<Complex32>,
    fir: Option<FirCcc>,
    scratch: Vec<Complex32>,
    noise: Noise,
}

/// The offset and the noise, rfgraph's or GNU Radio's.
enum Noise {
    /// A double-precision rotation and unit noise scaled at the output.
    Fast {
        /// Phase in cycles of the offset.
        phase: f64,
        pool: Vec<Complex32>,
        rng: Xoshiro256PlusPlus,
    },
    /// GNU Radio's fixed-point oscillator and fast noise source: the pool
    /// holds the scaled noise, drawn from `draws`, picked by `picks`.
    Gnuradio {
        nco: FxptNco,
        pool: GrPool<Complex32>,
        draws: GrRandom,
        picks: GrRandom,
    },
}

/// GNU Radio's pool of `noise_voltage` complex Gaussian noise.
fn gnuradio_pool(draws: &mut GrRandom, noise_voltage: f32) -> GrPool<Complex32> {
    let part = gr_noise::complex_amplitude(noise_voltage);
    GrPool::new(
        (0..POOL)
            .map(|_| gr_noise::complex(draws, NoiseKind::Gaussian, part).unwrap_or_default())
            .collect(),
    )
}

impl Noise {
    fn new(params: &ChannelModelParams) -> Self {
        let seed = params.seed as u64;
        match params.generator {
            NoiseGenerator::Fast => {
                let mut rng = Xoshiro256PlusPlus::from_seed(seed);
                let mut pool = Vec::with_capacity(POOL);
                let mut block = [Complex32::default(); BLOCK];
                while pool.len() < POOL {
                    Complex32::unit_block(NoiseKind::Gaussian, &mut rng, &mut block);
                    pool.extend_from_slice(&block);
                }
                Noise::Fast {
                    phase: 0.0,
                    pool,
                    rng,
                }
            }
            NoiseGenerator::Gnuradio => {
                let mut draws = GrRandom::new(seed);
                Noise::Gnuradio {
                    nco: FxptNco::new(params.frequency_offset),
                    pool: gnuradio_pool(&mut draws, params.noise_voltage),
                    draws,
                    picks: GrRandom::new(seed),
                }
            }
        }
    }

    /// Rotates `out` by the offset and adds the noise.
    fn apply(&mut self, out: &mut [Complex32], frequency: f64, amp: f32) {
        match self {
            Noise::Fast { phase, pool, rng } => {
                for o in out.iter_mut() {
                    let (s, c) = (std::f64::consts::TAU * *phase).sin_cos();
                    *o *= Complex32::new(c as f32, s as f32);
                    *phase = (*phase + frequency).rem_euclid(1.0);
                    if amp > 0.0 {
                        let i = ((rng.next_u64() as u128 * POOL as u128) >> 64) as usize;
                        *o += pool[i] * amp;
                    }
                }
            }
            Noise::Gnuradio {
                nco, pool, picks, ..
            } => {
                for o in out.iter_mut() {
                    *o = pool.pick(picks) + *o * nco.next();
                }
            }
        }
    }

    /// A changed parameter: GNU Radio's oscillator takes the new offset,
    /// its noise source draws a new pool for a new voltage.
    fn changed(&mut self, params: &ChannelModelParams, name: &str) {
        if let Noise::Gnuradio {
            nco, pool, draws, ..
        } = self
        {
            match name {
                "frequency_offset" => nco.set_frequency(params.frequency_offset),
                "noise_voltage" => *pool = gnuradio_pool(draws, params.noise_voltage),
                _ => {}
            }
        }
    }
}

impl ChannelModel {
    /// A channel with `params`.
    ///
    /// Errors: a parameter out of its range.
    pub fn new(params: ChannelModelParams) -> Result<Self, ParamError> {
        params.validate()?;
        let refused = dsp_error(
            "channel_model",
            "taps",
            &[("ratio", "epsilon"), ("phase_shift", "epsilon")],
        );
        let fir = if params.identity() {
            None
        } else {
            Some(FirCcc::new(&params.taps).map_err(&refused)?)
        };
        Ok(Self {
            input: StreamInput::new("in").with_min_items(8),
            output: StreamOutput::new("out"),
            resampler: MmseResampler::new(0.0, params.epsilon).map_err(&refused)?,
            fir,
            scratch: vec![Complex32::default(); 4096],
            noise: Noise::new(&params),
            params,
        })
    }

    /// Filters with the current taps from the next sample on: the
    /// multipath filter keeps its history (a longer one starts with
    /// zeros before it), and the single unit tap is no filter at all.
    fn retap(&mut self) -> Result<(), DspError> {
        let taps = &self.params.taps;
        if self.params.identity() {
            self.fir = None;
        } else if let Some(fir) = &mut self.fir {
            fir.set_taps(taps)?;
        } else {
            self.fir = Some(FirCcc::new(taps)?);
        }
        Ok(())
    }
}

impl Block for ChannelModel {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        match name {
            "taps" => self.retap()?,
            "epsilon" => self.resampler.set_ratio(self.params.epsilon)?,
            // The noise and the offset are read by every `work`.
            _ => self.noise.changed(&self.params, name),
        }
        Ok(())
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let input = self.input.slice();
        let out = self.output.slice();
        let room = out.len().min(self.scratch.len());
        let (consumed, produced) = self.resampler.process(input, &mut self.scratch[..room]);
        let out = &mut out[..produced];
        match &mut self.fir {
            Some(fir) => {
                fir.process(&self.scratch[..produced], out);
            }
            None => out.copy_from_slice(&self.scratch[..produced]),
        }
        self.noise
            .apply(out, self.params.frequency_offset, self.params.noise_voltage);
        self.input.consume(consumed);
        self.output.produce(produced);
        Ok(())
    }

    fn tag_policy(&self) -> TagPolicy {
        if self.params.block_tags {
            // Manual, and no tag written: none passes.
            return TagPolicy::Manual;
        }
        let r = rfgraph_dsp::Ratio::approximate(1.0 / self.params.epsilon);
        TagPolicy::Propagate {
            interpolation: r.interpolation,
            decimation: r.decimation,
        }
    }
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<ChannelModelParams>(
        "channel_model",
        "Channels",
        "Channel: timing offset, multipath, frequency offset and Gaussian noise.",
        |p| Ok(Box::new(ChannelModel::new(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio's `channels_channel_model`: MMSE resampler (`epsilon` input samples per \
         output; three samples of delay as in GNU Radio) → FIR with `taps` → rotation by \
         `frequency_offset` → plus complex Gaussian noise of RMS `noise_voltage` from a pool \
         of 8192 values. All but the seed may change while it runs, as with GNU Radio's \
         setters: new taps keep the filter's history, a new offset keeps the phase. \
         `generator = gnuradio` (GNU Radio Companion files use it) gives GNU Radio's noise \
         values and fixed-point oscillator; the default `fast` one seeded xoshiro256++ noise, \
         distributed alike, and a double-precision rotation. Tags propagate (scaled \
         by `1 / epsilon`) unless `block_tags` drops them all.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
