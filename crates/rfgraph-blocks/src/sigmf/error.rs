//! [`SigmfError`]: every way a SigMF recording can be rejected, each naming
//! the file and where in it (a JSON path, a byte offset, an item index).
//!
//! This module owns the error type only; it never decides what is an error.

use std::path::{Path, PathBuf};
use thiserror::Error;

/// A SigMF recording that cannot be read or written as asked.
///
/// JSON paths read `global.core:datatype`, `captures[2].core:sample_start`,
/// `annotations[0]`, or `$` for the whole document.
#[derive(Debug, Error)]
pub enum SigmfError {
    /// A file could not be opened, created, inspected or renamed (a
    /// missing file is this).
    #[error("{}: {action}: {cause}", file.display())]
    Io {
        /// The file.
        file: PathBuf,
        /// What was being done (`cannot open`, `cannot create`, ...).
        action: &'static str,
        /// The operating system's error (in the message, not chained).
        cause: std::io::Error,
    },
    /// The `.sigmf-meta` file is not JSON (or not UTF-8).
    #[error(
        "{}: {path}: invalid JSON at line {line}, column {column} (byte offset {offset}): {reason}",
        file.display()
    )]
    Json {
        /// The metadata file.
        file: PathBuf,
        /// The JSON path of the innermost value being read where the text
        /// went wrong.
        path: String,
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// Byte offset of the error in the file.
        offset: u64,
        /// What the JSON parser expected.
        reason: String,
    },
    /// The metadata is JSON but not valid SigMF, or disagrees with its data
    /// file (a capture or annotation past the end of the data).
    #[error("{}: {path}: {reason}", file.display())]
    Meta {
        /// The metadata file.
        file: PathBuf,
        /// The JSON path of the offending value.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The `.sigmf-meta` file is larger than a metadata file may be.
    #[error(
        "{}: {size} bytes is more than the {limit} bytes rfgraph reads as SigMF metadata",
        file.display()
    )]
    MetaTooLarge {
        /// The metadata file.
        file: PathBuf,
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// The data file's length is not a whole number of items.
    #[error(
        "{}: {sample_bytes} bytes of samples is not a whole number of {item_bytes}-byte `{datatype}` items: \
         the last {rest} byte{}, from byte offset {offset}, {} an incomplete item",
        file.display(),
        if *.rest == 1 { "" } else { "s" },
        if *.rest == 1 { "is" } else { "are" }
    )]
    DataLength {
        /// The data file.
        file: PathBuf,
        /// The `core:datatype`.
        datatype: String,
        /// Bytes per item.
        item_bytes: usize,
        /// Bytes of sample data (the file less header and trailing bytes).
        sample_bytes: u64,
        /// Bytes of the incomplete item.
        rest: u64,
        /// Byte offset in the file where the incomplete item starts.
        offset: u64,
    },
    /// Reading the data file failed (or it ended early) at a byte offset.
    #[error("{}: reading at byte offset {offset}: {cause}", file.display())]
    Read {
        /// The data file.
        file: PathBuf,
        /// Where the read started.
        offset: u64,
        /// The operating system's error (in the message, not chained).
        cause: std::io::Error,
    },
    /// Writing a file failed (a full disk) at a byte offset.
    #[error("{}: writing at byte offset {offset}: {cause}", file.display())]
    Write {
        /// The file.
        file: PathBuf,
        /// Where the failed write started.
        offset: u64,
        /// The operating system's error (in the message, not chained).
        cause: std::io::Error,
    },
    /// The recording's datatype does not give the block's item type.
    #[error("{}: `core:datatype` `{datatype}` {reason}", file.display())]
    ItemType {
        /// The metadata file.
        file: PathBuf,
        /// The `core:datatype`.
        datatype: String,
        /// Why the item type does not fit.
        reason: String,
    },
    /// A stream tag a sink cannot record.
    #[error("{}: tag `{key}` on item {index}: {reason}", file.display())]
    Tag {
        /// The metadata file being written.
        file: PathBuf,
        /// The tag's item index.
        index: u64,
        /// The tag's key.
        key: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A file name that names no SigMF recording.
    #[error("{}: {reason}", file.display())]
    Name {
        /// The name as given.
        file: PathBuf,
        /// Why it names no recording.
        reason: String,
    },
}

impl SigmfError {
    pub(crate) fn io(file: &Path, action: &'static str, cause: std::io::Error) -> Self {
        SigmfError::Io {
            file: file.to_path_buf(),
            action,
            cause,
        }
    }

    pub(crate) fn meta(file: &Path, path: impl Into<String>, reason: impl Into<String>) -> Self {
        SigmfError::Meta {
            file: file.to_path_buf(),
            path: path.into(),
            reason: reason.into(),
        }
    }

    /// The JSON path the error names, for metadata errors.
    pub fn json_path(&self) -> Option<&str> {
        match self {
            SigmfError::Json { path, .. } | SigmfError::Meta { path, .. } => Some(path),
            _ => None,
        }
    }

    /// The byte offset the error names, for data-file errors.
    pub fn byte_offset(&self) -> Option<u64> {
        match self {
            SigmfError::DataLength { offset, .. }
            | SigmfError::Read { offset, .. }
            | SigmfError::Write { offset, .. }
            | SigmfError::Json { offset, .. } => Some(*offset),
            _ => None,
        }
    }

    /// The file the error is about.
    pub fn file(&self) -> &Path {
        match self {
            SigmfError::Io { file, .. }
            | SigmfError::Json { file, .. }
            | SigmfError::Meta { file, .. }
            | SigmfError::MetaTooLarge { file, .. }
            | SigmfError::DataLength { file, .. }
            | SigmfError::Read { file, .. }
            | SigmfError::Write { file, .. }
            | SigmfError::ItemType { file, .. }
            | SigmfError::Tag { file, .. }
            | SigmfError::Name { file, .. } => file,
        }
    }
}
