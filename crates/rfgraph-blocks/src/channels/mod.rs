//! Channel simulation blocks matching GNU Radio 3.10's `channels` module.

mod channel_model;

pub use channel_model::{ChannelModel, ChannelModelParams};

pub(crate) use channel_model::spec as channel_model_spec;
