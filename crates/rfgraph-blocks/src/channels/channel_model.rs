//! `channel_model` (GNU Radio `channels_channel_model`): timing offset,
//! multipath, frequency offset and additive Gaussian noise in one block.

use crate::digital::params::dsp_error;
use crate::generate::distributions::BLOCK;
use crate::generate::rng::Xoshiro256PlusPlus;
use crate::{NoiseItem, NoiseKind};
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
    /// noise seed
    #[param(default = 0)]
    pub seed: u64,
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
/// 8192 values (GNU Radio's fast noise source; seeded, so the noise values
/// are not GNU Radio's). Every parameter but the seed may change while it
/// runs: new taps keep the filter's history, a new offset keeps the
/// phase, a new epsilon the resampler's phase.
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
    /// Phase in cycles of the offset.
    phase: f64,
    pool: Vec<Complex32>,
    rng: Xoshiro256PlusPlus,
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
        let mut rng = Xoshiro256PlusPlus::from_seed(params.seed);
        let mut pool = Vec::with_capacity(POOL);
        let mut block = [Complex32::default(); BLOCK];
        while pool.len() < POOL {
            Complex32::unit_block(NoiseKind::Gaussian, &mut rng, &mut block);
            pool.extend_from_slice(&block);
        }
        Ok(Self {
            input: StreamInput::new("in").with_min_items(8),
            output: StreamOutput::new("out"),
            resampler: MmseResampler::new(0.0, params.epsilon).map_err(&refused)?,
            fir,
            scratch: vec![Complex32::default(); 4096],
            phase: 0.0,
            pool,
            rng,
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
            _ => {}
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
        let amp = self.params.noise_voltage;
        let frequency = self.params.frequency_offset;
        for o in out.iter_mut() {
            let (s, c) = (std::f64::consts::TAU * self.phase).sin_cos();
            *o *= Complex32::new(c as f32, s as f32);
            self.phase = (self.phase + frequency).rem_euclid(1.0);
            if amp > 0.0 {
                let i = ((self.rng.next_u64() as u128 * POOL as u128) >> 64) as usize;
                *o += self.pool[i] * amp;
            }
        }
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
         setters: new taps keep the filter's history, a new offset keeps the phase. The \
         noise is seeded xoshiro256++, not GNU Radio's generator. Tags propagate (scaled \
         by `1 / epsilon`) unless `block_tags` drops them all.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
