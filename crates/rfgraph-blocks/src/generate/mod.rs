//! Generators: sources that make signals rather than read them.
//!
//! - [`SignalSource`]: GNU Radio's `sig_source` (sine, cosine, square,
//!   triangle, sawtooth, constant) for `f32` and `Complex32`, retunable
//!   while it runs;
//! - [`NoiseSource`]: seeded uniform or Gaussian noise for `f32` and
//!   `Complex32`, generated a block at a time;
//! - [`RandomBytes`] and [`RandomIntegers`]: seeded random bytes, `i16`
//!   or `i32` in a range.
//!
//! All are non-blocking sources: each call fills what the output offers
//! (up to an optional limit, after which the block finishes). The seeded
//! ones make their stream in fixed blocks, so a seed gives the same items
//! on every scheduler however the output is split.

mod bytes;
pub(crate) mod chunked;
pub(crate) mod distributions;
pub(crate) mod gr_noise;
pub(crate) mod gr_random;
mod integers;
mod mt19937;
mod noise;
pub(crate) mod rng;
mod signal;
mod waveform;

pub use bytes::{RandomBytes, RandomBytesParams};
pub use integers::{RandomInteger, RandomIntegers};
pub use mt19937::Mt19937;
pub(crate) use noise::complex_kind;
pub use noise::{NoiseGenerator, NoiseItem, NoiseKind, NoiseSource, NoiseSourceParams};
pub use signal::{SignalSource, SignalSourceParams};
pub use waveform::{SignalItem, UnknownWaveform, Waveform};
pub(crate) use {
    bytes::spec as random_uniform_spec, noise::spec as noise_spec, signal::spec as signal_spec,
};
