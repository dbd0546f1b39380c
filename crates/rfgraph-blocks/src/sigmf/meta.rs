//! The `.sigmf-meta` model: [`SigmfMeta`] with its [`Global`] object,
//! [`Capture`] segments and [`Annotation`]s.
//!
//! This module owns the typed fields rfgraph uses and keeps every other
//! key (extension namespaces, core keys it has no use for) as JSON in
//! `extra`, so a recording passes through rfgraph without losing them.
//! Parsing lives in `parse`, writing in `write`; this module never touches
//! files.

use super::format::SampleFormat;
use serde_json::{Map, Value};

/// The SigMF specification version rfgraph writes: the version the SigMF
/// project's reference implementation (the `sigmf` Python package 1.x)
/// validates against. rfgraph reads every 1.x version.
pub const SIGMF_VERSION: &str = "1.2.6";

/// One `.sigmf-meta` document.
#[derive(Clone, Debug, PartialEq)]
pub struct SigmfMeta {
    /// The `global` object.
    pub global: Global,
    /// The `captures` array, ordered by `core:sample_start`.
    pub captures: Vec<Capture>,
    /// The `annotations` array, ordered by `core:sample_start`.
    pub annotations: Vec<Annotation>,
}

/// The `global` object: what applies to the whole recording.
#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    /// `core:datatype`: how the data file stores samples.
    pub datatype: SampleFormat,
    /// `core:sample_rate` in samples per second.
    pub sample_rate: Option<f64>,
    /// `core:version`, the SigMF version the file claims.
    pub version: Option<String>,
    /// `core:num_channels` (1 when absent).
    pub num_channels: u64,
    /// `core:description`.
    pub description: Option<String>,
    /// `core:author`.
    pub author: Option<String>,
    /// `core:hw`: the hardware that made the recording.
    pub hw: Option<String>,
    /// `core:recorder`: the software that made the recording.
    pub recorder: Option<String>,
    /// `core:license`: a URL.
    pub license: Option<String>,
    /// `core:sha512` of the data file, as written (rfgraph does not check it).
    pub sha512: Option<String>,
    /// `core:dataset`: the data file's name, for a non-conforming dataset.
    pub dataset: Option<String>,
    /// `core:trailing_bytes`: bytes after the samples in a non-conforming dataset.
    pub trailing_bytes: u64,
    /// `core:metadata_only`: the recording deliberately has no data file.
    pub metadata_only: bool,
    /// Every other key, as found (`core:offset`, `core:extensions`,
    /// `core:geolocation`, extension keys like `my_ns:key`, ...).
    pub extra: Map<String, Value>,
}

impl Global {
    /// A `global` object with the datatype and nothing else (version
    /// [`SIGMF_VERSION`]).
    pub fn new(datatype: SampleFormat) -> Self {
        Self {
            datatype,
            sample_rate: None,
            version: Some(SIGMF_VERSION.to_string()),
            num_channels: 1,
            description: None,
            author: None,
            hw: None,
            recorder: None,
            license: None,
            sha512: None,
            dataset: None,
            trailing_bytes: 0,
            metadata_only: false,
            extra: Map::new(),
        }
    }
}

/// One capture segment: metadata that holds from `core:sample_start` to
/// the next segment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Capture {
    /// `core:sample_start`: the first sample (in the data file) it covers.
    pub sample_start: u64,
    /// `core:frequency`: the centre frequency in Hz.
    pub frequency: Option<f64>,
    /// `core:datetime`: the ISO-8601 time of the first sample.
    pub datetime: Option<String>,
    /// `core:global_index`: the first sample's index in the recorder's own count.
    pub global_index: Option<u64>,
    /// `core:header_bytes`: bytes before this segment's samples in a
    /// non-conforming dataset.
    pub header_bytes: u64,
    /// Every other key, as found.
    pub extra: Map<String, Value>,
}

impl Capture {
    /// A capture starting at `sample_start` with no other fields.
    pub fn at(sample_start: u64) -> Self {
        Self {
            sample_start,
            ..Self::default()
        }
    }
}

/// One annotation: something about the samples from `core:sample_start`
/// on, for `core:sample_count` samples.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Annotation {
    /// `core:sample_start`: the first sample it describes.
    pub sample_start: u64,
    /// `core:sample_count`: how many samples (absent: to the end of the
    /// capture, says the specification).
    pub sample_count: Option<u64>,
    /// `core:freq_lower_edge` in Hz.
    pub freq_lower_edge: Option<f64>,
    /// `core:freq_upper_edge` in Hz.
    pub freq_upper_edge: Option<f64>,
    /// `core:label`: a short name.
    pub label: Option<String>,
    /// `core:comment`: free text.
    pub comment: Option<String>,
    /// `core:generator`: what made the annotation.
    pub generator: Option<String>,
    /// `core:uuid`.
    pub uuid: Option<String>,
    /// Every other key, as found.
    pub extra: Map<String, Value>,
}

impl Annotation {
    /// An annotation at `sample_start` with no other fields.
    pub fn at(sample_start: u64) -> Self {
        Self {
            sample_start,
            ..Self::default()
        }
    }
}

impl SigmfMeta {
    /// A recording's metadata with only the datatype, no captures and no
    /// annotations.
    pub fn new(datatype: SampleFormat) -> Self {
        Self {
            global: Global::new(datatype),
            captures: Vec::new(),
            annotations: Vec::new(),
        }
    }
}
