//! `WavSink`: one `f32` stream per channel into a WAV file. Owns the
//! block: creating the file when the run starts, interleaving, the 16-bit
//! quantisation, the format's size limit, and finalising the header
//! however the run ends.

use super::error::WavError;
use super::ports::channel_port;
use hound::{SampleFormat, WavSpec, WavWriter};
use rfgraph::params::limits;
use rfgraph::{Block, BoxError, ParamError, ParamSet, Ports, StreamInput, WorkIo};
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// Frames written per call at most (bounds the scratch buffer).
const CHUNK: usize = 8192;

/// How [`WavSink`] stores samples. As a parameter it is `pcm16` or
/// `float32`, in any case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum WavFormat {
    /// 16-bit integer PCM: `x · 2^15`, rounded half to even, saturated to
    /// `[−32768, 32767]` (NaN becomes 0).
    Pcm16,
    /// 32-bit IEEE float, exactly as in the stream.
    Float32,
}

impl WavFormat {
    /// Bytes per stored sample.
    fn bytes(self) -> u64 {
        match self {
            WavFormat::Pcm16 => 2,
            WavFormat::Float32 => 4,
        }
    }
}

/// The 16-bit sample [`WavFormat::Pcm16`] stores for `x`.
#[inline]
fn quantise(x: f32) -> i16 {
    // `as` saturates and maps NaN to 0.
    (x * 32768.0).round_ties_even() as i16
}

/// The parameters of [`WavSink`] (`wavfile_sink`, GNU Radio's
/// `blocks_wavfile_sink`); `path` may change while it runs.
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct WavSinkParams {
    /// the file to create; a new one takes the frames from the next on, the
    /// old one finished with a valid header (GNU Radio's `open`)
    #[param(alias = "file", settable)]
    pub path: String,
    /// number of channels (inputs)
    #[param(default = 1, min = 1, max = limits::MAX_PORTS, alias = "nchan")]
    pub channels: usize,
    /// the rate stored in the header
    #[param(default = 48_000, unit = "Hz", min = 1, alias = "samp_rate")]
    pub sample_rate: u32,
    /// how samples are stored
    #[param(default = WavFormat::Pcm16)]
    pub format: WavFormat,
}

impl WavSinkParams {
    /// Writes one channel at 48 kHz as 16-bit PCM to `path` (the rest at
    /// its defaults).
    pub fn new(path: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            channels: 1,
            sample_rate: 48_000,
            format: WavFormat::Pcm16,
        }
    }

    /// A path to write.
    fn check(&self) -> Result<(), ParamError> {
        if self.path.trim().is_empty() {
            return Err(ParamError::new("wavfile_sink", "path", "names no file"));
        }
        Ok(())
    }
}

