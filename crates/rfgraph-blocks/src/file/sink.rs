//! `FileSink`: writes a stream to a raw recording, converting on the fly.

use super::{FileError, check_file_params, check_whole_items, stored_format};
use crate::sample_format::{SampleCodec, SampleFormat, SampleItem};
use rfgraph::params::ItemKind;
use rfgraph::{Block, BoxError, ParamError, ParamSet, Ports, StreamInput, WorkIo};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The write buffer: small inputs gather here so that each `write` moves
/// a useful amount.
const BUFFER_BYTES: usize = 256 * 1024;

/// Inputs at least this large (in bytes, already in the file's format)
/// go from the ring to the file without a copy into the buffer.
const DIRECT_BYTES: usize = 64 * 1024;

/// What a sink does with an existing file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SinkMode {
    /// Start empty (create or truncate), as GNU Radio's `file_sink`.
    Truncate,
    /// Keep what is there and add at the end (create if missing). The
    /// existing length must be a whole number of items.
    Append,
}

/// The parameters of [`FileSink`] (`file_sink`, GNU Radio's
/// `blocks_file_sink`). `path` and `unbuffered` may change while it runs.
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct FileSinkParams {
    /// the file to write; a new one takes the items from the next on, the
    /// old one written out and closed complete (GNU Radio's `open`)
    #[param(alias = "file", settable)]
    pub path: String,
    /// stored sample format: cu8, cs8, cs16, cf32, f32, i16, u8 or any SigMF
    /// datatype (ci16_le, rf64_be, ...); by default the items as they are
    /// (c32: cf32, f32: f32, u8: u8)
    pub format: Option<SampleFormat>,
    /// add to the end of an existing file instead of replacing it (every
    /// file the sink opens)
    #[param(default = false)]
    pub append: bool,
    /// multiplier before rounding to an integer format (its full scale when
    /// not set)
    #[param(above = 0.0)]
    pub scale: Option<f64>,
    /// sync the data to the disk when the run ends and when a file is closed
    /// for a new one
    #[param(default = true)]
    pub sync: bool,
    /// hand every call's items to the file at once instead of gathering
    /// them (GNU Radio's `set_unbuffered`)
    #[param(default = false, settable)]
    pub unbuffered: bool,
    /// stream item type
    #[param(name = "type", kinds(C32, F32, U8))]
    pub item: ItemKind,
}

impl FileSinkParams {
    /// Writes `path`, replacing it, items as they are stored in memory
    /// (the rest at its defaults).
    pub fn new(path: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            format: None,
            append: false,
            scale: None,
            sync: true,
            unbuffered: false,
            item: ItemKind::C32,
        }
    }

    /// The rules no single parameter states: a path, a format for the
    /// item type.
    fn check(&self) -> Result<(), ParamError> {
        check_file_params("file_sink", &self.path, self.format, self.item)
    }

    /// What the sink does with an existing file.
    fn mode(&self) -> SinkMode {
        if self.append {
            SinkMode::Append
        } else {
            SinkMode::Truncate
        }
    }
}

/// Writes its input to a headerless recording of `format`: `Complex32`
/// into complex formats, `f32` into real ones (encoded by [`SampleCodec`]:
/// scaled, clipped and rounded, see [`sample_format`](crate::sample_format)),
/// or `u8` bytes as they are.
///
/// Writes are buffered (256 KiB at a time; large inputs in the
/// file's own format go straight from the ring), unless `unbuffered`.
/// Everything is written out and, unless [`sync`](Self::sync)`(false)`,
/// `sync_data`'d when the flowgraph ends, is stopped, or fails elsewhere:
/// items that reached the sink's input are never lost. A write error (a
/// full disk) fails the run with an error naming the file and the byte
/// offset; what was written before stays in the file.
///
/// As GNU Radio's `open` and `set_unbuffered`, the file and `unbuffered`
/// may change while the sink runs (see [`FileSinkParams`]): a new file is
/// created (or opened for appending) at once, a file that cannot be is
/// refused and the old one written on; otherwise the old file is written
/// out, synced and closed, and the items from the next on go to the new
/// one.
///
/// [`new`](Self::new) opens the file at once, so a path that cannot be
/// written is an error there; [`from_params`](Self::from_params) (what the
/// registry builds) opens it when the run starts.
///
/// ```no_run
/// use num_complex::Complex32;
/// use rfgraph_blocks::{FileSink, SampleFormat, SinkMode};
/// let sink = FileSink::<Complex32>::new("out.cs16", SampleFormat::CS16, SinkMode::Truncate)?;
/// # Ok::<(), rfgraph_blocks::FileError>(())
/// ```
pub struct FileSink<T: SampleItem> {
    input: StreamInput<T>,
    params: FileSinkParams,
    codec: SampleCodec,
    passthrough: bool,
    /// Bytes of one input item once encoded.
    item_bytes: usize,
    /// The file, once opened.
    out: Option<Writer>,
    /// An error closing a file the sink moved on from, returned by the
    /// next `work`.
    pending: Option<FileError>,
    /// An error from `finishing`, returned by `deinit`.
    deferred: Option<FileError>,
}

