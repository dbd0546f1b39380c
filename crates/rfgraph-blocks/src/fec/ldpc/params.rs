//! [`LdpcParams`]: the settings of the LDPC codes, flattened into
//! [`FecCodeParams`](crate::fec::FecCodeParams): the alist file and what
//! GNU Radio's LDPC constructors take besides it.

use rfgraph::ParamSet;

/// The settings of the LDPC codes (`ldpc`, `ldpc_h`, `ldpc_g`); the
/// other codes ignore them.
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct LdpcParams {
    /// the alist file of the parity check matrix (`ldpc`, `ldpc_h`) or
    /// of the generator matrix (`ldpc_g`)
    #[param(default = "", alias = "filename", alias = "alist_file")]
    pub file: String,
    /// noise standard deviation the belief propagation decoder assumes
    /// (`ldpc` decoder)
    #[param(default = 0.5, above = 0.0)]
    pub sigma: f64,
    /// most decoder iterations a codeword (`ldpc`: belief propagation;
    /// `ldpc_h`, `ldpc_g`: bit flipping)
    #[param(default = 50, max = 1 << 20, alias = "max_iterations")]
    pub max_iter: usize,
    /// gap of the parity check matrix in Richardson and Urbanke's
    /// approximate lower triangular form (`ldpc_h`)
    #[param(default = 0, max = 1 << 16)]
    pub gap: usize,
}
