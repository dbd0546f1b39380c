//! `wfm_tx`: GNU Radio's `analog.wfm_tx` (GRC `analog_wfm_tx`) run as one
//! block owning its stages: from a lower audio rate GNU Radio's
//! interpolation (`interp_fir_filter_fff` with `optfir.low_pass`'s
//! Parks–McClellan taps), FM pre-emphasis, then a frequency modulator of
//! sensitivity `2π·max_dev/quad_rate`.

use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, ParamSet, Ports, StreamInput, StreamOutput, WorkIo};
use rfgraph_dsp::Kernel;
use rfgraph_dsp::analog::FrequencyModulator;
use rfgraph_dsp::design::optfir;
use rfgraph_dsp::filter::{DirectIir, Fff, InterpolatingFir, fm_preemph_taps};

/// The parameters of `wfm_tx`, GNU Radio's `analog.wfm_tx`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct WfmTxParams {
    /// sample rate of the audio input (its whole part); `quad_rate` must
    /// be a whole multiple of it
    #[param(default = 192_000.0, unit = "Hz", above = 0.0)]
    pub audio_rate: f64,
    /// sample rate of the output (its whole part)
    #[param(default = 192_000.0, unit = "Hz", above = 0.0)]
    pub quad_rate: f64,
    /// pre-emphasis time constant
    #[param(default = 75e-6, unit = "s", above = 0.0)]
    pub tau: f64,
    /// deviation at full scale
    #[param(default = 75e3, unit = "Hz")]
    pub max_dev: f64,
    /// where the pre-emphasis levels off (< 0: `0.925·quad_rate/2`)
    #[param(default = -1.0, unit = "Hz")]
    pub fh: f64,
}

impl WfmTxParams {
    fn preemph(&self) -> Result<DirectIir<f32>, ParamError> {
        let refuse = |e: rfgraph_dsp::DspError| ParamError::new("wfm_tx", "tau", e.to_string());
        let (ff, fb) = fm_preemph_taps(self.quad_rate, self.tau, self.fh).map_err(refuse)?;
        DirectIir::new(&ff, &fb, false).map_err(refuse)
    }

    fn modulator(&self) -> Result<FrequencyModulator, ParamError> {
        let k = 2.0 * std::f64::consts::PI * self.max_dev / self.quad_rate;
        FrequencyModulator::new(k as f32)
            .map_err(|e| ParamError::new("wfm_tx", "max_dev", e.to_string()))
    }

    /// GNU Radio's interpolation: `None` at equal rates, else the
    /// factor's filter with `optfir.low_pass(factor, quad_rate, 16 kHz,
    /// 18 kHz, 0.1 dB, 40 dB)` taps.
    fn interpolator(&self) -> Result<Option<InterpolatingFir<Fff>>, ParamError> {
        let bad = |why: String| ParamError::new("wfm_tx", "quad_rate", why);
        let (audio, quad) = (self.audio_rate.trunc(), self.quad_rate.trunc());
        if audio < 1.0 || quad < 1.0 || quad % audio != 0.0 {
            return Err(bad(
                "quad_rate is not an integer multiple of audio_rate".to_string()
            ));
        }
        let factor = quad / audio;
        if factor == 1.0 {
            return Ok(None);
        }
        if factor > 1024.0 {
            return Err(bad(format!("interpolation by {factor} is more than 1024")));
        }
        let taps = optfir::low_pass(factor, quad, 16000.0, 18000.0, 0.1, 40.0, 2)
            .map_err(|e| bad(format!("optfir.low_pass: {e}")))?;
        let taps: Vec<f32> = taps.into_iter().map(|t| t as f32).collect();
        InterpolatingFir::new(&taps, factor as usize)
            .map(Some)
            .map_err(|e| bad(e.to_string()))
    }

    fn check(&self) -> Result<(), ParamError> {
        self.interpolator()?;
        self.preemph()?;
        self.modulator().map(drop)
    }
}

/// Wide-band FM transmitter as GNU Radio's `wfm_tx`: audio in `[−1, 1]`
/// is interpolated to `quad_rate` (GNU Radio's equiripple low pass, when
/// the rates differ), pre-emphasised (`fm_preemph(quad_rate, tau, fh)`)
/// and frequency-modulated with `max_dev` Hz at full scale.
///
/// # Parameters
/// [`WfmTxParams`].
///
/// # Stream Inputs
/// - `in`: `f32` audio
///
/// # Stream Outputs
/// - `out`: `Complex32`
///
/// # Usage
/// ```
/// use rfgraph_blocks::analog::{WfmTx, WfmTxParams};
/// let tx = WfmTx::new(WfmTxParams::default())?;
/// # let _ = tx;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct WfmTx {
    input: StreamInput<f32>,
    output: StreamOutput<Complex32>,
    params: WfmTxParams,
    interp: Option<InterpolatingFir<Fff>>,
    preemph: DirectIir<f32>,
    fm: FrequencyModulator,
    scratch: Vec<f32>,
    interpolated: Vec<f32>,
}

impl WfmTx {
    /// A transmitter with `params`.
    ///
    /// Errors: a parameter out of its range, a `quad_rate` that is no
    /// whole multiple of `audio_rate`.
    pub fn new(params: WfmTxParams) -> Result<Self, ParamError> {
        params.validate()?;
        let interp = params.interpolator()?;
        let factor = interp.as_ref().map_or(1, |f| f.min_output());
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out").with_min_items(factor),
            interp,
            preemph: params.preemph()?,
            fm: params.modulator()?,
            scratch: Vec::new(),
            interpolated: Vec::new(),
            params,
        })
    }
}

impl Block for WfmTx {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let input = self.input.slice();
        let out = self.output.slice();
        let factor = self.interp.as_ref().map_or(1, |f| f.min_output());
        // Whole input items' worth of output.
        let n = input
            .len()
            .min(out.len() / factor)
            .min(8192 / factor.min(8192));
        if n == 0 {
            return Ok(());
        }
        let (consumed, audio) = match &mut self.interp {
            Some(fir) => {
                self.interpolated.resize(n * factor, 0.0);
                let (c, m) = fir.process(&input[..n], &mut self.interpolated);
                (c, &self.interpolated[..m])
            }
            None => (n, &input[..n]),
        };
        self.scratch.resize(audio.len(), 0.0);
        let (_, k) = self.preemph.process(audio, &mut self.scratch);
        let (_, produced) = self.fm.process(&self.scratch[..k], &mut out[..k]);
        self.input.consume(consumed);
        self.output.produce(produced);
        Ok(())
    }

    fn idle_when_drained(&self) -> bool {
        true
    }
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<WfmTxParams>(
        "wfm_tx",
        "Modulators",
        "Wide-band FM transmitter (interpolation, pre-emphasis and FM), as GNU Radio's wfm_tx.",
        |p| Ok(Box::new(WfmTx::new(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio's `analog.wfm_tx`: when quad_rate (a whole multiple of audio_rate) is \
         higher, `interp_fir_filter_fff` with `optfir.low_pass(factor, quad_rate, 16e3, \
         18e3, 0.1, 40)` (the same Parks-McClellan design); then fm_preemph(quad_rate, tau, \
         fh) and a frequency modulator of sensitivity 2π·max_dev/quad_rate.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)).doc("audio"))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
