//! `WavSource`: a WAV file as one `f32` stream per channel. Owns the block
//! (ports, tags, repeat, finishing at the end of the file); parsing and
//! scaling are `reader`'s.

use super::error::WavError;
use super::ports::channel_port;
use super::reader::WavInput;
use rfgraph::params::limits;
use rfgraph::tag::keys;
use rfgraph::{Block, BoxError, ParamError, ParamSet, Pmt, Ports, StreamOutput, WorkIo};
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

/// Frames read per call at most (bounds the scratch buffer).
const CHUNK: usize = 8192;

/// The parameters of [`WavSource`] (`wavfile_source`, GNU Radio's
/// `blocks_wavfile_source`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct WavSourceParams {
    /// the WAV file
    #[param(alias = "file")]
    pub path: String,
    /// start over at the end of the file (a file without frames never
    /// repeats)
    #[param(default = false)]
    pub repeat: bool,
    /// outputs, channel `k` on `out<k>`: the file must have at least this
    /// many channels; those beyond are not read out (as GNU Radio's
    /// unconnected outputs)
    #[param(default = 1, min = 1, max = limits::MAX_PORTS, alias = "nchan")]
    pub channels: usize,
}

impl WavSourceParams {
    /// Reads `path`'s first channel once (the rest at its defaults).
    pub fn new(path: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            repeat: false,
            channels: 1,
        }
    }

    /// A path to read.
    fn check(&self) -> Result<(), ParamError> {
        if self.path.trim().is_empty() {
            return Err(ParamError::new("wavfile_source", "path", "names no file"));
        }
        Ok(())
    }
}

/// Reads a WAV file: one `f32` output per channel, GNU Radio's
/// `blocks.wavfile_source`.
///
/// Reads integer PCM of 8, 16, 24 or 32 bits (scaled by `2^(bits−1)` to
/// `[−1, 1)`) and 32-bit float (as stored), any number of channels, plain
/// or `WAVE_FORMAT_EXTENSIBLE` headers. [`open`](Self::open) reads and
/// checks the header at once, so a missing file, a file that is not a WAV
/// or an unsupported encoding is a [`WavError`] naming the file before any
/// flowgraph runs, and the block has one output per channel of the file;
/// [`from_params`](Self::from_params) (what the registry builds) has the
/// `channels` outputs its parameters say and reads the header when the
/// run starts. Item 0 of every output carries the file's sample rate as a
/// `core:sample_rate` tag (`f64`, Hz). At the end of the file the block
/// finishes, or starts over with [`repeat`](Self::repeat). A data chunk
/// shorter than its header says fails the run with an error naming the
/// file, frame and byte offset; the frames before the break are passed on
/// first.
///
/// The block reads the file in `work`, so it is a blocking block: it gets
/// a thread of its own under every scheduler.
///
/// # Stream Outputs
/// - `out0`, `out1`, …: `f32`, one per channel, in the file's order.
///   Every one must be connected (a `NullSink` takes a channel nobody
///   needs).
///
/// # Parameters
/// [`WavSourceParams`].
///
/// # Usage
/// ```
/// use rfgraph::scheduler::Tpb;
/// use rfgraph::Flowgraph;
/// use rfgraph_blocks::{VectorSink, VectorSource, WavFormat, WavSink, WavSource};
///
/// let path = std::env::temp_dir().join(format!("rfgraph-doc-wav-source-{}.wav", std::process::id()));
/// // Write a short mono file first.
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0.0f32, 0.5, -0.25]));
/// let sink = fg.add(WavSink::new(&path, 1, 8000, WavFormat::Float32)?);
/// fg.connect(src, "out", sink, "in0")?;
/// fg.run(Tpb::new())?;
///
/// let wav = WavSource::open(&path)?;
/// assert_eq!((wav.channels(), wav.sample_rate(), wav.frames()), (1, 8000, 3));
/// let mut fg = Flowgraph::new();
/// let src = fg.add(wav);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, "out0", sink, "in")?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(done.block::<VectorSink<f32>>(sink).unwrap().items(), &[0.0, 0.5, -0.25]);
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct WavSource {
    outputs: Vec<StreamOutput<f32>>,
    params: WavSourceParams,
    /// The file, once its header is read.
    input: Option<WavInput<BufReader<File>>>,
    tagged: bool,
    scratch: Vec<f32>,
    /// A read error, returned by the call after the one that passed on
    /// the frames before it.
    pending: Option<WavError>,
}

