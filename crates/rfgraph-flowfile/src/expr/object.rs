//! GNU Radio's configuration objects in expressions: header formats
//! (`digital.header_format_counter(...)`) and FEC coder definitions
//! (`fec.cc_encoder_make(...)`, `fec.repetition_decoder.make(...)`).
//! Also GNU Radio's `digital.packet_header_default(...)`,
//! `digital.packet_header_ofdm(...)` (their `base()` and `formatter()`
//! are themselves) and its
//! constellations (`digital.constellation_calcdist(...)`,
//! `digital.constellation_rect(...)`, `digital.constellation_qpsk()`, ...:
//! the field `constellation` is `custom` or the standard name).
//! Each constructor gives a [`Value::Object`]: the object's class and
//! its fields named as the parameters of the rfgraph blocks that take
//! it. A block parameter given an object takes all of its fields (the
//! object's kind goes to the parameter that chooses it: `format` for a
//! header format, `code` for a coder), so one object configures every
//! block that names it, as in GNU Radio. Owns the constructors, their
//! constants (`digital.packet_utils.default_access_code`,
//! `fec.CC_STREAMING`, ...) and the objects' methods
//! (`header_nbits()`, `rate()`).

use super::builtins::{Arg, Call};
use super::error::{ExprError, ExprErrorKind};
use super::value::Value;

/// An object: its GNU Radio class and its fields in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Object {
    /// GNU Radio's name for what made it (`header_format_counter`,
    /// `cc_encoder`).
    pub class: String,
    /// The fields, named as the block parameters they set.
    pub fields: Vec<(String, Value)>,
}

impl Object {
    /// The value of field `name`.
    pub fn field(&self, name: &str) -> Option<&Value> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

/// GNU Radio's default access code (`digital.packet_utils.default_access_code`).
pub const DEFAULT_ACCESS_CODE: &str =
    "1010110011011101101001001110001011110010100011000010000011111100";

/// The constructors, by dotted path, with their parameters (GNU
/// Radio's names), how many are required, and the defaults of the rest
/// (expression texts).
pub(super) struct Constructor {
    pub(super) path: &'static str,
    pub(super) class: &'static str,
    /// The field that names the kind, and its value (none when the
    /// blocks taking it know one kind).
    pub(super) kind: Option<(&'static str, &'static str)>,
    /// `(GNU Radio's argument name, field name, default)`; no default:
    /// required.
    pub(super) params: &'static [(&'static str, &'static str, Option<&'static str>)],
}

