//! Analog modulation and simple filter kernels matching GNU Radio 3.10's
//! `analog` and `filter` blocks: the frequency modulator and the
//! single-pole IIR filter.

pub mod frequency_modulator;
pub mod single_pole_iir;

pub use frequency_modulator::FrequencyModulator;
pub use single_pole_iir::{SinglePoleIir, SinglePoleSample};
