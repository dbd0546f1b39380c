//! `FileMetaSource`: plays a GNU Radio metadata file, each header's
//! `rx_rate`, `rx_time` and extras as tags on its segment's first item.

use super::FileError;
use super::meta_header::{HEADER_SIZE, MetaError, MetaHeader, decode_extras};
use super::source::read_full;
use crate::spec_util::{for_any_item, kind_of};
use rfgraph::params::{ItemKind, limits};
use rfgraph::{Block, BoxError, Item, ParamError, ParamSet, Pmt, Ports, StreamOutput, WorkIo};
use std::fs::File;
use std::path::{Path, PathBuf};

/// The parameters of [`FileMetaSource`] (`file_meta_source`, GNU Radio's
/// `blocks_file_meta_source`). `path` and `repeat` may change while it
/// runs.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct FileMetaSourceParams {
    /// the metadata file (with `detached`, its data alone); a new one
    /// plays from its start from the next item on, its first header's
    /// tags on that item (GNU Radio's `open`)
    #[param(alias = "file", settable)]
    pub path: String,
    /// play the file again and again, its headers' tags again with each
    /// pass; a change applies at the end of the pass under way
    #[param(default = false, settable)]
    pub repeat: bool,
    /// the headers are in a file of their own (`hdr_file`)
    #[param(default = false)]
    pub detached: bool,
    /// the header file of a detached file (`<path>.hdr` when empty)
    #[param(default = "", alias = "hdr_filename")]
    pub hdr_file: String,
    /// stream item type; the header's item `size` must be its size times
    /// `vlen`
    #[param(name = "type", kinds(C32, F32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// GNU Radio vector length: stream items per file item
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
}

impl FileMetaSourceParams {
    /// Plays `path` once, inline headers, complex items.
    pub fn new(path: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            repeat: false,
            detached: false,
            hdr_file: String::new(),
            item: ItemKind::C32,
            vlen: 1,
        }
    }

    fn check(&self) -> Result<(), ParamError> {
        if self.path.trim().is_empty() {
            return Err(ParamError::new("file_meta_source", "path", "names no file"));
        }
        Ok(())
    }

    /// The file holding the headers.
    fn header_path(&self) -> PathBuf {
        if !self.detached {
            PathBuf::from(&self.path)
        } else if self.hdr_file.is_empty() {
            let mut name = Path::new(&self.path).as_os_str().to_owned();
            name.push(".hdr");
            PathBuf::from(name)
        } else {
            PathBuf::from(&self.hdr_file)
        }
    }
}

/// Reads a GNU Radio metadata file (what GNU Radio's `file_meta_sink` or
/// [`FileMetaSink`](crate::FileMetaSink) wrote) as GNU Radio's
/// `file_meta_source` does: each segment's items in turn, and on each
/// segment's first item the tags `rx_rate` (double), `rx_time` (as
/// stored: a tuple of uint64 seconds and double fractional seconds) and
/// one per entry of the header's extras. A segment of no items adds its
/// tags to the next item.
///
/// The file is untrusted: a header that is truncated, is no PMT dict,
/// lacks `rx_rate`, `rx_time`, `size` or `bytes`, holds a value of the
/// wrong type, has an item `size` other than the stream's (`T` times
/// `vlen`), or promises more data than the file holds fails the run
/// with an error naming the file and the header's byte offset, where GNU
/// Radio would end quietly, throw, or play garbage. With `repeat`, a
/// detached file starts over in both files (GNU Radio's would not reread
/// the headers), and a file with no items is an error instead of an
/// endless loop.
///
/// # Parameters
/// [`FileMetaSourceParams`].
///
/// # Stream Outputs
/// - `out`: `T`, `vlen` per file item.
///
/// # Usage
/// ```no_run
/// use num_complex::Complex32;
/// use rfgraph_blocks::{FileMetaSource, FileMetaSourceParams};
/// let src = FileMetaSource::<Complex32>::new(FileMetaSourceParams::new("capture.dat"))?;
/// # let _ = src;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct FileMetaSource<T: Item> {
    output: StreamOutput<T>,
    params: FileMetaSourceParams,
    files: Option<Files>,
    /// Bytes of one file item.
    item_size: u64,
    /// The next header's offset in the header file.
    hdr_at: u64,
    /// The next data byte's offset in the data file.
    data_at: u64,
    /// File items left in the segment.
    left: u64,
    /// Tags for the next item.
    pending: Vec<(String, Pmt)>,
    /// File items played in this pass.
    played: u64,
}

