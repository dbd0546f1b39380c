//! Digital-communications kernels, matching GNU Radio 3.10's `digital` and
//! bit-handling `blocks`: bit repacking, symbol mapping, the standard
//! constellations and their decisions, differential coding, the Costas
//! loop, Mueller & Müller clock recovery with GNU Radio's MMSE
//! interpolator, polyphase filter-bank clock recovery, and the band-edge
//! frequency-locked loop.

pub mod bits;
pub mod chunks;
pub mod clock_recovery_mm;
pub mod constellation;
pub mod costas;
pub mod differential;
pub mod fll_band_edge;
mod loop_math;
pub mod mmse;
pub mod mmse_resampler;
pub mod pfb_clock_sync;
mod skip;
pub mod soft_decision;
pub mod symbol_sync;

pub use bits::{BitRepack, Endianness, Word};
pub use chunks::ChunksToSymbols;
pub use clock_recovery_mm::{ClockRecoveryMm, MmSample};
pub use constellation::{Constellation, Normalization};
pub use costas::CostasLoop;
pub use differential::{DiffDecoder, DiffEncoder};
pub use fll_band_edge::FllBandEdge;
pub use mmse::MmseInterpolator;
pub use mmse_resampler::MmseResampler;
pub use pfb_clock_sync::PfbClockSync;
pub use soft_decision::{SoftDecider, SoftGenerator};
pub use symbol_sync::{
    InterpResampler, ResamplerKind, SymbolSync, SyncSample, TedKind, TimingErrorDetector,
};
