//! GNU Radio's `pdu` module: PDU (message) tools and the conversions
//! between PDUs and tagged streams.

use super::{Map, P};

const T: P = P::Type("type");

const fn m(gr: &'static str, rf: &'static str, params: &'static [P]) -> Map {
    Map { gr, rf, params }
}

/// The entries.
pub(super) const MAPS: &[Map] = &[
    m(
        "pdu_add_system_time",
        "add_system_time",
        &[P::Pmt("key", "key")],
    ),
    m(
        "pdu_pdu_filter",
        "pdu_filter",
        &[P::Pmt("k", "key"), P::Pmt("v", "value")],
    ),
    m(
        "pdu_pdu_lambda",
        "pdu_lambda",
        &[
            P::Expr("fn", "function"),
            P::Enum(
                "metadict",
                "mode",
                &[
                    ("Metadata", "meta"),
                    ("Uniform Vector", "uvec"),
                    ("Raw Message", "raw"),
                    ("META", "meta"),
                    ("UVEC", "uvec"),
                    ("RAW", "raw"),
                    ("\"META\"", "meta"),
                    ("\"UVEC\"", "uvec"),
                    ("\"RAW\"", "raw"),
                    // GNU Radio Companion's default, no option: it takes
                    // the first.
                    ("True", "meta"),
                ],
            ),
            P::Str("key", "key"),
        ],
    ),
    m("pdu_pdu_remove", "pdu_remove", &[P::Pmt("k", "key")]),
    m(
        "pdu_pdu_set",
        "pdu_set",
        &[P::Pmt("k", "key"), P::Pmt("v", "value")],
    ),
    m("pdu_pdu_split", "pdu_split", &[]),
    m(
        "pdu_pdu_to_stream_x",
        "pdu_to_stream",
        &[
            T,
            P::Enum(
                "early_behavior",
                "early_behavior",
                &[
                    ("pdu.EARLY_BURST_APPEND", "append"),
                    ("pdu.EARLY_BURST_DROP", "drop"),
                    ("pdu.EARLY_BURST_BALK", "balk"),
                ],
            ),
        ],
    ),
    m(
        "pdu_pdu_to_tagged_stream",
        "pdu_to_tagged_stream",
        &[T, P::Str("tag", "len_tag_key")],
    ),
    m("pdu_random_pdu", "random_pdu", &[]),
    m(
        "pdu_tagged_stream_to_pdu",
        "tagged_stream_to_pdu",
        &[T, P::Str("tag", "len_tag_key")],
    ),
    m(
        "pdu_tags_to_pdu_x",
        "tags_to_pdu",
        &[
            // GNU Radio's `i` and `s` variants have no rfgraph block.
            P::Enum("type", "type", &[("c", "c32"), ("f", "f32"), ("b", "u8")]),
            P::Str("start_tag", "start_tag"),
            P::Str("end_tag", "end_tag"),
        ],
    ),
    m("pdu_take_skip_to_pdu", "take_skip_to_pdu", &[T]),
    m(
        "pdu_time_delta",
        "time_delta",
        &[
            P::Pmt("delta_key", "delta_key"),
            P::Pmt("time_key", "time_key"),
        ],
    ),
];
