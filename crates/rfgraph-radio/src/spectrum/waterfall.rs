//! [`WaterfallDecimator`]: keeps one frame per interval of signal time,
//! the lines of a waterfall.
//!
//! This block owns choosing the frames (by the signal's own time, from
//! the frames' tags, never the wall clock); it never averages (that is
//! [`Average`](super::Average)'s) and never renders.

use super::error::SpectrumError;
use super::frame::{FrameMeta, MAX_SIZE, tags_in};
use rfgraph::{
    Block, BoxError, MessageOutput, ParamInfo, Pmt, Ports, Setting, Settings, StreamInput,
    StreamOutput, Tag, TagPolicy, WorkIo,
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
/// # Message Inputs
/// - `period`: (`float`, s) switches to one frame per this many seconds
///   (a positive number), from the next frame on.
///
/// # Message Outputs
/// - `frames`: every kept frame as a `Pmt::Map` (see
///   [`FrameMeta::message`]), for displays; optional.
///
/// # Parameters
/// - `size`: bins per frame, 2 to 2^20.
/// - `interval`: [`Interval::Seconds`] (s, positive) or
///   [`Interval::Frames`] (at least 1).
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
    settings: Settings<Self>,
}

fn check(interval: Interval) -> Result<Interval, SpectrumError> {
    match interval {
        Interval::Seconds(s) if !(s.is_finite() && s > 0.0) => Err(SpectrumError::Value {
            name: "the waterfall period",
            value: s,
            expected: "a positive number of seconds",
        }),
        Interval::Frames(0) => Err(SpectrumError::Frames {
            name: "the waterfall interval",
        }),
        ok => Ok(ok),
    }
}

impl WaterfallDecimator {
    /// Keeps one frame of `size` bins per `interval`.
    ///
    /// Errors: `size` outside 2..=2^20; a period that is not a positive
    /// number of seconds; an interval of zero frames.
    pub fn new(size: usize, interval: Interval) -> Result<Self, SpectrumError> {
        if !(2..=MAX_SIZE).contains(&size) {
            return Err(SpectrumError::Size {
                size,
                max: MAX_SIZE,
            });
        }
        let interval = check(interval)?;
        let settings = Settings::new().with(
            Setting::try_new("period", |w: &mut WaterfallDecimator, s: f64| {
                w.interval = check(Interval::Seconds(s))?;
                // The next frame is kept, then one per new period.
                w.next = w.time;
                Ok::<(), SpectrumError>(())
            })
            .unit("s")
            .doc("one frame per this many seconds of signal, from the next frame on"),
        );
        Ok(Self {
            input: StreamInput::new("in").with_min_items(size),
            output: StreamOutput::new("out").with_min_items(size),
            frames_out: MessageOutput::new("frames"),
            size,
            interval,
            meta: FrameMeta::default(),
            seen: 0,
            time: 0.0,
            next: 0.0,
            pending: Vec::new(),
            tagged: None,
            settings,
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
        self.settings.message_inputs(
            Ports::new()
                .input(&mut self.input)
                .output(&mut self.output)
                .message_output(&mut self.frames_out),
        )
    }

    fn handle_message(&mut self, port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        Settings::dispatch(self, |w| &mut w.settings, port, msg)
    }

    fn settings(&self) -> Vec<ParamInfo> {
        self.settings.infos()
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
    use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
    BlockSpec::new(
        "waterfall_decimator",
        "Fourier Analysis",
        "Keeps one spectrum frame per period: a waterfall's lines.",
        |p| {
            let interval = match p.opt::<f64>("period")? {
                Some(s) => Interval::Seconds(s),
                None => Interval::Frames(p.usize("frames")?),
            };
            let w =
                WaterfallDecimator::new(p.usize("size")?, interval).map_err(|e| p.refused(e))?;
            Ok(Box::new(w) as Box<dyn rfgraph::Block>)
        },
    )
    .doc(
        "Passes one frame of `size` bins per `period` seconds of signal (needs the \
         frames' `core:sample_rate` and `rfgraph:frame_samples` tags) or, without a \
         period, one per `frames` frames; frames pass unchanged. Each kept frame is also \
         posted on `frames`. `period` is settable while it runs.",
    )
    .param(
        ParamSpec::uint("size")
            .default(1024u64)
            .doc("bins per frame, 2 to 2^20"),
    )
    .param(
        ParamSpec::float("period")
            .optional()
            .unit("s")
            .doc("one frame per this many seconds of signal")
            .settable(),
    )
    .param(
        ParamSpec::uint("frames")
            .default(1u64)
            .doc("one frame per this many, when no period is set"),
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
    .message_output("frames")
}
