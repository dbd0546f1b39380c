//! GNU Radio's FEC blocks imported through the mapping table: their
//! string parameters (`puncpat`, `ann`, `lentagname`, GRC's `None`), the
//! generic decoder's item type and the asynchronous coders' enumerations
//! reach the registry blocks, and a flowgraph of them builds with its
//! coder objects (GRC's `variable_cc_encoder_def`, ...). The asynchronous
//! coders and the tagged encoder take their coder objects too.

use common::grc_text::{block, grc};
use rfgraph_flowfile::build::{self, BuildOptions};
use rfgraph_flowfile::grc;
use rfgraph_flowfile::model::Value;
use std::path::Path;

mod common;

#[test]
fn fec_blocks_take_their_gnu_radio_parameters() {
    let registry = rfgraph_flowfile::standard::registry();
    let text = grc(
        &[
            block(
                "enc_cc",
                "variable_cc_encoder_def",
                &[
                    ("framebits", "2048"),
                    ("polys", "[79, 109]"),
                    ("mode", "fec.CC_TERMINATED"),
                ],
            ),
            block(
                "dec_cc",
                "variable_cc_decoder_def",
                &[
                    ("framebits", "2048"),
                    ("polys", "[79, 109]"),
                    ("mode", "fec.CC_TERMINATED"),
                ],
            ),
            block(
                "src",
                "blocks_vector_source_x",
                &[
                    ("type", "byte"),
                    ("vector", "[0, 1] * 4096"),
                    ("repeat", "False"),
                ],
            ),
            block(
                "enc",
                "fec_extended_encoder",
                &[
                    ("encoder_list", "enc_cc"),
                    ("threadtype", "capillary"),
                    ("puncpat", "\"110\""),
                ],
            ),
            block(
                "tagged",
                "fec_extended_tagged_encoder",
                &[
                    ("lentagname", "None"),
                    ("mtu", "1500"),
                    ("puncpat", "\"11\""),
                ],
            ),
            block(
                "dec",
                "fec_extended_tagged_decoder",
                &[
                    ("value", "fec_extended_decoder"),
                    ("decoder_list", "dec_cc"),
                    ("ann", "None"),
                    ("lentagname", "\"pkt\""),
                    ("mtu", "500"),
                    ("puncpat", "\"11\""),
                ],
            ),
            block(
                "generic",
                "fec_generic_decoder",
                &[("decoder", "dec_cc"), ("itype", "float"), ("otype", "byte")],
            ),
            block(
                "async",
                "fec_async_encoder",
                &[
                    ("packed", "True"),
                    ("rev_unpack", "False"),
                    ("rev_pack", "True"),
                    ("mtu", "100"),
                ],
            ),
            block(
                "ext_async",
                "fec_extended_async_encoder",
                &[("puncpat", "\"11\"")],
            ),
            block(
                "ber",
                "fec_ber_bf",
                &[
                    ("test_mode", "False"),
                    ("berminerrors", "100"),
                    ("berlimit", "-5.0"),
                ],
            ),
            block("bytes", "blocks_null_sink", &[("type", "byte")]),
            block("bytes2", "blocks_null_sink", &[("type", "byte")]),
            block("floats", "blocks_null_sink", &[("type", "float")]),
            block("fsrc", "blocks_null_source", &[("type", "float")]),
            block("bytes3", "blocks_null_sink", &[("type", "byte")]),
        ],
        &[
            ("src", "0", "enc", "0"),
            ("enc", "0", "tagged", "0"),
            ("tagged", "0", "bytes", "0"),
            ("fsrc", "0", "dec", "0"),
            ("dec", "0", "bytes2", "0"),
            ("fsrc", "0", "generic", "0"),
            ("generic", "0", "bytes3", "0"),
            ("src", "0", "ber", "0"),
            ("src", "0", "ber", "1"),
            ("ber", "0", "floats", "0"),
            ("async", "out", "ext_async", "in"),
        ],
    );
    let doc = grc::from_str(&text, Path::new("t.grc"), &registry).unwrap();
    let param = |b: &str, p: &str| doc.block(b).unwrap().param(p).map(|v| v.value.clone());
    assert_eq!(param("enc", "puncpat"), Some(Value::Expr("\"110\"".into())));
    assert_eq!(param("enc", "threadtype"), None);
    assert_eq!(
        param("tagged", "lentagname"),
        Some(Value::Expr("\"None\"".into()))
    );
    assert_eq!(
        param("dec", "lentagname"),
        Some(Value::Expr("\"pkt\"".into()))
    );
    assert_eq!(param("dec", "ann"), Some(Value::Expr("\"None\"".into())));
    assert_eq!(param("dec", "value"), None);
    assert_eq!(param("generic", "itype"), Some(Value::Text("f32".into())));
    assert_eq!(param("async", "packed"), Some(Value::Bool(true)));
    assert_eq!(param("ber", "ber_limit"), Some(Value::Expr("-5.0".into())));
    build::build(&doc, &registry, &BuildOptions::default()).unwrap();
    // The coder object sets the block's flattened code parameters.
    assert_eq!(param("enc", "code"), Some(Value::Expr("enc_cc".into())));

    // The asynchronous coders and the tagged encoder take their coder.
    let coded = grc(
        &[
            block(
                "enc_cc",
                "variable_cc_encoder_def",
                &[
                    ("framebits", "2048"),
                    ("polys", "[79, 109]"),
                    ("mode", "fec.CC_TERMINATED"),
                ],
            ),
            block(
                "dec_cc",
                "variable_cc_decoder_def",
                &[
                    ("framebits", "2048"),
                    ("polys", "[79, 109]"),
                    ("mode", "fec.CC_TERMINATED"),
                ],
            ),
            block(
                "async",
                "fec_async_encoder",
                &[("encoder", "enc_cc"), ("packed", "True")],
            ),
            block(
                "ext_async",
                "fec_extended_async_encoder",
                &[("encoder_list", "enc_cc"), ("puncpat", "\"11\"")],
            ),
            block(
                "adec",
                "fec_async_decoder",
                &[("decoder", "dec_cc"), ("packed", "False")],
            ),
            block(
                "tagged",
                "fec_extended_tagged_encoder",
                &[
                    ("encoder_list", "enc_cc"),
                    ("lentagname", "\"pkt\""),
                    ("mtu", "100"),
                    ("puncpat", "\"11\""),
                ],
            ),
            block("src", "blocks_null_source", &[("type", "byte")]),
            block("bytes", "blocks_null_sink", &[("type", "byte")]),
        ],
        &[
            ("async", "out", "ext_async", "in"),
            ("src", "0", "tagged", "0"),
            ("tagged", "0", "bytes", "0"),
        ],
    );
    let doc = grc::from_str(&coded, Path::new("t.grc"), &registry).unwrap();
    let param = |b: &str, p: &str| doc.block(b).unwrap().param(p).map(|v| v.value.clone());
    assert_eq!(param("async", "code"), Some(Value::Expr("enc_cc".into())));
    assert_eq!(
        param("ext_async", "code"),
        Some(Value::Expr("enc_cc".into()))
    );
    assert_eq!(param("ext_async", "puncpat"), None);
    assert_eq!(param("adec", "code"), Some(Value::Expr("dec_cc".into())));
    assert_eq!(param("tagged", "code"), Some(Value::Expr("enc_cc".into())));
    build::build(&doc, &registry, &BuildOptions::default()).unwrap();
}
