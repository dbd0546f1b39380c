//! `linear_equalizer` and `decision_feedback_equalizer` (GNU Radio's
//! `digital_linear_equalizer` and `digital_decision_feedback_equalizer`):
//! adaptive FIR equalizers decimating by `sps`, trained on a known
//! sequence from a start tag and decision-directed after it, with GNU
//! Radio's adaptive algorithms ([`AdaptiveParams`]). Owns both blocks and
//! the training state machine they share.

use super::adaptive::{Adaptive, AdaptiveParams};
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};

/// The most taps an equalizer takes.
pub const MAX_TAPS: usize = 1 << 14;

/// The parameters of `linear_equalizer`, GNU Radio's
/// `digital_linear_equalizer`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct LinearEqualizerParams {
    /// taps of the FIR equalizer
    #[param(default = 8, min = 1, max = MAX_TAPS)]
    pub num_taps: usize,
    /// input samples per output symbol
    #[param(default = 1, min = 1, max = 4096)]
    pub sps: usize,
    /// the adaptive algorithm (`variable_adaptive_algorithm` object)
    #[param(flatten)]
    pub alg: AdaptiveParams,
    /// keep adapting (decision-directed) after the training sequence
    #[param(default = true)]
    pub adapt_after_training: bool,
    /// the known symbols trained on from each start tag
    #[param(default = Vec::new(), max_len = 1 << 20)]
    pub training_sequence: Vec<Complex32>,
    /// the tag key starting the training (empty: no training)
    #[param(default = "corr_est".to_string())]
    pub training_start_tag: String,
}

/// The parameters of `decision_feedback_equalizer`, GNU Radio's
/// `digital_decision_feedback_equalizer`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct DfeParams {
    /// forward (FIR) taps
    #[param(default = 5, min = 1, max = MAX_TAPS, alias = "num_taps_fwd")]
    pub num_taps_forward: usize,
    /// feedback taps on past decisions
    #[param(default = 3, max = MAX_TAPS, alias = "num_taps_rev")]
    pub num_taps_feedback: usize,
    /// input samples per output symbol
    #[param(default = 1, min = 1, max = 4096)]
    pub sps: usize,
    /// the adaptive algorithm (`variable_adaptive_algorithm` object)
    #[param(flatten)]
    pub alg: AdaptiveParams,
    /// keep adapting (decision-directed) after the training sequence
    #[param(default = true)]
    pub adapt_after_training: bool,
    /// the known symbols trained on from each start tag
    #[param(default = Vec::new(), max_len = 1 << 20)]
    pub training_sequence: Vec<Complex32>,
    /// the tag key starting the training (empty: no training)
    #[param(default = "corr_est".to_string())]
    pub training_start_tag: String,
}

/// GNU Radio's `equalizer_state_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Idle = 0,
    Training = 1,
    Dd = 2,
}

/// What both equalizers share: taps, algorithm, training state.
struct Core {
    alg: Adaptive,
    taps: Vec<Complex32>,
    training: Vec<Complex32>,
    after: bool,
    state: State,
    /// GNU Radio's unsigned `d_training_sample`; `usize::MAX` is its −1.
    sample: usize,
}

impl Core {
    fn new(
        alg: &AdaptiveParams,
        n: usize,
        training: &[Complex32],
        tag: &str,
        after: bool,
    ) -> Result<Self, ParamError> {
        let alg = Adaptive::new(alg)?;
        // GNU Radio's kernel reverses the initial taps.
        let mut taps = alg.initial_taps(n);
        taps.reverse();
        Ok(Self {
            alg,
            taps,
            training: training.to_vec(),
            after,
            state: if tag.is_empty() || training.is_empty() {
                State::Dd
            } else {
                State::Idle
            },
            sample: 0,
        })
    }

    fn filter(&self, window: &[Complex32]) -> Complex32 {
        self.taps.iter().zip(window).map(|(w, x)| w * x).sum()
    }

    /// After output `y`: a training start, the end of training, the
    /// error and the tap update on `window`; the decision made.
    fn adapt(&mut self, y: Complex32, window: &[Complex32], start: bool) -> Complex32 {
        if start {
            self.state = State::Training;
            self.sample = 0;
        }
        if self.sample >= self.training.len() {
            self.state = if self.after { State::Dd } else { State::Idle };
            self.sample = usize::MAX;
        }
        let (error, decision) = match self.state {
            State::Training => {
                let d = self.training[self.sample];
                self.sample += 1;
                (self.alg.error_tr(y, d), d)
            }
            State::Dd => self.alg.error_dd(y),
            State::Idle => return Complex32::new(0.0, 0.0),
        };
        self.alg.update(&mut self.taps, window, error);
        decision
    }
}

