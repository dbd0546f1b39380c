//! Forward error correction matching GNU Radio 3.10's `gr-fec`: the codes
//! (`dummy`, `repetition`, convolutional `cc` with GNU Radio's K = 7,
//! rate 1/2 Viterbi decoder, `ccsds`, the LDPC codes `ldpc`, `ldpc_h`,
//! `ldpc_g`, [`polar`] codes with GNU Radio's successive cancellation
//! (list) decoders) and the blocks that run them on
//! streams, tagged streams and PDUs, with puncturing and a bit error
//! rate meter.
//!
//! GNU Radio builds a coder object in a GRC variable
//! (`variable_cc_encoder_def`, ...) and hands it to a FEC block. Here a
//! block declares its code itself: [`FecCodeParams`], flattened into
//! every FEC block's parameters, names the code and its settings.
//! [`Encoder`] and [`Decoder`] are the codes as objects, usable without a
//! flowgraph; the blocks drive them frame by frame as GNU Radio's drivers
//! do (`extended_encoder`, `extended_decoder`, the tagged and
//! asynchronous ones), value for value: the same input gives the same
//! output bits, noisy soft input included.
//!
//! | registry name | GNU Radio | block |
//! |---|---|---|
//! | `extended_encoder` | `fec_extended_encoder` | [`FrameEncoder`] |
//! | `extended_decoder` | `fec_extended_decoder` | [`FrameDecoder`] |
//! | `extended_tagged_encoder` | `fec_extended_tagged_encoder` | [`TaggedEncoder`], [`PackedTaggedEncoder`] (`ccsds`) |
//! | `extended_tagged_decoder` | `fec_extended_tagged_decoder` | [`TaggedDecoder`] |
//! | `async_encoder` | `fec_async_encoder`, `fec_extended_async_encoder` | [`AsyncEncoder`] |
//! | `async_decoder` | `fec_async_decoder` | [`AsyncDecoder`] |
//! | `generic_encoder` | `fec_generic_encoder` | [`FrameEncoder`] |
//! | `generic_decoder` | `fec_generic_decoder` | [`FrameDecoder`] |
//! | `ber` | `fec_ber_bf` | [`Ber`] |
//! | `bercurve_generator` | `fec_bercurve_generator` | [`BercurveGenerator`] |
//!
//! The LDPC codes (`ldpc`, `ldpc_h`, `ldpc_g`) live in [`ldpc`], the turbo
//! product code (`tpc`) in [`tpc`].

mod async_decoder;
mod async_encoder;
mod ber;
mod bercurve;
mod cc_decoder;
mod cc_encoder;
mod ccsds;
mod coder;
mod dummy;
pub(crate) mod extended_decoder;
mod extended_encoder;
pub mod ldpc;
mod packets;
mod params;
mod pending;
pub mod polar;
pub(crate) mod puncture;
mod repetition;
mod tagged_decoder;
mod tagged_encoder;
mod tagged_packed;
pub mod tpc;
mod viterbi;
#[cfg(target_arch = "x86_64")]
mod viterbi_avx512;
mod viterbi_simd;

pub use async_decoder::{AsyncDecoder, AsyncDecoderParams};
pub use async_encoder::{AsyncEncoder, AsyncEncoderParams};
pub use ber::{Ber, BerParams};
pub use bercurve::{BercurveChain, BercurveGenerator, BercurveGeneratorParams, MAX_POINTS};
pub use coder::{Decoder, Encoder, SoftInput, SoftItem, uchar_rounded, uchar_truncated};
pub use extended_decoder::{
    ExtendedDecoder, ExtendedDecoderParams, FrameDecoder, GenericDecoderParams, extended_decoder,
    generic_decoder,
};
pub use extended_encoder::{
    ExtendedEncoder, ExtendedEncoderParams, FrameEncoder, GenericEncoder, GenericEncoderParams,
    extended_encoder, generic_encoder,
};
pub use params::{CcMode, FecCode, FecCodeParams, MAX_CODED_BITS, MAX_FRAME_BITS};
pub use tagged_decoder::{ExtendedTaggedDecoderParams, TaggedDecoder};
pub use tagged_encoder::{ExtendedTaggedEncoderParams, TaggedEncoder};
pub use tagged_packed::PackedTaggedEncoder;
pub use viterbi::{
    K7Trellis, Kernel as K7Kernel, STATES as K7_STATES, decision_index as k7_decision_index,
};

pub(crate) use async_decoder::spec as async_decoder_spec;
pub(crate) use async_encoder::spec as async_encoder_spec;
pub(crate) use ber::spec as ber_spec;
pub(crate) use bercurve::spec as bercurve_generator_spec;
pub(crate) use extended_decoder::{extended_decoder_spec, generic_decoder_spec};
pub(crate) use extended_encoder::{extended_encoder_spec, generic_encoder_spec};
pub(crate) use tagged_decoder::spec as extended_tagged_decoder_spec;
pub(crate) use tagged_encoder::spec as extended_tagged_encoder_spec;