impl WavSource {
    /// Opens `path` and checks its header: one output per channel.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, WavError> {
        let path = path.as_ref();
        let input = WavInput::open(path)?;
        let params = WavSourceParams {
            channels: input.channels(),
            ..WavSourceParams::new(path.to_string_lossy())
        };
        let mut src = Self::with(params);
        src.input = Some(input);
        Ok(src)
    }

    /// A source with `params`: `channels` outputs, the file read when the
    /// run starts.
    ///
    /// Errors: a parameter out of its range.
    pub fn from_params(params: WavSourceParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self::with(params))
    }

    fn with(params: WavSourceParams) -> Self {
        Self {
            outputs: (0..params.channels)
                .map(|c| StreamOutput::new(channel_port("out", c)))
                .collect(),
            params,
            input: None,
            tagged: false,
            scratch: Vec::new(),
            pending: None,
        }
    }

    /// Starts over at the end of the file, for ever (pair it with `Head`).
    pub fn repeat(mut self, repeat: bool) -> Self {
        self.params.repeat = repeat;
        self
    }

    /// The parameters.
    pub fn params(&self) -> &WavSourceParams {
        &self.params
    }

    /// Outputs: the file's channels, or the ones read out of it.
    pub fn channels(&self) -> usize {
        self.outputs.len()
    }

    /// The file's sample rate in Hz (0 before the header is read).
    pub fn sample_rate(&self) -> u32 {
        self.input.as_ref().map_or(0, WavInput::sample_rate)
    }

    /// Frames (samples per channel) in the file (0 before the header is
    /// read).
    pub fn frames(&self) -> u64 {
        self.input.as_ref().map_or(0, WavInput::frames)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        Path::new(&self.params.path)
    }
}

impl Block for WavSource {
    fn ports(&mut self) -> Ports<'_> {
        self.outputs
            .iter_mut()
            .fold(Ports::new(), |ports, o| ports.output(o))
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn is_blocking(&self) -> bool {
        true
    }

    /// Reads and checks the header, unless the constructor did: the file
    /// must have a channel for every output.
    fn init(&mut self) -> Result<(), BoxError> {
        if self.input.is_none() {
            let input = WavInput::open(self.path())?;
            if input.channels() < self.outputs.len() {
                return Err(WavError::Param {
                    block: "wavfile_source",
                    param: "channels",
                    reason: format!(
                        "is {}, but {} has {} channel(s)",
                        self.outputs.len(),
                        self.path().display(),
                        input.channels()
                    ),
                }
                .into());
            }
            self.input = Some(input);
        }
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        if let Some(e) = self.pending.take() {
            return Err(e.into());
        }
        let repeat = self.params.repeat;
        let Some(input) = self.input.as_mut() else {
            return Err(format!("`{}` is not open", self.params.path).into());
        };
        if input.remaining() == 0 {
            if repeat && input.frames() > 0 {
                input.rewind()?;
            } else {
                io.finish();
                return Ok(());
            }
        }
        let channels = input.channels();
        let room = self.outputs.iter_mut().map(|o| o.free()).min().unwrap_or(0);
        let want = (room as u64).min(input.remaining()).min(CHUNK as u64) as usize;
        if want == 0 {
            return Ok(());
        }
        self.scratch.resize(want * channels, 0.0);
        let (frames, error) = input.read(&mut self.scratch);
        if frames > 0 {
            if !self.tagged {
                let rate = Pmt::F64(f64::from(input.sample_rate()));
                for o in &self.outputs {
                    o.add_tag(0, keys::SAMPLE_RATE, rate.clone());
                }
                self.tagged = true;
            }
            for (c, o) in self.outputs.iter_mut().enumerate() {
                let out = o.slice();
                for (dst, frame) in out[..frames]
                    .iter_mut()
                    .zip(self.scratch.chunks_exact(channels))
                {
                    *dst = frame[c];
                }
                o.produce(frames);
            }
        }
        if let Some(e) = error {
            if frames == 0 {
                return Err(e.into());
            }
            // Pass the good frames on now, fail on the next call (which
            // their publication triggers).
            self.pending = Some(e);
            return Ok(());
        }
        if input.remaining() == 0 && !repeat {
            io.finish();
        }
        Ok(())
    }
}

/// The registry entry: `wavfile_source`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};

    BlockSpec::of::<WavSourceParams>(
        "wavfile_source",
        "File Operators",
        "Reads a WAV file: one f32 stream per channel.",
        |p| Ok(Box::new(WavSource::from_params(p)?)),
    )
    .doc(
        "GNU Radio's `blocks_wavfile_source`: reads integer PCM of 8, 16, 24 or 32 bits \
         (scaled to `[−1, 1)`) or 32-bit float, any number of channels, and writes \
         channel `k` on `out<k>` for the first `channels` channels (GNU Radio's \
         `nchan`); every output must be connected, and the file must have at least \
         that many channels. The header is read when the run starts. Item 0 of each \
         output carries `core:sample_rate`.",
    )
    .output(
        PortSpec::new("out", PortItem::Fixed(ItemKind::F32))
            .repeated("channels")
            .doc("one per channel read out of the file"),
    )
}
