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
        gr: "digital_map_bb",
        rf: "map",
        params: &[P::Expr("map", "map")],
    },
];
