//! `FileMetaSink`: writes a stream to a GNU Radio metadata file, a new
//! segment (and header) wherever a tag changes the header or a segment
//! reaches its longest.

use super::FileError;
use super::meta_header::{GrDict, HEADER_SIZE, VERSION, file_type};
use crate::spec_util::{for_any_item, kind_of};
use rfgraph::params::{ItemKind, limits};
use rfgraph::{Block, BoxError, Item, ParamError, ParamSet, Pmt, Ports, StreamInput, WorkIo};
use std::fs::{File, OpenOptions};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// Data gathered before a write (unless `unbuffered`).
const BUFFER_BYTES: usize = 256 * 1024;

/// The parameters of [`FileMetaSink`] (`file_meta_sink`, GNU Radio's
/// `blocks_file_meta_sink`). `path` and `unbuffered` may change while it
/// runs.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct FileMetaSinkParams {
    /// the file to write (created or replaced when the run starts; with
    /// `detached`, the headers go to `<path>.hdr`); a new one takes the
    /// items from the next on after a header of the current state, the
    /// old one closed complete (GNU Radio's `open`)
    #[param(alias = "file", settable)]
    pub path: String,
    /// the `rx_rate` of the first header, in samples/s; an `rx_rate` tag
    /// replaces it (times `rel_rate`)
    #[param(default = 1.0, above = 0.0, unit = "Hz")]
    pub samp_rate: f64,
    /// the rate change from the block that sets `rx_rate` tags to this
    /// sink: a tag's rate is multiplied by it
    #[param(default = 1.0, above = 0.0, alias = "relative_rate")]
    pub rel_rate: f64,
    /// stream item type (the header's `type` and `cplx` follow from it:
    /// c32 is complex float)
    #[param(name = "type", kinds(C32, F32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// GNU Radio vector length: one file item (the header's `size`) is
    /// this many stream items
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
    /// the longest segment, in file items: a longer run goes on after a
    /// new header whose `rx_time` is moved on by the segment's duration
    #[param(default = 1_000_000, min = 1, unit = "items", alias = "max_seg_size")]
    pub max_segment_size: u64,
    /// extra entries of every header (a dict); stream tags whose keys are
    /// not the header's own add to them
    #[param(default = Pmt::Map(Default::default()))]
    pub extra_dict: Pmt,
    /// headers in a file of their own, `<path>.hdr`, the data alone in
    /// `path`
    #[param(default = false)]
    pub detached: bool,
    /// write every call's items at once instead of gathering them (GNU
    /// Radio's `set_unbuffered`)
    #[param(default = false, settable)]
    pub unbuffered: bool,
}

impl FileMetaSinkParams {
    /// Writes `path` with the rest at GNU Radio's defaults.
    pub fn new(path: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            samp_rate: 1.0,
            rel_rate: 1.0,
            item: ItemKind::C32,
            vlen: 1,
            max_segment_size: 1_000_000,
            extra_dict: Pmt::Map(Default::default()),
            detached: false,
            unbuffered: false,
        }
    }

    fn check(&self) -> Result<(), ParamError> {
        if self.path.trim().is_empty() {
            return Err(ParamError::new("file_meta_sink", "path", "names no file"));
        }
        match &self.extra_dict {
            Pmt::Map(_) | Pmt::Null => Ok(()),
            _ => Err(ParamError::new(
                "file_meta_sink",
                "extra_dict",
                "must be a dict (a map of keys to values)",
            )),
        }
    }
}

