//! [`SigmfRecording`]: a metadata file checked against its data file.
//!
//! This module owns the file names of a recording (`x.sigmf-meta` beside
//! `x.sigmf-data`, or `core:dataset` for a non-conforming dataset), the
//! byte layout of the samples (capture `core:header_bytes`, global
//! `core:trailing_bytes`), and the checks that need the data's length:
//! a whole number of items, captures and annotations inside the data. It
//! never reads samples: `SigmfSource` does.

use super::error::SigmfError;
use super::json_path::{index, key};
use super::meta::SigmfMeta;
use std::path::{Path, PathBuf};

/// The metadata file's extension.
pub const META_EXT: &str = "sigmf-meta";
/// The data file's extension.
pub const DATA_EXT: &str = "sigmf-data";

/// The metadata and data file names of the recording `path` names: a
/// `.sigmf-meta` or `.sigmf-data` file, or the base name without either
/// extension. (The data name may still change: `core:dataset`.)
///
/// Errors: [`SigmfError::Name`] for a SigMF archive (`.sigmf`, not
/// supported) or a collection.
pub fn recording_paths(path: &Path) -> Result<(PathBuf, PathBuf), SigmfError> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let base = match ext {
        META_EXT | DATA_EXT => path.with_extension(""),
        "sigmf" => {
            return Err(SigmfError::Name {
                file: path.to_path_buf(),
                reason: "SigMF archives (.sigmf, a tar of meta and data) are not supported: \
                         extract the .sigmf-meta and .sigmf-data files"
                    .into(),
            });
        }
        "sigmf-collection" => {
            return Err(SigmfError::Name {
                file: path.to_path_buf(),
                reason:
                    "a SigMF collection names several recordings: open one of its .sigmf-meta files"
                        .into(),
            });
        }
        _ => path.to_path_buf(),
    };
    let with = |ext: &str| {
        let mut s = base.clone().into_os_string();
        s.push(".");
        s.push(ext);
        PathBuf::from(s)
    };
    Ok((with(META_EXT), with(DATA_EXT)))
}

/// True when `path` names a SigMF recording by its extension.
pub fn is_sigmf_name(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some(META_EXT | DATA_EXT | "sigmf" | "sigmf-collection")
    )
}

/// A run of samples stored contiguously in the data file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Segment {
    /// First sample of the run.
    pub(crate) first: u64,
    /// One past the last sample.
    pub(crate) end: u64,
    /// Byte offset of `first` in the data file.
    pub(crate) byte: u64,
}

/// A recording whose metadata was parsed and checked against its data
/// file's length.
#[derive(Clone, Debug)]
pub struct SigmfRecording {
    meta: SigmfMeta,
    meta_path: PathBuf,
    data_path: PathBuf,
    data_bytes: u64,
    samples: u64,
    segments: Vec<Segment>,
}

impl SigmfRecording {
    /// Opens the recording `path` names (see [`recording_paths`]): parses
    /// the metadata and checks it against the data file.
    ///
    /// Errors: those of [`SigmfMeta::read`]; [`SigmfError::Io`] naming a
    /// missing data file; [`SigmfError::DataLength`] naming the byte offset
    /// of an incomplete last item; [`SigmfError::Meta`] naming the JSON
    /// path of a capture or annotation that starts or ends past the data,
    /// of header or trailing bytes longer than the file, of more than one
    /// channel (`core:num_channels`, not supported) and of a
    /// metadata-only recording.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, SigmfError> {
        let (meta_path, data_path) = recording_paths(path.as_ref())?;
        let meta = SigmfMeta::read(&meta_path)?;
        let data_path = match &meta.global.dataset {
            Some(name) => meta_path.with_file_name(name),
            None => data_path,
        };
        if meta.global.metadata_only {
            return Err(SigmfError::meta(
                &meta_path,
                "global.core:metadata_only",
                "the recording has no data file, so it has no samples to read",
            ));
        }
        if meta.global.num_channels != 1 {
            return Err(SigmfError::meta(
                &meta_path,
                "global.core:num_channels",
                format!(
                    "{} interleaved channels are not supported: rfgraph reads one channel per recording",
                    meta.global.num_channels
                ),
            ));
        }
        let data = std::fs::metadata(&data_path)
            .map_err(|e| SigmfError::io(&data_path, "cannot open", e))?;
        if !data.is_file() {
            let e = std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file");
            return Err(SigmfError::io(&data_path, "cannot read samples from it", e));
        }
        let data_bytes = data.len();
        let (samples, segments) = layout(&meta, &meta_path, &data_path, data_bytes)?;
        check_ranges(&meta, &meta_path, &data_path, samples)?;
        Ok(Self {
            meta,
            meta_path,
            data_path,
            data_bytes,
            samples,
            segments,
        })
    }

    /// The metadata.
    pub fn meta(&self) -> &SigmfMeta {
        &self.meta
    }

    /// The metadata file.
    pub fn meta_path(&self) -> &Path {
        &self.meta_path
    }

    /// The data file.
    pub fn data_path(&self) -> &Path {
        &self.data_path
    }

    /// The data file's size in bytes when it was opened.
    pub fn data_bytes(&self) -> u64 {
        self.data_bytes
    }

    /// Samples in the data file (complex samples count once).
    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// The recording's length in seconds, when the sample rate is known.
    pub fn duration(&self) -> Option<f64> {
        self.meta
            .global
            .sample_rate
            .map(|r| self.samples as f64 / r)
    }

    /// The contiguous runs of samples in the data file.
    pub(crate) fn segments(&self) -> &[Segment] {
        &self.segments
    }
}

