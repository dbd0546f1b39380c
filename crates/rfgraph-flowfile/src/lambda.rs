//! Block functions written as Python lambdas (GNU Radio's `pdu_lambda`
//! `fn`): the builder makes a lambda's text self-contained (the values
//! of the flowgraph variables it reads bound into it, [`bind`]), and
//! [`compile`] turns such text into the [`PmtFunction`] the block
//! applies, with numpy's semantics for the message vectors it gets
//! ([`spec`] registers `pdu_lambda` around it).

use crate::build::eval_value;
use crate::expr::{Env, Expr, Function, Value};
use crate::model::{FileError, Location, Value as ModelValue};
use rfgraph::Pmt;
use rfgraph::registry::BlockSpec;
use rfgraph_blocks::message::{PduLambdaMode, PduLambdaParams, PmtFunction, pdu_lambda_spec};
use std::sync::Arc;

/// `pdu_lambda`, its function compiled by [`compile`].
pub fn spec() -> BlockSpec {
    pdu_lambda_spec(Arc::new(|p: &PduLambdaParams| compile(&p.function, p.mode)))
}

/// Whether a text parameter's `text` is a lambda the builder evaluates
/// (and [`bind`]s) rather than takes literally.
pub fn is_lambda(text: &str) -> bool {
    text.trim_start().starts_with("lambda")
}

/// The value of parameter `v` (at `at`, `key`), as the builder
/// evaluates it ([`crate::build`]'s rule: text is taken literally for
/// a text parameter when `literal`), except that a lambda given to a
/// text parameter is evaluated and [`bind`]s the variables it reads.
///
/// Errors: an expression that fails, or a lambda reading a value with
/// no literal form, at `at`.
pub(crate) fn param_value(
    v: &ModelValue,
    env: &Env,
    at: &Location,
    key: &str,
    literal: bool,
) -> Result<Value, FileError> {
    match v {
        ModelValue::Expr(s) | ModelValue::Text(s) if literal && is_lambda(s) => {
            match eval_value(&ModelValue::Expr(s.clone()), env, at, key, false)? {
                Value::Function(f) => {
                    let unknown = f.unknown_name().map(|name| {
                        format!(
                            "the function uses `{name}`, which rfgraph's expressions do not know"
                        )
                    });
                    match unknown {
                        Some(e) => Err(e),
                        None => bind(&f, s).map(Value::Str),
                    }
                    .map_err(|e| FileError::new(at.clone(), key, e))
                }
                other => Ok(other),
            }
        }
        v => eval_value(v, env, at, key, literal),
    }
}

/// Whether the file value `v` is a lambda's text.
pub(crate) fn is_lambda_value(v: &ModelValue) -> bool {
    matches!(v, ModelValue::Expr(s) | ModelValue::Text(s) if is_lambda(s))
}

/// The text of `f` (made from `text`) with the values it read bound:
/// `(lambda k: (lambda x: x*k))(2)`.
///
/// Errors: a value read that has no literal form (a message value, an
/// object), naming it.
pub fn bind(f: &Function, text: &str) -> Result<String, String> {
    if f.captured().is_empty() {
        return Ok(text.trim().to_string());
    }
    let mut names = Vec::new();
    let mut values = Vec::new();
    for (name, v) in f.captured() {
        let lit = literal(v).ok_or_else(|| {
            format!(
                "the function reads `{name}`, a {} that cannot be passed into a block's function",
                v.type_name()
            )
        })?;
        names.push(name.as_str());
        values.push(lit);
    }
    Ok(format!(
        "(lambda {}: ({}))({})",
        names.join(", "),
        text.trim(),
        values.join(", ")
    ))
}

/// Expression text that evaluates to `v`, if there is one.
pub(crate) fn literal(v: &Value) -> Option<String> {
    Some(match v {
        Value::Float(x) if !x.is_finite() => format!("float('{x}')").to_lowercase(),
        Value::Complex(c) if !c.re.is_finite() || !c.im.is_finite() => return None,
        Value::None | Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Complex(_) => {
            v.to_string()
        }
        Value::Str(s) if !s.contains(['\\', '"', '\n']) => format!("\"{s}\""),
        Value::List(items) => format!(
            "[{}]",
            items
                .iter()
                .map(literal)
                .collect::<Option<Vec<_>>>()?
                .join(", ")
        ),
        _ => return None,
    })
}

