//! [`Average`]: `n` frames of linear power become one frame in dB.
//!
//! This block owns grouping frames (a group never mixes two tunings), the
//! linear mean and the conversion to dB; it never computes a spectrum and
//! never renders one.

use super::error::SpectrumError;
use super::frame::{FrameMeta, MAX_SIZE, tags_in};
use rfgraph::params::limits;
use rfgraph::{
    Block, BoxError, MessageOutput, ParamError, ParamSet, Ports, StreamInput, StreamOutput, Tag,
    TagPolicy, WorkIo,
};

/// The parameters of [`Average`] (`spectrum_average`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct AverageParams {
    /// bins per frame
    #[param(default = 1024, min = 2, max = MAX_SIZE)]
    pub size: usize,
    /// frames per average; a change applies from the group being filled
    /// (ending it at once when it already holds that many)
    #[param(default = 16, min = 1, max = limits::MAX_FACTOR, unit = "frames", settable)]
    pub n: usize,
}

/// The dB value of zero power (`10 log10(1e-30)`).
pub const FLOOR_DB: f32 = -300.0;

/// Averages `n` frames of linear power into one frame in dB.
///
/// Each output bin is `10 log10(mean)` of the bin over `n` consecutive
/// input frames (the linear power mean, so noise averages to its true
/// level and its variance drops `n` times), floored at −300 dB. A change of
/// centre frequency, rate or frame length (their tags, see the
/// [`spectrum`](super) module) closes the group early, so a frame never
/// mixes two tunings; the frames left at the end of the input make a last,
/// shorter group. `rfgraph:frame_samples` on the output counts the input
/// samples a frame summarises (the input frames' times the frames in its
/// group); other tags move to the output frame of their group.
///
/// # Stream Inputs
/// - `in`: `f32` frames of `size` bins, linear power (from
///   [`PowerSpectrum`](super::PowerSpectrum)).
///
/// # Stream Outputs
/// - `out`: `f32` frames of `size` bins in dB (dBFS/Hz or dBFS, as the
///   input's [`Scaling`](super::Scaling)).
///
/// # Message Outputs
/// - `frames`: every output frame as a `Pmt::Map` (see
///   [`FrameMeta::message`]), for displays; optional.
///
/// # Parameters
/// [`AverageParams`]; `n` may change while the block runs (its message
/// input `n`).
///
/// # Usage
/// ```
/// use rfgraph_radio::spectrum::Average;
///
/// let avg = Average::new(1024, 16)?;
/// assert_eq!(avg.frames_per_average(), 16);
/// # Ok::<(), rfgraph_radio::spectrum::SpectrumError>(())
/// ```
pub struct Average {
    input: StreamInput<f32>,
    output: StreamOutput<f32>,
    frames_out: MessageOutput,
    params: AverageParams,
    size: usize,
    /// The sums of the current group.
    acc: Vec<f64>,
    /// Frames in the current group.
    count: usize,
    /// The input's meta as of the last frame taken.
    meta_in: FrameMeta,
    /// The meta of the current group's frames.
    group: FrameMeta,
    /// Non-meta tags of the current group.
    pending: Vec<Tag>,
    /// The meta last tagged on the output.
    tagged: Option<FrameMeta>,
}

impl Average {
    /// Averages groups of `n` frames of `size` bins.
    ///
    /// Errors: `size` outside 2..=2^20, `n` zero.
    pub fn new(size: usize, n: usize) -> Result<Self, SpectrumError> {
        Ok(Self::from_params(AverageParams { size, n })?)
    }

    /// The block `params` describe.
    ///
    /// Errors: a parameter outside its declaration.
    pub fn from_params(params: AverageParams) -> Result<Self, ParamError> {
        params.validate()?;
        let size = params.size;
        Ok(Self {
            input: StreamInput::new("in").with_min_items(size),
            output: StreamOutput::new("out").with_min_items(size),
            frames_out: MessageOutput::new("frames"),
            params,
            size,
            acc: vec![0.0; size],
            count: 0,
            meta_in: FrameMeta::default(),
            group: FrameMeta::default(),
            pending: Vec::new(),
            tagged: None,
        })
    }

