//! GNU Radio's `channels` module: channel models.

use super::Map;

/// The entries.
pub(super) const MAPS: &[Map] = &[Map {
    gr: "channels_channel_model",
    rf: "channel_model",
    params: &[],
}];
