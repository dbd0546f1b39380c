//! Channel simulation blocks matching GNU Radio 3.10's `channels` module:
//! the basic channel model, the quantiser, amplitude balance, front-end
//! impairments and the flat and frequency-selective fading models.
//!
//! Where GNU Radio's blocks draw random numbers from a fixed or given
//! seed (the impairments' phase noise, the fading models), they draw
//! from its generators, reproduced bit for bit in `generate`
//! (`gr::random`; `std::mt19937` with libstdc++'s uniform distribution);
//! its fixed-point oscillator (`fxpt`) and the fading models' sinusoid
//! sum (`flat_fader`) are reproduced here, so a seed gives GNU Radio's
//! samples.

mod amp_bal;
mod channel_model;
mod fader_params;
mod fading_model;
mod flat_fader;
mod fxpt;
mod impairments;
mod quantizer;
mod selective_fading_model;

pub use amp_bal::{AmpBal, AmpBalKernel, AmpBalParams, amp_bal};
pub use channel_model::{ChannelModel, ChannelModelParams};
pub use fader_params::FaderParams;
pub use fading_model::{FadingModel, FadingModelKernel, FadingModelParams, fading_model};
pub use impairments::{Impairments, ImpairmentsKernel, ImpairmentsParams, impairments};
pub use quantizer::{Quantizer, QuantizerKernel, QuantizerParams, quantizer};
pub use selective_fading_model::{
    SelectiveFadingModel, SelectiveFadingModelKernel, SelectiveFadingModelParams,
    selective_fading_model,
};

pub(crate) use amp_bal::spec as amp_bal_spec;
pub(crate) use channel_model::spec as channel_model_spec;
pub(crate) use fading_model::spec as fading_model_spec;
pub(crate) use impairments::spec as impairments_spec;
pub(crate) use quantizer::spec as quantizer_spec;
pub(crate) use selective_fading_model::spec as selective_fading_model_spec;
