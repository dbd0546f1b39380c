//! GNU Radio's LDPC objects in expressions: the matrices
//! (`fec.ldpc_H_matrix(file, gap)`, `fec.ldpc_G_matrix(file)`), the
//! coders made of them or of an alist file (`fec.ldpc_encoder_make`,
//! `fec.ldpc_decoder.make`, `fec.ldpc_par_mtrx_encoder_make_H`,
//! `fec.ldpc_gen_mtrx_encoder_make`, `fec.ldpc_bit_flip_decoder.make`),
//! the matrices' `get_base_sptr()`, and `gr.prefix()` (where GNU Radio's
//! files are, `/usr`: the examples name alist files through it). Each
//! coder is an object whose fields set a FEC block's code: `code`
//! (`ldpc`, `ldpc_h`, `ldpc_g`), `file`, `sigma`, `max_iter`, `gap`.

use super::builtins::{Arg, Call};
use super::error::{ExprError, ExprErrorKind};
use super::object::Object;
use super::value::Value;

/// GNU Radio's install prefix as `gr.prefix()` gives it.
pub const GR_PREFIX: &str = "/usr";

fn object(class: &str, fields: Vec<(&str, Value)>) -> Value {
    Value::Object(Box::new(Object {
        class: class.to_string(),
        fields: fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    }))
}

fn string(call: &Call, a: &Arg, what: &str) -> Result<Value, ExprError> {
    match &a.value {
        Value::Str(_) => Ok(a.value.clone()),
        v => Err(call.error(ExprErrorKind::Type {
            context: format!("{what} of `{}`", call.name),
            expected: "str".into(),
            found: v.type_name().into(),
        })),
    }
}

fn int(call: &Call, a: Option<&Arg>, default: i64, what: &str) -> Result<Value, ExprError> {
    match a.map(|a| &a.value) {
        None => Ok(Value::Int(default)),
        Some(v) => v.as_i64().map(Value::Int).ok_or_else(|| {
            call.error(ExprErrorKind::Type {
                context: format!("{what} of `{}`", call.name),
                expected: "int".into(),
                found: v.type_name().into(),
            })
        }),
    }
}

/// The matrix object argument `a` (an `ldpc_H_matrix` or
/// `ldpc_G_matrix`), or an error.
fn matrix<'a>(call: &Call, a: &'a Arg, want: &[&str]) -> Result<&'a Object, ExprError> {
    match &a.value {
        Value::Object(o) if want.contains(&o.class.as_str()) => Ok(o),
        v => Err(call.error(ExprErrorKind::Type {
            context: format!("the matrix of `{}`", call.name),
            expected: want.join(" or "),
            found: match v {
                Value::Object(o) => o.class.clone(),
                v => v.type_name().into(),
            },
        })),
    }
}

fn field(o: &Object, name: &str, default: Value) -> Value {
    o.field(name).cloned().unwrap_or(default)
}