/// The file, its write buffer and where the next byte goes.
struct Writer {
    file: File,
    path: PathBuf,
    buf: Box<[u8]>,
    filled: usize,
    /// File offset of the next byte written.
    at: u64,
    /// A write failed: write nothing more.
    failed: bool,
    /// A regular file (devices and pipes cannot be synced).
    regular: bool,
}

impl Writer {
    /// Opens `path` for writing samples of `format`: truncated or appended
    /// to, by `mode`.
    ///
    /// Errors: the file cannot be created or opened; in append mode, an
    /// existing length that is not a whole number of items.
    fn open(path: &Path, format: SampleFormat, mode: SinkMode) -> Result<Self, FileError> {
        let mut options = OpenOptions::new();
        match mode {
            SinkMode::Truncate => options.write(true).create(true).truncate(true),
            SinkMode::Append => options.append(true).create(true),
        };
        let file = options.open(path).map_err(|source| FileError::Open {
            path: path.to_path_buf(),
            source,
        })?;
        let meta = file.metadata().map_err(|source| FileError::Open {
            path: path.to_path_buf(),
            source,
        })?;
        let at = match mode {
            SinkMode::Truncate => 0,
            SinkMode::Append => {
                if meta.is_file() {
                    check_whole_items(path, meta.len(), format)?;
                }
                meta.len()
            }
        };
        Ok(Writer {
            file,
            path: path.to_path_buf(),
            buf: vec![0; BUFFER_BYTES].into_boxed_slice(),
            filled: 0,
            at,
            failed: false,
            regular: meta.is_file(),
        })
    }

    /// Writes all of `bytes`, or fails naming the offset it reached.
    fn write_out(&mut self, mut bytes: &[u8]) -> Result<(), FileError> {
        while !bytes.is_empty() {
            match self.file.write(bytes) {
                Ok(0) => return Err(self.fail(io::ErrorKind::WriteZero.into())),
                Ok(n) => {
                    bytes = &bytes[n..];
                    self.at += n as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.fail(e)),
            }
        }
        Ok(())
    }

    fn fail(&mut self, source: io::Error) -> FileError {
        self.failed = true;
        FileError::Io {
            path: self.path.clone(),
            op: "writing",
            offset: self.at,
            source,
        }
    }

    fn flush(&mut self) -> Result<(), FileError> {
        if self.filled > 0 {
            let buf = std::mem::take(&mut self.buf);
            let result = self.write_out(&buf[..self.filled]);
            self.buf = buf;
            self.filled = 0;
            result?;
        }
        Ok(())
    }

    /// Appends bytes already in the file's format.
    fn push(&mut self, bytes: &[u8]) -> Result<(), FileError> {
        if self.filled + bytes.len() <= self.buf.len() {
            self.buf[self.filled..self.filled + bytes.len()].copy_from_slice(bytes);
            self.filled += bytes.len();
            return Ok(());
        }
        self.flush()?;
        if bytes.len() >= DIRECT_BYTES {
            self.write_out(bytes)
        } else {
            self.push(bytes)
        }
    }

    /// Encodes `items` (each `item_bytes` once encoded) into the buffer,
    /// writing it out whenever it fills.
    fn encode<T: SampleItem>(
        &mut self,
        codec: &SampleCodec,
        mut items: &[T],
        item_bytes: usize,
    ) -> Result<(), FileError> {
        while !items.is_empty() {
            let mut room = (self.buf.len() - self.filled) / item_bytes;
            if room == 0 {
                self.flush()?;
                room = self.buf.len() / item_bytes;
            }
            let k = room.min(items.len());
            let dst = &mut self.buf[self.filled..self.filled + k * item_bytes];
            codec.encode(&items[..k], dst);
            self.filled += k * item_bytes;
            items = &items[k..];
        }
        Ok(())
    }

