//! `FileSource`: plays a raw recording, converting its samples on the fly.

use super::{FileError, check_file_params, check_whole_items, stored_format};
use crate::pace::{Pacer, piece_items};
use crate::sample_format::{SampleCodec, SampleFormat, SampleItem};
use crate::throttle::{DEFAULT_CHUNK, MAX_CHUNK};
use rfgraph::params::ItemKind;
use rfgraph::{Block, BoxError, ParamError, ParamSet, Pmt, Ports, StreamOutput, WorkIo};
use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// Stored bytes converted per step: a read of this size and its output
/// stay in L2 between the kernel's copy and the conversion.
const CONVERT_CHUNK_BYTES: usize = 32 * 1024;

/// Output bytes an unthrottled source asks its ring to take at once (its
/// output's `min_items`): what `cat` reads per call. A scheduler that
/// sizes rings for L1 (`chain`) would otherwise have the source read a
/// few KiB per system call, paying the call and the page-cache look-up
/// per few pages instead of per 32.
const READ_PIECE_BYTES: usize = 128 * 1024;

/// The output port of a source with `params`: unthrottled, it needs
/// [`READ_PIECE_BYTES`] of room; throttled, one item (a paced source's
/// ring is sized for latency, not for throughput).
fn output_port<T: SampleItem>(params: &FileSourceParams) -> StreamOutput<T> {
    let out = StreamOutput::new("out");
    if params.throttle.is_some() {
        out
    } else {
        out.with_min_items((READ_PIECE_BYTES / std::mem::size_of::<T>()).max(1))
    }
}

/// The parameters of [`FileSource`] (`file_source`, GNU Radio's
/// `blocks_file_source`). `path`, `repeat` and `begin_tag` may change
/// while it runs.
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct FileSourceParams {
    /// the recording; a new one plays from `offset` from the next item on,
    /// the old one closed (GNU Radio's `open`)
    #[param(alias = "file", settable)]
    pub path: String,
    /// stored sample format: cu8, cs8, cs16, cf32, f32, i16, u8 or any SigMF
    /// datatype (ci16_le, rf64_be, ...); by default the items as they are
    /// (c32: cf32, f32: f32, u8: u8)
    pub format: Option<SampleFormat>,
    /// stored items to skip, in every pass and every file
    #[param(default = 0, unit = "items")]
    pub offset: u64,
    /// stored items to play (to the end when not set)
    #[param(unit = "items")]
    pub length: Option<u64>,
    /// play the range again and again; a change applies at the end of the
    /// pass under way
    #[param(default = false, settable)]
    pub repeat: bool,
    /// divisor of integer samples (the format's full scale when not set)
    #[param(above = 0.0)]
    pub scale: Option<f64>,
    /// pace the output in wall-clock time
    #[param(unit = "items/s", above = 0.0)]
    pub throttle: Option<f64>,
    /// seconds of items the throttle releases at once, when the last of
    /// them is due (at least one item; 0: every item on its own)
    #[param(default = DEFAULT_CHUNK, unit = "s", min = 0.0, max = MAX_CHUNK)]
    pub throttle_chunk: f64,
    /// tag the first item with this rate (`core:sample_rate`)
    #[param(unit = "Hz", above = 0.0)]
    pub sample_rate: Option<f64>,
    /// tag the first item of every pass with this key and the number of
    /// passes repeated before it while it was set (GNU Radio's begin tag);
    /// no tag when not set
    #[param(settable)]
    pub begin_tag: Option<String>,
    /// stream item type
    #[param(name = "type", kinds(C32, F32, U8))]
    pub item: ItemKind,
}

