//! [`SigmfSource`]: plays a SigMF recording's samples, with its captures
//! and annotations as stream tags.
//!
//! This block owns reading the data file in bounded chunks (never the
//! whole file at once), following the recording's byte layout, and
//! placing the tags `tags::source_tags` computes. Decoding is the
//! sample-format module's; the metadata checks are `recording`'s.

use super::error::SigmfError;
use super::recording::{SigmfRecording, recording_paths};
use super::tags::source_tags;
use crate::sample_format::{SampleCodec, SampleFormatError, SampleItem};
use rfgraph::params::ItemKind;
use rfgraph::{Block, BoxError, ParamError, ParamSet, Ports, StreamOutput, Tag, WorkIo};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// The most bytes one `work` call reads.
const CHUNK_BYTES: usize = 1 << 20;

/// The parameters of [`SigmfSource`] (`sigmf_source`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct SigmfSourceParams {
    /// the recording: `x.sigmf-meta`, `x.sigmf-data` or `x`
    #[param(alias = "file")]
    pub path: String,
    /// divisor of integer samples (the datatype's full scale when not set)
    #[param(above = 0.0)]
    pub scale: Option<f64>,
    /// stream item type: `c32` for complex datatypes, `f32` for real ones,
    /// `u8` for the stored bytes
    #[param(name = "type", kinds(C32, F32, U8))]
    pub item: ItemKind,
}

impl SigmfSourceParams {
    /// Plays the recording `path` names (the rest at its defaults).
    pub fn new(path: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            scale: None,
            item: ItemKind::C32,
        }
    }

    /// The path must name a recording (not an archive or a collection).
    fn check(&self) -> Result<(), ParamError> {
        check_path("sigmf_source", &self.path)
    }
}

/// The rule of a SigMF block's `path`: it names one recording.
pub(crate) fn check_path(block: &'static str, path: &str) -> Result<(), ParamError> {
    if path.trim().is_empty() {
        return Err(ParamError::new(block, "path", "names no recording"));
    }
    recording_paths(Path::new(path))
        .map(drop)
        .map_err(|e| ParamError::new(block, "path", e.to_string()))
}

/// Reads a SigMF recording (`x.sigmf-meta` + `x.sigmf-data`) and writes
/// its samples: `Complex32` for complex datatypes, `f32` for real ones
/// (scaled as the [`sample_format`](crate::sample_format) module says),
/// or `u8` for the stored bytes as they are. Captures and annotations
/// arrive as tags on their samples (see the [`sigmf`](super) module for the
/// mapping); the first item carries `core:sample_rate` when the recording
/// has one. Finishes after the last sample.
///
/// [`open`](Self::open) and [`from_recording`](Self::from_recording) read
/// the recording at once, so a bad one is an error there;
/// [`from_params`](Self::from_params) (what the registry builds) reads it
/// when the run starts.
///
/// ```no_run
/// use num_complex::Complex32;
/// use rfgraph_blocks::sigmf::SigmfSource;
///
/// let source = SigmfSource::<Complex32>::open("capture.sigmf-meta")?;
/// if let Some(recording) = source.recording() {
///     println!("{} samples at {:?} samples/s", recording.samples(),
///              recording.meta().global.sample_rate);
/// }
/// # Ok::<(), rfgraph_blocks::sigmf::SigmfError>(())
/// ```
pub struct SigmfSource<T: SampleItem> {
    output: StreamOutput<T>,
    params: SigmfSourceParams,
    /// The recording being played, once read.
    play: Option<Playback>,
}

/// A recording being played.
struct Playback {
    recording: SigmfRecording,
    codec: SampleCodec,
    /// Stream items per stored sample (1, or its bytes for `u8`).
    per: usize,
    reader: DataReader,
    /// The next sample to write.
    sample: u64,
    /// The segment holding `sample`.
    segment: usize,
    /// Tags by sample index, and the next one to place.
    tags: Vec<Tag>,
    next_tag: usize,
    buf: Vec<u8>,
}