/// Where the samples lie: one run per capture (its header bytes first),
/// and the sample count. Checks the length is a whole number of items.
fn layout(
    meta: &SigmfMeta,
    meta_path: &Path,
    data_path: &Path,
    data_bytes: u64,
) -> Result<(u64, Vec<Segment>), SigmfError> {
    let item = meta.global.datatype.bytes_per_item() as u64;
    let mut skipped: u64 = meta.global.trailing_bytes;
    if skipped > data_bytes {
        return Err(SigmfError::meta(
            meta_path,
            "global.core:trailing_bytes",
            format!("{skipped} bytes is more than the data file's {data_bytes}"),
        ));
    }
    for (i, c) in meta.captures.iter().enumerate() {
        skipped = skipped.saturating_add(c.header_bytes);
        if skipped > data_bytes {
            return Err(SigmfError::meta(
                meta_path,
                key(&index("captures", i), "core:header_bytes"),
                format!(
                    "header and trailing bytes up to here ({skipped}) are more than the data file's {data_bytes}"
                ),
            ));
        }
    }
    let sample_bytes = data_bytes - skipped;
    let samples = sample_bytes / item;
    let rest = sample_bytes % item;
    let mut segments = Vec::with_capacity(meta.captures.len().max(1));
    if meta.captures.is_empty() {
        segments.push(Segment {
            first: 0,
            end: samples,
            byte: 0,
        });
    } else {
        let mut header = 0u64;
        for (i, c) in meta.captures.iter().enumerate() {
            header += c.header_bytes;
            // Samples before the first capture belong to its run.
            let first = if i == 0 { 0 } else { c.sample_start };
            let end = meta
                .captures
                .get(i + 1)
                .map_or(samples, |n| n.sample_start)
                .min(samples);
            if c.sample_start > samples {
                return Err(SigmfError::meta(
                    meta_path,
                    key(&index("captures", i), "core:sample_start"),
                    format!(
                        "sample {} is past the end of the data: {} holds {samples} samples",
                        c.sample_start,
                        data_path.display()
                    ),
                ));
            }
            segments.push(Segment {
                first,
                end: end.max(first),
                byte: header + first * item,
            });
        }
    }
    if rest != 0 {
        let last_end = segments
            .last()
            .map_or(0, |s| s.byte + (s.end - s.first) * item);
        return Err(SigmfError::DataLength {
            file: data_path.to_path_buf(),
            datatype: meta.global.datatype.sigmf_name().to_string(),
            item_bytes: item as usize,
            sample_bytes,
            rest,
            offset: last_end,
        });
    }
    Ok((samples, segments))
}

/// Every annotation lies inside the data.
fn check_ranges(
    meta: &SigmfMeta,
    meta_path: &Path,
    data_path: &Path,
    samples: u64,
) -> Result<(), SigmfError> {
    for (i, a) in meta.annotations.iter().enumerate() {
        let p = index("annotations", i);
        if a.sample_start > samples {
            return Err(SigmfError::meta(
                meta_path,
                key(&p, "core:sample_start"),
                format!(
                    "sample {} is past the end of the data: {} holds {samples} samples",
                    a.sample_start,
                    data_path.display()
                ),
            ));
        }
        if let Some(n) = a.sample_count
            && a.sample_start + n > samples
        {
            return Err(SigmfError::meta(
                meta_path,
                key(&p, "core:sample_count"),
                format!(
                    "samples {}..{} reach past the end of the data: {} holds {samples} samples",
                    a.sample_start,
                    a.sample_start + n,
                    data_path.display()
                ),
            ));
        }
    }
    Ok(())
}
