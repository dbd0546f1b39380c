//! `FileSource`: plays a raw recording, converting its samples on the fly.

use super::{FileError, check_whole_items};
use crate::sample_format::{SampleCodec, SampleFormat, SampleItem};
use rfgraph::{Block, BoxError, Ports, StreamOutput, WorkIo};
use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Stored bytes converted per step: a read of this size and its output
/// stay in L2 between the kernel's copy and the conversion.
const CONVERT_CHUNK_BYTES: usize = 32 * 1024;

/// Reads a headerless recording of `format` and writes its samples as `T`:
/// `Complex32` for complex formats, `f32` for real ones (converted by
/// [`SampleCodec`], see [`sample_format`](crate::sample_format) for the
/// scaling), or `u8` for the stored bytes as they are (any format; one
/// stored item is then `format.bytes_per_item()` output items).
///
/// Offsets, lengths and the throttle rate count stored items (samples).
/// The file is never loaded: each call reads what the output has room for,
/// at an explicit offset. `cf32` into `Complex32` and `f32` into `f32` (on
/// little-endian machines, default scale) and every format into `u8` read
/// straight into the output ring; the others read into a small reusable
/// buffer and convert from there.
///
/// With [`repeat`](Self::repeat) the range plays forever (until a reader
/// stops, e.g. a `Head`); [`throttle`](Self::throttle) paces the output in
/// wall-clock time using the runtime's timer (no sleeping), like
/// composing with [`Throttle`](crate::Throttle) but without the extra
/// block and copy. [`sample_rate`](Self::sample_rate) attaches a
/// `core:sample_rate` tag to the first item.
///
/// ```no_run
/// use num_complex::Complex32;
/// use rfgraph_blocks::{FileSource, SampleFormat};
/// let src = FileSource::<Complex32>::new("capture.cu8", SampleFormat::CU8)?
///     .offset(2_400_000)? // skip the first second
///     .repeat(true)?;
/// # Ok::<(), rfgraph_blocks::FileError>(())
/// ```
pub struct FileSource<T: SampleItem> {
    output: StreamOutput<T>,
    path: PathBuf,
    file: File,
    codec: SampleCodec,
    /// The stored bytes are the output items: read straight into the ring.
    passthrough: bool,
    /// Bytes of one stored item.
    bytes_per_item: u64,
    /// Output items per stored item.
    per_item: usize,
    /// Whole stored items in the file when checked last.
    file_items: u64,
    offset: u64,
    length: Option<u64>,
    repeat: bool,
    throttle: Option<f64>,
    sample_rate: Option<f64>,
    /// Stored items read in the current pass.
    pos: u64,
    /// Stored items produced in total.
    sent: u64,
    started: Option<Instant>,
    buf: Vec<u8>,
}

impl<T: SampleItem> FileSource<T> {
    /// Opens `path` as a recording of `format`, playing all of it once.
    ///
    /// Errors: the file cannot be opened (names the path and the reason);
    /// its length is not a whole number of items (names the byte offset
    /// where the incomplete item starts); `format` does not convert to `T`
    /// (a real format for `Complex32`, a complex one for `f32`).
    pub fn new(path: impl AsRef<Path>, format: SampleFormat) -> Result<Self, FileError> {
        let path = path.as_ref().to_path_buf();
        T::check_format(format).map_err(|source| FileError::Format {
            path: path.clone(),
            source,
        })?;
        let file = File::open(&path).map_err(|source| FileError::Open {
            path: path.clone(),
            source,
        })?;
        let file_items = stat_items(&file, &path, format)?;
        let codec = SampleCodec::new(format);
        Ok(Self {
            output: StreamOutput::new("out"),
            passthrough: T::is_passthrough(&codec),
            bytes_per_item: format.bytes_per_item() as u64,
            per_item: T::per_stored_item(format),
            path,
            file,
            codec,
            file_items,
            offset: 0,
            length: None,
            repeat: false,
            throttle: None,
            sample_rate: None,
            pos: 0,
            sent: 0,
            started: None,
            buf: Vec::new(),
        })
    }

    /// Starts `items` stored items into the file (and there again on every
    /// repetition).
    ///
    /// Errors: the offset (with the length, if set) reaches past the end.
    pub fn offset(mut self, items: u64) -> Result<Self, FileError> {
        self.offset = items;
        self.check_range()?;
        Ok(self)
    }

    /// Plays `items` stored items from the offset instead of everything up
    /// to the end.
    ///
    /// Errors: offset plus length reach past the end.
    pub fn length(mut self, items: u64) -> Result<Self, FileError> {
        self.length = Some(items);
        self.check_range()?;
        Ok(self)
    }

    /// Plays the range again and again (`true`) or once (`false`, the
    /// default).
    ///
    /// Errors: repeating an empty range (it would never produce anything).
    pub fn repeat(mut self, on: bool) -> Result<Self, FileError> {
        self.repeat = on;
        self.check_range()?;
        Ok(self)
    }