/// The function `text` (a one-argument lambda, self-contained: see
/// [`bind`]) as `mode` applies it: a uniform vector argument is a numpy
/// array, other values their Python form (`raw`: the message itself);
/// the result converts back as GNU Radio's `pmt.to_pmt` does.
///
/// Errors: text that is no expression, or no one-argument lambda, or
/// that reads names that are not there.
pub fn compile(text: &str, mode: PduLambdaMode) -> Result<PmtFunction, String> {
    let f = match Expr::parse(text).and_then(|e| e.eval(&Env::new())) {
        Ok(Value::Function(f)) => f,
        Ok(other) => return Err(format!("expected a lambda, found {}", other.describe())),
        Err(e) => return Err(format!("in `{text}`: {e}")),
    };
    if let Some(name) = f.unknown_name() {
        return Err(format!(
            "the function uses `{name}`, which rfgraph's expressions do not know"
        ));
    }
    if f.params().len() != 1 {
        return Err(format!(
            "expected a function of one argument, found one of {}",
            f.params().len()
        ));
    }
    Ok(Arc::new(move |msg: &Pmt| {
        let arg = match mode {
            PduLambdaMode::Raw => Value::Pmt(msg.clone()),
            _ => python(msg)?,
        };
        let out = f.call(vec![arg]).map_err(|e| e.to_string())?;
        to_pmt(&out)
    }))
}

/// `pmt.to_python(p)`: uniform vectors as arrays.
fn python(p: &Pmt) -> Result<Value, String> {
    match p {
        Pmt::Blob(_) | Pmt::VecF32(_) | Pmt::VecComplexF32(_) | Pmt::Uniform(_) => {
            Ok(Value::Pmt(p.clone()))
        }
        _ => Value::from_pmt(p).ok_or_else(|| format!("no Python value for {p:?}")),
    }
}

/// `pmt.to_pmt(v)`.
fn to_pmt(v: &Value) -> Result<Pmt, String> {
    Ok(match v {
        Value::Pmt(p) => p.clone(),
        Value::None => Pmt::Null,
        Value::Bool(b) => Pmt::Bool(*b),
        Value::Int(i) => Pmt::I64(*i),
        Value::Float(x) => Pmt::F64(*x),
        Value::Complex(c) => Pmt::Complex([c.re, c.im]),
        Value::Str(s) => Pmt::String(s.clone()),
        Value::List(items) => Pmt::List(items.iter().map(to_pmt).collect::<Result<_, _>>()?),
        Value::Dict(pairs) => Pmt::Map(
            pairs
                .iter()
                .map(|(k, v)| Ok((k.key_text(), to_pmt(v)?)))
                .collect::<Result<_, String>>()?,
        ),
        other => return Err(format!("cannot convert {} to pmt", other.type_name())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bound_variables_survive_into_the_text() {
        let mut env = Env::new();
        env.set("k", Value::Float(0.5));
        let text = "lambda x: x*k";
        let Ok(Value::Function(f)) = crate::expr::eval(text, &env) else {
            panic!("no function")
        };
        let bound = bind(&f, text).unwrap();
        assert_eq!(bound, "(lambda k: (lambda x: x*k))(0.5)");
        let g = compile(&bound, PduLambdaMode::Uvec).unwrap();
        assert_eq!(
            g(&Pmt::VecF32(vec![2.0, 4.0])).unwrap(),
            Pmt::VecF32(vec![1.0, 2.0])
        );
        assert_eq!(g(&Pmt::I64(3)).unwrap(), Pmt::F64(1.5));
        assert!(g(&Pmt::Null).is_err());
        assert!(compile("lambda x, y: x", PduLambdaMode::Uvec).is_err());
        assert!(compile("lambda x: (", PduLambdaMode::Uvec).is_err());
        assert!(compile("3", PduLambdaMode::Uvec).is_err());
    }

    #[test]
    fn the_chirp_demos_lambdas_run() {
        let chirp = compile(
            "(lambda k: (lambda x: k * np.complex64(np.exp(2*np.pi * 1j  * x * x * \
             (0.05 * (np.random.randint(40)-19.5) / len(x)) ))))(0.5)",
            PduLambdaMode::Uvec,
        )
        .unwrap();
        let ramp = Pmt::VecF32((0..4096).map(|i| i as f32).collect());
        let Pmt::VecComplexF32(c) = chirp(&ramp).unwrap() else {
            panic!("not complex")
        };
        assert_eq!(c.len(), 4096);
        assert!(c.iter().all(|[re, im]| (re.hypot(*im) - 0.5).abs() < 1e-3));
        let demod = compile(
            "lambda x: np.float32(np.unwrap(np.angle(x[1:]) - np.angle(x[:-1])))",
            PduLambdaMode::Uvec,
        )
        .unwrap();
        let Pmt::VecF32(f) = demod(&Pmt::VecComplexF32(c)).unwrap() else {
            panic!("not real")
        };
        assert_eq!(f.len(), 4095);
    }
}