    /// Bins per frame.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Frames per average.
    pub fn frames_per_average(&self) -> usize {
        self.params.n
    }

    /// Writes the current group as the output frame at `at` (items after
    /// the output's position) and starts a new group.
    fn emit(&mut self, at: usize) {
        let size = self.size;
        let meta = FrameMeta {
            frame_samples: self.group.frame_samples * self.count as u64,
            ..self.group
        };
        if self.tagged != Some(meta) {
            meta.tag(&self.output, at);
            self.tagged = Some(meta);
        }
        for t in self.pending.drain(..) {
            self.output.add_tag(at, &t.key, t.value);
        }
        let k = 1.0 / self.count as f64;
        let out = &mut self.output.slice()[at..at + size];
        for (o, a) in out.iter_mut().zip(&mut self.acc) {
            *o = (10.0 * (*a * k).max(1e-30).log10()) as f32;
            *a = 0.0;
        }
        if self.frames_out.connections() > 0 {
            self.frames_out.post(meta.message(out));
        }
        self.count = 0;
    }
}

impl Block for Average {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .output(&mut self.output)
            .message_output(&mut self.frames_out)
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let size = self.size;
        let frames = self.input.slice().len() / size;
        let room = self.output.slice().len() / size;
        let start = self.input.position();
        let tags = if frames > 0 {
            self.input.tags()
        } else {
            Vec::new()
        };
        let mut taken = 0;
        let mut emitted = 0;
        // A smaller `n` set while the group was already that long.
        if self.count > 0 && self.count >= self.params.n && room > 0 {
            self.emit(0);
            emitted += 1;
        }
        while taken < frames {
            let at = taken * size;
            let mut meta = self.meta_in;
            let mut others = Vec::new();
            for t in tags_in(&tags, start + at as u64, size) {
                if !meta.absorb(t) {
                    others.push(t.clone());
                }
            }
            // Closing a group (a new tuning, or this frame completing it)
            // needs a free output frame: take nothing until there is one.
            let closes_early = self.count > 0 && meta != self.group;
            let count_after = if closes_early { 1 } else { self.count + 1 };
            let completes = count_after >= self.params.n;
            let needed = usize::from(closes_early) + usize::from(completes);
            if emitted + needed > room {
                break;
            }
            if closes_early {
                self.emit(emitted * size);
                emitted += 1;
            }
            self.meta_in = meta;
            if self.count == 0 {
                self.group = meta;
            }
            self.pending.extend(others);
            let frame = &self.input.slice()[at..at + size];
            for (a, &x) in self.acc.iter_mut().zip(frame) {
                *a += x as f64;
            }
            self.count += 1;
            taken += 1;
            if self.count >= self.params.n {
                self.emit(emitted * size);
                emitted += 1;
            }
        }
        self.input.consume(taken * size);
        // The input ended: the frames left make a last, shorter group.
        if self.count > 0 && taken == frames && self.input.is_finished() {
            if emitted < room {
                self.emit(emitted * size);
                emitted += 1;
            } else {
                // It holds the group until the output has room.
                io.in_flight();
            }
        }
        self.output.produce(emitted * size);
        Ok(())
    }
}

/// The registry entry: `spectrum_average`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};
    BlockSpec::of::<AverageParams>(
        "spectrum_average",
        "Fourier Analysis",
        "Averages groups of N spectrum frames into one, in dB.",
        |p| Ok(Box::new(Average::from_params(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "Averages each group of `n` consecutive frames of `size` linear power bins \
         (`power_spectrum`'s output) and writes the average in dB. Every output frame \
         is also posted on `frames` as a map, for displays. `n` is settable while it \
         runs (from the group being filled on).",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)).doc("linear power frames"))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)).doc("averaged frames, dB"))
    .message_output("frames")
}
