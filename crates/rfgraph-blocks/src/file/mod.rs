//! Recordings: [`FileSource`] and [`FileSink`] read and write headerless
//! sample files in the formats real tools write (`cu8` from rtl-sdr,
//! rtl_433 and dump1090, `cs8` from the HackRF, `cs16` from USRPs and SDR++,
//! `cf32` and `f32` from GNU Radio's file sink, `i16`, `u8`, and every other
//! [`SampleFormat`]), converting to and from `Complex32` / `f32` items on the
//! fly (or passing the bytes through as `u8` items).
//!
//! GNU Radio's own file blocks live here too: [`FileMetaSource`] and
//! [`FileMetaSink`] read and write its metadata files (segments of raw
//! items, each after a header of PMTs, see [`MetaHeader`]), and
//! [`TaggedFileSink`] writes each burst of a stream to a file of its own.
//!
//! This module owns the blocks and [`FileError`]; what the bytes mean
//! (names, scaling, the conversion loops) belongs to
//! [`sample_format`](crate::sample_format). It never loads a whole file:
//! sources read what their output ring has room for, at explicit offsets
//! (`pread`); sinks write from their input ring.
//!
//! Both blocks are blocking blocks ([`Block::is_blocking`]): every
//! scheduler gives them a thread of their own, so a slow disk never stalls
//! other blocks.
//!
//! Bad input is an error that names the file and, where it applies, the
//! byte offset: a missing file, a length that is not a whole number of
//! items, an offset or length past the end, a file that shrinks while it is
//! read, a full disk. Nothing panics and nothing is silently truncated.
//!
//! [`Block::is_blocking`]: rfgraph::Block::is_blocking
//! [`SampleFormat`]: crate::SampleFormat

mod meta_header;
mod meta_sink;
mod meta_source;
mod sink;
mod source;
mod tagged_sink;

pub use meta_header::{HEADER_SIZE, MetaError, MetaHeader, VERSION, decode_extras, file_type};
pub use meta_sink::{FileMetaSink, FileMetaSinkParams};
pub use meta_source::{FileMetaSource, FileMetaSourceParams};
pub use sink::{FileSink, FileSinkParams, SinkMode};
pub use source::{FileSource, FileSourceParams};
pub use tagged_sink::{TaggedFileSink, TaggedFileSinkParams};
pub(crate) use {
    meta_sink::spec as meta_sink_spec, meta_source::spec as meta_source_spec,
    sink::spec as sink_spec, source::spec as source_spec, tagged_sink::spec as tagged_sink_spec,
};