    fn sync(&mut self) -> Result<(), FileError> {
        if !self.regular {
            return Ok(());
        }
        self.file.sync_data().map_err(|source| FileError::Io {
            path: self.path.clone(),
            op: "syncing",
            offset: self.at,
            source,
        })
    }
}

impl<T: SampleItem> FileSink<T> {
    /// Opens `path` for writing samples of `format`: truncated or appended
    /// to, by `mode`.
    ///
    /// Errors: the file cannot be created or opened (names the path and
    /// the reason); in append mode, an existing length that is not a whole
    /// number of items (names the byte offset); `format` does not fit `T`.
    pub fn new(
        path: impl AsRef<Path>,
        format: SampleFormat,
        mode: SinkMode,
    ) -> Result<Self, FileError> {
        let path = path.as_ref();
        T::check_format(format).map_err(|source| FileError::Format {
            path: path.to_path_buf(),
            source,
        })?;
        let params = FileSinkParams {
            format: Some(format),
            append: mode == SinkMode::Append,
            ..FileSinkParams::new(path.to_string_lossy())
        };
        let mut sink = Self::from_params(params).map_err(|e| FileError::Param {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        sink.out = Some(Writer::open(path, format, mode)?);
        Ok(sink)
    }

    /// A sink with `params`, the file opened when the run starts (the item
    /// type is `T`'s; `params.item` is what the registry builds from).
    ///
    /// Errors: a parameter out of its range, a format that does not fit
    /// `T`.
    pub fn from_params(mut params: FileSinkParams) -> Result<Self, ParamError> {
        params.item = T::KIND;
        params.validate()?;
        let format = stored_format(params.format, params.item);
        let codec = match params.scale {
            Some(scale) => SampleCodec::with_scale(format, scale)
                .map_err(|e| ParamError::new("file_sink", "scale", e.to_string()))?,
            None => SampleCodec::new(format),
        };
        Ok(Self {
            input: StreamInput::new("in"),
            passthrough: T::is_passthrough(&codec),
            item_bytes: format.bytes_per_item() / T::per_stored_item(format),
            codec,
            params,
            out: None,
            pending: None,
            deferred: None,
        })
    }

    /// [`new`](Self::new) with [`SinkMode::Truncate`].
    pub fn create(path: impl AsRef<Path>, format: SampleFormat) -> Result<Self, FileError> {
        Self::new(path, format, SinkMode::Truncate)
    }

    /// [`new`](Self::new) with [`SinkMode::Append`].
    pub fn append(path: impl AsRef<Path>, format: SampleFormat) -> Result<Self, FileError> {
        Self::new(path, format, SinkMode::Append)
    }

    /// Multiplies items by `scale` instead of the format's default before
    /// rounding (see [`SampleCodec::with_scale`]).
    ///
    /// Errors: a scale that is not a positive finite number.
    pub fn scale(mut self, scale: f64) -> Result<Self, FileError> {
        self.codec = SampleCodec::with_scale(self.codec.format(), scale).map_err(|source| {
            FileError::Format {
                path: self.path().to_path_buf(),
                source,
            }
        })?;
        self.params.scale = Some(scale);
        self.passthrough = T::is_passthrough(&self.codec);
        Ok(self)
    }

    /// Whether to `sync_data` the file when the run ends (default `true`:
    /// the samples are on the disk, not only in the page cache, when `run`
    /// returns).
    pub fn sync(mut self, on: bool) -> Self {
        self.params.sync = on;
        self
    }

    /// Hands every call's items to the file at once instead of gathering
    /// them (GNU Radio's `set_unbuffered`).
    pub fn unbuffered(mut self, on: bool) -> Self {
        self.params.unbuffered = on;
        self
    }

    /// The parameters.
    pub fn params(&self) -> &FileSinkParams {
        &self.params
    }

    /// The file.
    pub fn path(&self) -> &Path {
        match &self.out {
            Some(out) => &out.path,
            None => Path::new(&self.params.path),
        }
    }

    /// The file offset of the next byte: its length, once the run ended
    /// (0 before the file is open).
    pub fn file_len(&self) -> u64 {
        self.out.as_ref().map_or(0, |o| o.at + o.filled as u64)
    }

    /// Opens the file the parameters name now.
    fn open_path(&self) -> Result<Writer, FileError> {
        Writer::open(
            Path::new(&self.params.path),
            self.codec.format(),
            self.params.mode(),
        )
    }

    /// Writes what the input shows (buffered).
    fn take_input(&mut self) -> Result<(), FileError> {
        let items = self.input.slice();
        let n = items.len();
        if n == 0 {
            return Ok(());
        }
        let Some(out) = self.out.as_mut() else {
            return Ok(());
        };
        if self.passthrough {
            out.push(bytemuck::cast_slice(items))?;
        } else {
            out.encode(&self.codec, items, self.item_bytes)?;
        }
        self.input.consume(n);
        Ok(())
    }

    /// Writes out what is buffered, then syncs when asked to.
    fn close_out(out: &mut Writer, sync: bool) -> Result<(), FileError> {
        out.flush()?;
        if sync { out.sync() } else { Ok(()) }
    }
}

impl<T: SampleItem> Block for FileSink<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        if name == "path" {
            // The new file first: one that cannot be opened leaves the old
            // one in use.
            let new = self.open_path()?;
            if let Some(mut old) = self.out.replace(new)
                && !old.failed
                && let Err(e) = Self::close_out(&mut old, self.params.sync)
            {
                // A write error of the old file fails the run, as in `work`.
                self.pending.get_or_insert(e);
            }
        }
        Ok(())
    }

