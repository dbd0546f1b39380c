//! [`SigmfSink`]: writes a stream as a SigMF recording.
//!
//! This block owns the data file as it grows (encoded by the sample-format
//! module, written in large chunks), the metadata's life (a valid
//! `.sigmf-meta` from `init` on, rewritten atomically when the block ends
//! however it ends), and what happens when a write fails: whole items stay
//! on disk, the metadata describes exactly them, and the run fails with
//! the file and byte offset. Tags become captures and annotations through
//! `tags::MetaBuilder`.

use super::error::SigmfError;
use super::meta::{Capture, Global, SIGMF_VERSION, SigmfMeta};
use super::recording::recording_paths;
use super::tags::{MetaBuilder, Rate};
use crate::sample_format::{SampleCodec, SampleFormat, SampleItem};
use rfgraph::{Block, BoxError, Ports, StreamInput, Tag, WorkIo};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Encoded bytes gathered before a write to the data file.
const FLUSH_BYTES: usize = 1 << 20;

/// Writes its input as a SigMF recording: `x.sigmf-data` as items arrive,
/// `x.sigmf-meta` when the block starts (global fields, no segments yet)
/// and again, atomically, when it ends (by its input's end, a stop or a
/// failure). Items are `Complex32` for complex datatypes, `f32` for real
/// ones (quantised as the [`sample_format`](crate::sample_format) module
/// says), or `u8` for bytes already in the datatype.
///
/// Tags make the metadata (see the [`sigmf`](super) module for the
/// mapping): `core:frequency`, `core:datetime` and `core:global_index`
/// start a capture on their sample, `rfgraph:annotation`, `core:label`
/// and `core:comment` make annotations, and the first `core:sample_rate`
/// gives the recording's rate unless [`with_sample_rate`](Self::with_sample_rate)
/// fixed it.
///
/// When writing the data fails (a full disk), the items already written
/// stay, cut to whole items; the metadata is written for them; and the
/// run fails with [`SigmfError::Write`] naming the file and byte offset.
///
/// ```no_run
/// use num_complex::Complex32;
/// use rfgraph_blocks::SampleFormat;
/// use rfgraph_blocks::sigmf::SigmfSink;
///
/// let sink = SigmfSink::<Complex32>::create("out.sigmf-meta", SampleFormat::CS16)?
///     .with_sample_rate(2.4e6)
///     .with_frequency(100e6)
///     .with_description("FM band");
/// # Ok::<(), rfgraph_blocks::sigmf::SigmfError>(())
/// ```
pub struct SigmfSink<T: SampleItem> {
    input: StreamInput<T>,
    codec: SampleCodec,
    /// Stream items per stored sample (1, or its bytes for `u8`).
    per: usize,
    meta_path: PathBuf,
    data_path: PathBuf,
    file: File,
    global: Global,
    builder: MetaBuilder,
    /// Encoded samples not yet written.
    buf: Vec<u8>,
    /// Bytes (whole samples) in the data file.
    written_bytes: u64,
    /// A write failed: nothing more is written.
    failed: bool,
    /// The final metadata was written (or failed to be).
    finalized: bool,
    /// An error from `finishing`, returned by `deinit`.
    deferred: Option<SigmfError>,
}

impl<T: SampleItem> SigmfSink<T> {
    /// A sink writing the recording `path` names (`x.sigmf-meta`,
    /// `x.sigmf-data` or `x`) with samples stored as `datatype`. Creates
    /// (or empties) the data file now; the metadata is first written by
    /// `init`.
    ///
    /// Errors: [`SigmfError::ItemType`] when `datatype` does not take `T`
    /// items, [`SigmfError::Io`] when the data file cannot be created, and
    /// [`SigmfError::Name`] for an archive name.
    pub fn create(path: impl AsRef<Path>, datatype: SampleFormat) -> Result<Self, SigmfError> {
        let (meta_path, data_path) = recording_paths(path.as_ref())?;
        if T::check_format(datatype).is_err() {
            let want = if datatype.is_complex() {
                "Complex32"
            } else {
                "f32"
            };
            return Err(SigmfError::ItemType {
                file: meta_path,
                datatype: datatype.sigmf_name().into(),
                reason: format!("stores {want} (or u8) items, not `{}`", T::NAME),
            });
        }
        let file =
            File::create(&data_path).map_err(|e| SigmfError::io(&data_path, "cannot create", e))?;
        let mut global = Global::new(datatype);
        global.recorder = Some(format!("rfgraph {}", env!("CARGO_PKG_VERSION")));
        let per = T::per_stored_item(datatype);
        Ok(Self {
            input: StreamInput::new("in").with_min_items(per),
            codec: SampleCodec::new(datatype),
            per,
            builder: MetaBuilder::new(&meta_path, Rate::FromTags(None), Vec::new()),
            meta_path,
            data_path,
            file,
            global,
            buf: Vec::new(),
            written_bytes: 0,
            failed: false,
            finalized: false,
            deferred: None,
        })
    }