/// Writes a WAV file from one `f32` input per channel, GNU Radio's
/// `blocks.wavfile_sink`.
///
/// The file is created (replacing one that exists) when the flowgraph
/// starts, so a path that cannot be written fails the run before any
/// block runs, with an error naming the file. Frames go to the file as
/// they arrive; however the block ends (its inputs end, a stop, another
/// block's failure) the header is finalised, so the file is always a
/// valid WAV file holding every frame written; an error while finalising
/// fails the run when it ends. The header is the plain PCM one for 16-bit
/// mono and stereo and `WAVE_FORMAT_EXTENSIBLE` otherwise (float, or more
/// than two channels), as the format asks; readers that know only the
/// plain one (Python 3.11's `wave` module) read only the former. A WAV
/// file's data is limited to 4 GiB:
/// reaching it fails the run, with the file complete up to there. Tags
/// are not stored.
///
/// As GNU Radio's `open`, the path may change while the sink runs: the new
/// file is created at once (a path that cannot be written is refused and
/// the old file written on), the old one finished with a valid header, and
/// the frames from the next on go to the new one.
///
/// The block writes in `work`, so it is a blocking block: it gets a thread
/// of its own under every scheduler.
///
/// # Stream Inputs
/// - `in0`, `in1`, …: `f32`, one per channel. A frame is written once
///   every input has its sample; when one input ends, the frames the
///   others hold beyond it are dropped.
///
/// # Parameters
/// [`WavSinkParams`].
///
/// # Usage
/// ```
/// use rfgraph::scheduler::Tpb;
/// use rfgraph::Flowgraph;
/// use rfgraph_blocks::{SignalSource, SignalSourceParams, WavFormat, WavSink, WavSource};
///
/// let path = std::env::temp_dir().join(format!("rfgraph-doc-wav-sink-{}.wav", std::process::id()));
/// let mut fg = Flowgraph::new();
/// let tone = |frequency| SignalSourceParams {
///     sample_rate: 48_000.0,
///     frequency,
///     amplitude: 0.5,
///     items: Some(4800),
///     ..Default::default()
/// };
/// let left = fg.add(SignalSource::<f32>::new(tone(440.0))?);
/// let right = fg.add(SignalSource::<f32>::new(tone(660.0))?);
/// let wav = fg.add(WavSink::new(&path, 2, 48_000, WavFormat::Pcm16)?);
/// fg.connect(left, "out", wav, "in0")?;
/// fg.connect(right, "out", wav, "in1")?;
/// fg.run(Tpb::new())?;
/// assert_eq!(WavSource::open(&path)?.frames(), 4800);
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct WavSink {
    inputs: Vec<StreamInput<f32>>,
    params: WavSinkParams,
    /// The file being written.
    path: PathBuf,
    spec: WavSpec,
    writer: Option<WavWriter<BufWriter<File>>>,
    /// Frames in the file being written.
    frames: u64,
    max_frames: u64,
    scratch: Vec<f32>,
    /// An error finishing a file the sink moved on from, returned by the
    /// next `work`.
    pending: Option<WavError>,
    /// An error from finalising in `finishing`, reported by `deinit`.
    late_error: Option<WavError>,
}

impl WavSink {
    /// A sink writing `channels` channels at `sample_rate` Hz in `format`
    /// to `path` (created when the run starts).
    ///
    /// Errors: no channels or more than [`limits::MAX_PORTS`], a sample
    /// rate of 0.
    pub fn new(
        path: impl AsRef<Path>,
        channels: usize,
        sample_rate: u32,
        format: WavFormat,
    ) -> Result<Self, WavError> {
        let path = path.as_ref();
        let params = WavSinkParams {
            channels,
            sample_rate,
            format,
            ..WavSinkParams::new(path.to_string_lossy())
        };
        let mut sink = Self::from_params(params).map_err(|e| WavError::Param {
            block: "WavSink",
            param: match e.param.as_str() {
                "channels" => "channels",
                "sample_rate" => "sample_rate",
                _ => "path",
            },
            reason: e.reason,
        })?;
        sink.path = path.to_path_buf();
        Ok(sink)
    }

