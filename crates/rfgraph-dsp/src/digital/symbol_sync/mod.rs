//! GNU Radio 3.10's `symbol_sync_cc` / `symbol_sync_ff`: symbol timing
//! recovery with a choice of timing error detector ([`ted`]), a
//! proportional-integral clock tracking loop ([`clock_loop`]) and an
//! interpolating resampler ([`resampler`]: the 8-tap MMSE interpolator or
//! a polyphase filter bank); [`kernel`] runs them as GNU Radio's work
//! loop does.

pub mod clock_loop;
pub mod kernel;
pub mod resampler;
pub mod ted;

pub use clock_loop::ClockTrackingLoop;
pub use kernel::{SymbolSync, SyncSample};
pub use resampler::{InterpResampler, ResamplerKind};
pub use ted::{TedKind, TimingErrorDetector};
