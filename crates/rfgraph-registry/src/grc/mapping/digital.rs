//! GNU Radio's `digital` module: symbol mapping and synchronisation.

use super::{Map, P};

/// The entries.
pub(super) const MAPS: &[Map] = &[
    Map {
        gr: "digital_binary_slicer_fb",
        rf: "binary_slicer",
        params: &[],
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
            P::Expr("symbol_table", "symbol_table"),
            P::Expr("dimension", "dimension"),
        ],
    },
    Map {
        gr: "digital_clock_recovery_mm_xx",
        rf: "clock_recovery_mm",
        params: &[
            P::Type("type"),
            P::Expr("omega", "omega"),
            P::Expr("gain_omega", "gain_omega"),
            P::Expr("mu", "mu"),
            P::Expr("gain_mu", "gain_mu"),
            P::Expr("omega_relative_limit", "omega_relative_limit"),
        ],
    },
    Map {
        gr: "digital_constellation_decoder_cb",
        rf: "constellation_decoder",
        params: &[P::Constellation("constellation", "constellation")],
    },
    Map {
        gr: "digital_constellation_modulator",
        rf: "constellation_modulator",
        params: &[
            P::Constellation("constellation", "constellation"),
            P::Expr("differential", "differential"),
            P::Expr("samples_per_symbol", "sps"),
            P::Expr("excess_bw", "excess_bw"),
            P::Require("truncate", &["False"]),
        ],
    },
    Map {
        gr: "digital_costas_loop_cc",
        rf: "costas_loop",
        params: &[P::Expr("w", "loop_bw"), P::Expr("order", "order")],
    },
    Map {
        gr: "digital_diff_decoder_bb",
        rf: "diff_decoder",
        params: &[P::Expr("modulus", "modulus")],
    },
    Map {
        gr: "digital_diff_encoder_bb",
        rf: "diff_encoder",
        params: &[P::Expr("modulus", "modulus")],
    },
    Map {
        gr: "digital_fll_band_edge_cc",
        rf: "fll_band_edge",
        params: &[
            P::Expr("samps_per_sym", "sps"),
            P::Expr("rolloff", "rolloff"),
            P::Expr("filter_size", "filter_size"),
            P::Expr("w", "loop_bw"),
        ],
    },
    Map {
        gr: "digital_map_bb",
        rf: "map",
        params: &[P::Expr("map", "map")],
    },
    Map {
        gr: "digital_meas_evm_cc",
        rf: "meas_evm",
        params: &[
            P::Constellation("cons", "constellation"),
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
        gr: "digital_pfb_clock_sync_xxx",
        rf: "pfb_clock_sync",
        params: &[
            P::Require("type", &["ccf"]),
            P::Expr("sps", "sps"),
            P::Expr("loop_bw", "loop_bw"),
            P::Expr("taps", "taps"),
            P::Expr("filter_size", "filter_size"),
            P::Expr("init_phase", "init_phase"),
            P::Expr("max_dev", "max_rate_deviation"),
            P::Expr("osps", "osps"),
        ],
    },
];