const CONSTRUCTORS: &[Constructor] = &[
    Constructor {
        path: "digital.header_format_default",
        class: "header_format_default",
        kind: Some(("format", "default")),
        params: &[
            ("access_code", "access_code", None),
            ("threshold", "threshold", None),
            ("bps", "bps", Some("1")),
        ],
    },
    Constructor {
        path: "digital.header_format_counter",
        class: "header_format_counter",
        kind: Some(("format", "counter")),
        params: &[
            ("access_code", "access_code", None),
            ("threshold", "threshold", None),
            ("bps", "bps", Some("1")),
        ],
    },
    Constructor {
        path: "digital.header_format_crc",
        class: "header_format_crc",
        kind: Some(("format", "crc")),
        params: &[
            ("len_key_name", "len_key_name", Some("'packet_len'")),
            ("num_key_name", "num_key_name", Some("'packet_num'")),
        ],
    },
    Constructor {
        path: "digital.header_format_ofdm",
        class: "header_format_ofdm",
        kind: Some(("format", "ofdm")),
        params: &[
            ("occupied_carriers", "occupied_carriers", None),
            ("n_syms", "n_syms", None),
            ("len_key_name", "len_key_name", Some("'packet_len'")),
            ("frame_key_name", "frame_key_name", Some("'frame_len'")),
            ("num_key_name", "num_key_name", Some("'packet_num'")),
            ("bits_per_header_sym", "bits_per_header_sym", Some("1")),
            ("bits_per_payload_sym", "bits_per_payload_sym", Some("1")),
            ("scramble_header", "scramble_header", Some("False")),
        ],
    },
    Constructor {
        path: "digital.packet_header_default",
        class: "packet_header_default",
        kind: Some(("header_format", "default")),
        params: &[
            ("header_len", "header_len", None),
            ("len_tag_key", "len_tag_key", Some("'packet_len'")),
            ("num_tag_key", "num_tag_key", Some("'packet_num'")),
            ("bits_per_byte", "bits_per_byte", Some("1")),
        ],
    },
    Constructor {
        path: "digital.packet_header_ofdm",
        class: "packet_header_ofdm",
        kind: Some(("header_format", "ofdm")),
        params: &[
            ("occupied_carriers", "occupied_carriers", None),
            ("n_syms", "n_syms", None),
            ("len_tag_key", "len_tag_key", Some("'packet_len'")),
            (
                "frame_len_tag_key",
                "frame_len_tag_key",
                Some("'frame_len'"),
            ),
            ("num_tag_key", "num_tag_key", Some("'packet_num'")),
            ("bits_per_header_sym", "bits_per_byte", Some("1")),
            ("bits_per_payload_sym", "bits_per_payload_sym", Some("1")),
            ("scramble_header", "scramble_header", Some("False")),
        ],
    },
    Constructor {
        path: "fec.dummy_encoder_make",
        class: "dummy_encoder",
        kind: Some(("code", "dummy")),
        params: &[("frame_size", "frame_size", None)],
    },
    Constructor {
        path: "fec.dummy_decoder.make",
        class: "dummy_decoder",
        kind: Some(("code", "dummy")),
        params: &[("frame_size", "frame_size", None)],
    },
    Constructor {
        path: "fec.repetition_encoder_make",
        class: "repetition_encoder",
        kind: Some(("code", "repetition")),
        params: &[("frame_size", "frame_size", None), ("rep", "rep", None)],
    },
    Constructor {
        path: "fec.repetition_decoder.make",
        class: "repetition_decoder",
        kind: Some(("code", "repetition")),
        params: &[
            ("frame_size", "frame_size", None),
            ("rep", "rep", None),
            ("ap_prob", "prob", Some("0.5")),
        ],
    },
    Constructor {
        path: "fec.cc_encoder_make",
        class: "cc_encoder",
        kind: Some(("code", "cc")),
        params: &[
            ("frame_size", "frame_size", None),
            ("k", "k", None),
            ("rate", "rate", None),
            ("polys", "polys", None),
            ("start_state", "state_start", Some("0")),
            ("mode", "mode", Some("'streaming'")),
            ("padded", "padding", Some("False")),
        ],
    },
    Constructor {
        path: "fec.cc_decoder.make",
        class: "cc_decoder",
        kind: Some(("code", "cc")),
        params: &[
            ("frame_size", "frame_size", None),
            ("k", "k", None),
            ("rate", "rate", None),
            ("polys", "polys", None),
            ("start_state", "state_start", Some("0")),
            ("end_state", "state_end", Some("-1")),
            ("mode", "mode", Some("'streaming'")),
            ("padded", "padding", Some("False")),
        ],
    },
    Constructor {
        path: "fec.ccsds_encoder_make",
        class: "ccsds_encoder",
        kind: Some(("code", "ccsds")),
        params: &[
            ("frame_size", "frame_size", None),
            ("state_start", "state_start", Some("0")),
            ("mode", "mode", Some("'streaming'")),
        ],
    },
    Constructor {
        path: "digital.constellation_calcdist",
        class: "constellation_calcdist",
        kind: Some(("constellation", "custom")),
        params: &[
            ("constell", "points", None),
            ("pre_diff_code", "symbol_map", None),
            ("rotational_symmetry", "rotational_symmetry", None),
            ("dimensionality", "dimensionality", None),
            (
                "normalization",
                "normalization",
                Some("digital.constellation.AMPLITUDE_NORMALIZATION"),
            ),
        ],
    },
    Constructor {
        path: "digital.constellation_rect",
        class: "constellation_rect",
        kind: Some(("constellation", "custom")),
        params: &[
            ("constell", "points", None),
            ("pre_diff_code", "symbol_map", None),
            ("rotational_symmetry", "rotational_symmetry", None),
            ("real_sectors", "real_sectors", None),
            ("imag_sectors", "imag_sectors", None),
            ("width_real_sectors", "real_sector_width", None),
            ("width_imag_sectors", "imag_sector_width", None),
            (
                "normalization",
                "normalization",
                Some("digital.constellation.AMPLITUDE_NORMALIZATION"),
            ),
        ],
    },
    Constructor {
        path: "digital.constellation_bpsk",
        class: "constellation_bpsk",
        kind: Some(("constellation", "bpsk")),
        params: &[],
    },
    Constructor {
        path: "digital.constellation_qpsk",
        class: "constellation_qpsk",
        kind: Some(("constellation", "qpsk")),
        params: &[],
    },
    Constructor {
        path: "digital.constellation_dqpsk",
        class: "constellation_dqpsk",
        kind: Some(("constellation", "dqpsk")),
        params: &[],
    },
    Constructor {
        path: "digital.constellation_8psk",
        class: "constellation_8psk",
        kind: Some(("constellation", "8psk")),
        params: &[],
    },
    Constructor {
        path: "digital.constellation_16qam",
        class: "constellation_16qam",
        kind: Some(("constellation", "16qam")),
        params: &[],
    },
];

