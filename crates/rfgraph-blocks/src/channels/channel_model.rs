//! `channel_model` (GNU Radio `channels_channel_model`): timing offset,
//! multipath, frequency offset and additive Gaussian noise in one block.

use crate::generate::distributions::BLOCK;
use crate::generate::rng::Xoshiro256PlusPlus;
use crate::{NoiseItem, NoiseKind};
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamInfo, Pmt, Ports, Setting, Settings, StreamInput, StreamOutput,
    TagPolicy, WorkIo,
};
use rfgraph_dsp::digital::MmseResampler;
use rfgraph_dsp::filter::FirCcc;
use rfgraph_dsp::{DspError, Kernel};

/// Noise pool size, as GNU Radio's channel model's fast noise source.
const POOL: usize = 8192;

/// A basic channel, the chain of GNU Radio's `channel_model`: an MMSE
/// resampler reading `epsilon` input samples per output (which also delays
/// by three samples, as GNU Radio's does), an FIR filter with the
/// multipath `taps`, a rotation by `frequency_offset` cycles/sample, and
/// complex Gaussian noise of RMS `noise_voltage` picked from a pool of
/// 8192 values (GNU Radio's fast noise source; seeded, so the noise values
/// are not GNU Radio's).
///
/// # Stream Inputs
/// - `in`: `Complex32`
///
/// # Stream Outputs
/// - `out`: `Complex32`, about `1/epsilon` per input
///
/// # Message Inputs
/// - `noise_voltage`: the noise RMS.
/// - `frequency_offset`: cycles/sample.
/// - `epsilon`: the timing ratio.
///
/// # Parameters
/// - `noise_voltage`: RMS of the complex noise (≥ 0).
/// - `frequency_offset`: cycles/sample (normalised to the sample rate).
/// - `epsilon`: input samples per output sample (1: none).
/// - `taps`: multipath taps (`[1]`: none).
/// - `seed`: noise seed.
///
/// # Usage
/// ```
/// use num_complex::Complex32;
/// use rfgraph_blocks::channels::ChannelModel;
/// let ch = ChannelModel::new(0.1, 0.001, 1.0, &[Complex32::new(1.0, 0.0)], 42)?;
/// # let _ = ch;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub struct ChannelModel {
    input: StreamInput<Complex32>,
    output: StreamOutput<Complex32>,
    resampler: MmseResampler<Complex32>,
    fir: Option<FirCcc>,
    scratch: Vec<Complex32>,
    /// Phase in cycles and step in cycles/sample of the offset.
    phase: f64,
    frequency: f64,
    noise_voltage: f32,
    pool: Vec<Complex32>,
    rng: Xoshiro256PlusPlus,
    epsilon: f64,
    settings: Settings<Self>,
}

fn check_voltage(v: f32) -> Result<f32, DspError> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(DspError::OutOfRange {
            name: "noise_voltage",
            value: v as f64,
            expected: "must be finite and >= 0",
        })
    }
}

fn check_frequency(f: f64) -> Result<f64, DspError> {
    if f.is_finite() {
        Ok(f)
    } else {
        Err(DspError::NotFinite {
            name: "frequency_offset",
            value: f,
        })
    }
}

impl ChannelModel {
    /// A channel; see the type's documentation for the parameters.
    ///
    /// Errors: a negative or non-finite noise voltage, a non-finite
    /// offset, a non-positive epsilon, empty or non-finite taps.
    pub fn new(
        noise_voltage: f32,
        frequency_offset: f64,
        epsilon: f64,
        taps: &[Complex32],
        seed: u64,
    ) -> Result<Self, DspError> {
        let identity = taps.len() == 1 && taps[0] == Complex32::new(1.0, 0.0);
        let fir = if identity {
            None
        } else {
            Some(FirCcc::new(taps)?)
        };
        let mut rng = Xoshiro256PlusPlus::from_seed(seed);
        let mut pool = Vec::with_capacity(POOL);
        let mut block = [Complex32::default(); BLOCK];
        while pool.len() < POOL {
            Complex32::unit_block(NoiseKind::Gaussian, &mut rng, &mut block);
            pool.extend_from_slice(&block);
        }
        Ok(Self {
            input: StreamInput::new("in").with_min_items(8),
            output: StreamOutput::new("out"),
            resampler: MmseResampler::new(0.0, epsilon)?,
            fir,
            scratch: vec![Complex32::default(); 4096],
            phase: 0.0,
            frequency: check_frequency(frequency_offset)?,
            noise_voltage: check_voltage(noise_voltage)?,
            pool,
            rng,
            epsilon,
            settings: Settings::new()
                .with(Setting::try_new("noise_voltage", |s: &mut Self, v: f32| {
                    check_voltage(v).map(|v| s.noise_voltage = v)
                }))
                .with(
                    Setting::try_new("frequency_offset", |s: &mut Self, f: f64| {
                        check_frequency(f).map(|f| s.frequency = f)
                    })
                    .unit("cycles/sample"),
                )
                .with(Setting::try_new("epsilon", |s: &mut Self, e: f64| {
                    s.resampler.set_ratio(e).map(|()| s.epsilon = e)
                })),
        })
    }
}

impl Block for ChannelModel {
    fn ports(&mut self) -> Ports<'_> {
        self.settings
            .message_inputs(Ports::new().input(&mut self.input).output(&mut self.output))
    }

    fn handle_message(&mut self, port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        Settings::dispatch(self, |s| &mut s.settings, port, msg)
    }

    fn settings(&self) -> Vec<ParamInfo> {
        self.settings.infos()
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
        let amp = self.noise_voltage;
        for o in out.iter_mut() {
            let (s, c) = (std::f64::consts::TAU * self.phase).sin_cos();
            *o *= Complex32::new(c as f32, s as f32);
            self.phase = (self.phase + self.frequency).rem_euclid(1.0);
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
        let r = rfgraph_dsp::Ratio::approximate(1.0 / self.epsilon);
        TagPolicy::Propagate {
            interpolation: r.interpolation,
            decimation: r.decimation,
        }
    }
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new("channel_model", "Channels", "Channel: timing offset, multipath, frequency offset and Gaussian noise.", |p| {
        let taps: Vec<Complex32> = p.complexes("taps")?.iter().map(|[re, im]| Complex32::new(*re, *im)).collect();
        let block = ChannelModel::new(
            p.f32("noise_voltage")?,
            p.f64("frequency_offset")?,
            p.f64("epsilon")?,
            &taps,
            p.u64("seed")?,
        )
        .map_err(|e| p.refused(e))?;
        Ok(Box::new(block) as Box<dyn Block>)
    })
    .doc("GNU Radio's `channels_channel_model`: MMSE resampler (`epsilon` input samples per output; three samples of delay as in GNU Radio) → FIR with `taps` → rotation by `frequency_offset` → plus complex Gaussian noise of RMS `noise_voltage` from a pool of 8192 values. The noise is seeded xoshiro256++, not GNU Radio's generator. `block_tags` is not implemented (tags propagate).")
    .param(ParamSpec::float("noise_voltage").default(0.0).settable().doc("RMS of the complex noise"))
    .param(ParamSpec::float("frequency_offset").default(0.0).unit("cycles/sample").settable().doc("carrier offset"))
    .param(ParamSpec::float("epsilon").default(1.0).settable().doc("input samples per output (timing offset)"))
    .param(ParamSpec::complexes("taps").default(Pmt::VecComplexF32(vec![[1.0, 0.0]])).doc("multipath taps"))
    .param(ParamSpec::uint("seed").default(0u64).doc("noise seed"))
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