/// Calls constructor `path` (without a leading `gnuradio.`); `None`
/// when it is none of the LDPC ones.
pub(crate) fn construct(path: &str, call: &Call) -> Option<Result<Value, ExprError>> {
    let made = match path {
        "gr.prefix" => call
            .positional(0, 0)
            .map(|_| Value::Str(GR_PREFIX.to_string())),
        "fec.ldpc_encoder_make" | "fec.ldpc_encoder.make" => (|| {
            let a = call.bind(&["alist_file"], 1, &[])?;
            let file = string(call, a[0].expect("required"), "the alist file")?;
            Ok(object(
                "ldpc_encoder",
                vec![("code", Value::Str("ldpc".into())), ("file", file)],
            ))
        })(),
        "fec.ldpc_decoder.make" | "fec.ldpc_decoder_make" => (|| {
            let a = call.bind(&["alist_file", "sigma", "max_iterations"], 1, &[])?;
            let file = string(call, a[0].expect("required"), "the alist file")?;
            let sigma = match a[1] {
                None => Value::Float(0.5),
                Some(s) => Value::Float(super::builtins::real(&call.name, s)?),
            };
            let max_iter = int(call, a[2], 50, "max_iterations")?;
            Ok(object(
                "ldpc_decoder",
                vec![
                    ("code", Value::Str("ldpc".into())),
                    ("file", file),
                    ("sigma", sigma),
                    ("max_iter", max_iter),
                ],
            ))
        })(),
        "fec.ldpc_H_matrix" | "fec.ldpc_H_matrix.make" => (|| {
            let a = call.bind(&["filename", "gap"], 2, &[])?;
            let file = string(call, a[0].expect("required"), "the alist file")?;
            let gap = int(call, a[1], 0, "gap")?;
            Ok(object(
                "ldpc_H_matrix",
                vec![
                    ("code", Value::Str("ldpc_h".into())),
                    ("file", file),
                    ("gap", gap),
                ],
            ))
        })(),
        "fec.ldpc_G_matrix" | "fec.ldpc_G_matrix.make" => (|| {
            let a = call.bind(&["filename"], 1, &[])?;
            let file = string(call, a[0].expect("required"), "the alist file")?;
            Ok(object(
                "ldpc_G_matrix",
                vec![("code", Value::Str("ldpc_g".into())), ("file", file)],
            ))
        })(),
        "fec.ldpc_par_mtrx_encoder_make" | "fec.ldpc_par_mtrx_encoder.make" => (|| {
            let a = call.bind(&["alist_file", "gap"], 1, &[])?;
            let file = string(call, a[0].expect("required"), "the alist file")?;
            let gap = int(call, a[1], 0, "gap")?;
            Ok(object(
                "ldpc_par_mtrx_encoder",
                vec![
                    ("code", Value::Str("ldpc_h".into())),
                    ("file", file),
                    ("gap", gap),
                ],
            ))
        })(),
        "fec.ldpc_par_mtrx_encoder_make_H" | "fec.ldpc_par_mtrx_encoder.make_H" => (|| {
            let a = call.bind(&["H_obj"], 1, &[])?;
            let h = matrix(call, a[0].expect("required"), &["ldpc_H_matrix"])?;
            Ok(object(
                "ldpc_par_mtrx_encoder",
                vec![
                    ("code", Value::Str("ldpc_h".into())),
                    ("file", field(h, "file", Value::Str(String::new()))),
                    ("gap", field(h, "gap", Value::Int(0))),
                ],
            ))
        })(),
        "fec.ldpc_gen_mtrx_encoder_make" | "fec.ldpc_gen_mtrx_encoder.make" => (|| {
            let a = call.bind(&["G_obj"], 1, &[])?;
            let g = matrix(call, a[0].expect("required"), &["ldpc_G_matrix"])?;
            Ok(object(
                "ldpc_gen_mtrx_encoder",
                vec![
                    ("code", Value::Str("ldpc_g".into())),
                    ("file", field(g, "file", Value::Str(String::new()))),
                ],
            ))
        })(),
        "fec.ldpc_bit_flip_decoder.make" | "fec.ldpc_bit_flip_decoder_make" => (|| {
            let a = call.bind(
                &["mtrx_obj", "max_iter"],
                1,
                &[("max_iterations", "max_iter")],
            )?;
            let m = matrix(
                call,
                a[0].expect("required"),
                &["ldpc_H_matrix", "ldpc_G_matrix"],
            )?;
            let max_iter = int(call, a[1], 100, "max_iter")?;
            let mut fields = vec![
                ("code", field(m, "code", Value::Str("ldpc_h".into()))),
                ("file", field(m, "file", Value::Str(String::new()))),
            ];
            if let Some(gap) = m.field("gap") {
                fields.push(("gap", gap.clone()));
            }
            fields.push(("max_iter", max_iter));
            Ok(object("ldpc_bit_flip_decoder", fields))
        })(),
        _ => return None,
    };
    Some(made)
}

/// `object.name()` for the LDPC objects; `None` when the object is none
/// of them.
pub(crate) fn method(o: &Object, name: &str) -> Option<Result<Value, ExprErrorKind>> {
    match (name, o.class.as_str()) {
        ("get_base_sptr", "ldpc_H_matrix" | "ldpc_G_matrix") => {
            Some(Ok(Value::Object(Box::new(o.clone()))))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::expr::{Env, Value, eval};

    fn fields(text: &str, env: &Env) -> Vec<(String, String)> {
        match eval(text, env).unwrap() {
            Value::Object(o) => o
                .fields
                .iter()
                .map(|(k, v)| (k.clone(), v.to_string()))
                .collect(),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn ldpc_objects_carry_the_code_and_its_file() {
        let mut env = Env::new();
        let dec = fields(
            "fec.ldpc_decoder.make(gr.prefix() + '/share/x.alist', 0.7, 20)",
            &env,
        );
        assert_eq!(dec[0].1, "\"ldpc\"");
        assert_eq!(dec[1].1, "\"/usr/share/x.alist\"");
        assert_eq!(dec[3].1, "20");
        let h = eval("fec.ldpc_H_matrix('h.alist', 2)", &env).unwrap();
        env.set("H", h);
        let enc = fields("fec.ldpc_par_mtrx_encoder_make_H(H)", &env);
        assert_eq!(enc[0].1, "\"ldpc_h\"");
        assert_eq!(enc[2], ("gap".to_string(), "2".to_string()));
        let bf = fields(
            "fec.ldpc_bit_flip_decoder.make(H.get_base_sptr(), 100)",
            &env,
        );
        assert_eq!(bf.last().unwrap().1, "100");
        assert!(eval("fec.ldpc_gen_mtrx_encoder_make(H)", &env).is_err());
    }
}