/// The constants: dotted path → value.
const CONSTANTS: &[(&str, &str)] = &[
    (
        "digital.packet_utils.default_access_code",
        DEFAULT_ACCESS_CODE,
    ),
    ("fec.CC_STREAMING", "streaming"),
    ("fec.CC_TERMINATED", "terminated"),
    ("fec.CC_TAILBITING", "tailbiting"),
    ("fec.CC_TRUNCATED", "truncated"),
    ("digital.constellation.NO_NORMALIZATION", "none"),
    ("digital.constellation.AMPLITUDE_NORMALIZATION", "amplitude"),
    ("digital.constellation.POWER_NORMALIZATION", "power"),
];

/// Alternative spellings GNU Radio also has.
fn canonical(path: &str) -> &str {
    match path {
        "fec.cc_encoder.make" => "fec.cc_encoder_make",
        "fec.dummy_encoder.make" => "fec.dummy_encoder_make",
        "fec.repetition_encoder.make" => "fec.repetition_encoder_make",
        "fec.ccsds_encoder.make" => "fec.ccsds_encoder_make",
        "fec.cc_decoder_make" | "fec.cc_decoder" => "fec.cc_decoder.make",
        "fec.dummy_decoder_make" => "fec.dummy_decoder.make",
        "fec.repetition_decoder_make" => "fec.repetition_decoder.make",
        "fec.polar_encoder_make" => "fec.polar_encoder.make",
        "fec.polar_decoder_sc_make" => "fec.polar_decoder_sc.make",
        "fec.polar_decoder_sc_list_make" => "fec.polar_decoder_sc_list.make",
        "fec.polar_encoder_systematic_make" => "fec.polar_encoder_systematic.make",
        "fec.polar_decoder_sc_systematic_make" => "fec.polar_decoder_sc_systematic.make",
        // GNU Radio's qpsk.py: `qpsk_constellation()` is `constellation_qpsk()`.
        "digital.qpsk_constellation" => "digital.constellation_qpsk",
        other => other,
    }
}

/// The dotted path without a leading `gnuradio.` or `gr.`.
fn short(path: &[&str]) -> String {
    let p = match path {
        ["gnuradio", rest @ ..] => rest,
        other => other,
    };
    p.join(".")
}

/// The value of constant `path`.
pub(crate) fn constant(path: &[&str]) -> Option<Value> {
    if let Some(v) = super::polar::constant(path) {
        return Some(v);
    }
    let p = short(path);
    if let Some(v) = super::soft_dec::constant(&p) {
        return Some(v);
    }
    CONSTANTS
        .iter()
        .find(|(c, _)| *c == p)
        .map(|(_, v)| Value::Str(v.to_string()))
}

/// A family of constructors in a module of its own: the result of
/// calling `path` (shortened), or `None` when the family has no such
/// constructor.
type Family = fn(&str, &Call) -> Option<Result<Value, ExprError>>;

/// The families, asked in turn before the constructors here.
const FAMILIES: &[Family] = &[
    super::soft_dec::construct,
    super::adaptive::construct,
    super::modulate::construct,
    super::ldpc::construct,
    super::tpc::construct,
    super::optfir::construct,
    super::uhd_sensor::construct,
];

