//! `WavInput`: a WAV file's header checked and its samples read as
//! interleaved `f32`, over any `Read + Seek` (a file, or bytes in tests).
//! Owns the parsing rules and the error positions; knows nothing of ports.
//!
//! `hound` parses; this module counts the bytes it consumes, so that a
//! rejection says how far into the file it came, and accepts only the
//! encodings it can scale: integer PCM of 8, 16, 24 or 32 bits (divided by
//! `2^(bits−1)`) and 32-bit float (as is). Nothing here allocates by what
//! the header says, and every read is bounded by the file.

use super::error::WavError;
use hound::{SampleFormat, WavReader};
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// A reader that knows how many bytes were consumed through it.
pub(crate) struct Counting<R> {
    inner: R,
    position: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.position += n as u64;
        Ok(n)
    }
}

impl<R: Seek> Seek for Counting<R> {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.position = self.inner.seek(pos)?;
        Ok(self.position)
    }
}

/// How the samples are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// Signed integers of this many bits (8-bit WAV is offset binary;
    /// `hound` makes it signed).
    Int(u16),
    /// 32-bit IEEE floats.
    Float,
}

/// An open WAV file, positioned at its next frame.
pub(crate) struct WavInput<R: Read + Seek> {
    /// `None` only while [`rewind`](Self::rewind) swaps it.
    reader: Option<WavReader<Counting<R>>>,
    path: PathBuf,
    channels: usize,
    sample_rate: u32,
    encoding: Encoding,
    frames: u64,
    frames_read: u64,
    /// Byte offset of the first sample.
    data_start: u64,
}

impl WavInput<io::BufReader<std::fs::File>> {
    /// Opens and checks `path`.
    pub(crate) fn open(path: &Path) -> Result<Self, WavError> {
        let file = std::fs::File::open(path).map_err(|source| WavError::Io {
            path: path.to_path_buf(),
            action: "open",
            source,
        })?;
        Self::new(io::BufReader::new(file), path.to_path_buf())
    }
}

/// The format tag of the `fmt ` chunk, found by walking the RIFF chunks
/// from `start` (at most 64 of them, reading only their 8-byte headers
/// and the tag); `None` when the walk fails.
fn sniff_format_tag<R: Read + Seek>(r: &mut R, start: u64) -> Option<u16> {
    let mut word = [0u8; 4];
    r.seek(SeekFrom::Start(start)).ok()?;
    let mut riff = [0u8; 12];
    r.read_exact(&mut riff).ok()?;
    if &riff[..4] != b"RIFF" || &riff[8..] != b"WAVE" {
        return None;
    }
    for _ in 0..64 {
        r.read_exact(&mut word).ok()?;
        let id = word;
        r.read_exact(&mut word).ok()?;
        let len = u32::from_le_bytes(word);
        if &id == b"fmt " {
            let mut tag = [0u8; 2];
            r.read_exact(&mut tag).ok()?;
            return Some(u16::from_le_bytes(tag));
        }
        // Chunks are padded to an even length.
        r.seek(SeekFrom::Current(i64::from(len) + i64::from(len & 1)))
            .ok()?;
    }
    None
}

/// A format tag's name, for errors.
fn format_name(tag: u16) -> String {
    let name = match tag {
        0x0002 => "Microsoft ADPCM",
        0x0006 => "A-law",
        0x0007 => "μ-law",
        0x0011 => "IMA ADPCM",
        0x0031 => "GSM 6.10",
        0x0050 | 0x0055 => "MPEG audio",
        _ => "an unknown format",
    };
    format!("{name} (format tag {tag:#06x})")
}

/// True for a read that hit the end of the file: `UnexpectedEof`, or
/// hound's own short-read error (which it raises with kind `Other`).
fn is_short_read(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::UnexpectedEof
        || (e.kind() == io::ErrorKind::Other && e.to_string() == "Failed to read enough bytes.")
}

/// `hound`'s header error as a [`WavError`] at `offset`.
fn header_error(path: &Path, offset: u64, e: hound::Error) -> WavError {
    let invalid = |reason: String| WavError::Invalid {
        path: path.to_path_buf(),
        offset,
        reason,
    };
    match e {
        hound::Error::IoError(e) if is_short_read(&e) => {
            invalid("the file ends inside the header, before any data chunk".into())
        }
        hound::Error::IoError(e) => invalid(format!("read error: {e}")),
        // Well-formed headers hound declines to read.
        hound::Error::FormatError("bits per sample is not 32") => WavError::Unsupported {
            path: path.to_path_buf(),
            what: "float samples of other than 32 bits".into(),
        },
        hound::Error::FormatError("bits per sample is not 8 or 16") => WavError::Unsupported {
            path: path.to_path_buf(),
            what: "a WAVEFORMATEX header with other than 8, 16 or 24 bits".into(),
        },
        hound::Error::FormatError(what) => invalid(what.to_string()),
        hound::Error::Unsupported => WavError::Unsupported {
            path: path.to_path_buf(),
            what: "a compressed or unknown format tag".into(),
        },
        other => invalid(other.to_string()),
    }
}

