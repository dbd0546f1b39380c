//! [`WaterfallDecimator`]: keeps one frame per interval of signal time,
//! the lines of a waterfall.
//!
//! This block owns choosing the frames (by the signal's own time, from
//! the frames' tags, never the wall clock); it never averages (that is
//! [`Average`](super::Average)'s) and never renders.

use super::error::SpectrumError;
use super::frame::{FrameMeta, MAX_SIZE, tags_in};
use rfgraph::params::limits;
use rfgraph::{
    Block, BoxError, MessageOutput, ParamError, ParamSet, Ports, StreamInput, StreamOutput, Tag,
    TagPolicy, WorkIo,
};

/// How often [`WaterfallDecimator`] keeps a frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Interval {
    /// One frame per this many seconds of signal: the first frame that
    /// starts at or after each multiple of the period (counted from the
    /// first frame). Needs the frames' rate and length (their
    /// `core:sample_rate` and `rfgraph:frame_samples` tags).
    Seconds(f64),
    /// Every this many frames, from the first.
    Frames(usize),
}

/// The parameters of [`WaterfallDecimator`] (`waterfall_decimator`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct WaterfallParams {
    /// bins per frame
    #[param(default = 1024, min = 2, max = MAX_SIZE)]
    pub size: usize,
    /// one frame per this many seconds of signal (needs the frames' rate);
    /// a change keeps the next frame, then one per new period
    #[param(unit = "s", above = 0.0, settable)]
    pub period: Option<f64>,
    /// one frame per this many, when no period is set
    #[param(default = 1, min = 1, max = limits::MAX_FACTOR, unit = "frames")]
    pub frames: usize,
}

impl WaterfallParams {
    /// The parameters keeping one frame of `size` bins per `interval`.
    pub fn new(size: usize, interval: Interval) -> Self {
        match interval {
            Interval::Seconds(s) => Self {
                size,
                period: Some(s),
                ..Self::default()
            },
            Interval::Frames(k) => Self {
                size,
                period: None,
                frames: k,
            },
        }
    }

    /// How often a frame is kept.
    pub fn interval(&self) -> Interval {
        match self.period {
            Some(s) => Interval::Seconds(s),
            None => Interval::Frames(self.frames),
        }
    }
}

/// Keeps one frame per [`Interval`]: the lines of a waterfall, from a
/// stream of (averaged) frames.
///
/// Frames pass unchanged (any `f32` frames: dB or linear). The time of a
/// frame is the signal's own: the sum of the durations of the frames
/// before it, each `rfgraph:frame_samples / core:sample_rate` seconds, so
/// the choice is the same however fast the input is processed. Meta tags
/// are passed on the first kept frame and whenever they change; other
/// tags of a dropped frame move to the next kept one.
///
/// # Stream Inputs
/// - `in`: `f32` frames of `size` bins.
///
/// # Stream Outputs
/// - `out`: the kept frames.
///
/// # Message Outputs
/// - `frames`: every kept frame as a `Pmt::Map` (see
///   [`FrameMeta::message`]), for displays; optional.
///
/// # Parameters
/// [`WaterfallParams`]: the frame size and the [`Interval`]
/// ([`Interval::Seconds`] as `period`, or [`Interval::Frames`] as
/// `frames`). `period` may change while the block runs (its message
/// input `period`): the next frame is kept, then one per new period.
///
/// # Errors while running
/// [`Interval::Seconds`] on frames with no known rate
/// ([`SpectrumError::NoRate`]).
///
/// # Usage
/// ```
/// use rfgraph_radio::spectrum::{Interval, WaterfallDecimator};
///
/// let lines = WaterfallDecimator::new(1024, Interval::Seconds(0.1))?;
/// assert_eq!(lines.interval(), Interval::Seconds(0.1));
/// # Ok::<(), rfgraph_radio::spectrum::SpectrumError>(())
/// ```
pub struct WaterfallDecimator {
    input: StreamInput<f32>,
    output: StreamOutput<f32>,
    frames_out: MessageOutput,
    params: WaterfallParams,
    size: usize,
    interval: Interval,
    meta: FrameMeta,
    /// Frames seen so far.
    seen: u64,
    /// Signal time at the start of the next input frame, s.
    time: f64,
    /// Signal time from which the next frame is kept, s.
    next: f64,
    /// Tags of dropped frames, for the next kept one.
    pending: Vec<Tag>,
    /// The meta last tagged on the output.
    tagged: Option<FrameMeta>,
}

