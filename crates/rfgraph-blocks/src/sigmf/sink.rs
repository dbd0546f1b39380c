//! [`SigmfSink`]: writes a stream as a SigMF recording.
//!
//! This block owns the data file as it grows (encoded by the sample-format
//! module, written in large chunks), the metadata's life (a valid
//! `.sigmf-meta` from `init` on, rewritten atomically when the block ends
//! however it ends), and what happens when a write fails: whole items stay
//! on disk, the metadata describes exactly them, and the run fails with
//! the file and byte offset. Tags become captures and annotations through
//! `tags::MetaBuilder`.

use super::datetime;
use super::error::SigmfError;
use super::meta::{Capture, Global, SIGMF_VERSION, SigmfMeta};
use super::recording::recording_paths;
use super::tags::{MetaBuilder, Rate};
use crate::file::stored_format;
use crate::sample_format::{SampleCodec, SampleFormat, SampleItem};
use rfgraph::params::ItemKind;
use rfgraph::{Block, BoxError, ParamError, ParamSet, Ports, StreamInput, Tag, WorkIo};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Encoded bytes gathered before a write to the data file.
const FLUSH_BYTES: usize = 1 << 20;

/// The parameters of [`SigmfSink`] (`sigmf_sink`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct SigmfSinkParams {
    /// the recording: `x.sigmf-meta`, `x.sigmf-data` or `x`
    #[param(alias = "file")]
    pub path: String,
    /// stored sample format: a SigMF datatype (`ci16_le`, `rf32_le`, ...) or
    /// a raw tool's name (`cu8`, `cs16`, ...); by default the items as they
    /// are (c32: cf32, f32: f32, u8: u8)
    pub format: Option<SampleFormat>,
    /// `core:sample_rate` (from the first tag when not set)
    #[param(unit = "Hz", above = 0.0)]
    pub sample_rate: Option<f64>,
    /// centre frequency of the first capture
    #[param(unit = "Hz")]
    pub frequency: Option<f64>,
    /// `core:datetime` of the first sample (ISO 8601)
    pub datetime: Option<String>,
    /// `core:description`
    pub description: Option<String>,
    /// `core:author`
    pub author: Option<String>,
    /// `core:hw`
    pub hw: Option<String>,
    /// stream item type
    #[param(name = "type", kinds(C32, F32, U8))]
    pub item: ItemKind,
}