impl<R: Read + Seek> WavInput<R> {
    /// Reads and checks the header from `inner` (named `path` in errors).
    pub(crate) fn new(inner: R, path: PathBuf) -> Result<Self, WavError> {
        let mut counting = Counting { inner, position: 0 };
        let start = counting.stream_position().map_err(|source| WavError::Io {
            path: path.clone(),
            action: "open",
            source,
        })?;
        counting.position = start;
        // hound reports no positions and hands its reader back only by
        // value: a first parse through a borrow tells where the header
        // ends (or where it broke), a second one keeps the reader.
        let probe = WavReader::new(&mut counting).map(|_| ());
        let data_start = counting.position;
        if let Err(e) = probe {
            // hound checks the fmt fields before the format tag: name a
            // compressed format for what it is rather than for its fields.
            if let Some(tag) = sniff_format_tag(&mut counting.inner, start)
                && !matches!(tag, 1 | 3 | 0xFFFE)
            {
                return Err(WavError::Unsupported {
                    path,
                    what: format_name(tag),
                });
            }
            return Err(header_error(&path, data_start, e));
        }
        counting
            .seek(SeekFrom::Start(start))
            .map_err(|source| WavError::Io {
                path: path.clone(),
                action: "open",
                source,
            })?;
        let reader = WavReader::new(counting).map_err(|e| header_error(&path, start, e))?;
        let spec = reader.spec();
        let encoding = match (spec.sample_format, spec.bits_per_sample) {
            (SampleFormat::Int, bits @ (8 | 16 | 24 | 32)) => Encoding::Int(bits),
            (SampleFormat::Float, 32) => Encoding::Float,
            (SampleFormat::Int, bits) => {
                return Err(WavError::Unsupported {
                    path,
                    what: format!("{bits}-bit integer PCM"),
                });
            }
            (SampleFormat::Float, bits) => {
                return Err(WavError::Unsupported {
                    path,
                    what: format!("{bits}-bit float"),
                });
            }
        };
        if spec.sample_rate == 0 {
            return Err(WavError::Invalid {
                path,
                offset: 24,
                reason: "the sample rate is 0".into(),
            });
        }
        let channels = usize::from(spec.channels);
        Ok(Self {
            frames: u64::from(reader.duration()),
            data_start,
            reader: Some(reader),
            path,
            channels,
            sample_rate: spec.sample_rate,
            encoding,
            frames_read: 0,
        })
    }

    /// Channels per frame (at least 1).
    pub(crate) fn channels(&self) -> usize {
        self.channels
    }

    /// Frames per second.
    pub(crate) fn sample_rate(&self) -> u32 {
        self.sample_rate
    }

    /// Frames in the file.
    pub(crate) fn frames(&self) -> u64 {
        self.frames
    }

    /// Frames not read yet.
    pub(crate) fn remaining(&self) -> u64 {
        self.frames - self.frames_read
    }

    /// The encoding.
    #[cfg(test)]
    pub(crate) fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Bytes per stored sample.
    fn sample_bytes(&self) -> u64 {
        match self.encoding {
            Encoding::Int(bits) => u64::from(bits / 8),
            Encoding::Float => 4,
        }
    }

    /// Reads whole frames into `out` (interleaved), as many as fit and
    /// remain: how many were read, and the error that stopped the read
    /// early, if one did (the frames before it are good).
    pub(crate) fn read(&mut self, out: &mut [f32]) -> (usize, Option<WavError>) {
        let frames = ((out.len() / self.channels) as u64).min(self.remaining()) as usize;
        let samples = frames * self.channels;
        let Some(reader) = self.reader.as_mut() else {
            return (0, Some(self.rewind_lost()));
        };
        let mut done = 0;
        let mut failure = None;
        match self.encoding {
            Encoding::Float => {
                for (o, s) in out[..samples].iter_mut().zip(reader.samples::<f32>()) {
                    match s {
                        Ok(v) => *o = v,
                        Err(e) => {
                            failure = Some(e);
                            break;
                        }
                    }
                    done += 1;
                }
            }
            Encoding::Int(bits) => {
                let scale = 1.0 / (1u64 << (bits - 1)) as f32;
                for (o, s) in out[..samples].iter_mut().zip(reader.samples::<i32>()) {
                    match s {
                        Ok(v) => *o = v as f32 * scale,
                        Err(e) => {
                            failure = Some(e);
                            break;
                        }
                    }
                    done += 1;
                }
            }
        }
        let whole = done / self.channels;
        let error = failure.map(|e| {
            let frame = self.frames_read + whole as u64;
            let sample = self.frames_read * self.channels as u64 + done as u64;
            let cause = match e {
                hound::Error::IoError(e) if is_short_read(&e) => format!(
                    "the data ends early: the header promises {} frames",
                    self.frames
                ),
                other => other.to_string(),
            };
            WavError::Read {
                path: self.path.clone(),
                frame,
                offset: self.data_start + sample * self.sample_bytes(),
                cause,
            }
        });
        self.frames_read += whole as u64;
        if error.is_some() {
            // A later read must not resume mid-frame.
            self.frames_read = self.frames;
        }
        (whole, error)
    }

    /// Goes back to the first frame (by parsing the header again: the
    /// position of the data is where the header ends).
    pub(crate) fn rewind(&mut self) -> Result<(), WavError> {
        let Some(reader) = self.reader.take() else {
            return Err(self.rewind_lost());
        };
        let mut inner = reader.into_inner();
        inner
            .seek(SeekFrom::Start(0))
            .map_err(|source| WavError::Io {
                path: self.path.clone(),
                action: "rewind",
                source,
            })?;
        let again = WavInput::new(inner.inner, self.path.clone())?;
        *self = again;
        Ok(())
    }

    /// The error after a rewind that failed half-way.
    fn rewind_lost(&self) -> WavError {
        WavError::Io {
            path: self.path.clone(),
            action: "rewind",
            source: io::Error::other("the file was lost by an earlier failed rewind"),
        }
    }
}

#[cfg(test)]
mod tests;
