//! [`WfmRcv`]: GNU Radio's `analog.wfm_rcv` as one kernel, the mono
//! broadcast FM receiver of its examples: quadrature demodulation scaled
//! to 75 kHz deviation, a decimating Hamming low-pass to the audio rate,
//! and 75 µs de-emphasis at the audio rate, in that order. Owns the
//! composition and its buffer; the arithmetic is `rfgraph-dsp`'s.
//!
//! The stereo receiver with RDS is [`Receiver`](super::Receiver); this
//! one exists so that GNU Radio flowgraphs using `wfm_rcv` run unchanged.

use num_complex::Complex32;
use rfgraph::params::limits;
use rfgraph::{ParamError, ParamSet};
use rfgraph_blocks::DspBlock;
use rfgraph_dsp::firdes::{self, WinType};
use rfgraph_dsp::{DecimatingFir, Deemphasis, DspError, Fff, Kernel, QuadratureDemod, Ratio};

/// Demodulated samples held between the discriminator and the filter.
const BUFFER: usize = 8192;

/// The parameters of [`WfmRcv`] (`wfm_rcv`, GNU Radio's `analog_wfm_rcv`,
/// which changes none of them while running).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct WfmRcvParams {
    /// input sample rate
    #[param(default = 480_000.0, unit = "Hz", above = 0.0)]
    pub quad_rate: f64,
    /// quad_rate / audio rate
    #[param(default = 10, min = 1, max = limits::MAX_FACTOR)]
    pub audio_decimation: usize,
    /// de-emphasis time constant (50e-6 in Europe); its corner must lie
    /// below half the audio rate
    #[param(default = 75e-6, unit = "s", above = 0.0)]
    pub tau: f64,
}

impl WfmRcvParams {
    /// Every rule the receiver's design imposes: the audio filter and the
    /// de-emphasis can be made (the filter's taps within
    /// [`limits::MAX_TAPS`]).
    fn check(&self) -> Result<(), ParamError> {
        WfmRcv::from_params(self).map(drop)
    }
}

/// GNU Radio's `wfm_rcv(quad_rate, audio_decimation)`: complex baseband at
/// `quad_rate` in, audio at `quad_rate / audio_decimation` out.
///
/// # Parameters
/// [`WfmRcvParams`]; [`WfmRcv::block`] makes the registry's block of
/// them.
///
/// # Usage
/// ```
/// use rfgraph_blocks::DspBlock;
/// use rfgraph_radio::fm::{WfmRcv, WfmRcvParams};
///
/// let block = DspBlock::new(WfmRcv::new(480_000.0, 10)?); // 48 kHz audio
/// let same = WfmRcv::block(WfmRcvParams::default())?;
/// # let _ = (block, same);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct WfmRcv {
    demod: QuadratureDemod,
    filter: DecimatingFir<Fff>,
    deemph: Deemphasis,
    /// Demodulated samples not yet filtered (the first `held`).
    buf: Vec<f32>,
    held: usize,
}

impl WfmRcv {
    /// The receiver for `quad_rate` Hz input decimated by
    /// `audio_decimation`, with GNU Radio's 75 µs de-emphasis.
    ///
    /// Errors: a non-positive rate, a zero decimation, or an audio rate
    /// whose filter cannot be designed.
    pub fn new(quad_rate: f64, audio_decimation: usize) -> Result<Self, DspError> {
        Self::with_tau(quad_rate, audio_decimation, Deemphasis::TAU_75US)
    }

    /// The receiver `params` describe, its errors naming the parameter at
    /// fault.
    pub fn from_params(params: &WfmRcvParams) -> Result<Self, ParamError> {
        let p = params;
        let blame = |param: &str, e: DspError| ParamError::new("wfm_rcv", param, e.to_string());
        if p.audio_decimation > 0 {
            // The de-emphasis at the audio rate: its corner is `tau`'s.
            let audio_rate = p.quad_rate / p.audio_decimation as f64;
            Deemphasis::new(audio_rate, p.tau).map_err(|e| blame("tau", e))?;
        }
        Self::with_tau(p.quad_rate, p.audio_decimation, p.tau).map_err(|e| match e.param() {
            // The discriminator's gain grows with the rate.
            Some("quad_rate" | "gain") => blame("quad_rate", e),
            Some("tau") => blame("tau", e),
            // The audio filter is the decimation's.
            _ => blame("audio_decimation", e),
        })
    }

