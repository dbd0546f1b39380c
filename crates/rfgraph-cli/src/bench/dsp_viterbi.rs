//! The `dsp` experiment's `viterbi` kernel: the K = 7, rate 1/2 Viterbi
//! decoder the 802.11 receiver uses, as GNU Radio runs it in
//! `gr_bench.py dsp --kernel viterbi`: `fec.extended_decoder` around a
//! `fec.cc_decoder` (frames of [`FRAME_BITS`] bits, terminated,
//! polynomials 109 and 79), float soft symbols in, one bit per byte out.
//! rfgraph's side is the registry's `extended_decoder` on the same code
//! (its float-to-byte soft mapping inside the block, where GNU Radio's
//! hier block runs three more blocks for it: both are the whole decoder
//! as a flowgraph sees it).
//!
//! Both feed the dsp experiment's repeating random floats (the decoder's
//! work does not depend on the data: no branch but the rare
//! renormalisation does), `--items` rounded down to whole frames of
//! [`FRAME_SYMBOLS`] soft symbols. The record adds
//! `decoded_bits_per_s`: decoded bits (`items / FRAME_SYMBOLS ·
//! FRAME_BITS`) per `seconds`.

use rfgraph::{BlockId, Flowgraph};
use rfgraph_blocks::fec::{CcMode, ExtendedDecoderParams, FecCodeParams, extended_decoder};

/// Decoded bits per frame.
pub const FRAME_BITS: usize = 2048;
/// Soft symbols per terminated frame: `2 · (FRAME_BITS + 6)`.
pub const FRAME_SYMBOLS: u64 = 2 * (FRAME_BITS as u64 + 6);

/// `items` rounded down to whole frames (at least one).
pub fn whole_frames(items: u64) -> u64 {
    (items / FRAME_SYMBOLS).max(1) * FRAME_SYMBOLS
}

/// Adds the decoder to `fg`.
pub fn add(fg: &mut Flowgraph) -> anyhow::Result<BlockId> {
    let mut fec = FecCodeParams::cc(FRAME_BITS, CcMode::Terminated);
    fec.polys = vec![109, 79];
    let dec = extended_decoder(ExtendedDecoderParams {
        fec,
        ..Default::default()
    })?;
    Ok(fg.add(dec))
}

/// Decoded bits per second of `items` soft symbols in `seconds`.
pub fn decoded_bits_per_s(items: u64, seconds: f64) -> f64 {
    (items / FRAME_SYMBOLS * FRAME_BITS as u64) as f64 / seconds
}
