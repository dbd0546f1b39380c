//! GRC's turbo product code variables `variable_tpc_encoder_def` and
//! `variable_tpc_decoder_def` (GNU Radio's `tpc_*_def_list.block.yml`),
//! as rows of the object variable table (see `objects`), with the YAMLs'
//! defaults.

use super::objects::Defaults;

const CODE: Defaults = &[
    ("row_poly", "[3]"),
    ("col_poly", "[43]"),
    ("krow", "26"),
    ("kcol", "6"),
    ("bval", "9"),
    ("qval", "3"),
    ("max_iter", "6"),
    ("decoder_type", "0"),
];

/// `(block id, constructor template, defaults)`, as in `objects`.
pub(super) const OBJECTS: &[(&str, &str, Defaults)] = &[
    (
        "variable_tpc_encoder_def",
        "fec.tpc_encoder_make({row_poly}, {col_poly}, {krow}, {kcol}, {bval}, {qval})",
        CODE,
    ),
    (
        "variable_tpc_decoder_def",
        "fec.tpc_decoder.make({row_poly}, {col_poly}, {krow}, {kcol}, {bval}, {qval}, \
         {max_iter}, {decoder_type})",
        CODE,
    ),
];