impl WaterfallDecimator {
    /// Keeps one frame of `size` bins per `interval`.
    ///
    /// Errors: `size` outside 2..=2^20; a period that is not a positive
    /// number of seconds; an interval of zero frames.
    pub fn new(size: usize, interval: Interval) -> Result<Self, SpectrumError> {
        Ok(Self::from_params(WaterfallParams::new(size, interval))?)
    }

    /// The block `params` describe.
    ///
    /// Errors: a parameter outside its declaration.
    pub fn from_params(params: WaterfallParams) -> Result<Self, ParamError> {
        params.validate()?;
        let size = params.size;
        Ok(Self {
            input: StreamInput::new("in").with_min_items(size),
            output: StreamOutput::new("out").with_min_items(size),
            frames_out: MessageOutput::new("frames"),
            size,
            interval: params.interval(),
            params,
            meta: FrameMeta::default(),
            seen: 0,
            time: 0.0,
            next: 0.0,
            pending: Vec::new(),
            tagged: None,
        })
    }

    /// Bins per frame.
    pub fn size(&self) -> usize {
        self.size
    }

    /// How often a frame is kept.
    pub fn interval(&self) -> Interval {
        self.interval
    }

    /// Whether the frame starting now (`self.time`, number `self.seen`)
    /// is kept; moves the next keeping time on when it is.
    fn keeps(&mut self) -> Result<bool, SpectrumError> {
        match self.interval {
            Interval::Frames(k) => Ok(self.seen.is_multiple_of(k as u64)),
            Interval::Seconds(period) => {
                // Sums of frame durations are not exact: a frame that
                // starts a billionth of a period early is on time.
                let slack = 1e-9 * period;
                if self.time + slack < self.next {
                    return Ok(false);
                }
                self.next = (((self.time + slack) / period).floor() + 1.0) * period;
                Ok(true)
            }
        }
    }
}

impl Block for WaterfallDecimator {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .output(&mut self.output)
            .message_output(&mut self.frames_out)
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, _name: &str) -> Result<(), BoxError> {
        // `period` is the only settable one.
        self.interval = self.params.interval();
        if let Interval::Seconds(_) = self.interval {
            // The next frame is kept, then one per new period.
            self.next = self.time;
        }
        Ok(())
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let size = self.size;
        let frames = self.input.slice().len() / size;
        let room = self.output.slice().len() / size;
        if frames == 0 {
            return Ok(());
        }
        let start = self.input.position();
        let tags = self.input.tags();
        let (mut taken, mut kept) = (0, 0);
        while taken < frames {
            let at = taken * size;
            let mut meta = self.meta;
            let mut others = Vec::new();
            for t in tags_in(&tags, start + at as u64, size) {
                if !meta.absorb(t) {
                    others.push(t.clone());
                }
            }
            let duration = match self.interval {
                Interval::Seconds(_) => Some(meta.frame_seconds().ok_or(SpectrumError::NoRate)?),
                Interval::Frames(_) => None,
            };
            // Decide on a copy: a frame that cannot be written yet is
            // looked at again next time.
            let (next, seen) = (self.next, self.seen);
            let keep = self.keeps()?;
            if keep && kept == room {
                (self.next, self.seen) = (next, seen);
                break;
            }
            self.meta = meta;
            self.pending.extend(others);
            if keep {
                let out_at = kept * size;
                if self.tagged != Some(meta) {
                    meta.tag(&self.output, out_at);
                    self.tagged = Some(meta);
                }
                for t in self.pending.drain(..) {
                    self.output.add_tag(out_at, &t.key, t.value);
                }
                let frame = &self.input.slice()[at..at + size];
                let out = &mut self.output.slice()[out_at..out_at + size];
                out.copy_from_slice(frame);
                if self.frames_out.connections() > 0 {
                    self.frames_out.post(meta.message(out));
                }
                kept += 1;
            }
            self.seen += 1;
            self.time += duration.unwrap_or(0.0);
            taken += 1;
        }
        self.input.consume(taken * size);
        self.output.produce(kept * size);
        Ok(())
    }
}

/// The registry entry: `waterfall_decimator`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};
    BlockSpec::of::<WaterfallParams>(
        "waterfall_decimator",
        "Fourier Analysis",
        "Keeps one spectrum frame per period: a waterfall's lines.",
        |p| Ok(Box::new(WaterfallDecimator::from_params(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "Passes one frame of `size` bins per `period` seconds of signal (needs the \
         frames' `core:sample_rate` and `rfgraph:frame_samples` tags) or, without a \
         period, one per `frames` frames; frames pass unchanged. Each kept frame is also \
         posted on `frames`. `period` is settable while it runs.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
    .message_output("frames")
}
