//! UHD's `uhd.sensor_value(name, value, unit, formatter)` in expressions:
//! the initial value GRC files give a `variable_function_probe` of a
//! radio's sensor (`get_sensor('lo_locked')`), and its `to_bool()`,
//! `to_int()`, `to_real()` and `to_pp_string()`. rfgraph reaches radios
//! through seify, which has no such object: this is the value as the
//! file writes it, so such a flowgraph builds.

use super::builtins::Call;
use super::error::{ExprError, ExprErrorKind};
use super::object::{Constructor, Object, build};
use super::value::Value;

const SENSOR_VALUE: Constructor = Constructor {
    path: "uhd.sensor_value",
    class: "uhd_sensor_value",
    kind: None,
    params: &[
        ("name", "name", None),
        ("value", "value", None),
        ("unit", "unit", Some("''")),
        ("formatter", "formatter", Some("''")),
    ],
};

/// Calls constructor `path`; `None` when it is not `uhd.sensor_value`.
pub(crate) fn construct(path: &str, call: &Call) -> Option<Result<Value, ExprError>> {
    (path == SENSOR_VALUE.path).then(|| build(&SENSOR_VALUE, call))
}

/// The conversions of a sensor value, as UHD's; `None` for other
/// objects and methods.
pub(crate) fn method(o: &Object, name: &str) -> Option<Result<Value, ExprErrorKind>> {
    if o.class != SENSOR_VALUE.class {
        return None;
    }
    let value = o.field("value").cloned().unwrap_or(Value::Bool(false));
    let number = || {
        value.as_f64().ok_or_else(|| ExprErrorKind::Type {
            context: format!("`{name}()` of a sensor value"),
            expected: "number".into(),
            found: value.type_name().into(),
        })
    };
    Some(match name {
        "to_bool" => Ok(Value::Bool(value.truthy())),
        "to_int" => number().map(|v| Value::Int(v as i64)),
        "to_real" => number().map(Value::Float),
        "to_pp_string" => {
            let unit = match o.field("unit") {
                Some(Value::Str(u)) if !u.is_empty() => format!(" {u}"),
                _ => String::new(),
            };
            let name = match o.field("name") {
                Some(Value::Str(n)) => n.clone(),
                _ => String::new(),
            };
            Ok(Value::Str(format!("{name}: {value}{unit}")))
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::expr::{Env, Value, eval};

    #[test]
    fn a_sensor_value_converts_as_uhds() {
        let env = Env::new();
        let v = |t: &str| eval(t, &env).unwrap();
        assert_eq!(
            v(r#"uhd.sensor_value("", False, "", "").to_bool()"#),
            Value::Bool(false)
        );
        assert_eq!(
            v(r#"uhd.sensor_value("lo", True, "", "").to_bool()"#),
            Value::Bool(true)
        );
        assert_eq!(
            v(r#"uhd.sensor_value("t", 41.5, "C").to_real()"#),
            Value::Float(41.5)
        );
        assert_eq!(
            v(r#"uhd.sensor_value("t", 41.5, "C").to_int()"#),
            Value::Int(41)
        );
        assert!(eval(r#"uhd.sensor_value("t", "x").to_real()"#, &env).is_err());
        assert!(eval("uhd.sensor_value()", &env).is_err());
    }
}