impl FileSourceParams {
    /// Plays all of `path` once, its items as they are stored in memory
    /// (the rest at its defaults).
    pub fn new(path: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            format: None,
            offset: 0,
            length: None,
            repeat: false,
            scale: None,
            throttle: None,
            throttle_chunk: DEFAULT_CHUNK,
            sample_rate: None,
            begin_tag: None,
            item: ItemKind::C32,
        }
    }

    /// The rules no single parameter states: a path, a format for the
    /// item type.
    fn check(&self) -> Result<(), ParamError> {
        check_file_params("file_source", &self.path, self.format, self.item)
    }

    /// The format stored items are in.
    fn stored_format(&self) -> SampleFormat {
        stored_format(self.format, self.item)
    }
}

/// An open recording.
struct Opened {
    file: File,
    path: PathBuf,
    /// Whole stored items in the file when checked last.
    items: u64,
}

impl Opened {
    /// Opens `path` and counts its items of `format`.
    ///
    /// Errors: the file cannot be opened, is a directory, or does not hold
    /// a whole number of items.
    fn open(path: &Path, format: SampleFormat) -> Result<Self, FileError> {
        let file = File::open(path).map_err(|source| FileError::Open {
            path: path.to_path_buf(),
            source,
        })?;
        let items = stat_items(&file, path, format)?;
        Ok(Self {
            file,
            path: path.to_path_buf(),
            items,
        })
    }
}

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
/// The source runs on its scheduler's workers, not on a thread of its own
/// (see [`is_blocking`](Block::is_blocking)), and unthrottled it asks for
/// 128 KiB of room at a time (its output's `min_items`), as `cat` reads:
/// a ring sized for L1 would otherwise cost a system call per few KiB.
///
/// With [`repeat`](Self::repeat) the range plays forever (until a reader
/// stops, e.g. a `Head`); [`throttle`](Self::throttle) paces the output in
/// wall-clock time using the runtime's timer (no sleeping), like
/// composing with [`Throttle`](crate::Throttle) but without the extra
/// block and copy. [`sample_rate`](Self::sample_rate) attaches a
/// `core:sample_rate` tag to the first item.
///
/// As GNU Radio's `open` and `set_begin_tag`, the file, `repeat` and the
/// begin tag may change while the source runs (see
/// [`FileSourceParams`]): a new file is opened and checked at once (a
/// file that cannot play is refused and the old one plays on) and plays
/// from the next item on.
///
/// [`new`](Self::new) opens the file at once, so a missing file is an
/// error there; [`from_params`](Self::from_params) (what the registry
/// builds) opens it when the run starts.
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
    params: FileSourceParams,
    codec: SampleCodec,
    /// The stored bytes are the output items: read straight into the ring.
    passthrough: bool,
    /// Bytes of one stored item.
    bytes_per_item: u64,
    /// Output items per stored item.
    per_item: usize,
    /// The recording, once opened.
    opened: Option<Opened>,
    /// Stored items read in the current pass.
    pos: u64,
    /// Stored items produced in total.
    sent: u64,
    /// The throttle's schedule.
    pacer: Pacer,
    buf: Vec<u8>,
    /// The value of the next begin tag: passes repeated while it was set.
    passes: i64,
}

