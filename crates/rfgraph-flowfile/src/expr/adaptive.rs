//! GNU Radio's adaptive algorithms in expressions:
//! `digital.adaptive_algorithm_lms(cons, step_size)`, `_nlms(...)` and
//! `_cma(cons, step_size, modulus)`, as the equalizers take them: an
//! object whose fields are the algorithm, the constellation object's
//! own fields, the step size and the modulus. Owns only these
//! constructors.

use super::builtins::Call;
use super::error::{ExprError, ExprErrorKind};
use super::object::Object;
use super::value::Value;

/// Calls `path` when it is an adaptive-algorithm constructor.
pub(crate) fn construct(path: &str, call: &Call) -> Option<Result<Value, ExprError>> {
    let kind = match path {
        "digital.adaptive_algorithm_lms" | "digital.adaptive_algorithm_lms.make" => "lms",
        "digital.adaptive_algorithm_nlms" | "digital.adaptive_algorithm_nlms.make" => "nlms",
        "digital.adaptive_algorithm_cma" | "digital.adaptive_algorithm_cma.make" => "cma",
        _ => return None,
    };
    Some(build(kind, call))
}

fn build(kind: &str, call: &Call) -> Result<Value, ExprError> {
    let cma = kind == "cma";
    let names: &[&str] = if cma {
        &["cons", "step_size", "modulus"]
    } else {
        &["cons", "step_size"]
    };
    let bound = call.bind(names, names.len(), &[])?;
    let bad = |what: String| call.error(ExprErrorKind::Value(format!("{}: {what}", call.name)));
    let cons = match bound[0].map(|a| &a.value) {
        Some(Value::Object(o)) if o.class.starts_with("constellation_") => o,
        Some(other) => {
            return Err(call.error(ExprErrorKind::Type {
                context: format!("the constellation of `{}`", call.name),
                expected: "a constellation object".into(),
                found: other.type_name().into(),
            }));
        }
        None => return Err(bad("no constellation".into())),
    };
    let number = |i: usize, what: &str| -> Result<Value, ExprError> {
        match bound[i].map(|a| &a.value) {
            Some(v) if v.as_f64().is_some_and(f64::is_finite) => {
                Ok(Value::Float(v.as_f64().unwrap_or_default()))
            }
            _ => Err(bad(format!("the {what} is not a finite number"))),
        }
    };
    let mut fields = vec![("algorithm".to_string(), Value::Str(kind.to_string()))];
    fields.extend(cons.fields.iter().cloned());
    fields.push(("step_size".into(), number(1, "step size")?));
    if cma {
        fields.push(("modulus".into(), number(2, "modulus")?));
    }
    Ok(Value::Object(Box::new(Object {
        class: format!("adaptive_algorithm_{kind}"),
        fields,
    })))
}
