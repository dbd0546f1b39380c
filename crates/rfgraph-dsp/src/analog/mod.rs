//! Analog modulation and simple filter kernels matching GNU Radio 3.10's
//! `analog`, `blocks` and `filter` blocks: the frequency modulator, the
//! VCO, the attack/decay AGC and the single-pole IIR filter.

pub mod agc2;
pub mod frequency_modulator;
pub mod single_pole_iir;
pub mod vco;

pub use agc2::{Agc2, Agc2Sample};
pub use frequency_modulator::FrequencyModulator;
pub use single_pole_iir::{SinglePoleIir, SinglePoleSample};
pub use vco::{Vco, VcoOutput};
