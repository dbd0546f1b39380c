//! SigMF recordings (the SDR ecosystem's recording format, specification
//! 1.x): [`SigmfSource`] plays one, [`SigmfSink`] writes one, and
//! [`SigmfRecording`] / [`SigmfMeta`] read, check and write the metadata.
//!
//! A recording is two files: `x.sigmf-meta` (JSON: a `global` object,
//! `captures` and `annotations`) and `x.sigmf-data` (the samples, stored
//! as `core:datatype` says: every datatype of the specification, complex
//! or real, `f32`, `f64`, `i32`, `i16`, `i8`, `u32`, `u16`, `u8`, little-
//! or big-endian). Samples convert to stream items through the
//! [`sample_format`](crate::sample_format) module.
//!
//! # Tags
//!
//! Metadata travels with the samples as stream tags with SigMF keys
//! ([`tag_keys`]). [`SigmfSource`] puts on each capture's
//! `core:sample_start`:
//!
//! | key | value |
//! |---|---|
//! | `core:sample_rate` | `F64`, the global rate (also on item 0 when no capture starts there) |
//! | `core:frequency` | `F64` Hz |
//! | `core:datetime` | `String`, ISO 8601 |
//! | `core:global_index` | `U64` |
//! | any other capture key (`core:geolocation`, `ns:key`) | its JSON value as a `Pmt` |
//!
//! and on each annotation's `core:sample_start` one tag `rfgraph:annotation`
//! whose value is a `Pmt::Map` of the annotation's other keys
//! (`core:sample_count` `U64`, `core:label` / `core:comment` /
//! `core:generator` / `core:uuid` `String`, `core:freq_lower_edge` /
//! `core:freq_upper_edge` `F64`, extension keys as JSON values). One tag
//! per annotation keeps annotations that share a sample apart. JSON values
//! become `Pmt`s as integers → `U64` (`I64` when negative), other numbers
//! → `F64`, arrays → `List`, objects → `Map`.
//!
//! [`SigmfSink`] reads the same tags back, grouped by sample:
//!
//! - `core:frequency`, `core:datetime` or `core:global_index` on a sample
//!   start a capture there (several on one sample make one capture); a
//!   capture without its own frequency repeats the previous one's, and
//!   extension-namespace tags (`ns:key`) on that sample join it;
//! - `rfgraph:annotation` (a map, as above) is one annotation;
//! - `core:label`, `core:comment`, `core:sample_count`,
//!   `core:freq_lower_edge`, `core:freq_upper_edge`, `core:generator` and
//!   `core:uuid` on one sample make one annotation together (with the
//!   sample's extension tags when it starts no capture);
//! - the first `core:sample_rate` is the recording's rate (unless the sink
//!   was given one); a different rate later is an error, since a SigMF
//!   recording has one rate;
//! - other tags (`rfgraph:burst_start`, keys without a namespace) are not
//!   recorded.
//!
//! A value of the wrong type (a `String` frequency, a datetime that is not
//! ISO 8601, a NaN) fails the run with [`SigmfError::Tag`]. Source → sink
//! therefore copies captures and annotations.
//!
//! # Errors
//!
//! Everything rejected says where: [`SigmfError`] names the file and the
//! JSON path (`captures[2].core:sample_start`), line and column, or byte
//! offset. Nothing panics on any input, and nothing is silently cut: a
//! data file that is not a whole number of items, or shorter than a
//! capture or annotation says, is an error.
//!
//! # Not supported
//!
//! SigMF archives (`.sigmf` tar files) and collections, more than one
//! channel (`core:num_channels` > 1), and checking `core:sha512` (kept,
//! not verified; rfgraph writes none).

mod datetime;
mod error;
mod info;
mod json_path;
mod meta;
mod parse;
mod recording;
mod sink;
mod source;
mod tags;
mod write;

pub use error::SigmfError;
pub use info::{RecordingInfo, Summary, format_from_extension, format_hz};
pub use meta::{Annotation, Capture, Global, SIGMF_VERSION, SigmfMeta};
pub use parse::MAX_META_BYTES;
pub use recording::{DATA_EXT, META_EXT, SigmfRecording, is_sigmf_name, recording_paths};
pub use sink::{SigmfSink, SigmfSinkParams};
pub use source::{SigmfSource, SigmfSourceParams};
pub use tags::{json_to_pmt, pmt_to_json, tag_keys};
pub(crate) use {sink::spec as sink_spec, source::spec as source_spec};

use crate::sample_format as format;
