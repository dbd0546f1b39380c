//! # rfgraph-dsp
//!
//! Pure digital-signal-processing kernels for the rfgraph SDR runtime: FIR and IIR
//! filters, filter design (rfgraph's own in [`design`], GNU Radio's in
//! [`firdes`]), FFT and spectra, rational and arbitrary-ratio
//! resamplers, NCO / rotator, phase-locked loop, frequency-translating filter,
//! FM / AM demodulators
//! and a few small helpers (DC blocker, AGC, moving average, complex arithmetic).
//!
//! How the crates fit together and the project's rules:
//! `docs/architecture.md` in the repository.
//!
//! This crate owns the numerics only. It must never depend on the runtime
//! (`rfgraph`), perform I/O, spawn threads, or allocate in a streaming `process`
//! call: every kernel allocates its state (history, scratch, taps) when it is
//! constructed.
//!
//! ## Conventions
//!
//! * Samples are `f32` or [`Complex32`].
//! * Streaming kernels implement [`Kernel`]: `process(&mut self, input, output)
//!   -> (consumed, produced)`. They write into the caller's output slice, keep
//!   whatever history they need, and give the same output whatever way the input
//!   is split into calls.
//! * Frequencies given to designers are in Hz together with a sample rate, or
//!   "normalised" in cycles per sample (`-0.5..0.5`) where the doc says so.
//! * Designers and constructors return [`Result`] with a [`DspError`]; nothing
//!   panics on user-supplied parameters.
//! * Hot loops have an AVX2+FMA path picked at run time (see [`Isa`]); every
//!   kernel can be forced onto the portable scalar path with `with_isa(..,
//!   Isa::Scalar)` or process-wide with the `RFGRAPH_DSP_ISA=scalar` environment
//!   variable.
#![warn(missing_docs)]

pub mod agc;
pub mod analog;
pub mod channelizer;
pub mod complex_ops;
pub mod dc_blocker;
pub mod demod;
pub mod design;
pub mod digital;
pub mod error;
pub mod fft;
pub mod filter;
pub mod firdes;
pub mod freq_xlating;
pub mod isa;
pub mod kernel;
pub mod moving_average;
pub mod nco;
pub mod pll;
pub mod resample;
pub mod rotator;
pub mod sample;
mod simd;
pub mod spectrum;
pub mod window;

pub use agc::Agc;
pub use complex_ops::{ComplexToMag, ComplexToMagSquared, MultiplyConjugate};
pub use dc_blocker::DcBlocker;
pub use demod::{AmDemod, Deemphasis, QuadratureDemod};
pub use error::DspError;
pub use fft::{Fft, FftDirection};
pub use filter::{
    Biquad, BiquadCascade, Ccc, Ccf, DecimatingFir, Fff, Fir, FirCcc, FirCcf, FirFff, FirKind,
    InterpolatingFir, SetTaps,
};
pub use freq_xlating::FreqXlatingFir;
pub use isa::Isa;
pub use kernel::{Kernel, Ratio};
pub use moving_average::MovingAverage;
pub use nco::Nco;
pub use num_complex::Complex32;
pub use pll::Pll;
pub use resample::{ArbitraryResampler, RationalResampler};
pub use rotator::Rotator;
pub use spectrum::{Spectrum, SpectrumMode};
pub use window::Window;
