//! [`TpcParams`]: the settings of GNU Radio's turbo product code objects
//! (`fec.tpc_encoder_make`, `fec.tpc_decoder.make`), flattened into
//! [`FecCodeParams`](crate::fec::FecCodeParams) under GNU Radio's
//! argument names; and the rules they must meet ([`TpcShape`]).

use super::trellis::Rsc;
use rfgraph::{ParamError, ParamSet};

/// Most information bits of a product code row or column (`krow`,
/// `kcol`).
pub const MAX_TPC_SIDE: usize = 1 << 12;

/// Most cells of a product codeword, `(krow + m) · (kcol + m)`.
pub const MAX_TPC_CELLS: usize = 1 << 20;

/// Largest row or column polynomial: constraint length 16 at most.
pub const MAX_TPC_POLY: i64 = (1 << 16) - 1;

/// The settings of a turbo product code (`code` `tpc`). The decoder's
/// turbo iterations are the shared `max_iter` (whose default, 50, is the
/// LDPC decoder's; GNU Radio Companion's TPC definition sets 6).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct TpcParams {
    /// the row code's recursive systematic convolutional polynomial
    /// (one: GNU Radio's coders are only consistent with one)
    #[param(default = vec![3], max_len = 16, alias = "row_polys")]
    pub row_poly: Vec<i64>,
    /// the column code's polynomial (one)
    #[param(default = vec![43], max_len = 16, alias = "col_polys")]
    pub col_poly: Vec<i64>,
    /// information bits of a row
    #[param(default = 26, min = 1, max = MAX_TPC_SIDE)]
    pub krow: usize,
    /// information bits of a column (rows of information)
    #[param(default = 6, min = 1, max = MAX_TPC_SIDE)]
    pub kcol: usize,
    /// leading bits of the product codeword dropped from the output (at
    /// most `krow`; the decoder reads them as erasures)
    #[param(default = 9, max = MAX_TPC_SIDE)]
    pub bval: usize,
    /// zero bits after the dropped ones, not carrying data
    #[param(default = 3, max = MAX_TPC_CELLS)]
    pub qval: usize,
    /// the decoder's max* operator: 0 linear log-MAP, 1 max-log-MAP,
    /// 2 constant log-MAP, 3 log-MAP by table, 4 log-MAP by `exp`/`log`;
    /// any other value is 0, as in GNU Radio
    #[param(default = 0, min = i32::MIN as i64, max = i32::MAX as i64)]
    pub decoder_type: i64,
}

/// The frame geometry of [`TpcParams`] that passed the rules.
#[derive(Clone, Debug)]
pub(crate) struct TpcShape {
    pub(crate) row: Rsc,
    pub(crate) col: Rsc,
    pub(crate) krow: usize,
    pub(crate) kcol: usize,
    pub(crate) bval: usize,
    pub(crate) qval: usize,
}

impl TpcShape {
    /// Codeword columns: a row's bits and its tail.
    pub(crate) fn width(&self) -> usize {
        self.krow + self.row.memory()
    }

    /// Codeword rows: the information rows and the column tails.
    pub(crate) fn height(&self) -> usize {
        self.kcol + self.col.memory()
    }

    /// Information bits a frame (GNU Radio's `krow · kcol − (B + Q)`).
    pub(crate) fn info_bits(&self) -> usize {
        self.krow * self.kcol - (self.bval + self.qval)
    }

    /// Coded bits a frame (the codeword less its first `B`).
    pub(crate) fn coded_bits(&self) -> usize {
        self.width() * self.height() - self.bval
    }
}

impl TpcParams {
    /// The code these settings give, or what makes GNU Radio's coders
    /// misbehave (read or write outside their buffers), as an error of
    /// `block`.
    pub(crate) fn shape(&self, block: &str) -> Result<TpcShape, ParamError> {
        let err = |param: &str, reason: String| Err(ParamError::new(block, param, reason));
        let row =
            Rsc::from_polys(&self.row_poly).map_err(|r| ParamError::new(block, "row_poly", r))?;
        let col =
            Rsc::from_polys(&self.col_poly).map_err(|r| ParamError::new(block, "col_poly", r))?;
        let (krow, kcol) = (self.krow, self.kcol);
        if krow == 0 || kcol == 0 {
            return err(
                "krow",
                format!("krow and kcol must be at least 1, not {krow} and {kcol}"),
            );
        }
        let cells = (krow + row.memory()).saturating_mul(kcol + col.memory());
        if cells > MAX_TPC_CELLS {
            return err(
                "krow",
                format!(
                    "a {krow} × {kcol} product code has {cells} cells, more than {MAX_TPC_CELLS}"
                ),
            );
        }
        if self.bval > krow {
            return err(
                "bval",
                format!(
                    "must be at most krow = {krow} (GNU Radio's encoder drops B bits of the first row only), not {}",
                    self.bval
                ),
            );
        }
        if self.bval + self.qval >= krow * kcol {
            return err(
                "qval",
                format!(
                    "B + Q = {} leaves no information bits of the {} a {krow} × {kcol} code has",
                    self.bval + self.qval,
                    krow * kcol
                ),
            );
        }
        Ok(TpcShape {
            row,
            col,
            krow,
            kcol,
            bval: self.bval,
            qval: self.qval,
        })
    }
}
