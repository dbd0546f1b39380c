//! GNU Radio's turbo product code constructors in expressions:
//! `fec.tpc_encoder_make(row_poly, col_poly, krow, kcol, bval, qval)` and
//! `fec.tpc_decoder.make(..., max_iter, decoder_type)` (also spelled
//! `fec.tpc_encoder.make`, `fec.tpc_decoder_make`), objects of code `tpc`
//! whose fields are the FEC blocks' `TpcParams`, and their `rate()`
//! (GNU Radio's: information bits per coded bit for both).

use super::builtins::Call;
use super::error::{ExprError, ExprErrorKind};
use super::object::{Constructor, Object, build};
use super::value::Value;

const ENCODER: Constructor = Constructor {
    path: "fec.tpc_encoder_make",
    class: "tpc_encoder",
    kind: Some(("code", "tpc")),
    params: &[
        ("row_poly", "row_poly", None),
        ("col_poly", "col_poly", None),
        ("krow", "krow", None),
        ("kcol", "kcol", None),
        ("bval", "bval", None),
        ("qval", "qval", None),
    ],
};

const DECODER: Constructor = Constructor {
    path: "fec.tpc_decoder.make",
    class: "tpc_decoder",
    kind: Some(("code", "tpc")),
    params: &[
        ("row_poly", "row_poly", None),
        ("col_poly", "col_poly", None),
        ("krow", "krow", None),
        ("kcol", "kcol", None),
        ("bval", "bval", None),
        ("qval", "qval", None),
        ("max_iter", "max_iter", None),
        ("decoder_type", "decoder_type", None),
    ],
};

/// Calls constructor `path` (without a leading `gnuradio.`); `None`
/// when it is neither TPC coder.
pub(crate) fn construct(path: &str, call: &Call) -> Option<Result<Value, ExprError>> {
    match path {
        "fec.tpc_encoder_make" | "fec.tpc_encoder.make" => Some(build(&ENCODER, call)),
        "fec.tpc_decoder.make" | "fec.tpc_decoder_make" => Some(build(&DECODER, call)),
        _ => None,
    }
}

/// `rate()` of a TPC coder: `(krow·kcol − B − Q) / ((krow + m)(kcol + m)
/// − B)`, `m` each polynomial's memory; `None` for other objects.
pub(crate) fn method(o: &Object, name: &str) -> Option<Result<Value, ExprErrorKind>> {
    if name != "rate" || !matches!(o.class.as_str(), "tpc_encoder" | "tpc_decoder") {
        return None;
    }
    let int = |f: &str| o.field(f).and_then(Value::as_i64).unwrap_or(0);
    let memory = |f: &str| match o.field(f) {
        Some(Value::List(l)) => match l.first().and_then(Value::as_i64) {
            Some(g) if g >= 2 => ((g as f64).ln() / 2f64.ln()).ceil() as i64 - 1,
            _ => 0,
        },
        _ => 0,
    };
    let (krow, kcol, b, q) = (int("krow"), int("kcol"), int("bval"), int("qval"));
    let info = krow * kcol - b - q;
    let coded = (krow + memory("row_poly")) * (kcol + memory("col_poly")) - b;
    Some(Ok(Value::Float(info as f64 / coded.max(1) as f64)))
}

#[cfg(test)]
mod tests {
    use crate::expr::{Env, Value, eval};

    #[test]
    fn tpc_coders_are_objects_with_gnu_radios_rate() {
        let env = Env::new();
        let r = eval("fec.tpc_encoder_make([3], [43], 26, 6, 9, 3).rate()", &env).unwrap();
        assert_eq!(r, Value::Float(0.5));
        let d = eval("fec.tpc_decoder.make([3], [43], 26, 6, 9, 3, 6, 1)", &env).unwrap();
        let Value::Object(o) = d else { panic!("{d:?}") };
        assert_eq!(o.field("code"), Some(&Value::Str("tpc".into())));
        assert_eq!(o.field("decoder_type"), Some(&Value::Int(1)));
        assert!(eval("fec.tpc_decoder_make([3], [43], 26)", &env).is_err());
    }
}