use crate::sample_format::{SampleFormat, SampleFormatError};
use rfgraph::ParamError;
use rfgraph::params::ItemKind;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// What went wrong with a file block, naming the file.
#[derive(Debug)]
pub enum FileError {
    /// The file could not be opened (missing, no permission, a directory).
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The file's length is not a whole number of items.
    PartialItem {
        /// The file.
        path: PathBuf,
        /// Its length in bytes.
        len: u64,
        /// Where the incomplete last item starts.
        offset: u64,
        /// The format's item size.
        bytes_per_item: usize,
        /// The format.
        format: SampleFormat,
    },
    /// An offset or length (in items) that reaches past the end of the
    /// file, or a repeated range with nothing in it.
    Range {
        /// The file.
        path: PathBuf,
        /// What is wrong, with the numbers.
        reason: String,
    },
    /// The format does not fit the block's item type, or a bad scale.
    Format {
        /// The file.
        path: PathBuf,
        /// Why.
        source: SampleFormatError,
    },
    /// A parameter that cannot work (a throttle rate that is not positive).
    Param {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A GNU Radio metadata header that cannot be read, at a byte offset
    /// of the file holding it.
    Header {
        /// The file (the data file, or the detached header file).
        path: PathBuf,
        /// Where the header starts.
        offset: u64,
        /// Why.
        source: MetaError,
    },
    /// What a metadata sink cannot write: a tag value GNU Radio's header
    /// cannot hold, a header that would change its size.
    Meta {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Reading or writing failed at a byte offset (a full disk, an I/O
    /// error, a file that shrank while it was read).
    Io {
        /// The file.
        path: PathBuf,
        /// "reading", "writing" or "syncing".
        op: &'static str,
        /// The byte offset where the operation started.
        offset: u64,
        /// Why.
        source: io::Error,
    },
}

impl FileError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            FileError::Open { path, .. }
            | FileError::PartialItem { path, .. }
            | FileError::Range { path, .. }
            | FileError::Format { path, .. }
            | FileError::Param { path, .. }
            | FileError::Header { path, .. }
            | FileError::Meta { path, .. }
            | FileError::Io { path, .. } => path,
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Open { path, source } => {
                write!(f, "cannot open `{}`: {source}", path.display())
            }
            FileError::PartialItem {
                path,
                len,
                offset,
                bytes_per_item,
                format,
            } => write!(
                f,
                "`{}` is {len} bytes long, not a whole number of {bytes_per_item}-byte \
                 `{format}` items: an incomplete item starts at byte offset {offset} \
                 ({} bytes)",
                path.display(),
                len - offset
            ),
            FileError::Range { path, reason } => write!(f, "`{}`: {reason}", path.display()),
            FileError::Format { path, source } => write!(f, "`{}`: {source}", path.display()),
            FileError::Param { path, reason } => write!(f, "`{}`: {reason}", path.display()),
            FileError::Header {
                path,
                offset,
                source,
            } => write!(
                f,
                "`{}`: the metadata header at byte offset {offset}: {source}",
                path.display()
            ),
            FileError::Meta { path, reason } => write!(f, "`{}`: {reason}", path.display()),
            FileError::Io {
                path,
                op,
                offset,
                source,
            } => write!(
                f,
                "{op} `{}` at byte offset {offset} failed: {source}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::Open { source, .. } | FileError::Io { source, .. } => Some(source),
            FileError::Format { source, .. } => Some(source),
            FileError::Header { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Checks that a file of `len` bytes holds whole items of `format`.
fn check_whole_items(path: &Path, len: u64, format: SampleFormat) -> Result<u64, FileError> {
    let bpi = format.bytes_per_item() as u64;
    let partial = len % bpi;
    if partial != 0 {
        return Err(FileError::PartialItem {
            path: path.to_path_buf(),
            len,
            offset: len - partial,
            bytes_per_item: bpi as usize,
            format,
        });
    }
    Ok(len / bpi)
}

/// The sample format stored for items of `item`: `format`, or by default
/// the items as they are in memory (`c32`: `cf32`, `f32`: `f32`, `u8`:
/// `u8`).
pub(crate) fn stored_format(format: Option<SampleFormat>, item: ItemKind) -> SampleFormat {
    format.unwrap_or(match item {
        ItemKind::C32 => SampleFormat::CF32,
        ItemKind::U8 => SampleFormat::U8,
        _ => SampleFormat::F32,
    })
}

/// The rules the file blocks' `path`, `format` and `type` follow: a path
/// to name, and a format that converts to the item type (complex formats
/// to `c32`, real ones to `f32`, any to `u8`).
pub(crate) fn check_file_params(
    block: &'static str,
    path: &str,
    format: Option<SampleFormat>,
    item: ItemKind,
) -> Result<(), ParamError> {
    if path.trim().is_empty() {
        return Err(ParamError::new(block, "path", "names no file"));
    }
    let format = stored_format(format, item);
    let fits = match item {
        ItemKind::C32 => format.is_complex(),
        ItemKind::F32 => !format.is_complex(),
        _ => true,
    };
    if !fits {
        let (kind, want) = if format.is_complex() {
            ("complex", "c32")
        } else {
            ("real", "f32")
        };
        return Err(ParamError::new(
            block,
            "format",
            format!("`{format}` is {kind}: it takes `{want}` (or `u8`) items, not `{item}`"),
        ));
    }
    Ok(())
}