    fn is_blocking(&self) -> bool {
        true
    }

    /// It writes everything it is offered (into its buffer or the file):
    /// nothing is left for a later call.
    fn idle_when_drained(&self) -> bool {
        true
    }

    /// Creates (or opens for appending) the file, unless the constructor
    /// did.
    fn init(&mut self) -> Result<(), BoxError> {
        if self.out.is_none() {
            self.out = Some(self.open_path()?);
        }
        Ok(())
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        if let Some(e) = self.pending.take() {
            return Err(e.into());
        }
        if self.out.is_none() {
            return Err(format!("`{}` is not open", self.params.path).into());
        }
        self.take_input()?;
        if (self.params.unbuffered || self.input.is_finished())
            && let Some(out) = self.out.as_mut()
        {
            // Unbuffered, or the last call: write out now, so that an
            // error fails the run from `work`.
            out.flush()?;
        }
        Ok(())
    }

    /// However the run ends (input done, a stop, another block's failure):
    /// writes whatever reached the input and the buffer, then syncs.
    /// Errors wait for `deinit`.
    fn finishing(&mut self) {
        if self.out.as_ref().is_none_or(|o| o.failed) {
            return;
        }
        let sync = self.params.sync;
        let result = self.take_input().and_then(|()| match self.out.as_mut() {
            Some(out) => Self::close_out(out, sync),
            None => Ok(()),
        });
        if let Err(e) = result {
            self.deferred = Some(e);
        }
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        match self.pending.take().or(self.deferred.take()) {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }
}

/// The registry entry: `file_sink`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use num_complex::Complex32;
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};

    BlockSpec::of::<FileSinkParams>(
        "file_sink",
        "File Operators",
        "Writes its input to a raw recording.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { C32 => Complex32, F32 => f32, U8 => u8 } as T => {
                FileSink::<T>::from_params(p)?
            })
        },
    )
    .doc(
        "Writes `in` to a headerless recording of `format`: `c32` into complex \
         formats, `f32` into real ones (scaled, clipped and rounded for integer \
         formats), `u8` bytes as they are. GNU Radio's `blocks_file_sink` (`cf32`/`f32` \
         as in memory, the default here). The file is created (or, with `append`, \
         opened for appending) when the run starts. Everything that reached the \
         sink is written out however the run ends; a write error fails the run naming \
         the file and byte offset. As GNU Radio's `open` and `set_unbuffered`, `path` \
         and `unbuffered` may change while it runs: a new file is opened at once (one \
         that cannot be is refused, the old one written on), the old one written out, \
         synced and closed, and the items from the next on go to the new one; \
         `unbuffered` hands every call's items to the file at once.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
}