/// The shape of one equalizer: forward window and feedback length.
struct Shape {
    sps: usize,
    forward: usize,
    feedback: usize,
    /// Where output `i`'s forward window starts past `i·sps` in the
    /// buffer: 0 (linear) or `sps − 1` (decision feedback).
    lead: usize,
}

/// An adaptive equalizer block: GNU Radio's linear equalizer (no
/// feedback) or decision-feedback equalizer.
///
/// # Stream Inputs
/// - `in`: `Complex32` samples, `sps` per symbol
///
/// # Stream Outputs
/// - `out`: `Complex32` equalized symbols
/// - `taps` (optional): `Complex32`, the taps used for each symbol
///   (in GNU Radio's kernel order), all taps per symbol
/// - `state` (optional): `i16`, 0 idle, 1 training, 2 decision-directed
pub struct Equalizer<P> {
    input: StreamInput<Complex32>,
    output: StreamOutput<Complex32>,
    taps_out: StreamOutput<Complex32>,
    state_out: StreamOutput<i16>,
    params: P,
    core: Core,
    shape: Shape,
    tag: String,
    /// Past samples (the history), then the current call's.
    buf: Vec<Complex32>,
    /// Past decisions, oldest first (decision feedback).
    decisions: Vec<Complex32>,
    filt: Vec<Complex32>,
}

/// The block [`linear_equalizer`] builds.
pub type LinearEqualizer = Equalizer<LinearEqualizerParams>;
/// The block [`decision_feedback_equalizer`] builds.
pub type DecisionFeedbackEqualizer = Equalizer<DfeParams>;

impl<P> Equalizer<P> {
    fn with(params: P, core: Core, shape: Shape, tag: String) -> Self {
        let n = shape.forward + shape.feedback;
        Self {
            input: StreamInput::new("in").with_min_items(shape.sps),
            output: StreamOutput::new("out"),
            taps_out: StreamOutput::optional("taps").with_min_items(n),
            state_out: StreamOutput::optional("state"),
            buf: vec![Complex32::new(0.0, 0.0); shape.forward - 1],
            decisions: vec![Complex32::new(0.0, 0.0); shape.feedback],
            filt: vec![Complex32::new(0.0, 0.0); n],
            params,
            core,
            shape,
            tag,
        }
    }
}

/// The linear equalizer: each symbol `Σ w[k]·x[i·sps − (L−1) + k]`,
/// then the taps adapt (training or decision-directed). GNU Radio's
/// `linear_equalizer`.
///
/// # Parameters
/// [`LinearEqualizerParams`].
///
/// # Stream Inputs / Outputs
/// See [`Equalizer`].
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{LinearEqualizerParams, linear_equalizer};
/// let eq = linear_equalizer(LinearEqualizerParams {
///     num_taps: 15,
///     sps: 2,
///     ..Default::default()
/// })?;
/// # let _ = eq;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn linear_equalizer(params: LinearEqualizerParams) -> Result<LinearEqualizer, ParamError> {
    params.validate()?;
    let core = Core::new(
        &params.alg,
        params.num_taps,
        &params.training_sequence,
        &params.training_start_tag,
        params.adapt_after_training,
    )?;
    let shape = Shape {
        sps: params.sps,
        forward: params.num_taps,
        feedback: 0,
        lead: 0,
    };
    let tag = params.training_start_tag.clone();
    Ok(Equalizer::with(params, core, shape, tag))
}

/// The decision-feedback equalizer: each symbol the taps over the
/// last `num_taps_feedback` decisions and the `num_taps_forward`
/// samples ending at the symbol's last sample; then the taps adapt.
/// GNU Radio's `decision_feedback_equalizer`.
///
/// # Parameters
/// [`DfeParams`].
///
/// # Stream Inputs / Outputs
/// See [`Equalizer`].
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{DfeParams, decision_feedback_equalizer};
/// let eq = decision_feedback_equalizer(DfeParams::default())?;
/// # let _ = eq;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn decision_feedback_equalizer(
    params: DfeParams,
) -> Result<DecisionFeedbackEqualizer, ParamError> {
    params.validate()?;
    let n = params.num_taps_forward + params.num_taps_feedback;
    let core = Core::new(
        &params.alg,
        n,
        &params.training_sequence,
        &params.training_start_tag,
        params.adapt_after_training,
    )?;
    let shape = Shape {
        sps: params.sps,
        forward: params.num_taps_forward,
        feedback: params.num_taps_feedback,
        lead: params.sps - 1,
    };
    let tag = params.training_start_tag.clone();
    Ok(Equalizer::with(params, core, shape, tag))
}

