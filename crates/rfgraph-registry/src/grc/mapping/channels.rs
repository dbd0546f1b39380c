//! GNU Radio's `channels` module: channel models.

use super::{Map, P};

/// The entries.
pub(super) const MAPS: &[Map] = &[Map {
    gr: "channels_channel_model",
    rf: "channel_model",
    params: &[
        P::Expr("noise_voltage", "noise_voltage"),
        P::Expr("freq_offset", "frequency_offset"),
        P::Expr("epsilon", "epsilon"),
        P::Expr("taps", "taps"),
        P::Expr("seed", "seed"),
    ],
}];