    /// Divides stored values by `scale` instead of the format's default
    /// (see [`SampleCodec::with_scale`]).
    ///
    /// Errors: a scale that is not a positive finite number.
    pub fn scale(mut self, scale: f64) -> Result<Self, FileError> {
        self.codec = SampleCodec::with_scale(self.codec.format(), scale).map_err(|source| {
            FileError::Format {
                path: self.path.clone(),
                source,
            }
        })?;
        self.passthrough = T::is_passthrough(&self.codec);
        Ok(self)
    }

    /// Produces at most `items_per_second` stored items per second of wall
    /// clock, counted from the first call (as GNU Radio's throttle: a
    /// long-run average, not a smooth pace).
    ///
    /// Errors: a rate that is not a positive finite number.
    pub fn throttle(mut self, items_per_second: f64) -> Result<Self, FileError> {
        if !(items_per_second.is_finite() && items_per_second > 0.0) {
            return Err(FileError::Param {
                path: self.path.clone(),
                reason: format!(
                    "the throttle rate must be a positive number of items per second, \
                     not {items_per_second}"
                ),
            });
        }
        self.throttle = Some(items_per_second);
        Ok(self)
    }

    /// Attaches a `core:sample_rate` tag (`f64`, Hz) to the first item.
    pub fn sample_rate(mut self, hz: f64) -> Self {
        self.sample_rate = Some(hz);
        self
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The codec in use (format and scale).
    pub fn codec(&self) -> &SampleCodec {
        &self.codec
    }

    /// Stored items in one pass over the range.
    pub fn items_per_pass(&self) -> u64 {
        self.length
            .unwrap_or(self.file_items.saturating_sub(self.offset))
    }

    /// Stored items produced so far.
    pub fn items_sent(&self) -> u64 {
        self.sent
    }

    fn range_error(&self, reason: String) -> FileError {
        FileError::Range {
            path: self.path.clone(),
            reason,
        }
    }

    fn check_range(&self) -> Result<(), FileError> {
        let bpi = self.bytes_per_item;
        let fmt = self.codec.format();
        let total = self.file_items;
        if self.offset > total {
            return Err(self.range_error(format!(
                "offset {} items (byte offset {}) is past the end: the file holds {total} \
                 `{fmt}` items ({} bytes)",
                self.offset,
                self.offset * bpi,
                total * bpi
            )));
        }
        if let Some(len) = self.length
            && len > total - self.offset
        {
            return Err(self.range_error(format!(
                "offset {} plus length {len} items reach byte offset {}, past the end: the \
                 file holds {total} `{fmt}` items ({} bytes)",
                self.offset,
                (self.offset as u128 + len as u128) * bpi as u128,
                total * bpi
            )));
        }
        if self.repeat && self.items_per_pass() == 0 {
            return Err(self.range_error(format!(
                "nothing to repeat: the range from item {} holds no items",
                self.offset
            )));
        }
        Ok(())
    }
}

/// Reads `dst.len()` bytes of `file` at `at`, or fails naming the offset.
fn read_full(file: &File, path: &Path, mut dst: &mut [u8], mut at: u64) -> Result<(), FileError> {
    while !dst.is_empty() {
        match file.read_at(dst, at) {
            Ok(0) => {
                return Err(FileError::Io {
                    path: path.to_path_buf(),
                    op: "reading",
                    offset: at,
                    source: io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the file ends here: it is shorter than when it was opened",
                    ),
                });
            }
            Ok(n) => {
                dst = &mut dst[n..];
                at += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(source) => {
                return Err(FileError::Io {
                    path: path.to_path_buf(),
                    op: "reading",
                    offset: at,
                    source,
                });
            }
        }
    }
    Ok(())
}

/// Whole items of `format` in `file`, re-read from its metadata.
fn stat_items(file: &File, path: &Path, format: SampleFormat) -> Result<u64, FileError> {
    let meta = file.metadata().map_err(|source| FileError::Open {
        path: path.to_path_buf(),
        source,
    })?;
    if meta.is_dir() {
        return Err(FileError::Open {
            path: path.to_path_buf(),
            source: io::Error::new(io::ErrorKind::IsADirectory, "it is a directory"),
        });
    }
    check_whole_items(path, meta.len(), format)
}

impl<T: SampleItem> Block for FileSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn is_blocking(&self) -> bool {
        true
    }