impl<T: SampleItem> FileSource<T> {
    /// Opens `path` as a recording of `format`, playing all of it once.
    ///
    /// Errors: the file cannot be opened (names the path and the reason);
    /// its length is not a whole number of items (names the byte offset
    /// where the incomplete item starts); `format` does not convert to `T`
    /// (a real format for `Complex32`, a complex one for `f32`).
    pub fn new(path: impl AsRef<Path>, format: SampleFormat) -> Result<Self, FileError> {
        let path = path.as_ref();
        T::check_format(format).map_err(|source| FileError::Format {
            path: path.to_path_buf(),
            source,
        })?;
        let params = FileSourceParams {
            format: Some(format),
            ..FileSourceParams::new(path.to_string_lossy())
        };
        let mut src = Self::from_params(params).map_err(|e| FileError::Param {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        src.opened = Some(Opened::open(path, format)?);
        Ok(src)
    }

    /// A source with `params`, the file opened when the run starts (the
    /// item type is `T`'s; `params.item` is what the registry builds from).
    ///
    /// Errors: a parameter out of its range, a format that does not convert
    /// to `T`.
    pub fn from_params(mut params: FileSourceParams) -> Result<Self, ParamError> {
        params.item = T::KIND;
        params.validate()?;
        let format = params.stored_format();
        let codec = match params.scale {
            Some(scale) => SampleCodec::with_scale(format, scale)
                .map_err(|e| ParamError::new("file_source", "scale", e.to_string()))?,
            None => SampleCodec::new(format),
        };
        Ok(Self {
            output: output_port::<T>(&params),
            passthrough: T::is_passthrough(&codec),
            bytes_per_item: format.bytes_per_item() as u64,
            per_item: T::per_stored_item(format),
            codec,
            params,
            opened: None,
            pos: 0,
            sent: 0,
            pacer: Pacer::default(),
            buf: Vec::new(),
            passes: 0,
        })
    }

    /// `self` with parameters changed by `change`, checked, and the range
    /// checked against the file when it is open.
    fn adjusted(mut self, change: impl FnOnce(&mut FileSourceParams)) -> Result<Self, FileError> {
        change(&mut self.params);
        self.params.validate().map_err(|e| FileError::Param {
            path: self.path().to_path_buf(),
            reason: e.to_string(),
        })?;
        self.check_range()?;
        Ok(self)
    }

    /// Starts `items` stored items into the file (and there again on every
    /// repetition).
    ///
    /// Errors: the offset (with the length, if set) reaches past the end.
    pub fn offset(self, items: u64) -> Result<Self, FileError> {
        self.adjusted(|p| p.offset = items)
    }

    /// Plays `items` stored items from the offset instead of everything up
    /// to the end.
    ///
    /// Errors: offset plus length reach past the end.
    pub fn length(self, items: u64) -> Result<Self, FileError> {
        self.adjusted(|p| p.length = Some(items))
    }

    /// Plays the range again and again (`true`) or once (`false`, the
    /// default).
    ///
    /// Errors: repeating an empty range (it would never produce anything).
    pub fn repeat(self, on: bool) -> Result<Self, FileError> {
        self.adjusted(|p| p.repeat = on)
    }

    /// Divides stored values by `scale` instead of the format's default
    /// (see [`SampleCodec::with_scale`]).
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

    /// Produces at most `items_per_second` stored items per second of wall
    /// clock, counted from the first call (as GNU Radio's throttle: a
    /// long-run average, not a smooth pace), in pieces of
    /// [`throttle_chunk`](Self::throttle_chunk) seconds.
    ///
    /// Errors: a rate that is not a positive finite number.
    pub fn throttle(self, items_per_second: f64) -> Result<Self, FileError> {
        if !(items_per_second.is_finite() && items_per_second > 0.0) {
            return Err(FileError::Param {
                path: self.path().to_path_buf(),
                reason: format!(
                    "the throttle rate must be a positive number of items per second, \
                     not {items_per_second}"
                ),
            });
        }
        let mut src = self.adjusted(|p| p.throttle = Some(items_per_second))?;
        src.output = output_port::<T>(&src.params);
        Ok(src)
    }

    /// Releases the throttled items in pieces of `seconds` (1 ms by
    /// default): each piece goes out when its last item is due, so the
    /// source wakes once a piece (at least one item; 0: every item on its
    /// own).
    ///
    /// Errors: a length that is not from 0 to 1 s.
    pub fn throttle_chunk(self, seconds: f64) -> Result<Self, FileError> {
        self.adjusted(|p| p.throttle_chunk = seconds)
    }

    /// Attaches a `core:sample_rate` tag (`f64`, Hz) to the first item.
    pub fn sample_rate(mut self, hz: f64) -> Self {
        self.params.sample_rate = Some(hz);
        self
    }

    /// Tags the first item of every pass with `key` (GNU Radio's
    /// `set_begin_tag`); see [`FileSourceParams::begin_tag`].
    pub fn begin_tag(mut self, key: impl Into<String>) -> Self {
        self.params.begin_tag = Some(key.into());
        self
    }

    /// The parameters.
    pub fn params(&self) -> &FileSourceParams {
        &self.params
    }

    /// The file.
    pub fn path(&self) -> &Path {
        match &self.opened {
            Some(o) => &o.path,
            None => Path::new(&self.params.path),
        }
    }

    /// The codec in use (format and scale).
    pub fn codec(&self) -> &SampleCodec {
        &self.codec
    }

    /// Stored items in one pass over the range (0 before the file is open).
    pub fn items_per_pass(&self) -> u64 {
        let total = self.opened.as_ref().map_or(0, |o| o.items);
        self.params
            .length
            .unwrap_or(total.saturating_sub(self.params.offset))
    }

    /// Stored items produced so far.
    pub fn items_sent(&self) -> u64 {
        self.sent
    }

    /// Checks the range against the open file (nothing to check before it
    /// is open).
    fn check_range(&self) -> Result<(), FileError> {
        match &self.opened {
            Some(o) => self.check_range_of(o),
            None => Ok(()),
        }
    }

    /// Checks offset, length and repeat against the recording `o`.
    fn check_range_of(&self, o: &Opened) -> Result<(), FileError> {
        let bpi = self.bytes_per_item as u128;
        let fmt = self.codec.format();
        let total = o.items;
        let (offset, length) = (self.params.offset, self.params.length);
        let fail = |reason: String| FileError::Range {
            path: o.path.clone(),
            reason,
        };
        if offset > total {
            return Err(fail(format!(
                "offset {offset} items (byte offset {}) is past the end: the file holds \
                 {total} `{fmt}` items ({} bytes)",
                offset as u128 * bpi,
                total as u128 * bpi
            )));
        }
        if let Some(len) = length
            && len > total - offset
        {
            return Err(fail(format!(
                "offset {offset} plus length {len} items reach byte offset {}, past the end: \
                 the file holds {total} `{fmt}` items ({} bytes)",
                (offset as u128 + len as u128) * bpi,
                total as u128 * bpi
            )));
        }
        if self.params.repeat && length.unwrap_or(total - offset) == 0 {
            return Err(fail(format!(
                "nothing to repeat: the range from item {offset} holds no items"
            )));
        }
        Ok(())
    }

    /// Opens the recording the parameters name now, checked for the
    /// range.
    fn open_path(&self) -> Result<Opened, FileError> {
        let opened = Opened::open(Path::new(&self.params.path), self.codec.format())?;
        self.check_range_of(&opened)?;
        Ok(opened)
    }
}

/// Reads `dst.len()` bytes of `file` at `at`, or fails naming the offset.
pub(super) fn read_full(
    file: &File,
    path: &Path,
    mut dst: &mut [u8],
    mut at: u64,
) -> Result<(), FileError> {
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

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        match name {
            "path" => {
                // Opened and checked before anything changes: a file that
                // cannot play leaves the old one playing.
                let opened = self.open_path()?;
                self.opened = Some(opened);
                self.pos = 0;
            }
            "repeat" => self.check_range()?,
            _ => {}
        }
        Ok(())
    }

    /// False: a regular file's reads come from the page cache (or wait
    /// briefly for the disk, the kernel reading ahead of a sequential
    /// reader), as [`FileSink`](crate::FileSink)'s writes go to it. A
    /// thread of its own would cost a wake-up and two context switches
    /// per ring's worth on a busy core: on one core, most of a receiver's
    /// system time. [`Flowgraph::set_blocking`](rfgraph::Flowgraph::set_blocking)
    /// gives it one anyway (a file on a slow network share).
    fn is_blocking(&self) -> bool {
        false
    }

    fn paced_rate(&self) -> Option<f64> {
        self.params.throttle
    }

    /// Opens the file, or checks it again when it is open already: it may
    /// have changed since the constructor.
    fn init(&mut self) -> Result<(), BoxError> {
        match &mut self.opened {
            Some(o) => {
                o.items = stat_items(&o.file, &o.path, self.codec.format())?;
                self.check_range()?;
            }
            None => self.opened = Some(self.open_path()?),
        }
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let pass = self.items_per_pass();
        let Some(opened) = &self.opened else {
            return Err(format!("`{}` is not open", self.params.path).into());
        };
        if self.pos == pass {
            // Only an empty range played once gets here.
            io.finish();
            return Ok(());
        }
        let per = self.per_item;
        let out = self.output.slice();
        let mut n = ((out.len() / per) as u64).min(pass - self.pos);
        if let Some(rate) = self.params.throttle {
            // At most what the output holds now: a larger piece would
            // never fill at high rates.
            let piece = piece_items(rate, self.params.throttle_chunk, 1).min(n.max(1));
            let budget = self.pacer.budget(rate, piece);
            let limited = budget < n;
            n = n.min(budget);
            self.pacer.pass(n);
            if limited {
                // Come back when the next piece is due.
                self.pacer.wake_for_next_piece(rate, piece, io);
            }
        }
        if n == 0 {
            return Ok(());
        }
        let n = n as usize;
        let bpi = self.bytes_per_item as usize;
        let at = (self.params.offset + self.pos) * self.bytes_per_item;
        let out = &mut out[..n * per];
        if self.passthrough {
            read_full(
                &opened.file,
                &opened.path,
                bytemuck::cast_slice_mut(out),
                at,
            )?;
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
                if let Err(e) =
                    read_full(&opened.file, &opened.path, bytes, at + (done * bpi) as u64)
                {
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
            && let Some(hz) = self.params.sample_rate
        {
            self.output.add_tag(0, "core:sample_rate", hz);
        }
        if self.pos == 0
            && let Some(key) = &self.params.begin_tag
        {
            self.output.add_tag(0, key, Pmt::I64(self.passes));
        }
        self.output.produce(n * per);
        self.pos += n as u64;
        self.sent += n as u64;
        if self.pos == pass {
            if self.params.repeat {
                self.pos = 0;
                if self.params.begin_tag.is_some() {
                    self.passes += 1;
                }
            } else {
                io.finish();
            }
        }
        Ok(())
    }
}

/// The registry entry: `file_source`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use num_complex::Complex32;
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};

    BlockSpec::of::<FileSourceParams>(
        "file_source",
        "File Operators",
        "Plays a raw recording, converting its samples on the fly.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { C32 => Complex32, F32 => f32, U8 => u8 } as T => {
                FileSource::<T>::from_params(p)?
            })
        },
    )
    .doc(
        "Reads a headerless recording of `format` and writes its samples: `c32` for \
         complex formats, `f32` for real ones (integers scaled to about ±1, see \
         `rfgraph_blocks::sample_format`), or `u8` for the stored bytes as they are. \
         GNU Radio's `blocks_file_source` (whose files are `cf32`/`f32` as stored, the \
         default here). Offsets and lengths count stored items. The file is opened \
         when the run starts, so a missing file fails the run before anything runs. \
         `throttle` paces the output in wall-clock time, in pieces of `throttle_chunk` \
         seconds (1 ms by default), each released when its last item is due; `sample_rate` tags the first \
         item with `core:sample_rate`. As GNU Radio's `open` and `set_begin_tag`, \
         `path`, `repeat` and `begin_tag` may change while it runs: a new file is \
         opened and checked at once and plays from `offset` from the next item on (a \
         file that cannot play is refused; the old one plays on), a change of `repeat` \
         applies at the end of the pass under way (GNU Radio's `open` would restart \
         the file), and `begin_tag` tags the first item of every pass that starts \
         while it is set.",
    )
    .output(PortSpec::new("out", PortItem::OfType))
}
