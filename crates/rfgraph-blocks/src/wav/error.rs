//! `WavError`: everything that can go wrong opening, reading or writing a
//! WAV file, each naming the file.

use std::path::PathBuf;

/// An error of [`WavSource`](super::WavSource) or
/// [`WavSink`](super::WavSink); each names the file.
#[derive(Debug, thiserror::Error)]
pub enum WavError {
    /// The file could not be opened or created.
    #[error("{}: cannot {action}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What was tried (`open`, `create`, `rewind`).
        action: &'static str,
        /// Why it failed.
        source: std::io::Error,
    },
    /// The file is not a WAV file, or its header is malformed.
    #[error("{}: not a valid WAV file (near byte offset {offset}): {reason}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// How far the header was read when the problem showed.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// A well-formed WAV file in an encoding these blocks do not read.
    #[error(
        "{}: unsupported WAV encoding: {what} (rfgraph reads 8-, 16-, 24- and 32-bit integer PCM and 32-bit float)",
        path.display()
    )]
    Unsupported {
        /// The file.
        path: PathBuf,
        /// The encoding found.
        what: String,
    },
    /// Reading the samples failed.
    #[error("{}: cannot read frame {frame} (byte offset {offset}): {cause}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The frame (one sample per channel) being read, from 0.
        frame: u64,
        /// Where that frame's sample starts in the file.
        offset: u64,
        /// What went wrong.
        cause: String,
    },
    /// Writing samples or finishing the header failed.
    #[error("{}: cannot write after {frames} frames: {cause}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Frames written before the failure.
        frames: u64,
        /// What went wrong.
        cause: String,
    },
    /// The file reached the format's size limit (a 32-bit data length).
    #[error(
        "{}: a WAV file holds at most 4 GiB of samples; stopped after {frames} frames (the file is complete up to there)",
        path.display()
    )]
    Full {
        /// The file.
        path: PathBuf,
        /// Frames written.
        frames: u64,
    },
    /// A block parameter is out of range.
    #[error("{block}: `{param}` {reason}")]
    Param {
        /// `WavSource` or `WavSink`.
        block: &'static str,
        /// The parameter.
        param: &'static str,
        /// What is wrong with its value.
        reason: String,
    },
}