/// Writes its input to a GNU Radio metadata file, as GNU Radio's
/// `file_meta_sink` does, byte for byte: a 149-byte header (a PMT dict
/// of `version`, `rx_rate`, `rx_time`, `size`, `type`, `cplx`, `strt`,
/// `bytes`) and the extras dict before each segment of raw items, or,
/// with `detached`, the headers in `<path>.hdr` and the items alone in
/// `path`.
///
/// Every stream tag starts a new segment at its item (or, on a
/// segment's first item, updates that segment's header): a tag whose key
/// is a header field sets that field (`rx_rate` times `rel_rate`;
/// `rx_time` as `(uint64 seconds, double fraction)`), any other adds to
/// the extras of this and every later header. A segment longer than
/// `max_segment_size` goes on after a new header whose `rx_time` is moved
/// on by the segment's length over the rate. The last header gets its
/// length when the run ends, however it ends.
///
/// Where GNU Radio's own sink would corrupt the file or throw, this one
/// refuses with an error instead: an `rx_time` tag that is no pair of
/// numbers, an `rx_rate` tag that is no number, a tag that would change
/// the fixed header's 149 bytes (a `size` tag of another type). A new
/// `path` while running (GNU Radio's `open`) starts the new file with a
/// header of the current state (rate, time, extras), where GNU Radio's
/// writes none and then fails to seek; a file that cannot be created is
/// refused and the old one written on.
///
/// # Parameters
/// [`FileMetaSinkParams`].
///
/// # Stream Inputs
/// - `in`: `T`, `vlen` per file item.
///
/// # Usage
/// ```no_run
/// use num_complex::Complex32;
/// use rfgraph_blocks::{FileMetaSink, FileMetaSinkParams};
/// let sink = FileMetaSink::<Complex32>::new(FileMetaSinkParams {
///     samp_rate: 1e6,
///     ..FileMetaSinkParams::new("capture.dat")
/// })?;
/// # let _ = sink;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct FileMetaSink<T: Item> {
    input: StreamInput<T>,
    params: FileMetaSinkParams,
    writer: Option<MetaWriter>,
    /// An error from `finishing`, returned by `deinit`.
    deferred: Option<FileError>,
    /// A write failed: nothing more is written.
    failed: bool,
    /// An error closing a file the sink moved on from, returned by the
    /// next `work`.
    pending: Option<FileError>,
}

impl<T: Item> FileMetaSink<T> {
    /// A sink with `params`; the file is created when the run starts (the
    /// item type is `T`'s).
    ///
    /// Errors: a parameter out of its range, no path, an `extra_dict`
    /// that is no dict.
    pub fn new(mut params: FileMetaSinkParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in").with_min_items(params.vlen),
            params,
            writer: None,
            deferred: None,
            failed: false,
            pending: None,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &FileMetaSinkParams {
        &self.params
    }

    fn write_input(&mut self) -> Result<(), FileError> {
        let Some(w) = self.writer.as_mut() else {
            return Ok(());
        };
        let vlen = self.params.vlen;
        let start = self.input.position();
        let n = self.input.slice().len() / vlen;
        if n == 0 {
            return Ok(());
        }
        let end = start + (n * vlen) as u64;
        let tags: Vec<(u64, String, Pmt)> = self
            .input
            .tags()
            .into_iter()
            .filter(|t| t.index >= start && t.index < end)
            .map(|t| ((t.index - start) / vlen as u64, t.key, t.value))
            .collect();
        let items = &self.input.slice()[..n * vlen];
        w.write(bytemuck::cast_slice(items), &tags)?;
        if self.params.unbuffered {
            w.data.flush()?;
        }
        self.input.consume(n * vlen);
        Ok(())
    }
}

impl<T: Item> Block for FileMetaSink<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        if name == "path"
            && !self.failed
            && let Some(w) = self.writer.as_mut()
            && let Err(e) = w.switch_to(Path::new(&self.params.path), self.params.detached)?
        {
            self.pending.get_or_insert(e);
        }
        Ok(())
    }

    fn is_blocking(&self) -> bool {
        true
    }

    /// Creates the file (and header file) and writes the first header.
    fn init(&mut self) -> Result<(), BoxError> {
        let p = &self.params;
        let (kind, complex) = file_type(p.item);
        let item_size = (size_of::<T>() * p.vlen) as u64;
        self.writer = Some(MetaWriter::create(p, kind, complex, item_size)?);
        Ok(())
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        if let Some(e) = self.pending.take() {
            self.failed = true;
            return Err(e.into());
        }
        if self.failed {
            return Err("an earlier write failed".into());
        }
        let result = self.write_input();
        if result.is_err() {
            self.failed = true;
        }
        Ok(result?)
    }

    /// However the run ends: writes what reached the input and gives the
    /// last header its length (GNU Radio's `close`).
    fn finishing(&mut self) {
        if self.failed || self.writer.is_none() {
            return;
        }
        let result = self
            .write_input()
            .and_then(|()| self.writer.as_mut().map_or(Ok(()), MetaWriter::close));
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

/// A file written at explicit offsets, its tail gathered in a buffer.
struct Out {
    file: File,
    path: PathBuf,
    buf: Vec<u8>,
    /// The file offset of `buf[0]`: everything before it is written.
    buf_at: u64,
}

impl Out {
    fn create(path: &Path) -> Result<Self, FileError> {
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .map_err(|source| FileError::Open {
                path: path.to_path_buf(),
                source,
            })?;
        Ok(Self {
            file,
            path: path.to_path_buf(),
            buf: Vec::new(),
            buf_at: 0,
        })
    }

    /// Where the next appended byte goes.
    fn end(&self) -> u64 {
        self.buf_at + self.buf.len() as u64
    }

    fn append(&mut self, bytes: &[u8]) -> Result<(), FileError> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= BUFFER_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), FileError> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let mut buf = std::mem::take(&mut self.buf);
        let result = self.put(self.buf_at, &buf);
        self.buf_at += buf.len() as u64;
        buf.clear();
        self.buf = buf;
        result
    }

    /// Writes `bytes` at `at`, after what is buffered; with `tail`, the
    /// file's content ends after them.
    fn write_at(&mut self, at: u64, bytes: &[u8], tail: bool) -> Result<(), FileError> {
        self.flush()?;
        self.put(at, bytes)?;
        let end = at + bytes.len() as u64;
        if tail || end > self.buf_at {
            self.buf_at = end;
        }
        Ok(())
    }

    fn put(&self, at: u64, bytes: &[u8]) -> Result<(), FileError> {
        self.file
            .write_all_at(bytes, at)
            .map_err(|source| FileError::Io {
                path: self.path.clone(),
                op: "writing",
                offset: at,
                source,
            })
    }

    /// Writes everything out and cuts what a shorter rewrite left behind.
    fn finish(&mut self) -> Result<(), FileError> {
        self.flush()?;
        let io = |source| FileError::Io {
            path: self.path.clone(),
            op: "writing",
            offset: self.buf_at,
            source,
        };
        let len = self.file.metadata().map_err(io)?.len();
        if len > self.buf_at {
            self.file.set_len(self.buf_at).map_err(io)?;
        }
        Ok(())
    }
}

