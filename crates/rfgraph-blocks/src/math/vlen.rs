//! [`FlatVlenParams`]: the one parameter of the blocks that handle GNU
//! Radio's vectors item by item (magnitudes, parts, conversions), whose
//! streams are flat here.

use rfgraph::ParamSet;
use rfgraph::params::limits;

/// The parameters of a block that works item by item, whatever GNU
/// Radio's vector length: `complex_to_mag`, `float_to_complex`,
/// `uchar_to_float`, ...
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct FlatVlenParams {
    /// GNU Radio vector length (items are handled one by one)
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
}
