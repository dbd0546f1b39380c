//! The rfgraph block library: sources, sinks, stream utilities, message
//! blocks, and blocks around the `rfgraph-dsp` kernels, built on the
//! `rfgraph` runtime. One block per file.
//!
//! | category | blocks |
//! |---|---|
//! | recordings | [`FileSource`], [`FileSink`] (raw `cu8`, `cs8`, `cs16`, `cf32`, `f32`, `i16`, `u8` and every SigMF datatype, see [`sample_format`]); [`SigmfSource`], [`SigmfSink`] (SigMF 1.x, captures and annotations as tags); [`WavSource`], [`WavSink`] |
//! | generators | [`SignalSource`] (sine, cosine, square, triangle, sawtooth, constant), [`NoiseSource`] (uniform, Gaussian), [`RandomBytes`], [`NcoSource`], [`VectorSource`], [`NullSource`] |
//! | sinks | [`VectorSink`], [`NullSink`], [`MessageSink`] |
//! | stream utilities | [`Head`], [`Throttle`], [`Copy`](struct@Copy), [`CopyRand`], [`Map`] |
//! | signal processing | [`DspBlock`] around any `rfgraph-dsp` kernel (FIR, resamplers, FFT, demodulators, ...) |
//! | messages | [`MessageBurst`], [`MessageForward`], [`MessageSink`] |
//!
//! SDR hardware (seify / SoapySDR) lives in the `rfgraph-hw` crate.
//!
//! How the crates fit together, the runtime contract and the project's
//! rules: `docs/architecture.md` in the repository.

#![warn(missing_docs)]

mod copy;
mod copy_rand;
mod dsp;
mod dsp_specs;
mod file;
mod generate;
mod head;
mod limit;
mod message_burst;
mod message_forward;
mod message_sink;
mod null;
pub mod registry;
pub mod sample_format;
pub mod sigmf;
mod spec_util;
mod throttle;
mod vector_sink;
mod vector_source;
mod wav;

pub use copy::Copy;
pub use copy_rand::CopyRand;
pub use dsp::{DspBlock, NcoSource};
pub use file::{FileError, FileSink, FileSource, SinkMode};
pub use generate::{
    NoiseItem, NoiseKind, NoiseSource, RandomBytes, SignalItem, SignalSource, UnknownWaveform,
    Waveform,
};
pub use head::Head;
pub use message_burst::MessageBurst;
pub use message_forward::MessageForward;
pub use message_sink::MessageSink;
pub use null::{NullSink, NullSource};
pub use rfgraph::Map;
pub use sample_format::{SampleCodec, SampleFormat, SampleFormatError, SampleItem};
pub use sigmf::{SigmfSink, SigmfSource};
pub use throttle::Throttle;
pub use vector_sink::VectorSink;
pub use vector_source::VectorSource;
pub use wav::{WavError, WavFormat, WavSink, WavSource};