/// GNU Radio's `file_meta_sink_impl` state: the header being written, its
/// extras, the segment under way, and the files.
struct MetaWriter {
    data: Out,
    /// The header file when detached.
    hdr: Option<Out>,
    header: GrDict,
    extras: GrDict,
    extra_size: usize,
    samp_rate: f64,
    rel_rate: f64,
    item_size: u64,
    max_seg: u64,
    /// File items in the current segment (`d_total_seg_size`).
    seg: u64,
    /// Where the current header starts (in the header file when detached).
    hdr_at: u64,
}

impl MetaWriter {
    fn create(
        p: &FileMetaSinkParams,
        kind: i64,
        complex: bool,
        item_size: u64,
    ) -> Result<Self, FileError> {
        let (data, hdr) = open_outs(Path::new(&p.path), p.detached)?;
        let mut extras = GrDict::default();
        if let Pmt::Map(map) = &p.extra_dict {
            for (k, v) in map {
                extras.add(k, v.clone());
            }
        }
        let mut w = Self {
            data,
            hdr,
            header: GrDict::default(),
            extras,
            extra_size: 0,
            samp_rate: p.samp_rate,
            rel_rate: p.rel_rate,
            item_size,
            max_seg: p.max_segment_size,
            seg: 0,
            hdr_at: 0,
        };
        w.extra_size = w.encoded_extras()?.len();
        let strt = (HEADER_SIZE + w.extra_size) as u64;
        let h = &mut w.header;
        h.add("version", Pmt::I64(VERSION));
        h.add("rx_rate", Pmt::F64(p.samp_rate));
        h.add("rx_time", Pmt::Tuple(vec![Pmt::U64(0), Pmt::F64(0.0)]));
        h.add("size", Pmt::I64(item_size as i64));
        h.add("type", Pmt::I64(kind));
        h.add("cplx", Pmt::Bool(complex));
        h.add("strt", Pmt::U64(strt));
        h.add("bytes", Pmt::U64(0));
        w.write_header(0)?;
        Ok(w)
    }

    /// Moves on to a new file at `path` (GNU Radio's `open`): the new one
    /// is created first (an error leaves everything as it was), then the
    /// old one closed complete, then the new one starts with a header of
    /// the current state. Gives the error of closing the old one, if any.
    fn switch_to(
        &mut self,
        path: &Path,
        detached: bool,
    ) -> Result<Result<(), FileError>, FileError> {
        let (data, hdr) = open_outs(path, detached)?;
        let closed = self.close();
        self.data = data;
        self.hdr = hdr;
        self.seg = 0;
        self.hdr_at = 0;
        self.set_lengths(0)?;
        self.write_header(0)?;
        Ok(closed)
    }