/// Calls constructor `path`; `None` when it is none.
pub(crate) fn construct(path: &[&str], call: &Call) -> Option<Result<Value, ExprError>> {
    let p = short(path);
    if let Some(made) = super::ofdm_sync::construct(&p, call) {
        return Some(made);
    }
    // GNU Radio's `digital.psk_2()` (also `psk_2_0x0`): BPSK's points
    // and pre-differential code, `([-1, 1], [0, 1])`.
    if matches!(p.as_str(), "digital.psk_2" | "digital.psk_2_0x0") {
        return Some(call.positional(0, 0).map(|_| {
            let ints = |v: [i64; 2]| Value::List(v.map(Value::Int).to_vec());
            Value::List(vec![ints([-1, 1]), ints([0, 1])])
        }));
    }
    // `uhd.get_version_string()`, which GRC files show in a label: there
    // is no UHD here (radios go through seify), and the text says so.
    if p == "uhd.get_version_string" {
        return Some(
            call.positional(0, 0)
                .map(|_| Value::Str("no UHD: rfgraph reaches radios through seify".into())),
        );
    }
    // `uhd.tune_request(freq, lo_off)`: the radio is tuned to `freq`
    // (the LO offset is the device's business; seify takes the centre).
    if p == "uhd.tune_request" {
        return Some(call.positional(1, 2).and_then(|args| match &args[0].value {
            v @ (Value::Int(_) | Value::Float(_)) => Ok(v.clone()),
            v => Err(call.error(ExprErrorKind::Type {
                context: "the frequency of `uhd.tune_request`".into(),
                expected: "number".into(),
                found: v.type_name().into(),
            })),
        }));
    }
    // The objects whose constructors live in their own modules.
    for construct in FAMILIES {
        if let Some(made) = construct(&p, call) {
            return Some(made);
        }
    }
    if let Some(made) = super::polar::construct(path, call) {
        return Some(made);
    }
    let c = CONSTRUCTORS
        .iter()
        .chain(super::polar::CONSTRUCTORS)
        .find(|c| c.path == canonical(&p))?;
    Some(build(c, call))
}

pub(super) fn build(c: &Constructor, call: &Call) -> Result<Value, ExprError> {
    // Constellations also take their soft-decision LUT.
    let constellation = c.class.starts_with("constellation_");
    let extra = if constellation {
        super::soft_dec::PARAMS
    } else {
        &[]
    };
    let params: Vec<_> = c.params.iter().chain(extra).collect();
    let names: Vec<&str> = params.iter().map(|(gr, _, _)| *gr).collect();
    let required = params.iter().take_while(|(_, _, d)| d.is_none()).count();
    let bound: Vec<Option<&Arg>> = call.bind(&names, required, &[])?;
    let mut fields: Vec<(String, Value)> = c
        .kind
        .iter()
        .map(|(field, kind)| (field.to_string(), Value::Str(kind.to_string())))
        .collect();
    for ((_, field, default), arg) in params.iter().zip(bound) {
        let value = match (arg, default) {
            (Some(a), _) => a.value.clone(),
            (None, Some(d)) => super::eval(d, &super::Env::new())?,
            (None, None) => unreachable!("bind checks the required arguments"),
        };
        fields.push((field.to_string(), normalise(field, value, call)?));
    }
    if constellation {
        super::soft_dec::expand(&mut fields, call)?;
    }
    Ok(Value::Object(Box::new(Object {
        class: c.class.to_string(),
        fields,
    })))
}

/// GNU Radio's conventions for some fields: an access code of `'0'`
/// (GRC's default) or empty means the default code; a cc mode is one
/// of the `fec.CC_*` names; a rectangular constellation has sectors.
fn normalise(field: &str, v: Value, call: &Call) -> Result<Value, ExprError> {
    match (field, v) {
        ("access_code", Value::Str(s)) => {
            if !s.chars().all(|c| c == '0' || c == '1') {
                return Err(call.error(ExprErrorKind::Value(format!(
                    "{}: the access code `{s}` is not a string of 0s and 1s",
                    call.name
                ))));
            }
            Ok(Value::Str(s))
        }
        ("access_code", v) => Err(call.error(ExprErrorKind::Type {
            context: format!("the access code of `{}`", call.name),
            expected: "str of 0s and 1s".into(),
            found: v.type_name().into(),
        })),
        // GNU Radio indexes sectors by `count - 1`: a rectangular
        // constellation without sectors reads outside its table there.
        ("real_sectors" | "imag_sectors", Value::Int(n)) if n < 1 => {
            Err(call.error(ExprErrorKind::Value(format!(
                "{}: a rectangular constellation needs at least one {} sector, not {n}",
                call.name,
                if field == "real_sectors" {
                    "real"
                } else {
                    "imaginary"
                }
            ))))
        }
        (_, v) => Ok(v),
    }
}

