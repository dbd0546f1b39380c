//! This crate's blocks as registry entries (`rfgraph::registry::BlockSpec`):
//! each block file describes its block next to its code, and [`specs`]
//! lists them all for the `rfgraph-flowfile` crate.

use rfgraph::registry::BlockSpec;

/// Every block of this crate, described for the registry.
pub fn specs() -> Vec<BlockSpec> {
    vec![
        crate::fm::stereo_demod_spec(),
        crate::fm::stereo_matrix_spec(),
        crate::fm::wfm_rcv_spec(),
        crate::modes::cu8_magnitude_spec(),
        crate::modes::decoder_spec(),
        crate::modes::demod_spec(),
        crate::modes::magnitude_spec(),
        crate::rds::decoder_spec(),
        crate::rds::demod_spec(),
        crate::spectrum::average_spec(),
        crate::spectrum::power_spec(),
        crate::spectrum::waterfall_spec(),
    ]
}
