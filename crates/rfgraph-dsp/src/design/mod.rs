//! FIR filter design. Owns the designers (windowed sinc, Kaiser, root-raised
//! cosine, Hilbert, Parks–McClellan and GNU Radio's `optfir` on top) and a frequency-response helper; designers only compute tap
//! vectors and never filter a stream.
//!
//! All designers return `f32` taps of odd length where noted, linear phase, and
//! reject impossible specifications with [`DspError`](crate::DspError).

/// Largest tap count a designer will produce (2^24).
pub const MAX_TAPS: usize = 1 << 24;

/// Largest interpolation / decimation factor or filter-bank size a kernel
/// accepts (2^20).
pub const MAX_FACTOR: usize = 1 << 20;

mod hilbert;
mod kaiser;
pub mod optfir;
mod remez;
mod response;
mod rrc;
mod windowed_sinc;

pub use hilbert::hilbert;
pub use kaiser::{kaiser_bandpass, kaiser_beta, kaiser_highpass, kaiser_lowpass, kaiser_order};
pub use remez::{DEFAULT_GRID_DENSITY, MAX_REMEZ_TAPS, RemezKind, pm_remez};
pub use response::{magnitude_response, magnitude_response_db};
pub use rrc::root_raised_cosine;
pub(crate) use rrc::rrc_at;
pub use windowed_sinc::{bandpass, bandstop, highpass, lowpass};