/// `object.name()`: the methods GRC files call.
pub(crate) fn method(o: &Object, name: &str) -> Result<Value, ExprErrorKind> {
    let int = |field: &str| o.field(field).and_then(Value::as_i64).unwrap_or(0);
    if let Some(r) = super::ldpc::method(o, name) {
        return r;
    }
    if let Some(r) = super::tpc::method(o, name) {
        return r;
    }
    if let Some(r) = super::uhd_sensor::method(o, name) {
        return r;
    }
    let unsupported =
        || ExprErrorKind::Unsupported(format!("the method `{name}()` of a {}", o.class));
    match (name, o.class.as_str()) {
        // GNU Radio's `header_nbytes()`: the bits divided by 8, rounded down.
        ("header_nbytes", class) if class.starts_with("header_format_") => {
            match method(o, "header_nbits")? {
                Value::Int(bits) => Ok(Value::Int(bits / 8)),
                _ => Err(unsupported()),
            }
        }
        ("header_nbits", class) => {
            let ac = o
                .field("access_code")
                .map(|v| match v {
                    Value::Str(s) => s.len() as i64,
                    _ => 0,
                })
                .unwrap_or(0);
            let bits = match class {
                "header_format_default" => ac + 32,
                "header_format_counter" => ac + 64,
                "header_format_crc" => 32,
                // One bit per carrier of the first `n_syms` OFDM symbols.
                "header_format_ofdm" => {
                    let lists = match o.field("occupied_carriers") {
                        Some(Value::List(lists)) => lists.as_slice(),
                        _ => &[],
                    };
                    let n_syms = usize::try_from(int("n_syms")).unwrap_or(0);
                    if n_syms > lists.len() {
                        return Err(ExprErrorKind::Value(format!(
                            "header_format_ofdm: {n_syms} OFDM symbols, but {} carrier lists",
                            lists.len()
                        )));
                    }
                    lists[..n_syms]
                        .iter()
                        .map(|l| match l {
                            Value::List(c) => c.len() as i64,
                            _ => 0,
                        })
                        .sum()
                }
                _ => return Err(unsupported()),
            };
            Ok(Value::Int(bits))
        }
        ("rate", "cc_encoder") => Ok(Value::Float(int("rate") as f64)),
        ("rate", "cc_decoder") => Ok(Value::Float(1.0 / int("rate").max(1) as f64)),
        ("rate", "repetition_encoder") => Ok(Value::Float(int("rep") as f64)),
        ("rate", "repetition_decoder") => Ok(Value::Float(1.0 / int("rep").max(1) as f64)),
        ("rate", "dummy_encoder" | "dummy_decoder") => Ok(Value::Float(1.0)),
        ("rate", class) if class.starts_with("polar_") => {
            super::polar::rate(o).ok_or_else(unsupported)
        }
        // GNU Radio's CCSDS encoder reports 0.5.
        ("rate", "ccsds_encoder") => Ok(Value::Float(0.5)),
        // A packet header object is its own formatter (GNU Radio's
        // `base()` and `formatter()` give the same C++ object).
        ("base" | "formatter", "packet_header_default" | "packet_header_ofdm") => {
            Ok(Value::Object(Box::new(o.clone())))
        }
        ("base", class)
            if class.starts_with("constellation_") || class.starts_with("adaptive_algorithm_") =>
        {
            Ok(Value::Object(Box::new(o.clone())))
        }
        ("to_basic_block", "generic_mod") => Ok(Value::Object(Box::new(o.clone()))),
        ("base", "generic_mod") => Ok(Value::Object(Box::new(o.clone()))),
        // GNU Radio's pre-differential code: a custom constellation's
        // symbol map; of the standard ones, QPSK's and DQPSK's.
        ("pre_diff_code", class) if class.starts_with("constellation_") => {
            let code: Vec<i64> = match o.field("constellation") {
                Some(Value::Str(n)) if n == "qpsk" => vec![0, 2, 3, 1],
                Some(Value::Str(n)) if n == "dqpsk" => vec![0, 1, 3, 2],
                Some(Value::Str(n)) if n == "custom" => match o.field("symbol_map") {
                    Some(Value::List(m)) => m.iter().filter_map(Value::as_i64).collect(),
                    _ => Vec::new(),
                },
                _ => Vec::new(),
            };
            Ok(Value::List(code.into_iter().map(Value::Int).collect()))
        }
        ("points" | "arity" | "bits_per_symbol", class) if class.starts_with("constellation_") => {
            let c = constellation(o)
                .map_err(|e| ExprErrorKind::Value(format!("the {}: {e}", o.class)))?;
            Ok(match name {
                "points" => Value::List(
                    c.points()
                        .iter()
                        .map(|p| {
                            Value::Complex(num_complex::Complex64::new(p.re as f64, p.im as f64))
                        })
                        .collect(),
                ),
                "arity" => Value::Int(c.arity() as i64),
                _ => Value::Int(c.bits_per_symbol() as i64),
            })
        }
        _ => Err(unsupported()),
    }
}

