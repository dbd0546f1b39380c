//! This crate's blocks as registry entries (`rfgraph::registry::BlockSpec`):
//! each block file describes its block next to its code, and [`specs`]
//! lists them all for the `rfgraph-registry` crate.

use rfgraph::registry::BlockSpec;

/// Every block of this crate, described for the registry.
pub fn specs() -> Vec<BlockSpec> {
    vec![
        crate::copy::spec(),
        crate::copy_rand::spec(),
        crate::dsp_specs::agc_spec(),
        crate::dsp_specs::am_demod_spec(),
        crate::dsp_specs::band_pass_spec(),
        crate::dsp_specs::band_reject_spec(),
        crate::dsp_specs::complex_to_mag_spec(),
        crate::dsp_specs::complex_to_mag_squared_spec(),
        crate::dsp_specs::fft_filter_spec(),
        crate::dsp_specs::fft_spec(),
        crate::dsp_specs::fir_filter_spec(),
        crate::dsp_specs::fm_deemph_spec(),
        crate::dsp_specs::freq_xlating_spec(),
        crate::dsp_specs::high_pass_spec(),
        crate::dsp_specs::iir_dc_blocker_spec(),
        crate::dsp_specs::interp_fir_filter_spec(),
        crate::dsp_specs::low_pass_spec(),
        crate::dsp_specs::moving_average_spec(),
        crate::dsp_specs::pfb_arb_resampler_spec(),
        crate::dsp_specs::quadrature_demod_spec(),
        crate::dsp_specs::rational_resampler_spec(),
        crate::dsp_specs::rotator_spec(),
        crate::file::sink_spec(),
        crate::file::source_spec(),
        crate::generate::noise_spec(),
        crate::generate::random_uniform_spec(),
        crate::generate::signal_spec(),
        crate::head::spec(),
        crate::message_burst::spec(),
        crate::message_forward::spec(),
        crate::message_sink::spec(),
        crate::null::sink_spec(),
        crate::null::source_spec(),
        crate::sigmf::sink_spec(),
        crate::sigmf::source_spec(),
        crate::throttle::spec(),
        crate::vector_source::spec(),
        crate::wav::sink_spec(),
        crate::wav::source_spec(),
    ]
}
