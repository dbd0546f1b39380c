//! This crate's blocks as registry entries (`rfgraph::registry::BlockSpec`):
//! each block file describes its block next to its code, and [`specs`]
//! lists them all for the `rfgraph-registry` crate.

use rfgraph::registry::BlockSpec;

/// Every block of this crate, described for the registry.
pub fn specs() -> Vec<BlockSpec> {
    vec![
        crate::analog::agc2_spec(),
        crate::digital::binary_slicer_spec(),
        crate::channels::channel_model_spec(),
        crate::digital::chunks_to_symbols_spec(),
        crate::digital::clock_recovery_mm_spec(),
        crate::digital::constellation_decoder_spec(),
        crate::digital::constellation_modulator_spec(),
        crate::digital::costas_loop_spec(),
        crate::digital::diff_decoder_spec(),
        crate::digital::diff_encoder_spec(),
        crate::analog::fastnoise_source_spec(),
        crate::digital::fll_band_edge_spec(),
        crate::analog::fm_preemph_spec(),
        crate::analog::frequency_modulator_spec(),
        crate::analog::iir_filter_spec(),
        crate::digital::map_spec(),
        crate::digital::meas_evm_spec(),
        crate::digital::pack_k_bits_spec(),
        crate::digital::packed_to_unpacked_spec(),
        crate::digital::pfb_clock_sync_spec(),
        crate::analog::random_source_spec(),
        crate::digital::repack_bits_spec(),
        crate::analog::single_pole_iir_filter_spec(),
        crate::digital::unpack_k_bits_spec(),
        crate::digital::unpacked_to_packed_spec(),
        crate::analog::vco_spec(),
    ]
}
