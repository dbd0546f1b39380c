//! GRC's object variables: blocks such as `variable_header_format_default`
//! or `variable_cc_encoder_def` define a variable holding a GNU Radio
//! object (a header format, a FEC coder, a constellation). Each becomes a variable whose
//! value is the constructor call GNU Radio makes (the block YAML's
//! `value`), which the expressions evaluate to an object; a block
//! parameter naming the variable takes the object's fields. Owns the
//! table from block id to constructor. GRC's parallelism (`ndim`,
//! `dim1`, `dim2`: lists of identical coders for GNU Radio's threads)
//! needs nothing here: rfgraph runs the one coder, and the output is the
//! same.

use super::file::GrcBlock;

/// `(parameter, GRC's default)` pairs.
pub(super) type Defaults = &'static [(&'static str, &'static str)];

/// `(block id, constructor template, defaults for empty parameters)`:
/// `{name}` in the template is the block's parameter `name`.
const OBJECTS: &[(&str, &str, Defaults)] = &[
    (
        "variable_header_format_default",
        "digital.header_format_default({access_code}, {threshold}, {bps})",
        &[("threshold", "0"), ("bps", "1")],
    ),
    (
        "variable_constellation",
        "digital.constellation_calcdist({const_points}, {sym_map}, {rot_sym}, {dims}, \
         {normalization}, soft_dec_lut={soft_dec_lut}, precision={precision})",
        &[
            ("const_points", "[-1-1j, -1+1j, 1+1j, 1-1j]"),
            ("sym_map", "[0, 1, 3, 2]"),
            ("rot_sym", "4"),
            ("dims", "1"),
            (
                "normalization",
                "digital.constellation.AMPLITUDE_NORMALIZATION",
            ),
            ("soft_dec_lut", "None"),
            ("precision", "8"),
        ],
    ),
    (
        "variable_constellation_rect",
        "digital.constellation_rect({const_points}, {sym_map}, {rot_sym}, {real_sect}, \
         {imag_sect}, {w_real_sect}, {w_imag_sect}, soft_dec_lut={soft_dec_lut}, \
         precision={precision})",
        &[
            ("soft_dec_lut", "None"),
            ("precision", "8"),
            ("const_points", "[-1-1j, -1+1j, 1+1j, 1-1j]"),
            ("sym_map", "[0, 1, 3, 2]"),
            ("rot_sym", "4"),
            ("real_sect", "2"),
            ("imag_sect", "2"),
            ("w_real_sect", "1"),
            ("w_imag_sect", "1"),
        ],
    ),
    (
        "variable_adaptive_algorithm",
        "digital.adaptive_algorithm_{type}({cons}, {step_size})",
        &[("type", "lms"), ("step_size", ".0001"), ("modulus", "2")],
    ),
    (
        "variable_modulate_vector",
        "digital.modulate_vector_bc({mod}, {data}, {taps})",
        &[("taps", "[1]")],
    ),
    (
        "variable_cc_encoder_def",
        "fec.cc_encoder_make({framebits}, {k}, {rate}, {polys}, {state_start}, {mode}, {padding})",
        &[
            ("framebits", "2048"),
            ("k", "7"),
            ("rate", "2"),
            ("polys", "[79,109]"),
            ("state_start", "0"),
            ("mode", "fec.CC_STREAMING"),
            ("padding", "False"),
        ],
    ),
    (
        "variable_cc_decoder_def",
        "fec.cc_decoder.make({framebits}, {k}, {rate}, {polys}, {state_start}, {state_end}, \
         {mode}, {padding})",
        &[
            ("framebits", "2048"),
            ("k", "7"),
            ("rate", "2"),
            ("polys", "[79,109]"),
            ("state_start", "0"),
            ("state_end", "-1"),
            ("mode", "fec.CC_STREAMING"),
            ("padding", "False"),
        ],
    ),
    (
        "variable_ccsds_encoder_def",
        "fec.ccsds_encoder_make({framebits}, {state_start}, {mode})",
        &[
            ("framebits", "2048"),
            ("state_start", "0"),
            ("mode", "fec.CC_STREAMING"),
        ],
    ),
    (
        "variable_dummy_encoder_def",
        "fec.dummy_encoder_make({framebits})",
        &[("framebits", "2048")],
    ),
    (
        "variable_dummy_decoder_def",
        "fec.dummy_decoder.make({framebits})",
        &[("framebits", "2048")],
    ),
    (
        "variable_repetition_encoder_def",
        "fec.repetition_encoder_make({framebits}, {rep})",
        &[("framebits", "2048"), ("rep", "3")],
    ),
    (
        "variable_repetition_decoder_def",
        "fec.repetition_decoder.make({framebits}, {rep}, {prob})",
        &[("framebits", "2048"), ("rep", "3"), ("prob", "0.5")],
    ),
    // The LDPC objects (expressions in `expr/ldpc.rs`).
    (
        "variable_ldpc_encoder_def",
        "fec.ldpc_encoder_make({file})",
        &[],
    ),
    (
        "variable_ldpc_decoder_def",
        "fec.ldpc_decoder.make({file}, {sigma}, {max_iter})",
        &[("sigma", "0.5"), ("max_iter", "50")],
    ),
    (
        "variable_ldpc_H_matrix_def",
        "fec.ldpc_H_matrix({filename}, {gap})",
        &[("gap", "0")],
    ),
    (
        "variable_ldpc_G_matrix_def",
        "fec.ldpc_G_matrix({filename})",
        &[],
    ),
    (
        "variable_ldpc_encoder_H_def",
        "fec.ldpc_par_mtrx_encoder_make_H({H})",
        &[],
    ),
    (
        "variable_ldpc_encoder_G_def",
        "fec.ldpc_gen_mtrx_encoder_make({G})",
        &[],
    ),
    (
        "variable_ldpc_bit_flip_decoder_def",
        "fec.ldpc_bit_flip_decoder.make({matrix_object}.get_base_sptr(), {max_iterations})",
        &[("max_iterations", "100")],
    ),
];

