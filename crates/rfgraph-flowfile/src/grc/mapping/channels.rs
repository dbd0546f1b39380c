//! GNU Radio's `channels` module: channel models, impairments, fading.

use super::{Map, P};

/// The entries. Every parameter passes by its GNU Radio name (declared
/// as the registry parameter's name or alias).
pub(super) const MAPS: &[Map] = &[
    Map {
        gr: "channels_amp_bal",
        rf: "amp_bal",
        params: &[],
    },
    Map {
        gr: "channels_channel_model",
        rf: "channel_model",
        // GNU Radio's noise and oscillator: its users compare outputs
        // sample by sample.
        params: &[P::Fixed("generator", "gnuradio")],
    },
    Map {
        gr: "channels_fading_model",
        rf: "fading_model",
        params: &[],
    },
    Map {
        gr: "channels_impairments",
        rf: "impairments",
        params: &[],
    },
    Map {
        gr: "channels_quantizer",
        rf: "quantizer",
        params: &[],
    },
    Map {
        gr: "channels_selective_fading_model",
        rf: "selective_fading_model",
        params: &[],
    },
];
