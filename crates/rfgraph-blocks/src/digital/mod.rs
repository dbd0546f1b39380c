//! Digital-communications blocks matching GNU Radio 3.10: bit packing and
//! repacking, symbol mapping, slicing, differential coding, constellation
//! decisions, carrier (Costas) and clock (Mueller & Müller, polyphase, and GNU
//! Radio's symbol synchronizer with its detectors) recovery,
//! burst shaping, and GNU Radio's hierarchical PSK and GMSK modulators
//! as single blocks. The
//! arithmetic lives in `rfgraph_dsp::digital`; this module builds blocks
//! and registry specs around it, each from one declaration of its
//! parameters.

mod adaptive;
mod bits;
mod burst_shaper;
mod chunks_to_symbols;
mod clock_recovery_mm;
mod constellation;
mod constellation_params;
mod corr_est;
mod costas_loop;
mod diag_block;
mod differential;
mod equalizer;
mod fll_band_edge;
mod gmsk_mod;
mod gr_arb_resampler;
mod map_bb;
mod mmse_resampler;
mod modulate_vector;
pub(crate) mod params;
mod pfb_clock_sync;
mod psk_mod;
mod repack_tagged;
mod slicer;
mod soft_decoder;
mod symbol_sync;

pub use adaptive::{Adaptive, AdaptiveParams, AlgorithmKind};
pub use bits::{
    ChunkBlock, ChunkParams, KBitsParams, RepackBitsParams, RepackBlock, pack_k_bits,
    packed_to_unpacked, repack_bits, unpack_k_bits, unpacked_to_packed,
};
pub use burst_shaper::{BurstShaper, BurstShaperParams, ShaperItem};
pub use chunks_to_symbols::{
    ChunksToSymbolsBlock, ChunksToSymbolsParams, Symbol, chunks_to_symbols,
};
pub use clock_recovery_mm::{ClockRecoveryMmBlock, ClockRecoveryMmParams, clock_recovery_mm};
pub use constellation::{
    ConstellationDecoderParams, ConstellationModulator, ConstellationModulatorParams, Decide,
    DecoderBlock, Evm, EvmBlock, EvmMode, MeasEvmParams, constellation_decoder, meas_evm,
};
pub use constellation_params::{
    ConstellationName, ConstellationNormalization, ConstellationParams,
};
pub use corr_est::{CorrEst, CorrEstParams, ThresholdMethod};
pub use costas_loop::{CostasLoopBlock, CostasLoopParams, costas_loop};
pub use diag_block::{DiagBlock, Diagnosed};
pub use differential::{
    DiffCoderParams, DiffCoding, DiffDecoderBlock, DiffEncoderBlock, diff_decoder, diff_encoder,
};
pub use equalizer::{
    DecisionFeedbackEqualizer, DfeParams, Equalizer, LinearEqualizer, LinearEqualizerParams,
    decision_feedback_equalizer, linear_equalizer,
};
pub use fll_band_edge::{FllBandEdgeBlock, FllBandEdgeParams, fll_band_edge};
pub use gmsk_mod::{GmskMod, GmskModParams};
pub use map_bb::{ByteMap, ByteMapBlock, MapBbParams, map_bb};
pub use mmse_resampler::{MmseResamplerBlock, MmseResamplerParams, mmse_resampler};
pub use modulate_vector::{GenericMod, modulate_vector};
pub use params::{BitOrder, ItemStep, ParamMap};
pub use pfb_clock_sync::{PfbClockSyncBlock, PfbClockSyncParams, pfb_clock_sync};
pub use psk_mod::{PskCode, PskMod, PskModParams};
pub use repack_tagged::TaggedRepack;
pub use slicer::binary_slicer;
pub use soft_decoder::{SoftDecLut, SoftDecoder, SoftDecoderParams};
pub use symbol_sync::{ResampType, SymbolSyncBlock, SymbolSyncParams, TedType, symbol_sync};

pub(crate) use bits::{
    pack_k_bits_spec, packed_to_unpacked_spec, repack_bits_spec, unpack_k_bits_spec,
    unpacked_to_packed_spec,
};
pub(crate) use burst_shaper::spec as burst_shaper_spec;
pub(crate) use chunks_to_symbols::spec as chunks_to_symbols_spec;
pub(crate) use clock_recovery_mm::spec as clock_recovery_mm_spec;
pub(crate) use constellation::{
    constellation_decoder_spec, constellation_modulator_spec, meas_evm_spec,
};
pub(crate) use corr_est::spec as corr_est_spec;
pub(crate) use costas_loop::spec as costas_loop_spec;
pub(crate) use differential::{diff_decoder_spec, diff_encoder_spec};
pub(crate) use equalizer::{
    dfe_spec as decision_feedback_equalizer_spec, linear_spec as linear_equalizer_spec,
};
pub(crate) use fll_band_edge::spec as fll_band_edge_spec;
pub(crate) use gmsk_mod::spec as gmsk_mod_spec;
pub(crate) use map_bb::spec as map_spec;
pub(crate) use mmse_resampler::spec as mmse_resampler_spec;
pub(crate) use pfb_clock_sync::spec as pfb_clock_sync_spec;
pub(crate) use psk_mod::spec as psk_mod_spec;
pub(crate) use slicer::spec as binary_slicer_spec;
pub(crate) use soft_decoder::spec as constellation_soft_decoder_spec;
pub(crate) use symbol_sync::spec as symbol_sync_spec;