impl<P: ParamSet + 'static> Block for Equalizer<P> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .output(&mut self.output)
            .output(&mut self.taps_out)
            .output(&mut self.state_out)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let sps = self.shape.sps;
        let ntaps = self.core.taps.len();
        let start = self.input.position();
        let avail = self.input.slice().len() / sps;
        let mut n = avail.min(self.output.slice().len());
        if self.taps_out.is_connected() {
            n = n.min(self.taps_out.slice().len() / ntaps);
        }
        if self.state_out.is_connected() {
            n = n.min(self.state_out.slice().len());
        }
        if n == 0 {
            return Ok(());
        }
        // GNU Radio's per-call list of training starts.
        let mut starts: Vec<u64> = if self.tag.is_empty() {
            Vec::new()
        } else {
            self.input
                .tags()
                .into_iter()
                .filter(|t| t.key == self.tag && t.index >= start)
                .map(|t| t.index - start)
                .filter(|&t| t < (n * sps) as u64)
                .collect()
        };
        starts.sort_unstable();
        let input = self.input.slice();
        self.buf.extend_from_slice(&input[..n * sps]);
        let mut next = 0;
        let (fwd, fb, lead) = (self.shape.forward, self.shape.feedback, self.shape.lead);
        for i in 0..n {
            let j = i * sps;
            self.filt[..fb].copy_from_slice(&self.decisions);
            self.filt[fb..].copy_from_slice(&self.buf[j + lead..j + lead + fwd]);
            let y = self.core.filter(&self.filt);
            self.output.slice()[i] = y;
            if self.taps_out.is_connected() {
                self.taps_out.slice()[i * ntaps..(i + 1) * ntaps].copy_from_slice(&self.core.taps);
            }
            if self.state_out.is_connected() {
                self.state_out.slice()[i] = self.core.state as i16;
            }
            let mut go = false;
            if let Some(&t) = starts.get(next)
                && t >= j as u64
                && t < (j + sps) as u64
            {
                go = true;
                next += 1;
            }
            let filt = std::mem::take(&mut self.filt);
            let decision = self.core.adapt(y, &filt, go);
            self.filt = filt;
            if fb > 0 {
                self.decisions.rotate_left(1);
                self.decisions[fb - 1] = decision;
            }
        }
        self.buf.drain(..n * sps);
        self.input.consume(n * sps);
        self.output.produce(n);
        if self.taps_out.is_connected() {
            self.taps_out.produce(n * ntaps);
        }
        if self.state_out.is_connected() {
            self.state_out.produce(n);
        }
        Ok(())
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Propagate {
            interpolation: 1,
            decimation: self.shape.sps as u64,
        }
    }
}

fn ports(spec: BlockSpec) -> BlockSpec {
    spec.input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)).doc("sps samples per symbol"))
        .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)).doc("equalized symbols"))
        .output(
            PortSpec::new("taps", PortItem::Fixed(ItemKind::C32))
                .optional()
                .doc("the taps of each symbol, all taps per symbol"),
        )
        .output(
            PortSpec::new("state", PortItem::Fixed(ItemKind::I16))
                .optional()
                .doc("0 idle, 1 training, 2 decision-directed"),
        )
}

pub(crate) fn linear_spec() -> BlockSpec {
    ports(
        BlockSpec::of::<LinearEqualizerParams>(
            "linear_equalizer",
            "Digital",
            "Adaptive linear (FIR) equalizer: LMS, NLMS or CMA, trained from a tag.",
            |p| Ok(Box::new(linear_equalizer(p)?) as Box<dyn Block>),
        )
        .doc(
            "GNU Radio's `digital_linear_equalizer`: decimates by sps; trains on \
             `training_sequence` from each `training_start_tag` tag, then adapts \
             decision-directed (or stops, without `adapt_after_training`).",
        ),
    )
}

pub(crate) fn dfe_spec() -> BlockSpec {
    ports(
        BlockSpec::of::<DfeParams>(
            "decision_feedback_equalizer",
            "Digital",
            "Adaptive decision-feedback equalizer: LMS, NLMS or CMA, trained from a tag.",
            |p| Ok(Box::new(decision_feedback_equalizer(p)?) as Box<dyn Block>),
        )
        .doc(
            "GNU Radio's `digital_decision_feedback_equalizer`: forward taps over the \
             samples ending at each symbol's last sample, feedback taps over past \
             decisions; trains on `training_sequence` from each `training_start_tag` tag.",
        ),
    )
}
