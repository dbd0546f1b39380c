//! [`SigmfSource`]: plays a SigMF recording's samples, with its captures
//! and annotations as stream tags.
//!
//! This block owns reading the data file in bounded chunks (never the
//! whole file at once), following the recording's byte layout, and
//! placing the tags `tags::source_tags` computes. Decoding is the
//! sample-format module's; the metadata checks are `recording`'s.

use super::error::SigmfError;
use super::recording::SigmfRecording;
use super::tags::source_tags;
use crate::sample_format::{SampleCodec, SampleFormatError, SampleItem};
use rfgraph::{Block, BoxError, Ports, StreamOutput, Tag, WorkIo};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// The most bytes one `work` call reads.
const CHUNK_BYTES: usize = 1 << 20;

/// Reads a SigMF recording (`x.sigmf-meta` + `x.sigmf-data`) and writes
/// its samples: `Complex32` for complex datatypes, `f32` for real ones
/// (scaled as the [`sample_format`](crate::sample_format) module says),
/// or `u8` for the stored bytes as they are. Captures and annotations
/// arrive as tags on their samples (see the [`sigmf`](super) module for the
/// mapping); the first item carries `core:sample_rate` when the recording
/// has one. Finishes after the last sample.
///
/// ```no_run
/// use num_complex::Complex32;
/// use rfgraph_blocks::sigmf::SigmfSource;
///
/// let source = SigmfSource::<Complex32>::open("capture.sigmf-meta")?;
/// println!("{} samples at {:?} samples/s", source.recording().samples(),
///          source.recording().meta().global.sample_rate);
/// # Ok::<(), rfgraph_blocks::sigmf::SigmfError>(())
/// ```
pub struct SigmfSource<T: SampleItem> {
    output: StreamOutput<T>,
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
        let file = File::open(recording.data_path())
            .map_err(|e| SigmfError::io(recording.data_path(), "cannot open", e))?;
        let per = T::per_stored_item(format);
        Ok(Self {
            // `u8` items come a whole stored sample at a time.
            output: StreamOutput::new("out").with_min_items(per),
            codec: SampleCodec::new(format),
            per,
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

    /// Decodes with `scale` instead of the format's default full scale
    /// (see [`SampleCodec::with_scale`]; `1.0` gives integer values as
    /// they are).
    ///
    /// Errors: [`SampleFormatError::BadScale`].
    pub fn with_scale(mut self, scale: f64) -> Result<Self, SampleFormatError> {
        self.codec = SampleCodec::with_scale(self.codec.format(), scale)?;
        Ok(self)
    }

    /// The recording being played.
    pub fn recording(&self) -> &SigmfRecording {
        &self.recording
    }

    /// Samples written so far.
    pub fn samples_read(&self) -> u64 {
        self.sample
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

    fn is_blocking(&self) -> bool {
        true
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let total = self.recording.samples();
        // Past empty segments (two captures at one sample).
        while let Some(seg) = self.recording.segments().get(self.segment)
            && seg.end <= self.sample
            && self.sample < total
        {
            self.segment += 1;
        }
        let Some(&seg) = self
            .recording
            .segments()
            .get(self.segment)
            .filter(|_| self.sample < total)
        else {
            io.finish();
            return Ok(());
        };
        let item = self.codec.format().bytes_per_item();
        let room = self.output.free() / self.per;
        let n = (room as u64)
            .min(seg.end - self.sample)
            .min((CHUNK_BYTES / item).max(1) as u64) as usize;
        if n == 0 {
            return Ok(());
        }
        let offset = seg.byte + (self.sample - seg.first) * item as u64;
        let bytes = n * item;
        let out = &mut self.output.slice()[..n * self.per];
        if T::is_passthrough(&self.codec) {
            // The stored bytes are the items: read straight into the ring.
            self.reader.read_at(offset, bytemuck::cast_slice_mut(out))?;
        } else {
            self.buf.resize(bytes, 0);
            self.reader.read_at(offset, &mut self.buf)?;
            T::decode(&self.codec, &self.buf, out);
        }
        let end = self.sample + n as u64;
        while let Some(t) = self.tags.get(self.next_tag).filter(|t| t.index < end) {
            let offset = (t.index.saturating_sub(self.sample)) as usize * self.per;
            self.output.add_tag(offset, &t.key, t.value.clone());
            self.next_tag += 1;
        }
        self.output.produce(n * self.per);
        self.sample = end;
        if self.sample == total {
            io.finish();
        }
        Ok(())
    }
}

/// The registry entry: `sigmf_source`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use crate::file::FILE_KINDS;
    use num_complex::Complex32;
    use rfgraph::registry::{BlockSpec, ParamSpec, PortItem, PortSpec};

    BlockSpec::new(
        "sigmf_source",
        "File Operators",
        "Plays a SigMF recording, with its captures and annotations as tags.",
        |p| {
            let path = p.string("path")?;
            let scale: Option<f64> = p.opt("scale")?;
            rfgraph::for_item_kinds!(p, p.item_type()?, { C32 => Complex32, F32 => f32, U8 => u8 } as T => {
                let src = SigmfSource::<T>::open(&path).map_err(|e| p.refused(e))?;
                match scale {
                    Some(s) => src.with_scale(s).map_err(|e| p.invalid("scale", e.to_string()))?,
                    None => src,
                }
            })
        },
    )
    .doc(
        "Reads a SigMF 1.x recording (`x.sigmf-meta` and `x.sigmf-data`) and writes its \
         samples: `c32` for complex datatypes, `f32` for real ones, `u8` for the stored \
         bytes. Captures become `core:frequency`, `core:datetime` and \
         `core:global_index` tags on their first sample, annotations \
         `rfgraph:annotation` tags, and the first item carries `core:sample_rate`. \
         The metadata is read and checked when the block is built, so a bad \
         recording is an error naming the file and JSON path before anything runs.",
    )
    .param(ParamSpec::string("path").doc("the recording: `x.sigmf-meta`, `x.sigmf-data` or `x`"))
    .param(ParamSpec::float("scale").optional().doc("divisor of integer samples (the datatype's full scale when not set)"))
    .param(ParamSpec::item_type(&FILE_KINDS))
    .output(PortSpec::new("out", PortItem::OfType))
}
