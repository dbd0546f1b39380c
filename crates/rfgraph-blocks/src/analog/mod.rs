//! Analog-domain blocks matching GNU Radio 3.10: random and fast noise
//! sources, the frequency modulator, the VCO, the attack/decay AGC, the
//! simple power squelch, and the single-pole and direct-form IIR filters,
//! FM pre-emphasis, the moving-average DC blocker and GNU Radio's
//! wide-band FM transmitter (`wfm_tx`, at one rate).

mod agc2;
mod dc_blocker;
mod fastnoise_source;
mod frequency_modulator;
mod iir_filter;
mod random_source;
mod simple_squelch;
mod single_pole_iir;
mod vco;
mod wfm_tx;

pub use agc2::{Agc2Block, Agc2Params, agc2};
pub use dc_blocker::{DcBlocker, DcBlockerKernel, DcBlockerParams, DcSample, dc_blocker};
pub use fastnoise_source::{FastNoiseKind, FastNoiseOutput, FastNoiseParams, FastNoiseSource};
pub use frequency_modulator::{
    FrequencyModulatorBlock, FrequencyModulatorParams, frequency_modulator,
};
pub use iir_filter::{
    FmPreemphBlock, FmPreemphParams, IirFilterBlock, IirFilterParams, fm_preemph, iir_filter,
};
pub use random_source::{RandomItem, RandomSource, RandomSourceParams};
pub use simple_squelch::{SimpleSquelch, SimpleSquelchKernel, SimpleSquelchParams, simple_squelch};
pub use single_pole_iir::{SinglePoleIirBlock, SinglePoleIirParams, single_pole_iir_filter};
pub use vco::{VcoBlock, VcoParams, vco};
pub use wfm_tx::{WfmTx, WfmTxParams};

pub(crate) use agc2::spec as agc2_spec;
pub(crate) use dc_blocker::spec as dc_blocker_spec;
pub(crate) use fastnoise_source::spec as fastnoise_source_spec;
pub(crate) use frequency_modulator::spec as frequency_modulator_spec;
pub(crate) use iir_filter::{fm_preemph_spec, iir_filter_spec};
pub(crate) use random_source::spec as random_source_spec;
pub(crate) use simple_squelch::spec as simple_squelch_spec;
pub(crate) use single_pole_iir::spec as single_pole_iir_filter_spec;
pub(crate) use vco::spec as vco_spec;
pub(crate) use wfm_tx::spec as wfm_tx_spec;
