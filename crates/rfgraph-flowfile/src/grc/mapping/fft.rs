//! GNU Radio's `fft` module: the vector FFT.

use super::{Map, P};

/// The entries.
pub(super) const MAPS: &[Map] = &[Map {
    gr: "fft_vxx",
    rf: "fft",
    params: &[
        // rfgraph's FFT is complex to complex.
        P::Require("type", &["complex"]),
    ],
}];
