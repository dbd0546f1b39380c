//! Polyphase channelizers: one complex stream split into `N` equally
//! spaced channels by a bank of `N` filter arms and an `N`-point FFT.
//! Owns GNU Radio's two forms: [`PfbChannelizer`] (its C++
//! `pfb_channelizer_ccf`, with oversampling and a channel map) and
//! [`FilterbankChannelizer`] (its Python `channelizer_hier_ccf`, a
//! filter bank on vectors then a forward FFT), and the arms' layout they
//! share. The prototype filter's design is [`crate::design`]'s.

mod filterbank;
mod pfb;

pub use filterbank::FilterbankChannelizer;
pub use pfb::PfbChannelizer;

use crate::error::DspError;

/// The most channels.
pub const MAX_CHANNELS: usize = 1 << 14;

/// The most prototype taps.
pub const MAX_PROTOTYPE_TAPS: usize = 1 << 20;

/// The prototype `taps` split into `n` arms of `ceil(len / n)` taps each
/// (arm `i` holds `taps[i + j·n]`, zeros past the end).
///
/// Errors: no taps, too many, non-finite ones, or `n` out of range.
pub(crate) fn arms(taps: &[f32], n: usize) -> Result<Vec<Vec<f32>>, DspError> {
    if !(1..=MAX_CHANNELS).contains(&n) {
        return Err(DspError::OutOfRange {
            name: "nchans",
            value: n as f64,
            expected: "must be in 1..=16384",
        });
    }
    if taps.is_empty() {
        return Err(DspError::EmptyTaps);
    }
    if taps.len() > MAX_PROTOTYPE_TAPS {
        return Err(DspError::InvalidSpec(
            "a channelizer takes at most 2^20 taps".into(),
        ));
    }
    for &t in taps {
        DspError::finite("taps", t as f64)?;
    }
    let per = taps.len().div_ceil(n);
    Ok((0..n)
        .map(|i| {
            (0..per)
                .map(|j| taps.get(i + j * n).copied().unwrap_or(0.0))
                .collect()
        })
        .collect())
}