    /// Checks the file again: it may have changed since the constructor.
    fn init(&mut self) -> Result<(), BoxError> {
        self.file_items = stat_items(&self.file, &self.path, self.codec.format())?;
        self.check_range()?;
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let pass = self.items_per_pass();
        if self.pos == pass {
            // Only an empty range played once gets here.
            io.finish();
            return Ok(());
        }
        let per = self.per_item;
        let out = self.output.slice();
        let mut n = ((out.len() / per) as u64).min(pass - self.pos);
        if let Some(rate) = self.throttle {
            let start = *self.started.get_or_insert_with(Instant::now);
            let allowed = (start.elapsed().as_secs_f64() * rate) as u64;
            let budget = allowed.saturating_sub(self.sent);
            if budget < n {
                // Come back when the next item is due.
                let due = Duration::from_secs_f64((self.sent + budget + 1) as f64 / rate);
                io.call_again_at(start + due);
                n = budget;
            }
        }
        if n == 0 {
            return Ok(());
        }
        let n = n as usize;
        let bpi = self.bytes_per_item as usize;
        let at = (self.offset + self.pos) * self.bytes_per_item;
        let out = &mut out[..n * per];
        if self.passthrough {
            read_full(&self.file, &self.path, bytemuck::cast_slice_mut(out), at)?;
        } else {
            let chunk = (CONVERT_CHUNK_BYTES / bpi).max(1);
            let mut buf = std::mem::take(&mut self.buf);
            buf.resize(chunk.min(n) * bpi, 0);
            let mut done = 0;
            let result = loop {
                if done == n {
                    break Ok(());
                }
                let k = chunk.min(n - done);
                let bytes = &mut buf[..k * bpi];
                if let Err(e) = read_full(&self.file, &self.path, bytes, at + (done * bpi) as u64) {
                    break Err(e);
                }
                self.codec
                    .decode(bytes, &mut out[done * per..(done + k) * per]);
                done += k;
            };
            self.buf = buf;
            result?;
        }
        if self.sent == 0
            && let Some(hz) = self.sample_rate
        {
            self.output.add_tag(0, "core:sample_rate", hz);
        }
        self.output.produce(n * per);
        self.pos += n as u64;
        self.sent += n as u64;
        if self.pos == pass {
            if self.repeat {
                self.pos = 0;
            } else {
                io.finish();
            }
        }
        Ok(())
    }
}

/// The registry entry: `file_source`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use super::{FILE_KINDS, format_of, format_param};
    use num_complex::Complex32;
    use rfgraph::registry::{BlockSpec, ParamSpec, PortItem, PortSpec};

    BlockSpec::new(
        "file_source",
        "File Operators",
        "Plays a raw recording, converting its samples on the fly.",
        |p| {
            let kind = p.item_type()?;
            let format = format_of(p, kind)?;
            let path = p.string("path")?;
            let (offset, repeat) = (p.u64("offset")?, p.bool("repeat")?);
            let length: Option<u64> = p.opt("length")?;
            let scale: Option<f64> = p.opt("scale")?;
            let throttle: Option<f64> = p.opt("throttle")?;
            let rate: Option<f64> = p.opt("sample_rate")?;
            rfgraph::for_item_kinds!(p, kind, { C32 => Complex32, F32 => f32, U8 => u8 } as T => {
                let fail = |e: FileError| p.refused(e);
                let mut src = FileSource::<T>::new(&path, format).map_err(fail)?.offset(offset).map_err(fail)?;
                if let Some(n) = length {
                    src = src.length(n).map_err(fail)?;
                }
                if let Some(s) = scale {
                    src = src.scale(s).map_err(fail)?;
                }
                if let Some(r) = throttle {
                    src = src.throttle(r).map_err(fail)?;
                }
                if let Some(r) = rate {
                    src = src.sample_rate(r);
                }
                src.repeat(repeat).map_err(fail)?
            })
        },
    )
    .doc(
        "Reads a headerless recording of `format` and writes its samples: `c32` for \
         complex formats, `f32` for real ones (integers scaled to about ±1, see \
         `rfgraph_blocks::sample_format`), or `u8` for the stored bytes as they are. \
         GNU Radio's `blocks_file_source` (whose files are `cf32`/`f32` as stored, the \
         default here). Offsets and lengths count stored items. The file is opened \
         when the block is built, so a missing file is an error before anything runs. \
         `throttle` paces the output in wall-clock time; `sample_rate` tags the first \
         item with `core:sample_rate`.",
    )
    .param(ParamSpec::string("path").doc("the recording"))
    .param(format_param())
    .param(ParamSpec::uint("offset").default(0u64).unit("items").doc("stored items to skip"))
    .param(ParamSpec::uint("length").optional().unit("items").doc("stored items to play (to the end when not set)"))
    .param(ParamSpec::bool("repeat").default(false).doc("play the range again and again"))
    .param(ParamSpec::float("scale").optional().doc("divisor of integer samples (the format's full scale when not set)"))
    .param(ParamSpec::float("throttle").optional().unit("items/s").doc("pace the output in wall-clock time"))
    .param(ParamSpec::float("sample_rate").optional().unit("Hz").doc("tag the first item with this rate"))
    .param(ParamSpec::item_type(&FILE_KINDS))
    .output(PortSpec::new("out", PortItem::OfType))
}