impl Playback {
    /// Plays `recording` as `T` items, decoded with `scale` if given.
    fn new<T: SampleItem>(
        recording: SigmfRecording,
        scale: Option<f64>,
    ) -> Result<Self, SigmfError> {
        let format = recording.meta().global.datatype;
        if T::check_format(format).is_err() {
            let (kind, want) = if format.is_complex() {
                ("complex", "Complex32")
            } else {
                ("real", "f32")
            };
            return Err(SigmfError::ItemType {
                file: recording.meta_path().to_path_buf(),
                datatype: format.sigmf_name().into(),
                reason: format!(
                    "is {kind}: read it as `{want}` (or `u8`) items, not `{}`",
                    T::NAME
                ),
            });
        }
        let codec = match scale {
            Some(s) => SampleCodec::with_scale(format, s).map_err(|e| SigmfError::ItemType {
                file: recording.meta_path().to_path_buf(),
                datatype: format.sigmf_name().into(),
                reason: e.to_string(),
            })?,
            None => SampleCodec::new(format),
        };
        let file = File::open(recording.data_path())
            .map_err(|e| SigmfError::io(recording.data_path(), "cannot open", e))?;
        Ok(Self {
            codec,
            per: T::per_stored_item(format),
            reader: DataReader {
                file,
                pos: None,
                path: recording.data_path().to_path_buf(),
                opened_bytes: recording.data_bytes(),
            },
            sample: 0,
            segment: 0,
            tags: source_tags(recording.meta()),
            next_tag: 0,
            buf: Vec::new(),
            recording,
        })
    }
}

/// The most bytes one stored sample takes (`cf64`): what a `u8` output
/// must have room for when the datatype is not known yet.
const MAX_SAMPLE_BYTES: usize = 16;

impl<T: SampleItem> SigmfSource<T> {
    /// Opens the recording `path` names (`x.sigmf-meta`, `x.sigmf-data`
    /// or `x`), checks it ([`SigmfRecording::open`]) and opens its data
    /// file.
    ///
    /// Errors: those of [`SigmfRecording::open`], and
    /// [`SigmfError::ItemType`] when the datatype does not give `T` items
    /// (a complex recording read as `f32`).
    pub fn open(path: impl AsRef<Path>) -> Result<Self, SigmfError> {
        Self::from_recording(SigmfRecording::open(path)?)
    }

    /// Plays an opened recording.
    ///
    /// Errors: [`SigmfError::ItemType`] as for [`open`](Self::open);
    /// [`SigmfError::Io`] when the data file cannot be opened.
    pub fn from_recording(recording: SigmfRecording) -> Result<Self, SigmfError> {
        let params = SigmfSourceParams {
            item: T::KIND,
            ..SigmfSourceParams::new(recording.meta_path().to_string_lossy())
        };
        let play = Playback::new::<T>(recording, None)?;
        Ok(Self {
            // `u8` items come a whole stored sample at a time.
            output: StreamOutput::new("out").with_min_items(play.per),
            params,
            play: Some(play),
        })
    }

    /// A source with `params`, the recording read when the run starts (the
    /// item type is `T`'s; `params.item` is what the registry builds from).
    ///
    /// Errors: a parameter out of its range, a path that names no
    /// recording.
    pub fn from_params(mut params: SigmfSourceParams) -> Result<Self, ParamError> {
        params.item = T::KIND;
        params.validate()?;
        let per = if T::KIND == ItemKind::U8 {
            MAX_SAMPLE_BYTES
        } else {
            1
        };
        Ok(Self {
            output: StreamOutput::new("out").with_min_items(per),
            params,
            play: None,
        })
    }

    /// Decodes with `scale` instead of the format's default full scale
    /// (see [`SampleCodec::with_scale`]; `1.0` gives integer values as
    /// they are).
    ///
    /// Errors: [`SampleFormatError::BadScale`].
    pub fn with_scale(mut self, scale: f64) -> Result<Self, SampleFormatError> {
        if let Some(play) = &mut self.play {
            play.codec = SampleCodec::with_scale(play.codec.format(), scale)?;
        } else if !(scale.is_finite() && scale > 0.0) {
            return Err(SampleFormatError::BadScale { scale });
        }
        self.params.scale = Some(scale);
        Ok(self)
    }

    /// The parameters.
    pub fn params(&self) -> &SigmfSourceParams {
        &self.params
    }

    /// The recording being played (`None` before a source built from
    /// parameters has read it, when the run starts).
    pub fn recording(&self) -> Option<&SigmfRecording> {
        self.play.as_ref().map(|p| &p.recording)
    }

    /// Samples written so far.
    pub fn samples_read(&self) -> u64 {
        self.play.as_ref().map_or(0, |p| p.sample)
    }
}

/// The data file, read at byte offsets (seeking only when not already there).
struct DataReader {
    file: File,
    /// The file position, when known.
    pos: Option<u64>,
    path: PathBuf,
    /// The file's size when the recording was opened.
    opened_bytes: u64,
}