    fn fail(&self, reason: impl Into<String>) -> FileError {
        FileError::Meta {
            path: self.data.path.clone(),
            reason: reason.into(),
        }
    }

    fn encoded_extras(&self) -> Result<Vec<u8>, FileError> {
        self.extras
            .encode()
            .map_err(|e| self.fail(format!("the extras cannot be serialized: {e}")))
    }

    /// The file the headers go to.
    fn hdr_out(&mut self) -> &mut Out {
        self.hdr.as_mut().unwrap_or(&mut self.data)
    }

    /// Writes the header and its extras at `at` of the header stream, as
    /// its last bytes (GNU Radio's `write_header`).
    fn write_header(&mut self, at: u64) -> Result<(), FileError> {
        let mut bytes = self
            .header
            .encode()
            .map_err(|e| self.fail(format!("the header cannot be serialized: {e}")))?;
        if bytes.len() != HEADER_SIZE {
            return Err(self.fail(format!(
                "a tag made the header {} bytes long instead of GNU Radio's {HEADER_SIZE}",
                bytes.len()
            )));
        }
        bytes.extend(self.encoded_extras()?);
        // Inline, a rewritten header is the file's tail only while its
        // segment holds no data; detached, always.
        let tail = self.hdr.is_some() || self.seg == 0;
        let old_end = self.hdr_out().end();
        if !tail && at + bytes.len() as u64 > old_end {
            return Err(self.fail("a header grew over its segment's data"));
        }
        self.hdr_out().write_at(at, &bytes, tail)
    }

    /// GNU Radio's `update_header`: a tag's key and value into the header
    /// (a key of its own) or the extras.
    fn update_header(&mut self, key: &str, value: Pmt) -> Result<(), FileError> {
        let value = match key {
            "rx_rate" => {
                self.samp_rate = value.as_f64().ok_or_else(|| {
                    self.fail(format!("an `rx_rate` tag of {value:?} is no number"))
                })?;
                Pmt::F64(self.samp_rate * self.rel_rate)
            }
            "rx_time" => {
                let (secs, frac) = time_of(&value).ok_or_else(|| {
                    self.fail(format!(
                        "an `rx_time` tag of {value:?} is no (uint64 seconds, double fraction)"
                    ))
                })?;
                Pmt::Tuple(vec![Pmt::U64(secs), Pmt::F64(frac)])
            }
            _ => value,
        };
        if self.header.contains(key) {
            self.header.add(key, value);
        } else {
            self.extras.add(key, value);
            self.extra_size = self.encoded_extras()?.len();
        }
        Ok(())
    }

    /// The header's `bytes` and `strt` for the segment as it is now.
    fn set_lengths(&mut self, bytes: u64) -> Result<(), FileError> {
        self.update_header("bytes", Pmt::U64(bytes))?;
        self.update_header("strt", Pmt::U64((HEADER_SIZE + self.extra_size) as u64))
    }

    /// GNU Radio's `update_last_header`: the current header rewritten with
    /// its segment's length.
    fn update_last_header(&mut self) -> Result<(), FileError> {
        self.set_lengths(self.item_size * self.seg)?;
        self.write_header(self.hdr_at)
    }

    /// GNU Radio's `write_and_update`: a new header after everything.
    fn write_and_update(&mut self) -> Result<(), FileError> {
        let seg = std::mem::replace(&mut self.seg, 0);
        self.set_lengths(0)?;
        let at = self.hdr_out().end();
        self.hdr_at = at;
        let result = self.write_header(at);
        self.seg = seg;
        result
    }

    /// GNU Radio's `update_rx_time`: `rx_time` moved on by the segment.
    fn update_rx_time(&mut self) -> Result<(), FileError> {
        let (secs, frac) = self
            .header
            .get("rx_time")
            .and_then(time_of)
            .ok_or_else(|| self.fail("the header's `rx_time` is no time"))?;
        let mut frac = frac + self.seg as f64 / (self.samp_rate * self.rel_rate);
        let whole = frac as u64;
        frac -= whole as f64;
        let time = Pmt::Tuple(vec![Pmt::U64(secs.saturating_add(whole)), Pmt::F64(frac)]);
        self.header.add("rx_time", time);
        Ok(())
    }