    /// Sets `core:sample_rate`; `core:sample_rate` tags are then ignored.
    pub fn with_sample_rate(mut self, rate: f64) -> Self {
        self.builder.rate = Rate::Fixed(rate);
        self
    }

    /// The centre frequency of the first capture (tags may change it later).
    pub fn with_frequency(mut self, hz: f64) -> Self {
        self.first_capture().frequency = Some(hz);
        self
    }

    /// The `core:datetime` of the first sample (ISO 8601, e.g.
    /// `2024-05-01T12:00:00Z`).
    pub fn with_datetime(mut self, datetime: impl Into<String>) -> Self {
        self.first_capture().datetime = Some(datetime.into());
        self
    }

    /// Sets `core:description`.
    pub fn with_description(mut self, text: impl Into<String>) -> Self {
        self.global.description = Some(text.into());
        self
    }

    /// Sets `core:author`.
    pub fn with_author(mut self, text: impl Into<String>) -> Self {
        self.global.author = Some(text.into());
        self
    }

    /// Sets `core:hw`.
    pub fn with_hw(mut self, text: impl Into<String>) -> Self {
        self.global.hw = Some(text.into());
        self
    }

    /// Takes another recording's global fields (description, author,
    /// hardware, license, extension keys, ...; its sample rate, if any, as
    /// [`with_sample_rate`](Self::with_sample_rate)), keeping this sink's
    /// datatype and dropping what describes the other data file
    /// (`core:sha512`, `core:dataset`, `core:trailing_bytes`).
    pub fn with_global(mut self, global: &Global) -> Self {
        let datatype = self.global.datatype;
        self.global = Global {
            datatype,
            version: Some(SIGMF_VERSION.into()),
            sha512: None,
            dataset: None,
            trailing_bytes: 0,
            metadata_only: false,
            num_channels: 1,
            recorder: global.recorder.clone().or(self.global.recorder.take()),
            ..global.clone()
        };
        if let Some(rate) = global.sample_rate {
            self.builder.rate = Rate::Fixed(rate);
        }
        self
    }

    /// The metadata file.
    pub fn meta_path(&self) -> &Path {
        &self.meta_path
    }

    /// The data file.
    pub fn data_path(&self) -> &Path {
        &self.data_path
    }

    /// Samples in the data file so far.
    pub fn samples_written(&self) -> u64 {
        self.written_bytes / self.codec.format().bytes_per_item() as u64
    }

    /// The metadata as it would be written now.
    pub fn meta(&self) -> SigmfMeta {
        self.builder.meta(&self.global, self.samples_written())
    }

    fn first_capture(&mut self) -> &mut Capture {
        if self.builder.captures.is_empty() {
            self.builder.captures.push(Capture::at(0));
        }
        &mut self.builder.captures[0]
    }

    /// Writes the gathered bytes. On failure, cuts the file to whole
    /// samples and names the offset where the write failed.
    fn flush(&mut self) -> Result<(), SigmfError> {
        let mut done = 0;
        while done < self.buf.len() {
            match self.file.write(&self.buf[done..]) {
                Ok(0) => {
                    let e = std::io::Error::new(
                        std::io::ErrorKind::WriteZero,
                        "the file took no more bytes",
                    );
                    return Err(self.write_failed(done, e));
                }
                Ok(n) => done += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.write_failed(done, e)),
            }
        }
        self.written_bytes += done as u64;
        self.buf.clear();
        Ok(())
    }

    fn write_failed(&mut self, done: usize, cause: std::io::Error) -> SigmfError {
        self.failed = true;
        let offset = self.written_bytes + done as u64;
        let item = self.codec.format().bytes_per_item() as u64;
        let whole = offset / item * item;
        if whole != offset {
            // A torn item: cut it off so the data stays whole items.
            let _ = self.file.set_len(whole);
        }
        self.written_bytes = whole;
        self.buf.clear();
        SigmfError::Write {
            file: self.data_path.clone(),
            offset,
            cause,
        }
    }

    /// Writes what is gathered and the final metadata, once. Both are
    /// attempted; the first error is returned.
    fn finalize(&mut self) -> Result<(), SigmfError> {
        if self.finalized {
            return Ok(());
        }
        self.finalized = true;
        let data = if self.failed { Ok(()) } else { self.flush() };
        let synced = self.file.sync_data().map_err(|e| SigmfError::Write {
            file: self.data_path.clone(),
            offset: self.written_bytes,
            cause: e,
        });
        let meta = self.meta().write(&self.meta_path);
        data.and(synced).and(meta)
    }
}

