//! `WavSource`: a WAV file as one `f32` stream per channel. Owns the block
//! (ports, tags, repeat, finishing at the end of the file); parsing and
//! scaling are `reader`'s.

use super::error::WavError;
use super::ports::channel_port;
use super::reader::WavInput;
use rfgraph::tag::keys;
use rfgraph::{Block, BoxError, Pmt, Ports, StreamOutput, WorkIo};
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// Frames read per call at most (bounds the scratch buffer).
const CHUNK: usize = 8192;

/// Reads a WAV file: one `f32` output per channel, GNU Radio's
/// `blocks.wavfile_source`.
///
/// Reads integer PCM of 8, 16, 24 or 32 bits (scaled by `2^(bits−1)` to
/// `[−1, 1)`) and 32-bit float (as stored), any number of channels, plain
/// or `WAVE_FORMAT_EXTENSIBLE` headers. The header is read and checked
/// when the block is made, so a missing file, a file that is not a WAV or
/// an unsupported encoding is a [`WavError`] naming the file before any
/// flowgraph runs. Item 0 of every output carries the file's sample rate
/// as a `core:sample_rate` tag (`f64`, Hz). At the end of the file the
/// block finishes, or starts over with [`repeat`](Self::repeat). A data
/// chunk shorter than its header says fails the run with an error naming
/// the file, frame and byte offset; the frames before the break are
/// passed on first.
///
/// The block reads the file in `work`, so it is a blocking block: it gets
/// a thread of its own under every scheduler.
///
/// # Stream Outputs
/// - `out0`, `out1`, …: `f32`, one per channel of the file, in its order.
///   Every one must be connected (a `NullSink` takes a channel nobody
///   needs).
///
/// # Parameters
/// - `path`: the WAV file.
/// - `repeat` ([`repeat`](Self::repeat)): start over at the end; off by
///   default (a file without frames never repeats).
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
    input: WavInput<BufReader<File>>,
    path: PathBuf,
    repeat: bool,
    tagged: bool,
    scratch: Vec<f32>,
    /// A read error, returned by the call after the one that passed on
    /// the frames before it.
    pending: Option<WavError>,
}

impl WavSource {
    /// Opens `path` and checks its header.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, WavError> {
        let path = path.as_ref();
        let input = WavInput::open(path)?;
        let outputs = (0..input.channels())
            .map(|c| StreamOutput::new(channel_port("out", c)))
            .collect();
        Ok(Self {
            outputs,
            input,
            path: path.to_path_buf(),
            repeat: false,
            tagged: false,
            scratch: Vec::new(),
            pending: None,
        })
    }

    /// Starts over at the end of the file, for ever (pair it with `Head`).
    pub fn repeat(mut self, repeat: bool) -> Self {
        self.repeat = repeat;
        self
    }

    /// Channels, and so outputs.
    pub fn channels(&self) -> usize {
        self.input.channels()
    }

    /// The file's sample rate in Hz.
    pub fn sample_rate(&self) -> u32 {
        self.input.sample_rate()
    }

    /// Frames (samples per channel) in the file.
    pub fn frames(&self) -> u64 {
        self.input.frames()
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Block for WavSource {
    fn ports(&mut self) -> Ports<'_> {
        self.outputs
            .iter_mut()
            .fold(Ports::new(), |ports, o| ports.output(o))
    }

    fn is_blocking(&self) -> bool {
        true
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        if let Some(e) = self.pending.take() {
            return Err(e.into());
        }
        if self.input.remaining() == 0 {
            if self.repeat && self.input.frames() > 0 {
                self.input.rewind()?;
            } else {
                io.finish();
                return Ok(());
            }
        }
        let channels = self.channels();
        let room = self.outputs.iter_mut().map(|o| o.free()).min().unwrap_or(0);
        let want = (room as u64).min(self.input.remaining()).min(CHUNK as u64) as usize;
        if want == 0 {
            return Ok(());
        }
        self.scratch.resize(want * channels, 0.0);
        let (frames, error) = self.input.read(&mut self.scratch);
        if frames > 0 {
            if !self.tagged {
                let rate = Pmt::F64(f64::from(self.input.sample_rate()));
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
        if self.input.remaining() == 0 && !self.repeat {
            io.finish();
        }
        Ok(())
    }
}

/// The registry entry: `wavfile_source`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};

    BlockSpec::new(
        "wavfile_source",
        "File Operators",
        "Reads a WAV file: one f32 stream per channel.",
        |p| {
            let wav = WavSource::open(p.string("path")?).map_err(|e| p.refused(e))?;
            Ok(Box::new(wav.repeat(p.bool("repeat")?)) as Box<dyn Block>)
        },
    )
    .doc(
        "GNU Radio's `blocks_wavfile_source`: reads integer PCM of 8, 16, 24 or 32 bits \
         (scaled to `[−1, 1)`) or 32-bit float, any number of channels, and writes \
         channel `k` on `out<k>`; every output must be connected. The header is read \
         when the block is built, so the number of outputs is the file's number of \
         channels. Item 0 of each output carries `core:sample_rate`.",
    )
    .param(ParamSpec::string("path").doc("the WAV file"))
    .param(
        ParamSpec::bool("repeat")
            .default(false)
            .doc("start over at the end of the file"),
    )
    .output(
        PortSpec::new("out", PortItem::Fixed(ItemKind::F32))
            .repeated("channels")
            .doc("one per channel of the file"),
    )
}