    /// A segment reached its longest: the next one starts after a new
    /// header.
    fn split(&mut self) -> Result<(), FileError> {
        self.update_last_header()?;
        self.update_rx_time()?;
        self.write_and_update()?;
        self.seg = 0;
        Ok(())
    }

    /// Appends up to `limit` file items of `bytes` from `*done`, at most
    /// to the segment's end.
    fn put_items(&mut self, bytes: &[u8], done: &mut u64, limit: u64) -> Result<(), FileError> {
        let k = (self.max_seg - self.seg).min(limit - *done);
        let size = self.item_size as usize;
        let from = *done as usize * size;
        self.data.append(&bytes[from..from + k as usize * size])?;
        *done += k;
        self.seg += k;
        Ok(())
    }

    /// GNU Radio's `work`: `bytes` (whole file items) with `tags` at
    /// file-item offsets into them, in order.
    fn write(&mut self, bytes: &[u8], tags: &[(u64, String, Pmt)]) -> Result<(), FileError> {
        let n = bytes.len() as u64 / self.item_size;
        let mut done = 0;
        for (at, key, value) in tags {
            while done < *at {
                self.put_items(bytes, &mut done, *at)?;
                // Only a new header when the tag is not here.
                if self.seg == self.max_seg && done < *at {
                    self.split()?;
                }
            }
            if self.seg > 0 {
                self.update_last_header()?;
                self.update_header(key, value.clone())?;
                self.write_and_update()?;
                self.seg = 0;
            } else {
                self.update_header(key, value.clone())?;
                self.update_last_header()?;
            }
        }
        while done < n {
            self.put_items(bytes, &mut done, n)?;
            if self.seg == self.max_seg {
                self.split()?;
            }
        }
        Ok(())
    }

    /// GNU Radio's `close`: the last header gets its length.
    fn close(&mut self) -> Result<(), FileError> {
        self.data.flush()?;
        self.update_last_header()?;
        self.data.finish()?;
        if let Some(hdr) = self.hdr.as_mut() {
            hdr.finish()?;
        }
        Ok(())
    }
}

/// Creates the data file at `path` and, when `detached`, `<path>.hdr`.
fn open_outs(path: &Path, detached: bool) -> Result<(Out, Option<Out>), FileError> {
    let hdr = if detached {
        let mut name = path.as_os_str().to_owned();
        name.push(".hdr");
        Some(Out::create(Path::new(&name))?)
    } else {
        None
    };
    Ok((Out::create(path)?, hdr))
}

/// An `rx_time` value as whole and fractional seconds: a tuple (or list)
/// of a non-negative integer and a number.
fn time_of(value: &Pmt) -> Option<(u64, f64)> {
    match value {
        Pmt::Tuple(v) | Pmt::List(v) if v.len() == 2 => Some((v[0].as_u64()?, v[1].as_f64()?)),
        _ => None,
    }
}

/// The registry entry: `file_meta_sink`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};

    BlockSpec::of::<FileMetaSinkParams>(
        "file_meta_sink",
        "File Operators",
        "Writes a stream to a GNU Radio metadata file.",
        |p| for_any_item!(kind = p.item, T => FileMetaSink::<T>::new(p)?),
    )
    .doc(
        "GNU Radio's `blocks_file_meta_sink`, byte for byte: segments of raw items, each \
         after a 149-byte header (a PMT dict of `version`, `rx_rate`, `rx_time`, `size`, \
         `type`, `cplx`, `strt`, `bytes`) and a dict of extras (`extra_dict` and every \
         tag whose key is not a header field); with `detached` the headers go to \
         `<path>.hdr`. A tag starts a new segment at its item: `rx_rate` (times \
         `rel_rate`) and `rx_time` update the header, other keys the extras. A segment \
         longer than `max_segment_size` items goes on after a new header whose `rx_time` \
         moves on by the segment's duration. The last header gets its length however the \
         run ends. A tag the header cannot hold (an `rx_time` that is no time) fails the \
         run instead of writing a file GNU Radio cannot read. As GNU Radio's `open` and \
         `set_unbuffered`, `path` and `unbuffered` may change while it runs: the new file \
         starts with a header of the current state, the old one is closed complete.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
}