impl SigmfSinkParams {
    /// Writes the recording `path` names, items as they are stored in
    /// memory (the rest at its defaults).
    pub fn new(path: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            format: None,
            sample_rate: None,
            frequency: None,
            datetime: None,
            description: None,
            author: None,
            hw: None,
            item: ItemKind::C32,
        }
    }

    /// The path names one recording, the format takes the items, the
    /// datetime is one SigMF reads back.
    fn check(&self) -> Result<(), ParamError> {
        super::source::check_path("sigmf_sink", &self.path)?;
        crate::file::check_file_params("sigmf_sink", &self.path, self.format, self.item)?;
        if let Some(d) = &self.datetime {
            datetime::check(d).map_err(|e| ParamError::new("sigmf_sink", "datetime", e))?;
        }
        Ok(())
    }
}

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
/// [`create`](Self::create) creates the data file at once, so a path that
/// cannot be written is an error there; [`from_params`](Self::from_params)
/// (what the registry builds) creates it when the run starts.
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
    params: SigmfSinkParams,
    codec: SampleCodec,
    /// Stream items per stored sample (1, or its bytes for `u8`).
    per: usize,
    meta_path: PathBuf,
    data_path: PathBuf,
    /// The data file, once created.
    file: Option<File>,
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
        let params = SigmfSinkParams {
            format: Some(datatype),
            ..SigmfSinkParams::new(path.as_ref().to_string_lossy())
        };
        let mut sink = Self::with(params, meta_path, data_path);
        sink.create_data()?;
        Ok(sink)
    }

    /// A sink with `params`, the data file created when the run starts
    /// (the item type is `T`'s; `params.item` is what the registry builds
    /// from).
    ///
    /// Errors: a parameter out of its range, a path that names no
    /// recording, a format that does not take `T` items.
    pub fn from_params(mut params: SigmfSinkParams) -> Result<Self, ParamError> {
        params.item = T::KIND;
        params.validate()?;
        let (meta_path, data_path) = recording_paths(Path::new(&params.path))
            .map_err(|e| ParamError::new("sigmf_sink", "path", e.to_string()))?;
        let mut sink = Self::with(params.clone(), meta_path, data_path);
        if let Some(rate) = params.sample_rate {
            sink = sink.with_sample_rate(rate);
        }
        if let Some(f) = params.frequency {
            sink = sink.with_frequency(f);
        }
        if let Some(d) = params.datetime {
            sink = sink.with_datetime(d);
        }
        if let Some(d) = params.description {
            sink = sink.with_description(d);
        }
        if let Some(a) = params.author {
            sink = sink.with_author(a);
        }
        if let Some(h) = params.hw {
            sink = sink.with_hw(h);
        }
        Ok(sink)
    }

    /// The sink for checked `params` and the recording's two files, the
    /// data file not created yet.
    fn with(params: SigmfSinkParams, meta_path: PathBuf, data_path: PathBuf) -> Self {
        let datatype = stored_format(params.format, params.item);
        let mut global = Global::new(datatype);
        global.recorder = Some(format!("rfgraph {}", env!("CARGO_PKG_VERSION")));
        let per = T::per_stored_item(datatype);
        Self {
            input: StreamInput::new("in").with_min_items(per),
            params,
            codec: SampleCodec::new(datatype),
            per,
            builder: MetaBuilder::new(&meta_path, Rate::FromTags(None), Vec::new()),
            meta_path,
            data_path,
            file: None,
            global,
            buf: Vec::new(),
            written_bytes: 0,
            failed: false,
            finalized: false,
            deferred: None,
        }
    }

    /// Creates (or empties) the data file.
    fn create_data(&mut self) -> Result<(), SigmfError> {
        let file = File::create(&self.data_path)
            .map_err(|e| SigmfError::io(&self.data_path, "cannot create", e))?;
        self.file = Some(file);
        Ok(())
    }

    /// Sets `core:sample_rate`; `core:sample_rate` tags are then ignored.
    pub fn with_sample_rate(mut self, rate: f64) -> Self {
        self.builder.rate = Rate::Fixed(rate);
        self.params.sample_rate = Some(rate);
        self
    }

    /// The centre frequency of the first capture (tags may change it later).
    pub fn with_frequency(mut self, hz: f64) -> Self {
        self.first_capture().frequency = Some(hz);
        self.params.frequency = Some(hz);
        self
    }

    /// The `core:datetime` of the first sample (ISO 8601, e.g.
    /// `2024-05-01T12:00:00Z`).
    pub fn with_datetime(mut self, datetime: impl Into<String>) -> Self {
        let datetime = datetime.into();
        self.first_capture().datetime = Some(datetime.clone());
        self.params.datetime = Some(datetime);
        self
    }

    /// Sets `core:description`.
    pub fn with_description(mut self, text: impl Into<String>) -> Self {
        let text = text.into();
        self.global.description = Some(text.clone());
        self.params.description = Some(text);
        self
    }

    /// Sets `core:author`.
    pub fn with_author(mut self, text: impl Into<String>) -> Self {
        let text = text.into();
        self.global.author = Some(text.clone());
        self.params.author = Some(text);
        self
    }

    /// Sets `core:hw`.
    pub fn with_hw(mut self, text: impl Into<String>) -> Self {
        let text = text.into();
        self.global.hw = Some(text.clone());
        self.params.hw = Some(text);
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
        self.params.sample_rate = global.sample_rate;
        self.params.description = self.global.description.clone();
        self.params.author = self.global.author.clone();
        self.params.hw = self.global.hw.clone();
        self
    }

    /// The parameters.
    pub fn params(&self) -> &SigmfSinkParams {
        &self.params
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
        let Some(file) = self.file.as_mut() else {
            return Ok(());
        };
        let mut done = 0;
        let mut failure = None;
        while done < self.buf.len() {
            match file.write(&self.buf[done..]) {
                Ok(0) => {
                    failure = Some(std::io::Error::new(
                        std::io::ErrorKind::WriteZero,
                        "the file took no more bytes",
                    ));
                    break;
                }
                Ok(n) => done += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        if let Some(e) = failure {
            return Err(self.write_failed(done, e));
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
        if whole != offset
            && let Some(file) = &self.file
        {
            // A torn item: cut it off so the data stays whole items.
            let _ = file.set_len(whole);
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
        if self.file.is_none() {
            // Never created: no recording to describe.
            return Ok(());
        }
        let data = if self.failed { Ok(()) } else { self.flush() };
        let synced = self
            .file
            .as_ref()
            .map_or(Ok(()), File::sync_data)
            .map_err(|e| SigmfError::Write {
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

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn is_blocking(&self) -> bool {
        true
    }

    fn init(&mut self) -> Result<(), BoxError> {
        if self.file.is_none() {
            self.create_data()?;
        }
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
    use num_complex::Complex32;
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};

    BlockSpec::of::<SigmfSinkParams>(
        "sigmf_sink",
        "File Operators",
        "Writes its input as a SigMF recording, tags as captures and annotations.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { C32 => Complex32, F32 => f32, U8 => u8 } as T => {
                SigmfSink::<T>::from_params(p)?
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
    .input(PortSpec::new("in", PortItem::OfType))
}
