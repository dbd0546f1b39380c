//! `web_waterfall_sink`: GNU Radio's `qtgui_waterfall_sink_x`, a
//! [`WebFreqSink`](super::WebFreqSink) whose frames a browser stacks as
//! rows (its `display` reading says `kind` `waterfall`).

use super::freq::{SpectrumKind, spectrum_spec};
use rfgraph::registry::BlockSpec;

/// `web_waterfall_sink`: the registry entry.
pub(crate) fn spec() -> BlockSpec {
    spectrum_spec(
        "web_waterfall_sink",
        SpectrumKind::Waterfall,
        "A waterfall display for the web UI.",
        "Consumes its inputs and keeps, as its reading `frame`, the latest power spectrum row (dB, DC in the middle) of each input: one per `update_time` of stream time, from `fft_size` consecutive items, averaged with `average` (the others are dropped unread). A browser stacks the rows; `y_min` and `y_max` bound the colour scale. Its reading `display` describes the plot (`kind` `waterfall`).",
    )
}