/// The object variables: these, the polar and the TPC ones.
fn all() -> impl Iterator<Item = &'static (&'static str, &'static str, Defaults)> {
    OBJECTS
        .iter()
        .chain(super::polar_objects::OBJECTS)
        .chain(super::tpc_objects::OBJECTS)
}

/// True for the object variables here.
pub fn is_object(id: &str) -> bool {
    all().any(|(i, _, _)| *i == id)
}

/// The constructor expression of object variable `block`, or `None`
/// when it is none. A `variable_constellation` of a standard `type`
/// (`qpsk`, ...) is `digital.constellation_<type>()`, as in its YAML.
pub fn constructor(block: &GrcBlock) -> Option<String> {
    let (_, template, defaults) = all().find(|(i, _, _)| *i == block.id)?;
    if block.id == "variable_constellation" {
        let t = block.text("type").trim();
        if !t.is_empty() && t != "calcdist" {
            if !t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return None;
            }
            let lut = argument(block, "soft_dec_lut", &[("soft_dec_lut", "None")]);
            let precision = argument(block, "precision", &[("precision", "8")]);
            return Some(format!(
                "digital.constellation_{t}(soft_dec_lut={lut}, precision={precision})"
            ));
        }
    }
    // CMA takes a modulus too; the type names the constructor.
    let mut template = *template;
    if block.id == "variable_adaptive_algorithm" {
        let t = block.text("type").trim();
        if !matches!(t, "" | "lms" | "nlms" | "cma") {
            return None;
        }
        if t == "cma" {
            template = "digital.adaptive_algorithm_cma({cons}, {step_size}, {modulus})";
        }
    }
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = open + rest[open..].find('}')?;
        let name = &rest[open + 1..close];
        out.push_str(&argument(block, name, defaults));
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    Some(out)
}

/// Parameter `name` of `block` as the template reads it: GRC's default
/// when empty; an access code of `0` is GNU Radio's default code (the
/// YAML's `int(eval(access_code)) == 0`).
fn argument(block: &GrcBlock, name: &str, defaults: &[(&str, &str)]) -> String {
    let text = block.text(name).trim();
    if name == "access_code" {
        let unquoted = text.trim_matches(|c| c == '\'' || c == '"');
        if text.is_empty() || unquoted.trim_start_matches('0').is_empty() {
            return "digital.packet_utils.default_access_code".into();
        }
    }
    if text.is_empty() {
        let default = defaults.iter().find(|(n, _)| *n == name).map(|(_, d)| *d);
        return default.unwrap_or("None").to_string();
    }
    text.to_string()
}
