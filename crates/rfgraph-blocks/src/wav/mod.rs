//! WAV files: [`WavSource`] reads one, [`WavSink`] writes one, both
//! through the `hound` crate, any number of channels, one `f32` stream
//! per channel (GNU Radio's `wavfile_source`/`wavfile_sink` convention).
//!
//! Samples are `f32` in the stream; in the file they are 16-bit integers
//! or 32-bit floats ([`WavFormat`]). Integers map to `[−1, 1)` by `2^15`
//! both ways: reading divides (as libsndfile, scipy and GNU Radio do), and
//! writing multiplies, rounds half to even and saturates, so a 16-bit file
//! read and written again is the same file. (GNU Radio's sink multiplies
//! by `2^15 − 1` instead, which makes a full-scale value fit but shrinks
//! every value by one part in 32768.)
//!
//! Files are untrusted input: every rejection is a [`WavError`] that names
//! the file, and where in it when that is known.

mod error;
pub(crate) mod ports;
mod reader;
mod sink;
mod source;

pub use error::WavError;
pub use sink::{WavFormat, WavSink, WavSinkParams};
pub use source::{WavSource, WavSourceParams};
pub(crate) use {sink::spec as sink_spec, source::spec as source_spec};
