//! GRC's polar code variables: `variable_polar_code_configurator` (the
//! frozen bits dict of `polar.load_frozen_bits_info`, called as the
//! generated Python calls it) and the polar coder definitions
//! (`variable_polar_encoder_def`, `variable_polar_decoder_sc_def`,
//! `variable_polar_decoder_sc_list_def` and the systematic ones), as
//! rows of the object variable table (see `objects`).

use super::objects::Defaults;

/// `(block id, constructor template, defaults)`, as in `objects`.
pub(super) const OBJECTS: &[(&str, &str, Defaults)] = &[
    (
        "variable_polar_code_configurator",
        "polar.load_frozen_bits_info(False, {channel}, {block_size}, {num_info_bits}, \
         {design_snr}, {mu})",
        &[
            ("channel", "polar.CHANNEL_TYPE_BEC"),
            ("block_size", "32"),
            ("num_info_bits", "16"),
            ("design_snr", "0.0"),
            ("mu", "16"),
        ],
    ),
    (
        "variable_polar_encoder_def",
        "fec.polar_encoder.make({block_size}, {num_info_bits}, {frozen_bit_positions}, \
         {frozen_bit_values}, {is_packed})",
        &[("is_packed", "False")],
    ),
    (
        "variable_polar_decoder_sc_def",
        "fec.polar_decoder_sc.make({block_size}, {num_info_bits}, {frozen_bit_positions}, \
         {frozen_bit_values})",
        &[],
    ),
    (
        "variable_polar_decoder_sc_list_def",
        "fec.polar_decoder_sc_list.make({max_list_size}, {block_size}, {num_info_bits}, \
         {frozen_bit_positions}, {frozen_bit_values})",
        &[],
    ),
    (
        "variable_polar_encoder_systematic_def",
        "fec.polar_encoder_systematic.make({block_size}, {num_info_bits}, \
         {frozen_bit_positions})",
        &[],
    ),
    (
        "variable_polar_decoder_sc_systematic_def",
        "fec.polar_decoder_sc_systematic.make({block_size}, {num_info_bits}, \
         {frozen_bit_positions})",
        &[],
    ),
];
