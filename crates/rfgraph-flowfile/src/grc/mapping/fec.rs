//! GNU Radio's `fec` module: the FEC blocks. Their coder objects
//! (`encoder_list`, `decoder_list`, `encoder`, `decoder`: GRC variables
//! such as `variable_cc_encoder_def`, or `fec.cc_encoder_make(...)`) are
//! expression objects (`expr::Object`) that set the registry blocks'
//! flattened `FecCodeParams`, given to their `code` parameter; a coder
//! is required, as in GNU Radio. `threadtype` does not apply (rfgraph
//! schedules the blocks itself), nor does the extended decoders' hidden
//! `value`.

use super::{Map, P};

const PUNCPAT: P = P::Str("puncpat", "puncpat");
const ENCODER_LIST: P = P::Expr("encoder_list", "code");
const DECODER_LIST: P = P::Expr("decoder_list", "code");
/// The asynchronous coders' coder objects. Their `packed`, `rev_unpack`,
/// `rev_pack` and `mtu` pass by name. A `ccsds` code in the tagged
/// encoder runs as GNU Radio's, behind its packer (one packet in eight
/// coded when the packets are equal; see the registry block's docs).
const ENCODER: P = P::Expr("encoder", "code");
const DECODER: P = P::Expr("decoder", "code");
const ANN: P = P::Str("ann", "ann");
const LENTAGNAME: P = P::Str("lentagname", "lentagname");

/// The entries.
pub(super) const MAPS: &[Map] = &[
    Map {
        gr: "fec_async_decoder",
        rf: "async_decoder",
        params: &[DECODER],
    },
    Map {
        gr: "fec_async_encoder",
        rf: "async_encoder",
        params: &[ENCODER],
    },
    Map {
        gr: "fec_ber_bf",
        rf: "ber",
        params: &[],
    },
    // One code serves every point: the encoder objects' fields, then
    // the decoder objects' (a decoder's settings cover its encoder's).
    Map {
        gr: "fec_bercurve_generator",
        rf: "bercurve_generator",
        params: &[
            ENCODER_LIST,
            DECODER_LIST,
            P::Expr("esno", "esno"),
            P::Call {
                rf: "outputs",
                func: "2 * len",
                args: &[("esno", "numpy.arange(0.0, 4.0, .5)")],
            },
            PUNCPAT,
        ],
    },
    // GNU Radio's extended asynchronous encoder ignores its `puncpat`.
    Map {
        gr: "fec_extended_async_encoder",
        rf: "async_encoder",
        params: &[ENCODER_LIST],
    },
    Map {
        gr: "fec_extended_decoder",
        rf: "extended_decoder",
        params: &[DECODER_LIST, PUNCPAT, ANN],
    },
    Map {
        gr: "fec_extended_encoder",
        rf: "extended_encoder",
        params: &[ENCODER_LIST, PUNCPAT],
    },
    Map {
        gr: "fec_extended_tagged_decoder",
        rf: "extended_tagged_decoder",
        params: &[DECODER_LIST, PUNCPAT, ANN, LENTAGNAME],
    },
    Map {
        gr: "fec_extended_tagged_encoder",
        rf: "extended_tagged_encoder",
        params: &[ENCODER_LIST, PUNCPAT, LENTAGNAME],
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