impl DataReader {
    /// Fills `bytes` from `offset` of the data file.
    ///
    /// Errors: [`SigmfError::Read`] naming the offset where reading failed
    /// or the file ended.
    fn read_at(&mut self, offset: u64, bytes: &mut [u8]) -> Result<(), SigmfError> {
        let fail = |at: u64, e: std::io::Error| SigmfError::Read {
            file: self.path.clone(),
            offset: at,
            cause: e,
        };
        if self.pos != Some(offset) {
            self.pos = None;
            self.file
                .seek(SeekFrom::Start(offset))
                .map_err(|e| fail(offset, e))?;
        }
        let mut got = 0;
        while got < bytes.len() {
            match self.file.read(&mut bytes[got..]) {
                Ok(0) => {
                    self.pos = None;
                    let e = std::io::Error::new(
                        std::io::ErrorKind::UnexpectedEof,
                        format!(
                            "the file ended early: it held {} bytes when the recording was opened",
                            self.opened_bytes
                        ),
                    );
                    return Err(fail(offset + got as u64, e));
                }
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.pos = None;
                    return Err(fail(offset + got as u64, e));
                }
            }
        }
        self.pos = Some(offset + got as u64);
        Ok(())
    }
}

impl<T: SampleItem> Block for SigmfSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn is_blocking(&self) -> bool {
        true
    }

    /// Reads and checks the recording, unless the constructor did.
    fn init(&mut self) -> Result<(), BoxError> {
        if self.play.is_none() {
            let recording = SigmfRecording::open(&self.params.path)?;
            self.play = Some(Playback::new::<T>(recording, self.params.scale)?);
        }
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let Some(play) = &mut self.play else {
            return Err(format!("`{}` is not open", self.params.path).into());
        };
        let total = play.recording.samples();
        // Past empty segments (two captures at one sample).
        while let Some(seg) = play.recording.segments().get(play.segment)
            && seg.end <= play.sample
            && play.sample < total
        {
            play.segment += 1;
        }
        let Some(&seg) = play
            .recording
            .segments()
            .get(play.segment)
            .filter(|_| play.sample < total)
        else {
            io.finish();
            return Ok(());
        };
        let item = play.codec.format().bytes_per_item();
        let room = self.output.free() / play.per;
        let n = (room as u64)
            .min(seg.end - play.sample)
            .min((CHUNK_BYTES / item).max(1) as u64) as usize;
        if n == 0 {
            return Ok(());
        }
        let offset = seg.byte + (play.sample - seg.first) * item as u64;
        let bytes = n * item;
        let out = &mut self.output.slice()[..n * play.per];
        if T::is_passthrough(&play.codec) {
            // The stored bytes are the items: read straight into the ring.
            play.reader.read_at(offset, bytemuck::cast_slice_mut(out))?;
        } else {
            play.buf.resize(bytes, 0);
            play.reader.read_at(offset, &mut play.buf)?;
            T::decode(&play.codec, &play.buf, out);
        }
        let end = play.sample + n as u64;
        while let Some(t) = play.tags.get(play.next_tag).filter(|t| t.index < end) {
            let offset = (t.index.saturating_sub(play.sample)) as usize * play.per;
            self.output.add_tag(offset, &t.key, t.value.clone());
            play.next_tag += 1;
        }
        self.output.produce(n * play.per);
        play.sample = end;
        if play.sample == total {
            io.finish();
        }
        Ok(())
    }
}

/// The registry entry: `sigmf_source`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use num_complex::Complex32;
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};

    BlockSpec::of::<SigmfSourceParams>(
        "sigmf_source",
        "File Operators",
        "Plays a SigMF recording, with its captures and annotations as tags.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { C32 => Complex32, F32 => f32, U8 => u8 } as T => {
                SigmfSource::<T>::from_params(p)?
            })
        },
    )
    .doc(
        "Reads a SigMF 1.x recording (`x.sigmf-meta` and `x.sigmf-data`) and writes its \
         samples: `c32` for complex datatypes, `f32` for real ones, `u8` for the stored \
         bytes. Captures become `core:frequency`, `core:datetime` and \
         `core:global_index` tags on their first sample, annotations \
         `rfgraph:annotation` tags, and the first item carries `core:sample_rate`. \
         The metadata is read and checked when the run starts, so a bad \
         recording fails the run, naming the file and JSON path, before anything runs.",
    )
    .output(PortSpec::new("out", PortItem::OfType))
}
