//! [`PolarParams`]: the settings of GNU Radio's polar coder objects
//! (`fec.polar_encoder.make`, `fec.polar_decoder_sc.make`,
//! `fec.polar_decoder_sc_list.make` and the systematic ones), flattened
//! into [`FecCodeParams`](crate::fec::FecCodeParams) under GNU Radio's
//! argument names; and the rules they must meet.

use super::MAX_BLOCK_SIZE;
use super::code::PolarCode;
use rfgraph::{ParamError, ParamSet};

/// Most `max_list_size · N · (log2 N + 1)`: the list decoder's LLRs and
/// partial sums (five bytes each).
pub const MAX_LIST_CELLS: usize = 1 << 24;

/// The settings of a polar code (`code` `polar`, `polar_list`,
/// `polar_systematic`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct PolarParams {
    /// polar block size N, a power of 2 (`polar`)
    #[param(default = 32, min = 1, max = MAX_BLOCK_SIZE)]
    pub block_size: usize,
    /// information bits K of a polar block, fewer than N (`polar`)
    #[param(default = 16, min = 0, max = MAX_BLOCK_SIZE)]
    pub num_info_bits: usize,
    /// the N − K frozen bit positions of a polar block, increasing
    /// (`polar`)
    #[param(default = Vec::new(), max_len = MAX_BLOCK_SIZE)]
    pub frozen_bit_positions: Vec<i64>,
    /// the frozen bits' values, 0 for those not given (`polar`;
    /// the systematic code's are 0)
    #[param(default = Vec::new(), max_len = MAX_BLOCK_SIZE)]
    pub frozen_bit_values: Vec<i64>,
    /// the polar encoder takes K / 8 packed bytes, most significant bit
    /// first (`polar`)
    #[param(default = false)]
    pub is_packed: bool,
    /// paths the list decoder keeps, a power of 2 (`polar_list`)
    #[param(default = 8, min = 1, max = 1024)]
    pub max_list_size: usize,
}

impl PolarParams {
    /// The code these settings give (`systematic`: frozen values 0), or
    /// what GNU Radio refuses, as an error of `block`.
    pub(crate) fn code(&self, block: &str, systematic: bool) -> Result<PolarCode, ParamError> {
        let values: &[i64] = if systematic {
            &[]
        } else {
            &self.frozen_bit_values
        };
        PolarCode::new(
            block,
            self.block_size,
            self.num_info_bits,
            &self.frozen_bit_positions,
            values,
        )
    }

    /// The rules of a packed encoder: whole bytes in and out.
    pub(crate) fn check_packed(&self, block: &str) -> Result<(), ParamError> {
        if self.is_packed && (!self.num_info_bits.is_multiple_of(8) || self.block_size < 8) {
            return Err(ParamError::new(
                block,
                "is_packed",
                format!(
                    "a packed polar encoder needs K a multiple of 8 and N at least 8, not K = {}, N = {}",
                    self.num_info_bits, self.block_size
                ),
            ));
        }
        Ok(())
    }

    /// The rules of the list decoder: a power-of-two list (GNU Radio's
    /// writes past its paths otherwise) within [`MAX_LIST_CELLS`].
    pub(crate) fn check_list(&self, block: &str) -> Result<(), ParamError> {
        let l = self.max_list_size;
        if !l.is_power_of_two() {
            return Err(ParamError::new(
                block,
                "max_list_size",
                format!("must be a power of 2, not {l}"),
            ));
        }
        let power = self.block_size.max(1).trailing_zeros() as usize;
        if l.saturating_mul(self.block_size).saturating_mul(power + 1) > MAX_LIST_CELLS {
            return Err(ParamError::new(
                block,
                "max_list_size",
                format!(
                    "{l} paths of a {}-bit block exceed {MAX_LIST_CELLS} cells",
                    self.block_size
                ),
            ));
        }
        Ok(())
    }
}
