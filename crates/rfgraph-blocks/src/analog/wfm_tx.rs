//! `wfm_tx`: GNU Radio's `analog.wfm_tx` (GRC `analog_wfm_tx`) run as one
//! block owning its stages, FM pre-emphasis then a frequency modulator of
//! sensitivity `2π·max_dev/quad_rate`, for `quad_rate == audio_rate`.
//! GNU Radio interpolates a lower audio rate with a Parks–McClellan filter
//! (`optfir.low_pass`), which rfgraph does not design: such rates are
//! refused.

use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, ParamSet, Ports, StreamInput, StreamOutput, WorkIo};
use rfgraph_dsp::Kernel;
use rfgraph_dsp::analog::FrequencyModulator;
use rfgraph_dsp::filter::{DirectIir, fm_preemph_taps};

/// The parameters of `wfm_tx`, GNU Radio's `analog.wfm_tx`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct WfmTxParams {
    /// sample rate of the audio input; must equal `quad_rate`
    #[param(default = 192_000.0, unit = "Hz", above = 0.0)]
    pub audio_rate: f64,
    /// sample rate of the output
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

    fn check(&self) -> Result<(), ParamError> {
        if self.audio_rate.trunc() != self.quad_rate.trunc() {
            return Err(ParamError::new(
                "wfm_tx",
                "quad_rate",
                "must equal audio_rate: GNU Radio's Parks-McClellan interpolation filter \
                 (optfir.low_pass) is not available",
            ));
        }
        self.preemph()?;
        self.modulator().map(drop)
    }
}

/// Wide-band FM transmitter as GNU Radio's `wfm_tx` at one rate: audio in
/// `[−1, 1]` is pre-emphasised (`fm_preemph(quad_rate, tau, fh)`) and
/// frequency-modulated with `max_dev` Hz at full scale.
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
    preemph: DirectIir<f32>,
    fm: FrequencyModulator,
    scratch: Vec<f32>,
}

impl WfmTx {
    /// A transmitter with `params`.
    ///
    /// Errors: a parameter out of its range, differing rates.
    pub fn new(params: WfmTxParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            preemph: params.preemph()?,
            fm: params.modulator()?,
            scratch: Vec::new(),
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
        let n = input.len().min(out.len()).min(8192);
        if n == 0 {
            return Ok(());
        }
        self.scratch.resize(n, 0.0);
        let (_, k) = self.preemph.process(&input[..n], &mut self.scratch);
        let (_, produced) = self.fm.process(&self.scratch[..k], &mut out[..k]);
        self.input.consume(k);
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
        "Wide-band FM transmitter (pre-emphasis and FM), as GNU Radio's wfm_tx.",
        |p| Ok(Box::new(WfmTx::new(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio's `analog.wfm_tx` when `quad_rate == audio_rate`: fm_preemph(quad_rate, \
         tau, fh) then a frequency modulator of sensitivity 2π·max_dev/quad_rate. GNU \
         Radio's interpolation from a lower audio rate uses a Parks-McClellan filter that \
         rfgraph does not design, so differing rates are refused.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)).doc("audio"))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