impl<T: SampleItem> Block for SigmfSink<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn is_blocking(&self) -> bool {
        true
    }

    fn init(&mut self) -> Result<(), BoxError> {
        // A valid recording from the start: a run killed outright still
        // leaves metadata that describes its data file.
        self.builder.meta(&self.global, 0).write(&self.meta_path)?;
        Ok(())
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        if self.failed {
            return Ok(());
        }
        let item = self.codec.format().bytes_per_item();
        let per = self.per;
        let position = self.input.position();
        let slice = self.input.slice();
        let samples = (slice.len() / per).min((FLUSH_BYTES / item).max(1));
        if samples == 0 {
            return Ok(());
        }
        let items = &slice[..samples * per];
        if T::is_passthrough(&self.codec) {
            self.buf.extend_from_slice(bytemuck::cast_slice(items));
        } else {
            let start = self.buf.len();
            self.buf.resize(start + samples * item, 0);
            T::encode(&self.codec, items, &mut self.buf[start..]);
        }
        // Tags of these items, grouped by sample.
        let end = position + (samples * per) as u64;
        let tags: Vec<Tag> = self
            .input
            .tags()
            .into_iter()
            .filter(|t| t.index < end)
            .collect();
        let mut rest = &tags[..];
        while let Some(first) = rest.first() {
            let sample = first.index / per as u64;
            let n = rest
                .iter()
                .take_while(|t| t.index / per as u64 == sample)
                .count();
            let group: Vec<&Tag> = rest[..n].iter().collect();
            self.builder.add(sample, &group)?;
            rest = &rest[n..];
        }
        self.input.consume(samples * per);
        if self.buf.len() >= FLUSH_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    fn finishing(&mut self) {
        if let Err(e) = self.finalize() {
            self.deferred.get_or_insert(e);
        }
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        if let Err(e) = self.finalize() {
            self.deferred.get_or_insert(e);
        }
        match self.deferred.take() {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }
}

/// The registry entry: `sigmf_sink`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use crate::file::{FILE_KINDS, format_of};
    use num_complex::Complex32;
    use rfgraph::registry::{BlockSpec, ParamSpec, PortItem, PortSpec};

    BlockSpec::new(
        "sigmf_sink",
        "File Operators",
        "Writes its input as a SigMF recording, tags as captures and annotations.",
        |p| {
            let kind = p.item_type()?;
            let format = format_of(p, kind)?;
            let path = p.string("path")?;
            let rate: Option<f64> = p.opt("sample_rate")?;
            let frequency: Option<f64> = p.opt("frequency")?;
            let text = |name: &str| p.opt::<String>(name);
            let (datetime, description, author, hw) = (
                text("datetime")?,
                text("description")?,
                text("author")?,
                text("hw")?,
            );
            rfgraph::for_item_kinds!(p, kind, { C32 => Complex32, F32 => f32, U8 => u8 } as T => {
                let mut sink = SigmfSink::<T>::create(&path, format).map_err(|e| p.refused(e))?;
                if let Some(r) = rate {
                    sink = sink.with_sample_rate(r);
                }
                if let Some(f) = frequency {
                    sink = sink.with_frequency(f);
                }
                if let Some(d) = datetime.clone() {
                    sink = sink.with_datetime(d);
                }
                if let Some(d) = description.clone() {
                    sink = sink.with_description(d);
                }
                if let Some(a) = author.clone() {
                    sink = sink.with_author(a);
                }
                if let Some(h) = hw.clone() {
                    sink = sink.with_hw(h);
                }
                sink
            })
        },
    )
    .doc(
        "Writes `in` as a SigMF recording: `x.sigmf-data` as items arrive and \
         `x.sigmf-meta` when the run starts and, atomically, when it ends. Tags make \
         the metadata: `core:frequency`, `core:datetime` and `core:global_index` start \
         a capture, `rfgraph:annotation`, `core:label` and `core:comment` make \
         annotations, and the first `core:sample_rate` gives the rate unless \
         `sample_rate` is set.",
    )
    .param(ParamSpec::string("path").doc("the recording: `x.sigmf-meta`, `x.sigmf-data` or `x`"))
    .param(crate::file::format_param())
    .param(
        ParamSpec::float("sample_rate")
            .optional()
            .unit("Hz")
            .doc("`core:sample_rate` (from the first tag when not set)"),
    )
    .param(
        ParamSpec::float("frequency")
            .optional()
            .unit("Hz")
            .doc("centre frequency of the first capture"),
    )
    .param(
        ParamSpec::string("datetime")
            .optional()
            .doc("`core:datetime` of the first sample (ISO 8601)"),
    )
    .param(
        ParamSpec::string("description")
            .optional()
            .doc("`core:description`"),
    )
    .param(ParamSpec::string("author").optional().doc("`core:author`"))
    .param(ParamSpec::string("hw").optional().doc("`core:hw`"))
    .param(ParamSpec::item_type(&FILE_KINDS))
    .input(PortSpec::new("in", PortItem::OfType))
}
