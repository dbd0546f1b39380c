//! Malformed configuration objects in a GNU Radio Companion file (a
//! constellation whose points and symbols disagree, an access code that
//! is not bits, a convolutional code with no polynomials, an OFDM
//! equalizer that is not one) are refused with an error naming the file
//! and the line of the block at fault, and never panic. Each case pairs an
//! object variable with the block that takes it, as a user's file would.

use rfgraph_flowfile::build::{self, BuildOptions};
use rfgraph_flowfile::grc;
use std::path::Path;

use common::grc_text::{block, grc};

mod common;

type Params = &'static [(&'static str, &'static str)];

/// One malformed case: the variable at fault, the block that takes it,
/// and a word the error must contain.
struct Case {
    what: &'static str,
    variable: (&'static str, Params),
    user: User,
    says: &'static str,
}

/// A block that takes the object, with its input and output item types
/// (GRC's names), so the flowgraph around it is complete.
struct User {
    id: &'static str,
    params: Params,
    input: &'static str,
    output: &'static str,
}

const DECODER: User = User {
    id: "digital_constellation_decoder_cb",
    params: &[("constellation", "obj")],
    input: "complex",
    output: "byte",
};
const FORMATTER: User = User {
    id: "digital_protocol_formatter_bb",
    params: &[("format", "obj"), ("len_tag_key", "\"packet_len\"")],
    input: "byte",
    output: "byte",
};
const ENCODER: User = User {
    id: "fec_extended_encoder",
    params: &[
        ("encoder_list", "obj"),
        ("threadtype", "none"),
        ("puncpat", "'11'"),
    ],
    input: "byte",
    output: "byte",
};
const DECODER_FEC: User = User {
    id: "fec_extended_decoder",
    params: &[
        ("decoder_list", "obj"),
        ("threadtype", "none"),
        ("ann", "None"),
        ("puncpat", "'11'"),
    ],
    input: "float",
    output: "byte",
};

fn cases() -> Vec<Case> {
    vec![
        Case {
            what: "constellation with fewer symbols than points",
            variable: (
                "variable_constellation",
                &[
                    ("type", "calcdist"),
                    ("const_points", "[-1, 1, 1j, -1j]"),
                    ("sym_map", "[0, 1]"),
                ],
            ),
            user: DECODER,
            says: "symbol map",
        },
        Case {
            what: "constellation whose points are text",
            variable: (
                "variable_constellation",
                &[("type", "calcdist"), ("const_points", "'abc'")],
            ),
            user: DECODER,
            says: "expected complex",
        },
        Case {
            what: "rectangular constellation with no sectors",
            variable: (
                "variable_constellation_rect",
                &[("real_sect", "0"), ("imag_sect", "0")],
            ),
            user: DECODER,
            says: "sector",
        },
        Case {
            what: "header format whose access code is not bits",
            variable: (
                "variable_header_format_default",
                &[("access_code", "'10x1'"), ("threshold", "0")],
            ),
            user: FORMATTER,
            says: "0s and 1s",
        },
        Case {
            what: "header format with a 65-bit access code",
            variable: (
                "variable_header_format_default",
                &[("access_code", "'1'*65"), ("threshold", "0")],
            ),
            user: FORMATTER,
            says: "64",
        },
        Case {
            what: "convolutional encoder without polynomials",
            variable: ("variable_cc_encoder_def", &[("polys", "[]")]),
            user: ENCODER,
            says: "polynomials",
        },
        Case {
            what: "convolutional encoder with a constraint length of 0",
            variable: ("variable_cc_encoder_def", &[("k", "0")]),
            user: ENCODER,
            says: "`k`",
        },
        Case {
            what: "convolutional decoder with a frame of no bits",
            variable: ("variable_cc_decoder_def", &[("framebits", "0")]),
            user: DECODER_FEC,
            says: "frame_size",
        },
        Case {
            what: "repetition encoder repeating nothing",
            variable: ("variable_repetition_encoder_def", &[("rep", "0")]),
            user: ENCODER,
            says: "`rep`",
        },
        Case {
            what: "repetition decoder whose probability is text",
            variable: (
                "variable_repetition_decoder_def",
                &[("rep", "3"), ("prob", "'x'")],
            ),
            user: DECODER_FEC,
            says: "expected float",
        },
    ]
}

/// The file's text for `case` (with its variable's own parameters, or
/// with GRC's defaults when `malformed` is false), and the line its
/// object variable sits on.
fn file(case: &Case, malformed: bool) -> (String, usize) {
    let (id, params) = case.variable;
    let variable = block("obj", id, if malformed { params } else { &[] });
    let user = &case.user;
    let text = grc(
        &[
            variable,
            block(
                "src",
                "blocks_vector_source_x",
                &[("type", user.input), ("vector", "(0, 1, 1, 0)")],
            ),
            block("user", user.id, user.params),
            block("sink", "blocks_null_sink", &[("type", user.output)]),
        ],
        &[("src", "0", "user", "0"), ("user", "0", "sink", "0")],
    );
    let line = text
        .lines()
        .position(|l| l == "- name: obj")
        .expect("the variable's entry")
        + 1;
    (text, line)
}

#[test]
fn the_same_files_build_with_grc_defaults() {
    let registry = rfgraph_flowfile::standard::registry();
    for case in cases() {
        let (text, _) = file(&case, false);
        let doc = grc::from_str(&text, Path::new("good.grc"), &registry)
            .unwrap_or_else(|e| panic!("{}: {e}", case.what));
        if let Err(e) = build::build(&doc, &registry, &BuildOptions::default()) {
            panic!("{}: {e}\n{text}", case.what);
        }
    }
}

#[test]
fn malformed_objects_are_refused_at_their_place_in_the_file() {
    let registry = rfgraph_flowfile::standard::registry();
    for case in cases() {
        let (text, line) = file(&case, true);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let doc =
                grc::from_str(&text, Path::new("bad.grc"), &registry).map_err(|e| e.to_string())?;
            build::build(&doc, &registry, &BuildOptions::default())
                .map(|_| ())
                .map_err(|e| e.to_string())
        }));
        let Ok(result) = outcome else {
            panic!("{}: the import or build panicked", case.what);
        };
        let Err(msg) = result else {
            panic!("{}: accepted\n{text}", case.what);
        };
        assert!(msg.starts_with("bad.grc:"), "{}: {msg}", case.what);
        // The error points into the file: at the object variable or at
        // the block that takes it (both come after the options).
        let at: usize = msg["bad.grc:".len()..]
            .split(':')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{}: no line in {msg}", case.what));
        assert!(
            at >= line,
            "{}: line {at} is before the variable: {msg}",
            case.what
        );
        assert!(msg.contains(case.says), "{}: {msg}", case.what);
    }
}