/// The constellation a constellation object makes, its points normalised
/// as GNU Radio's constructor does.
pub(crate) fn constellation(o: &Object) -> Result<rfgraph_dsp::digital::Constellation, String> {
    use rfgraph_dsp::digital::{Constellation, Normalization};
    let kind = match o.field("constellation") {
        Some(Value::Str(k)) => k.as_str(),
        _ => return Err("no constellation kind".into()),
    };
    if kind != "custom" {
        return Constellation::by_name(kind).map_err(|e| e.to_string());
    }
    let list = |field: &str| match o.field(field) {
        Some(Value::List(items)) => Ok(items.clone()),
        Some(other) => Err(format!("{field} is a {}, not a list", other.type_name())),
        None => Ok(Vec::new()),
    };
    let points = list("points")?
        .iter()
        .map(|v| {
            v.as_complex()
                .map(|c| num_complex::Complex32::new(c.re as f32, c.im as f32))
                .ok_or_else(|| format!("the point {v} is not a number"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let map = list("symbol_map")?
        .iter()
        .map(|v| {
            v.as_i64()
                .and_then(|i| u8::try_from(i).ok())
                .ok_or_else(|| format!("the symbol {v} is not a byte"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let normalization = match o.field("normalization") {
        Some(Value::Str(n)) if n == "none" => Normalization::None,
        Some(Value::Str(n)) if n == "power" => Normalization::Power,
        _ => Normalization::Amplitude,
    };
    Constellation::custom(&points, &map, normalization).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use crate::expr::{Env, Value, eval};

    fn fields(text: &str) -> Vec<(String, String)> {
        match eval(text, &Env::new()).unwrap() {
            Value::Object(o) => o
                .fields
                .iter()
                .map(|(k, v)| (k.clone(), v.to_string()))
                .collect(),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn header_formats_carry_the_block_parameters_they_set() {
        let f =
            fields("digital.header_format_counter(digital.packet_utils.default_access_code, 4, 2)");
        let names: Vec<&str> = f.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["format", "access_code", "threshold", "bps"]);
        assert_eq!(f[0].1, "\"counter\"");
        assert_eq!(f[2].1, "4");
        let crc = fields("digital.header_format_crc('len', 'num')");
        assert_eq!(crc[1], ("len_key_name".to_string(), "\"len\"".to_string()));
        let env = Env::new();
        let bits = |t: &str| eval(t, &env).unwrap();
        assert_eq!(
            bits(
                "digital.header_format_default(digital.packet_utils.default_access_code, 0).header_nbits()"
            ),
            Value::Int(96)
        );
        assert_eq!(
            bits(
                "digital.header_format_counter(digital.packet_utils.default_access_code, 0, 2).header_nbits()"
            ),
            Value::Int(128)
        );
        assert_eq!(
            bits("digital.header_format_crc().header_nbits()"),
            Value::Int(32)
        );
        let ofdm = "digital.header_format_ofdm((list(range(36)), list(range(40))), 2, 'l', 'f', 'n', 1, 2)";
        assert_eq!(bits(&format!("{ofdm}.header_nbits()")), Value::Int(76));
        assert_eq!(bits(&format!("{ofdm}.header_nbytes()")), Value::Int(9));
        let names: Vec<String> = fields(ofdm).into_iter().map(|(k, _)| k).collect();
        assert_eq!(
            names,
            [
                "format",
                "occupied_carriers",
                "n_syms",
                "len_key_name",
                "frame_key_name",
                "num_key_name",
                "bits_per_header_sym",
                "bits_per_payload_sym",
                "scramble_header"
            ]
        );
        assert!(
            eval(
                "digital.header_format_ofdm(((1, 2),), 2).header_nbits()",
                &env
            )
            .is_err()
        );
    }

    #[test]
    fn coders_take_gnu_radios_arguments_and_report_its_rates() {
        let f = fields("fec.cc_encoder_make(2048, 7, 2, [79, 109], 0, fec.CC_TAILBITING, False)");
        assert_eq!(f[0].1, "\"cc\"");
        assert!(f.contains(&("mode".to_string(), "\"tailbiting\"".to_string())));
        assert!(f.contains(&("state_start".to_string(), "0".to_string())));
        let env = Env::new();
        let rate = |t: &str| eval(t, &env).unwrap();
        assert_eq!(
            rate("fec.cc_decoder.make(2048, 7, 2, [79, 109]).rate()"),
            Value::Float(0.5)
        );
        assert_eq!(
            rate("fec.repetition_encoder_make(64, 3).rate()"),
            Value::Float(3.0)
        );
        assert_eq!(rate("fec.dummy_decoder.make(64).rate()"), Value::Float(1.0));
    }

    #[test]
    fn constellations_carry_their_points_and_report_gnu_radios_sizes() {
        let f = fields(
            "digital.constellation_calcdist([1+1j, 3, -2j, -1], [0, 1, 3, 2], 4, 1, \
             digital.constellation.POWER_NORMALIZATION)",
        );
        let names: Vec<&str> = f.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            names,
            [
                "constellation",
                "points",
                "symbol_map",
                "rotational_symmetry",
                "dimensionality",
                "normalization"
            ]
        );
        assert_eq!(f[0].1, "\"custom\"");
        assert_eq!(f[5].1, "\"power\"");
        let env = Env::new();
        let v = |t: &str| eval(t, &env).unwrap();
        // GNU Radio scales to mean power 1: 3 becomes 1.5.
        match v(
            "digital.constellation_calcdist([1+1j, 3, -2j, -1], [], 4, 1, \
                 digital.constellation.POWER_NORMALIZATION).base().points()",
        ) {
            Value::List(p) => assert_eq!(p[1].as_complex().unwrap().re, 1.5),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            v("digital.constellation_rect([1, -1, 1j, -1j], [], 4, 2, 2, 1, 1).arity()"),
            Value::Int(4)
        );
        assert_eq!(
            v("digital.constellation_8psk().bits_per_symbol()"),
            Value::Int(3)
        );
        assert_eq!(
            fields("digital.qpsk_constellation()")[0].1,
            "\"qpsk\"".to_string()
        );
        assert_eq!(
            v("digital.constellation_16qam().base().arity()"),
            Value::Int(16)
        );
        assert!(eval("digital.constellation_calcdist([1, -1], [0])", &env).is_err());
        assert!(
            eval(
                "digital.constellation_calcdist([], [], 4, 1).points()",
                &env
            )
            .is_err()
        );
    }

    #[test]
    fn soft_decision_luts_are_fields_of_the_constellation() {
        let f = fields("digital.constellation_qpsk(soft_dec_lut='auto', precision=6)");
        assert!(f.contains(&("soft_dec_lut".to_string(), "\"auto\"".to_string())));
        assert!(f.contains(&("precision".to_string(), "6".to_string())));
        let f = fields(
            "digital.constellation_bpsk(soft_dec_lut=\
             digital.soft_dec_table_generator(digital.sd_psk_2, 4, 2), precision=4)",
        );
        assert!(f.contains(&("soft_dec_lut".to_string(), "\"sd_psk_2\"".to_string())));
        assert!(f.contains(&("soft_dec_table_precision".to_string(), "4".to_string())));
        let env = Env::new();
        for bad in [
            "digital.constellation_qpsk(soft_dec_lut='often')",
            "digital.constellation_qpsk(soft_dec_lut='auto', precision=13)",
            "digital.soft_dec_table_generator(digital.sd_psk_2)",
            "digital.soft_dec_table_generator('sd_psk_8', 8)",
            "digital.adaptive_algorithm_lms(3, 0.1)",
            "digital.adaptive_algorithm_cma(digital.constellation_qpsk(), 0.1)",
            "digital.modulate_vector_bc(digital.constellation_qpsk(), [1], [1])",
        ] {
            assert!(eval(bad, &env).is_err(), "{bad}");
        }
        let alg = fields("digital.adaptive_algorithm_cma(digital.constellation_qpsk(), 0.1, 2)");
        assert_eq!(alg[0], ("algorithm".to_string(), "\"cma\"".to_string()));
        assert!(alg.contains(&("constellation".to_string(), "\"qpsk\"".to_string())));
        match eval(
            "digital.modulate_vector_bc(digital.generic_mod(digital.constellation_bpsk(), \
             False, 2).to_basic_block(), [255], [1])",
            &env,
        )
        .unwrap()
        {
            Value::List(v) => assert_eq!(v.len(), 16),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn pre_diff_codes_are_gnu_radios() {
        let env = Env::new();
        let code = |t: &str| eval(t, &env).unwrap().to_string();
        assert_eq!(
            code("digital.constellation_qpsk().pre_diff_code()"),
            "[0, 2, 3, 1]"
        );
        assert_eq!(code("digital.constellation_bpsk().pre_diff_code()"), "[]");
        assert_eq!(
            code("digital.constellation_calcdist([-1, 1], [0, 1], 2, 1).pre_diff_code()"),
            "[0, 1]"
        );
    }

    #[test]
    fn psk_2_gives_bpsk_points_and_code() {
        let env = Env::new();
        assert_eq!(
            eval("digital.psk_2()", &env).unwrap().to_string(),
            "[[-1, 1], [0, 1]]"
        );
        assert!(eval("digital.psk_2(1)", &env).is_err());
    }

    #[test]
    fn uhd_version_is_text_that_says_there_is_no_uhd() {
        let env = Env::new();
        match eval("uhd.get_version_string()", &env).unwrap() {
            Value::Str(s) => assert!(s.contains("no UHD"), "{s}"),
            other => panic!("{other:?}"),
        }
        assert!(eval("uhd.get_version_string(1)", &env).is_err());
        assert_eq!(
            eval("uhd.tune_request(433e6, 1e6)", &env).unwrap(),
            Value::Float(433e6)
        );
        assert!(eval("uhd.tune_request('x')", &env).is_err());
    }

    #[test]
    fn psk_4_gives_qpsk_points_and_code() {
        let env = Env::new();
        // GNU Radio 3.10: ([(-1-1j), (1-1j), (-1+1j), (1+1j)], [0, 1, 2, 3])
        let v = eval("digital.psk_4()", &env).unwrap();
        let Value::List(parts) = &v else {
            panic!("{v}")
        };
        let Value::List(points) = &parts[0] else {
            panic!("{v}")
        };
        let want = [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)];
        for (p, (re, im)) in points.iter().zip(want) {
            assert_eq!(*p, Value::Complex(num_complex::Complex64::new(re, im)));
        }
        assert_eq!(parts[1].to_string(), "[0, 1, 2, 3]");
        assert!(eval("digital.psk_4(1)", &env).is_err());
    }

    #[test]
    fn packet_header_ofdm_sets_the_header_blocks_parameters() {
        let f = fields(
            "digital.packet_header_ofdm(((1, 2, 3),), n_syms=1, len_tag_key='l', \
             bits_per_header_sym=2, bits_per_payload_sym=3, scramble_header=True).base()",
        );
        let names: Vec<&str> = f.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            names,
            [
                "header_format",
                "occupied_carriers",
                "n_syms",
                "len_tag_key",
                "frame_len_tag_key",
                "num_tag_key",
                "bits_per_byte",
                "bits_per_payload_sym",
                "scramble_header"
            ]
        );
        assert_eq!(f[0].1, "\"ofdm\"");
        assert_eq!(f[4].1, "\"frame_len\"");
        assert_eq!(f[6].1, "2");
        assert_eq!(
            fields("digital.packet_header_default(32).formatter()")[0].1,
            "\"default\""
        );
        assert!(eval("digital.packet_header_ofdm(((1,),))", &Env::new()).is_err());
    }

    #[test]
    fn bad_objects_are_errors() {
        let env = Env::new();
        for bad in [
            "digital.header_format_default('10x1', 0)",
            "digital.header_format_default(5, 0)",
            "digital.header_format_default()",
            "fec.cc_encoder_make(2048)",
            "fec.dummy_encoder_make(64).header_nbits()",
            "fec.dummy_encoder_make(64, 1, 2)",
        ] {
            assert!(eval(bad, &env).is_err(), "{bad}");
        }
    }
}
