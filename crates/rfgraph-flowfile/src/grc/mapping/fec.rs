//! GNU Radio's `fec` module: the FEC blocks. Their coder objects
//! (`encoder_list`, `decoder_list`, `encoder`, `decoder`: GRC variables
//! such as `variable_cc_encoder_def`) are the registry blocks' flattened
//! `FecCodeParams`; `threadtype` does not apply (rfgraph schedules the
//! blocks itself), nor does the extended decoders' hidden `value`.

use super::{Map, P};

const PUNCPAT: P = P::Str("puncpat", "puncpat");
const ANN: P = P::Str("ann", "ann");
const LENTAGNAME: P = P::Str("lentagname", "lentagname");

/// The entries.
pub(super) const MAPS: &[Map] = &[
    Map {
        gr: "fec_async_decoder",
        rf: "async_decoder",
        params: &[],
    },
    Map {
        gr: "fec_async_encoder",
        rf: "async_encoder",
        params: &[],
    },
    Map {
        gr: "fec_ber_bf",
        rf: "ber",
        params: &[],
    },
    // GNU Radio's extended asynchronous encoder ignores its `puncpat`.
    Map {
        gr: "fec_extended_async_encoder",
        rf: "async_encoder",
        params: &[],
    },
    Map {
        gr: "fec_extended_decoder",
        rf: "extended_decoder",
        params: &[PUNCPAT, ANN],
    },
    Map {
        gr: "fec_extended_encoder",
        rf: "extended_encoder",
        params: &[PUNCPAT],
    },
    Map {
        gr: "fec_extended_tagged_decoder",
        rf: "extended_tagged_decoder",
        params: &[PUNCPAT, ANN, LENTAGNAME],
    },
    Map {
        gr: "fec_extended_tagged_encoder",
        rf: "extended_tagged_encoder",
        params: &[PUNCPAT, LENTAGNAME],
    },
    Map {
        gr: "fec_generic_decoder",
        rf: "generic_decoder",
        params: &[
            P::Enum("itype", "itype", &[("float", "f32"), ("byte", "u8")]),
            P::Require("otype", &["byte"]),
        ],
    },
    Map {
        gr: "fec_generic_encoder",
        rf: "generic_encoder",
        params: &[
            P::Require("itype", &["byte"]),
            P::Require("otype", &["byte"]),
        ],
    },
];