    /// A sink with `params` (the file created when the run starts).
    ///
    /// Errors: a parameter out of its range.
    pub fn from_params(params: WavSinkParams) -> Result<Self, ParamError> {
        params.validate()?;
        // Checked: 1 to MAX_PORTS channels.
        let channels = params.channels as u16;
        let spec = match params.format {
            WavFormat::Pcm16 => WavSpec {
                channels,
                sample_rate: params.sample_rate,
                bits_per_sample: 16,
                sample_format: SampleFormat::Int,
            },
            WavFormat::Float32 => WavSpec {
                channels,
                sample_rate: params.sample_rate,
                bits_per_sample: 32,
                sample_format: SampleFormat::Float,
            },
        };
        // The RIFF and data lengths are 32-bit, and the largest header
        // hound writes (WAVE_FORMAT_EXTENSIBLE) takes 68 bytes of the RIFF
        // length.
        let frame_bytes = params.format.bytes() * params.channels as u64;
        let max_frames = (u64::from(u32::MAX) - 68) / frame_bytes;
        Ok(Self {
            inputs: (0..params.channels)
                .map(|c| StreamInput::new(channel_port("in", c)))
                .collect(),
            path: PathBuf::from(&params.path),
            params,
            spec,
            writer: None,
            frames: 0,
            max_frames,
            scratch: Vec::new(),
            pending: None,
            late_error: None,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &WavSinkParams {
        &self.params
    }

    /// Frames written so far to the file being written.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// The file being written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A smaller size limit, to test what happens at the real one.
    #[cfg(test)]
    pub(crate) fn with_max_frames(mut self, frames: u64) -> Self {
        self.max_frames = frames;
        self
    }

    fn write_error(&self, cause: impl ToString) -> WavError {
        WavError::Write {
            path: self.path.clone(),
            frames: self.frames,
            cause: cause.to_string(),
        }
    }

    /// Creates (or replaces) the file at `path`.
    fn create(&self, path: &Path) -> Result<WavWriter<BufWriter<File>>, WavError> {
        WavWriter::create(path, self.spec).map_err(|e| match e {
            hound::Error::IoError(source) => WavError::Io {
                path: path.to_path_buf(),
                action: "create",
                source,
            },
            other => WavError::Write {
                path: path.to_path_buf(),
                frames: 0,
                cause: other.to_string(),
            },
        })
    }

    /// Finalises the header of the file being written.
    fn finish_file(&mut self) -> Result<(), WavError> {
        match self.writer.take() {
            Some(writer) => writer
                .finalize()
                .map_err(|e| self.write_error(format!("finalising the header: {e}"))),
            None => Ok(()),
        }
    }
}

impl Block for WavSink {
    fn ports(&mut self) -> Ports<'_> {
        self.inputs
            .iter_mut()
            .fold(Ports::new(), |ports, i| ports.input(i))
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        if name == "path" {
            let path = PathBuf::from(&self.params.path);
            // The new file first: one that cannot be created leaves the
            // old one in use.
            let writer = self.create(&path)?;
            if let Err(e) = self.finish_file() {
                // As a failure in `work`: the run fails.
                self.pending.get_or_insert(e);
            }
            self.writer = Some(writer);
            self.path = path;
            self.frames = 0;
        }
        Ok(())
    }

    fn is_blocking(&self) -> bool {
        true
    }

    fn init(&mut self) -> Result<(), BoxError> {
        self.writer = Some(self.create(&self.path)?);
        Ok(())
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        if let Some(e) = self.pending.take() {
            return Err(e.into());
        }
        let channels = self.inputs.len();
        let ready = self
            .inputs
            .iter_mut()
            .map(|i| i.available())
            .min()
            .unwrap_or(0);
        let room = self.max_frames - self.frames;
        let n = (ready as u64).min(room).min(CHUNK as u64) as usize;
        if n == 0 {
            if ready > 0 {
                return Err(WavError::Full {
                    path: self.path.clone(),
                    frames: self.frames,
                }
                .into());
            }
            return Ok(());
        }
        self.scratch.resize(n * channels, 0.0);
        for (c, input) in self.inputs.iter_mut().enumerate() {
            for (frame, &x) in self
                .scratch
                .chunks_exact_mut(channels)
                .zip(&input.slice()[..n])
            {
                frame[c] = x;
            }
        }
        let Some(writer) = self.writer.as_mut() else {
            return Err(self.write_error("the file is not open").into());
        };
        let result = match self.params.format {
            WavFormat::Pcm16 => self
                .scratch
                .iter()
                .try_for_each(|&x| writer.write_sample(quantise(x))),
            WavFormat::Float32 => self
                .scratch
                .iter()
                .try_for_each(|&x| writer.write_sample(x)),
        };
        if let Err(e) = result {
            return Err(self.write_error(e).into());
        }
        for input in &mut self.inputs {
            input.consume(n);
        }
        self.frames += n as u64;
        Ok(())
    }

    /// Finalises the header (however the block ends), so the file is
    /// valid; an error is kept for `deinit`.
    fn finishing(&mut self) {
        if let Err(e) = self.finish_file() {
            self.late_error = Some(e);
        }
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        match self.pending.take().or(self.late_error.take()) {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }
}

/// The registry entry: `wavfile_sink`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};

    BlockSpec::of::<WavSinkParams>(
        "wavfile_sink",
        "File Operators",
        "Writes one f32 stream per channel into a WAV file.",
        |p| Ok(Box::new(WavSink::from_params(p)?)),
    )
    .doc(
        "GNU Radio's `blocks_wavfile_sink`: interleaves `in0`, `in1`, … into a WAV \
         file created when the run starts, as 16-bit PCM (rounded, saturated) or \
         32-bit float. The header is finalised however the run ends, so the file is \
         always valid. Tags are not stored. As GNU Radio's `open`, `path` may change \
         while it runs: the new file is created at once (one that cannot be is refused), \
         the old one finished with a valid header, and the frames from the next on go \
         to the new one.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)).repeated("channels"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantisation_rounds_half_to_even_and_saturates() {
        assert_eq!(quantise(0.0), 0);
        assert_eq!(quantise(0.5), 16384);
        assert_eq!(quantise(-1.0), -32768);
        assert_eq!(quantise(1.0), 32767);
        assert_eq!(quantise(7.0), 32767);
        assert_eq!(quantise(f32::NEG_INFINITY), -32768);
        assert_eq!(quantise(f32::NAN), 0);
        assert_eq!(quantise(0.5 / 32768.0), 0);
        assert_eq!(quantise(1.5 / 32768.0), 2);
        // Every 16-bit value survives reading (÷ 2^15) and writing.
        for v in i16::MIN..=i16::MAX {
            assert_eq!(quantise(v as f32 / 32768.0), v);
        }
    }

    /// At the size limit the run fails, naming the file, and the file
    /// holds exactly the frames up to the limit.
    #[test]
    fn the_size_limit_fails_the_run_with_a_complete_file() {
        use crate::VectorSource;
        use rfgraph::Flowgraph;
        use rfgraph::scheduler::Tpb;
        let path =
            std::env::temp_dir().join(format!("rfgraph-wav-limit-{}.wav", std::process::id()));
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(
            (0..10).map(|i| i as f32 / 16.0).collect::<Vec<_>>(),
        ));
        let sink = fg.add(
            WavSink::new(&path, 1, 8000, WavFormat::Pcm16)
                .unwrap()
                .with_max_frames(4),
        );
        fg.connect(src, "out", sink, "in0").unwrap();
        let e = fg
            .start(Tpb::new())
            .unwrap()
            .wait_timeout(std::time::Duration::from_secs(60))
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("at most 4 GiB") && e.contains("after 4 frames"),
            "{e}"
        );
        assert!(e.contains(&path.display().to_string()), "{e}");
        let mut reader = hound::WavReader::open(&path).unwrap();
        let samples: Vec<i16> = reader.samples::<i16>().map(|s| s.unwrap()).collect();
        assert_eq!(samples, [0, 2048, 4096, 6144]);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn parameters_are_checked() {
        for (channels, rate, param) in [
            (0, 8000, "channels"),
            (70_000, 8000, "channels"),
            (1, 0, "sample_rate"),
        ] {
            let e = WavSink::new("x.wav", channels, rate, WavFormat::Pcm16)
                .err()
                .unwrap();
            assert!(e.to_string().contains(param), "{e}");
        }
        let sink = WavSink::new("x.wav", 3, 8000, WavFormat::Float32).unwrap();
        assert_eq!(sink.max_frames, (u64::from(u32::MAX) - 68) / 12);
    }
}
