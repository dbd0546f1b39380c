//! Sample-rate conversion: rational `L/M` polyphase resampling and
//! arbitrary-ratio resampling with a polyphase bank and linear interpolation
//! between adjacent phases. Owns the output-time bookkeeping; the dot products
//! are the FIR kernels' ([`crate::filter`]).

mod arbitrary;
mod rational;

pub use arbitrary::{ArbitraryResampler, DEFAULT_FILTERS, default_prototype};
pub use rational::{RationalResampler, default_taps};

/// Default stop-band attenuation of the designed anti-aliasing filters, in dB.
pub const DEFAULT_ATTENUATION_DB: f64 = 70.0;
/// Default pass band, as a fraction of the narrower of the input and output
/// Nyquist bands.
pub const DEFAULT_PASSBAND: f64 = 0.8;
