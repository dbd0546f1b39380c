//! `WavSink`: one `f32` stream per channel into a WAV file. Owns the
//! block: creating the file when the run starts, interleaving, the 16-bit
//! quantisation, the format's size limit, and finalising the header
//! however the run ends.

use super::error::WavError;
use super::ports::channel_port;
use hound::{SampleFormat, WavSpec, WavWriter};
use rfgraph::{Block, BoxError, Ports, StreamInput, WorkIo};
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// Frames written per call at most (bounds the scratch buffer).
const CHUNK: usize = 8192;

/// How [`WavSink`] stores samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
/// The block writes in `work`, so it is a blocking block: it gets a thread
/// of its own under every scheduler.
///
/// # Stream Inputs
/// - `in0`, `in1`, …: `f32`, one per channel. A frame is written once
///   every input has its sample; when one input ends, the frames the
///   others hold beyond it are dropped.
///
/// # Parameters
/// - `path`: the file to create.
/// - `channels`: 1 to 65535.
/// - `sample_rate`: Hz, above 0, stored in the header.
/// - `format`: [`WavFormat::Pcm16`] or [`WavFormat::Float32`].
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
    path: PathBuf,
    spec: WavSpec,
    format: WavFormat,
    writer: Option<WavWriter<BufWriter<File>>>,
    frames: u64,
    max_frames: u64,
    scratch: Vec<f32>,
    /// An error from finalising in `finishing`, reported by `deinit`.
    late_error: Option<WavError>,
}

impl WavSink {
    /// A sink writing `channels` channels at `sample_rate` Hz in `format`
    /// to `path` (created when the run starts).
    ///
    /// Errors: no channels or more than 65535, a sample rate of 0.
    pub fn new(
        path: impl AsRef<Path>,
        channels: usize,
        sample_rate: u32,
        format: WavFormat,
    ) -> Result<Self, WavError> {
        let channels_u16 = u16::try_from(channels)
            .ok()
            .filter(|&c| c > 0)
            .ok_or_else(|| WavError::Param {
                block: "WavSink",
                param: "channels",
                reason: format!("must be 1 to 65535, not {channels}"),
            })?;
        if sample_rate == 0 {
            return Err(WavError::Param {
                block: "WavSink",
                param: "sample_rate",
                reason: "must be above 0 Hz".into(),
            });
        }
        let spec = match format {
            WavFormat::Pcm16 => WavSpec {
                channels: channels_u16,
                sample_rate,
                bits_per_sample: 16,
                sample_format: SampleFormat::Int,
            },
            WavFormat::Float32 => WavSpec {
                channels: channels_u16,
                sample_rate,
                bits_per_sample: 32,
                sample_format: SampleFormat::Float,
            },
        };
        // The RIFF and data lengths are 32-bit, and the largest header
        // hound writes (WAVE_FORMAT_EXTENSIBLE) takes 68 bytes of the RIFF
        // length.
        let frame_bytes = format.bytes() * channels as u64;
        let max_frames = (u64::from(u32::MAX) - 68) / frame_bytes;
        Ok(Self {
            inputs: (0..channels)
                .map(|c| StreamInput::new(channel_port("in", c)))
                .collect(),
            path: path.as_ref().to_path_buf(),
            spec,
            format,
            writer: None,
            frames: 0,
            max_frames,
            scratch: Vec::new(),
            late_error: None,
        })
    }

    /// Frames written so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// The file.
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
}

impl Block for WavSink {
    fn ports(&mut self) -> Ports<'_> {
        self.inputs
            .iter_mut()
            .fold(Ports::new(), |ports, i| ports.input(i))
    }

    fn is_blocking(&self) -> bool {
        true
    }

    fn init(&mut self) -> Result<(), BoxError> {
        let writer = WavWriter::create(&self.path, self.spec).map_err(|e| match e {
            hound::Error::IoError(source) => WavError::Io {
                path: self.path.clone(),
                action: "create",
                source,
            },
            other => self.write_error(other),
        })?;
        self.writer = Some(writer);
        Ok(())
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
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
        let result = match self.format {
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
        if let Some(writer) = self.writer.take()
            && let Err(e) = writer.finalize()
        {
            self.late_error = Some(self.write_error(format!("finalising the header: {e}")));
        }
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        match self.late_error.take() {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }
}

/// The registry entry: `wavfile_sink`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};

    BlockSpec::new(
        "wavfile_sink",
        "File Operators",
        "Writes one f32 stream per channel into a WAV file.",
        |p| {
            let format = match p.string("format")?.to_ascii_lowercase().as_str() {
                "pcm16" => WavFormat::Pcm16,
                _ => WavFormat::Float32,
            };
            let rate = p.get::<u32>("sample_rate")?;
            let sink = WavSink::new(p.string("path")?, p.usize("channels")?, rate, format)
                .map_err(|e| p.refused(e))?;
            Ok(Box::new(sink) as Box<dyn Block>)
        },
    )
    .doc(
        "GNU Radio's `blocks_wavfile_sink`: interleaves `in0`, `in1`, … into a WAV \
         file created when the run starts, as 16-bit PCM (rounded, saturated) or \
         32-bit float. The header is finalised however the run ends, so the file is \
         always valid. Tags are not stored.",
    )
    .param(ParamSpec::string("path").doc("the file to create"))
    .param(
        ParamSpec::uint("channels")
            .default(1u64)
            .doc("number of channels (inputs)"),
    )
    .param(
        ParamSpec::uint("sample_rate")
            .default(48_000u64)
            .unit("Hz")
            .doc("the rate stored in the header"),
    )
    .param(
        ParamSpec::string("format")
            .default("pcm16")
            .choices(&["pcm16", "float32"])
            .doc("how samples are stored"),
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
