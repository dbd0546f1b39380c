//! `FileSink`: writes a stream to a raw recording, converting on the fly.

use super::{FileError, check_whole_items};
use crate::sample_format::{SampleCodec, SampleFormat, SampleItem};
use rfgraph::{Block, BoxError, Ports, StreamInput, WorkIo};
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

/// Writes its input to a headerless recording of `format`: `Complex32`
/// into complex formats, `f32` into real ones (encoded by [`SampleCodec`]:
/// scaled, clipped and rounded, see [`sample_format`](crate::sample_format)),
/// or `u8` bytes as they are.
///
/// Writes are buffered (256 KiB at a time; large inputs in the
/// file's own format go straight from the ring). Everything is written out
/// and, unless [`sync`](Self::sync)`(false)`, `sync_data`'d when the
/// flowgraph ends, is stopped, or fails elsewhere: items that reached the
/// sink's input are never lost. A write error (a full disk) fails the run
/// with an error naming the file and the byte offset; what was written
/// before stays in the file.
///
/// ```no_run
/// use num_complex::Complex32;
/// use rfgraph_blocks::{FileSink, SampleFormat, SinkMode};
/// let sink = FileSink::<Complex32>::new("out.cs16", SampleFormat::CS16, SinkMode::Truncate)?;
/// # Ok::<(), rfgraph_blocks::FileError>(())
/// ```
pub struct FileSink<T: SampleItem> {
    input: StreamInput<T>,
    codec: SampleCodec,
    passthrough: bool,
    /// Bytes of one input item once encoded.
    item_bytes: usize,
    sync: bool,
    out: Writer,
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
        let path = path.as_ref().to_path_buf();
        T::check_format(format).map_err(|source| FileError::Format {
            path: path.clone(),
            source,
        })?;
        let mut options = OpenOptions::new();
        match mode {
            SinkMode::Truncate => options.write(true).create(true).truncate(true),
            SinkMode::Append => options.append(true).create(true),
        };
        let file = options.open(&path).map_err(|source| FileError::Open {
            path: path.clone(),
            source,
        })?;
        let meta = file.metadata().map_err(|source| FileError::Open {
            path: path.clone(),
            source,
        })?;
        let at = match mode {
            SinkMode::Truncate => 0,
            SinkMode::Append => {
                if meta.is_file() {
                    check_whole_items(&path, meta.len(), format)?;
                }
                meta.len()
            }
        };
        let codec = SampleCodec::new(format);
        Ok(Self {
            input: StreamInput::new("in"),
            passthrough: T::is_passthrough(&codec),
            item_bytes: format.bytes_per_item() / T::per_stored_item(format),
            codec,
            sync: true,
            out: Writer {
                file,
                path,
                buf: vec![0; BUFFER_BYTES].into_boxed_slice(),
                filled: 0,
                at,
                failed: false,
                regular: meta.is_file(),
            },
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
                path: self.out.path.clone(),
                source,
            }
        })?;
        self.passthrough = T::is_passthrough(&self.codec);
        Ok(self)
    }

    /// Whether to `sync_data` the file when the run ends (default `true`:
    /// the samples are on the disk, not only in the page cache, when `run`
    /// returns).
    pub fn sync(mut self, on: bool) -> Self {
        self.sync = on;
        self
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.out.path
    }

    /// The file offset of the next byte: its length, once the run ended.
    pub fn file_len(&self) -> u64 {
        self.out.at + self.out.filled as u64
    }

    /// Writes what the input shows (buffered).
    fn take_input(&mut self) -> Result<(), FileError> {
        let items = self.input.slice();
        let n = items.len();
        if n == 0 {
            return Ok(());
        }
        if self.passthrough {
            self.out.push(bytemuck::cast_slice(items))?;
        } else {
            self.out.encode(&self.codec, items, self.item_bytes)?;
        }
        self.input.consume(n);
        Ok(())
    }
}

impl<T: SampleItem> Block for FileSink<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn is_blocking(&self) -> bool {
        true
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        self.take_input()?;
        if self.input.is_finished() {
            // The last call: write out now, so that an error fails the
            // run from `work`.
            self.out.flush()?;
        }
        Ok(())
    }

    /// However the run ends (input done, a stop, another block's failure):
    /// writes whatever reached the input and the buffer, then syncs.
    /// Errors wait for `deinit`.
    fn finishing(&mut self) {
        if self.out.failed {
            return;
        }
        let result = self
            .take_input()
            .and_then(|()| self.out.flush())
            .and_then(|()| if self.sync { self.out.sync() } else { Ok(()) });
        if let Err(e) = result {
            self.deferred = Some(e);
        }
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        match self.deferred.take() {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }
}

/// The registry entry: `file_sink`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use super::{FILE_KINDS, format_of, format_param};
    use num_complex::Complex32;
    use rfgraph::registry::{BlockSpec, ParamSpec, PortItem, PortSpec};

    BlockSpec::new(
        "file_sink",
        "File Operators",
        "Writes its input to a raw recording.",
        |p| {
            let kind = p.item_type()?;
            let format = format_of(p, kind)?;
            let path = p.string("path")?;
            let mode = if p.bool("append")? {
                SinkMode::Append
            } else {
                SinkMode::Truncate
            };
            let scale: Option<f64> = p.opt("scale")?;
            let sync = p.bool("sync")?;
            rfgraph::for_item_kinds!(p, kind, { C32 => Complex32, F32 => f32, U8 => u8 } as T => {
                let fail = |e: FileError| p.refused(e);
                let mut sink = FileSink::<T>::new(&path, format, mode).map_err(fail)?;
                if let Some(s) = scale {
                    sink = sink.scale(s).map_err(fail)?;
                }
                sink.sync(sync)
            })
        },
    )
    .doc(
        "Writes `in` to a headerless recording of `format`: `c32` into complex \
         formats, `f32` into real ones (scaled, clipped and rounded for integer \
         formats), `u8` bytes as they are. GNU Radio's `blocks_file_sink` (`cf32`/`f32` \
         as in memory, the default here). The file is created (or, with `append`, \
         opened for appending) when the block is built. Everything that reached the \
         sink is written out however the run ends; a write error fails the run naming \
         the file and byte offset.",
    )
    .param(ParamSpec::string("path").doc("the file to write"))
    .param(format_param())
    .param(
        ParamSpec::bool("append")
            .default(false)
            .doc("add to the end of an existing file instead of replacing it"),
    )
    .param(
        ParamSpec::float("scale")
            .optional()
            .doc("multiplier before rounding to an integer format (its full scale when not set)"),
    )
    .param(
        ParamSpec::bool("sync")
            .default(true)
            .doc("sync the data to the disk when the run ends"),
    )
    .param(ParamSpec::item_type(&FILE_KINDS))
    .input(PortSpec::new("in", PortItem::OfType))
}