/// The open data file and, when detached, header file.
struct Files {
    data: File,
    data_path: PathBuf,
    hdr: Option<(File, PathBuf)>,
}

impl Files {
    fn header_file(&self) -> (&File, &Path) {
        match &self.hdr {
            Some((f, p)) => (f, p),
            None => (&self.data, &self.data_path),
        }
    }
}

fn open(path: &Path) -> Result<File, FileError> {
    let file = File::open(path).map_err(|source| FileError::Open {
        path: path.to_path_buf(),
        source,
    })?;
    let is_dir = file.metadata().map(|m| m.is_dir()).unwrap_or(false);
    if is_dir {
        return Err(FileError::Open {
            path: path.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::IsADirectory, "it is a directory"),
        });
    }
    Ok(file)
}

fn len_of(file: &File, path: &Path) -> Result<u64, FileError> {
    file.metadata()
        .map(|m| m.len())
        .map_err(|source| FileError::Open {
            path: path.to_path_buf(),
            source,
        })
}

impl<T: Item> FileMetaSource<T> {
    /// A source with `params`; the file is opened and its first header
    /// read when the run starts (the item type is `T`'s).
    ///
    /// Errors: a parameter out of its range, no path.
    pub fn new(mut params: FileMetaSourceParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        Ok(Self {
            output: StreamOutput::new("out").with_min_items(params.vlen),
            item_size: (size_of::<T>() * params.vlen) as u64,
            params,
            files: None,
            hdr_at: 0,
            data_at: 0,
            left: 0,
            pending: Vec::new(),
            played: 0,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &FileMetaSourceParams {
        &self.params
    }

    /// Opens the files the parameters name and reads their first header
    /// (a file without one is an error, as in GNU Radio); only then does
    /// anything change, so an error leaves the source as it was.
    fn open_files(&mut self) -> Result<(), BoxError> {
        let data_path = PathBuf::from(&self.params.path);
        let data = open(&data_path)?;
        let hdr = if self.params.detached {
            let path = self.params.header_path();
            Some((open(&path)?, path))
        } else {
            None
        };
        let old = self.files.replace(Files {
            data,
            data_path,
            hdr,
        });
        let was = (self.hdr_at, self.data_at);
        (self.hdr_at, self.data_at) = (0, 0);
        let first = match self.next_header() {
            Ok(Some(header)) => Ok(header),
            Ok(None) => Err(format!(
                "`{}` holds no metadata header",
                self.params.header_path().display()
            )
            .into()),
            Err(e) => Err(BoxError::from(e)),
        };
        match first {
            Ok(header) => {
                self.pending = header.tags();
                self.left = header.items();
                self.played = 0;
                Ok(())
            }
            Err(e) => {
                self.files = old;
                (self.hdr_at, self.data_at) = was;
                Err(e)
            }
        }
    }

    /// Reads the next header, or `None` at the end of the header file.
    fn next_header(&mut self) -> Result<Option<MetaHeader>, FileError> {
        let Some(files) = &self.files else {
            return Err(FileError::Meta {
                path: PathBuf::from(&self.params.path),
                reason: "the file is not open".into(),
            });
        };
        let (file, path) = files.header_file();
        let at = self.hdr_at;
        let bad = |source: MetaError| FileError::Header {
            path: path.to_path_buf(),
            offset: at,
            source,
        };
        let len = len_of(file, path)?;
        let left = len.saturating_sub(at);
        if left == 0 {
            return Ok(None);
        }
        if left < HEADER_SIZE as u64 {
            return Err(bad(MetaError::Truncated {
                need: HEADER_SIZE as u64,
                have: left,
            }));
        }
        let mut fixed = [0u8; HEADER_SIZE];
        read_full(file, path, &mut fixed, at)?;
        let mut header = MetaHeader::decode_fixed(&fixed).map_err(bad)?;
        if header.start > left {
            return Err(bad(MetaError::Truncated {
                need: header.start,
                have: left,
            }));
        }
        // `start <= left`, which the file backs: the allocation is bounded.
        let mut extras = vec![0u8; header.extra_len() as usize];
        read_full(file, path, &mut extras, at + HEADER_SIZE as u64)?;
        header.extras = decode_extras(&extras).map_err(bad)?;
        if header.item_size != self.item_size {
            return Err(FileError::Header {
                path: path.to_path_buf(),
                offset: at,
                source: MetaError::BadValue {
                    key: "size",
                    value: Pmt::U64(header.item_size),
                    why: "not the size of the stream's items times `vlen`",
                },
            });
        }
        self.hdr_at = at + header.start;
        if files.hdr.is_none() {
            self.data_at = self.hdr_at;
            self.hdr_at += header.bytes;
        }
        let data_len = len_of(&files.data, &files.data_path)?;
        if self.data_at.saturating_add(header.bytes) > data_len {
            return Err(FileError::Header {
                path: path.to_path_buf(),
                offset: at,
                source: MetaError::Truncated {
                    need: header.bytes,
                    have: data_len.saturating_sub(self.data_at),
                },
            });
        }
        Ok(Some(header))
    }

    /// Reads headers until a segment with items (or the end): `false` at
    /// the end of a pass.
    fn next_segment(&mut self) -> Result<bool, FileError> {
        while self.left == 0 {
            match self.next_header()? {
                Some(header) => {
                    self.pending.extend(header.tags());
                    self.left = header.items();
                }
                None => return Ok(false),
            }
        }
        Ok(true)
    }
}

impl<T: Item> Block for FileMetaSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn is_blocking(&self) -> bool {
        true
    }

    /// Opens the files and reads the first header (a file without one is
    /// an error, as in GNU Radio).
    fn init(&mut self) -> Result<(), BoxError> {
        self.open_files()
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        if name == "path" {
            self.open_files()?;
        }
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let vlen = self.params.vlen;
        loop {
            if !self.next_segment()? {
                if !self.params.repeat {
                    io.finish();
                    return Ok(());
                }
                if self.played == 0 {
                    return Err(format!(
                        "nothing to repeat: `{}` holds no items",
                        self.params.path
                    )
                    .into());
                }
                self.hdr_at = 0;
                self.data_at = 0;
                self.played = 0;
                continue;
            }
            let out = self.output.slice();
            let n = ((out.len() / vlen) as u64).min(self.left) as usize;
            if n == 0 {
                return Ok(());
            }
            let files = self.files.as_ref().expect("opened in init");
            let dst: &mut [u8] = bytemuck::cast_slice_mut(&mut out[..n * vlen]);
            read_full(&files.data, &files.data_path, dst, self.data_at)?;
            for (key, value) in self.pending.drain(..) {
                self.output.add_tag(0, &key, value);
            }
            self.output.produce(n * vlen);
            self.left -= n as u64;
            self.data_at += n as u64 * self.item_size;
            self.played += n as u64;
        }
    }
}

/// The registry entry: `file_meta_source`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};

    BlockSpec::of::<FileMetaSourceParams>(
        "file_meta_source",
        "File Operators",
        "Plays a GNU Radio metadata file, its headers as tags.",
        |p| for_any_item!(kind = p.item, T => FileMetaSource::<T>::new(p)?),
    )
    .doc(
        "GNU Radio's `blocks_file_meta_source`: the items of each segment of a metadata \
         file (inline headers, or `detached` in `hdr_file`, by default `<path>.hdr`), with \
         `rx_rate`, `rx_time` and each extra of the segment's header as tags on its first \
         item. The header's item `size` must be the stream's (`type` times `vlen`). A \
         header that is truncated, malformed or promises more data than the file holds \
         fails the run naming the file and byte offset. `repeat` plays the file again, \
         tags and all. As GNU Radio's `open`, `path` and `repeat` may change while it runs: \
         a new file is opened and its first header read at once (one that cannot be is \
         refused, the old one plays on) and plays from the next item on.",
    )
    .output(PortSpec::new("out", PortItem::OfType))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_detached_header_file_defaults_to_the_data_file_plus_hdr() {
        let mut p = FileMetaSourceParams::new("/tmp/x.dat");
        assert_eq!(p.header_path(), PathBuf::from("/tmp/x.dat"));
        p.detached = true;
        assert_eq!(p.header_path(), PathBuf::from("/tmp/x.dat.hdr"));
        p.hdr_file = "/tmp/h".into();
        assert_eq!(p.header_path(), PathBuf::from("/tmp/h"));
    }
}
