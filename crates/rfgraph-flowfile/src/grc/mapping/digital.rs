//! GNU Radio's `digital` module: symbol mapping, synchronisation and OFDM.

use super::{Map, P};

/// The entries.
/// GNU Radio's differential coding enumeration (3.10 adds NRZI).
const DIFF_CODING: P = P::Enum(
    "coding",
    "coding",
    &[
        ("digital.DIFF_DIFFERENTIAL", "differential"),
        ("digital.DIFF_NRZI", "nrzi"),
    ],
);

/// A parameter holding a GNU Radio object (a header format, a packet
/// header): given to one of the block's parameters, the object sets all
/// of them (see `expr::Object`).
const fn object(gr: &'static str, rf: &'static str) -> P {
    P::Expr(gr, rf)
}

pub(super) const MAPS: &[Map] = &[
    Map {
        gr: "digital_protocol_formatter_bb",
        rf: "protocol_formatter",
        params: &[object("format", "format")],
    },
    Map {
        gr: "digital_protocol_formatter_async",
        rf: "protocol_formatter_async",
        params: &[object("format", "format")],
    },
    Map {
        gr: "digital_protocol_parser_b",
        rf: "protocol_parser",
        params: &[object("format", "format")],
    },
    // The formatter object (`packet_header_default` or
    // `packet_header_ofdm`) sets the header's parameters; the block's own
    // length tag key comes after it and wins, as in GNU Radio, where the
    // generator reads its own key. GNU Radio's `set_header_formatter`
    // callback is not taken: the object is fixed at start.
    Map {
        gr: "digital_packet_headergenerator_bb",
        rf: "packet_headergenerator",
        params: &[
            object("header_formatter", "header_format"),
            P::Str("len_tag_key", "len_tag_key"),
        ],
    },
    Map {
        gr: "digital_packet_headerparser_b",
        rf: "packet_headerparser",
        params: &[object("header_formatter", "header_format")],
    },
    Map {
        gr: "digital_packet_headergenerator_bb_default",
        rf: "packet_headergenerator",
        params: &[],
    },
    Map {
        gr: "digital_packet_headerparser_b_default",
        rf: "packet_headerparser",
        params: &[],
    },
    Map {
        gr: "digital_binary_slicer_fb",
        rf: "binary_slicer",
        params: &[],
    },
    Map {
        gr: "digital_burst_shaper_xx",
        rf: "burst_shaper",
        params: &[
            P::Type("type"),
            P::Str("length_tag_name", "length_tag_name"),
        ],
    },
    Map {
        gr: "digital_chunks_to_symbols_xx",
        rf: "chunks_to_symbols",
        params: &[
            P::Type("in_type"),
            P::Enum(
                "out_type",
                "output_type",
                &[("complex", "c32"), ("float", "f32")],
            ),
        ],
    },
    Map {
        gr: "digital_clock_recovery_mm_xx",
        rf: "clock_recovery_mm",
        params: &[P::Type("type")],
    },
    Map {
        gr: "digital_constellation_decoder_cb",
        rf: "constellation_decoder",
        params: &[P::Expr("constellation", "constellation")],
    },
    Map {
        gr: "digital_corr_est_cc",
        rf: "corr_est",
        params: &[P::Enum(
            "threshold_method",
            "threshold_method",
            &[
                ("digital.THRESHOLD_ABSOLUTE", "absolute"),
                ("digital.THRESHOLD_DYNAMIC", "dynamic"),
            ],
        )],
    },
    Map {
        gr: "digital_linear_equalizer",
        rf: "linear_equalizer",
        params: &[P::Expr("alg", "algorithm")],
    },
    Map {
        gr: "digital_decision_feedback_equalizer",
        rf: "decision_feedback_equalizer",
        params: &[P::Expr("alg", "algorithm")],
    },
    Map {
        gr: "digital_constellation_soft_decoder_cf",
        rf: "constellation_soft_decoder",
        params: &[P::Expr("constellation", "constellation")],
    },
    Map {
        gr: "digital_constellation_modulator",
        rf: "constellation_modulator",
        params: &[
            P::Expr("constellation", "constellation"),
            P::Require("truncate", &["False"]),
        ],
    },
    Map {
        gr: "digital_costas_loop_cc",
        rf: "costas_loop",
        params: &[],
    },
    Map {
        gr: "digital_crc32_async_bb",
        rf: "crc32_async",
        params: &[],
    },
    Map {
        gr: "digital_crc32_bb",
        rf: "crc32",
        params: &[],
    },
    Map {
        gr: "digital_diff_decoder_bb",
        rf: "diff_decoder",
        params: &[DIFF_CODING],
    },
    Map {
        gr: "digital_diff_encoder_bb",
        rf: "diff_encoder",
        params: &[DIFF_CODING],
    },
    Map {
        gr: "digital_fll_band_edge_cc",
        rf: "fll_band_edge",
        params: &[],
    },
    Map {
        gr: "digital_header_payload_demux",
        rf: "header_payload_demux",
        params: &[
            P::Type("type"),
            P::Str("length_tag_key", "length_tag_key"),
            P::Str("trigger_tag_key", "trigger_tag_key"),
            P::Str("timing_tag_key", "timing_tag_key"),
        ],
    },
    Map {
        gr: "digital_gmsk_mod",
        rf: "gmsk_mod",
        params: &[],
    },
    Map {
        gr: "digital_map_bb",
        rf: "map",
        params: &[],
    },
    Map {
        gr: "digital_meas_evm_cc",
        rf: "meas_evm",
        params: &[
            P::Expr("cons", "constellation"),
            P::Enum(
                "meas_type",
                "mode",
                &[
                    ("digital.evm_measurement_t.EVM_PERCENT", "percent"),
                    ("digital.evm_measurement_t.EVM_DB", "db"),
                    ("digital.evm_measurement_t_EVM_PERCENT", "percent"),
                    ("digital.evm_measurement_t_EVM_DB", "db"),
                ],
            ),
        ],
    },
    Map {
        gr: "digital_ofdm_carrier_allocator_cvc",
        rf: "ofdm_carrier_allocator",
        params: &[P::Str("len_tag_key", "len_tag_key")],
    },
    Map {
        gr: "digital_ofdm_chanest_vcvc",
        rf: "ofdm_chanest",
        params: &[],
    },
    Map {
        gr: "digital_ofdm_cyclic_prefixer",
        rf: "ofdm_cyclic_prefixer",
        params: &[P::Str("tagname", "len_tag_key")],
    },
    Map {
        gr: "digital_ofdm_frame_equalizer_vcvc",
        rf: "ofdm_frame_equalizer",
        params: &[
            P::OfdmEqualizer("equalizer"),
            P::Str("len_tag_key", "len_tag_key"),
        ],
    },
    Map {
        gr: "digital_ofdm_serializer_vcc",
        rf: "ofdm_serializer",
        params: &[
            P::Str("len_tag_key", "len_tag_key"),
            P::Str("packet_len_tag_key", "packet_len_tag_key"),
            P::Str("carr_offset_key", "carr_offset_key"),
        ],
    },
    Map {
        gr: "digital_ofdm_sync_sc_cfb",
        rf: "ofdm_sync_sc_cfb",
        params: &[],
    },
    Map {
        gr: "digital_psk_mod",
        rf: "psk_mod",
        params: &[P::Enum(
            "mod_code",
            "mod_code",
            &[
                ("\"gray\"", "gray"),
                ("'gray'", "gray"),
                ("gray", "gray"),
                ("digital.mod_codes.GRAY_CODE", "gray"),
                ("\"none\"", "none"),
                ("'none'", "none"),
                ("none", "none"),
                ("digital.mod_codes.NO_CODE", "none"),
            ],
        )],
    },
    Map {
        gr: "digital_symbol_sync_xx",
        rf: "symbol_sync",
        params: &[
            P::Enum("type", "type", &[("cc", "c32"), ("ff", "f32")]),
            P::Expr("constellation", "constellation"),
            // GRC's enumerations name GNU Radio's constants.
            P::Enum(
                "ted_type",
                "ted_type",
                &[
                    ("digital.TED_MUELLER_AND_MULLER", "mueller_and_muller"),
                    (
                        "digital.TED_MOD_MUELLER_AND_MULLER",
                        "ted_mod_mueller_and_muller",
                    ),
                    ("digital.TED_ZERO_CROSSING", "zero_crossing"),
                    ("digital.TED_GARDNER", "gardner"),
                    ("digital.TED_EARLY_LATE", "early_late"),
                    (
                        "digital.TED_DANDREA_AND_MENGALI_GEN_MSK",
                        "ted_dandrea_and_mengali_gen_msk",
                    ),
                    (
                        "digital.TED_MENGALI_AND_DANDREA_GMSK",
                        "ted_mengali_and_dandrea_gmsk",
                    ),
                    (
                        "digital.TED_SIGNAL_TIMES_SLOPE_ML",
                        "ted_signal_times_slope_ml",
                    ),
                    (
                        "digital.TED_SIGNUM_TIMES_SLOPE_ML",
                        "ted_signum_times_slope_ml",
                    ),
                ],
            ),
            P::Enum(
                "resamp_type",
                "resamp_type",
                &[
                    ("digital.IR_MMSE_8TAP", "mmse8_tap"),
                    ("digital.IR_PFB_NO_MF", "pfb_no_mf"),
                    ("digital.IR_PFB_MF", "pfb_mf"),
                ],
            ),
        ],
    },
    Map {
        gr: "digital_pfb_clock_sync_xxx",
        rf: "pfb_clock_sync",
        params: &[P::Enum("type", "type", &[("ccf", "c32"), ("fff", "f32")])],
    },
];