    /// The registry's block: the receiver `params` describe in a
    /// [`DspBlock`] that reports them (none changes while it runs).
    pub fn block(params: WfmRcvParams) -> Result<DspBlock<WfmRcv, WfmRcvParams>, ParamError> {
        params.validate()?;
        let kernel = Self::from_params(&params)?;
        Ok(DspBlock::tuned(kernel, params, |_, _, name| {
            Err(format!("`{name}` cannot change while wfm_rcv runs").into())
        }))
    }

    /// As [`new`](Self::new) with de-emphasis time constant `tau` seconds.
    pub fn with_tau(quad_rate: f64, audio_decimation: usize, tau: f64) -> Result<Self, DspError> {
        if !(quad_rate.is_finite() && quad_rate > 0.0) {
            return Err(DspError::OutOfRange {
                name: "quad_rate",
                value: quad_rate,
                expected: "must be a positive number of Hz",
            });
        }
        if audio_decimation == 0 {
            return Err(DspError::OutOfRange {
                name: "audio_decimation",
                value: 0.0,
                expected: "must be at least 1",
            });
        }
        let max_dev = 75e3;
        let audio_rate = quad_rate / audio_decimation as f64;
        let width = audio_rate / 32.0;
        let taps = firdes::low_pass(
            1.0,
            quad_rate,
            audio_rate / 2.0 - width,
            width,
            WinType::Hamming,
            firdes::DEFAULT_PARAM,
        )?;
        Ok(WfmRcv {
            demod: QuadratureDemod::new((quad_rate / (std::f64::consts::TAU * max_dev)) as f32)?,
            filter: DecimatingFir::new(&taps, audio_decimation)?,
            deemph: Deemphasis::new(audio_rate, tau)?,
            buf: vec![0.0; BUFFER.max(audio_decimation)],
            held: 0,
        })
    }
}

impl Kernel for WfmRcv {
    type Input = Complex32;
    type Output = f32;

    fn process(&mut self, input: &[Complex32], output: &mut [f32]) -> (usize, usize) {
        let (mut consumed, mut produced) = (0, 0);
        loop {
            // Filter what is held, de-emphasising in place in the output.
            let (used, made) = self
                .filter
                .process(&self.buf[..self.held], &mut output[produced..]);
            let out = &mut output[produced..produced + made];
            let mut scratch = [0f32; 256];
            for chunk in out.chunks_mut(scratch.len()) {
                let s = &mut scratch[..chunk.len()];
                s.copy_from_slice(chunk);
                self.deemph.process(s, chunk);
            }
            self.buf.copy_within(used..self.held, 0);
            self.held -= used;
            produced += made;
            // Demodulate more into the buffer.
            let held = self.held;
            let (taken, added) = self
                .demod
                .process(&input[consumed..], &mut self.buf[held..]);
            consumed += taken;
            self.held += added;
            if used == 0 && made == 0 && taken == 0 && added == 0 {
                return (consumed, produced);
            }
        }
    }

    fn min_input(&self) -> usize {
        self.filter.min_input()
    }

    fn ratio(&self) -> Ratio {
        self.filter.ratio()
    }

    fn reset(&mut self) {
        self.demod.reset();
        self.filter.reset();
        self.deemph.reset();
        self.held = 0;
    }
}

/// The registry entry: `wfm_rcv`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};
    BlockSpec::of::<WfmRcvParams>(
        "wfm_rcv",
        "Receivers",
        "Mono broadcast FM receiver: complex baseband in, audio out (GNU Radio's wfm_rcv).",
        |p| Ok(Box::new(WfmRcv::block(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "GNU Radio's `analog_wfm_rcv`: a quadrature demodulator scaled so that 75 kHz \
         deviation gives ±1, a decimating FIR low-pass (`firdes.low_pass`, Hamming, cut-off \
         `audio_rate/2 − audio_rate/32`, transition `audio_rate/32`) to \
         `audio_rate = quad_rate / audio_decimation`, then de-emphasis (75 µs by default) \
         at the audio rate. The stereo receiver with RDS is `rfgraph fm`'s.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}
