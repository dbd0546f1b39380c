//! Method calls on values (`np.arange(8).tolist()`, `d.keys()`): the few
//! argument-free methods GNU Radio Companion files call on lists,
//! dictionaries and numbers. Owns only the methods; their receivers are
//! evaluated by `eval`.

use super::error::ExprErrorKind;
use super::value::Value;

/// `v.name()` with no arguments.
pub(crate) fn call(v: Value, name: &str) -> Result<Value, ExprErrorKind> {
    Ok(match (name, v) {
        // numpy arrays are lists here.
        ("tolist" | "copy" | "flatten", v @ Value::List(_)) => v,
        ("copy", v @ Value::Dict(_)) => v,
        ("keys", Value::Dict(pairs)) => Value::List(pairs.into_iter().map(|(k, _)| k).collect()),
        ("values", Value::Dict(pairs)) => Value::List(pairs.into_iter().map(|(_, v)| v).collect()),
        ("items", Value::Dict(pairs)) => Value::List(
            pairs
                .into_iter()
                .map(|(k, v)| Value::List(vec![k, v]))
                .collect(),
        ),
        ("conjugate", v) if v.as_complex().is_some() => {
            Value::Complex(v.as_complex().unwrap_or_default().conj())
        }
        (name, Value::Object(o)) => return super::object::method(&o, name),
        ("upper", Value::Str(s)) => Value::Str(s.to_uppercase()),
        ("lower", Value::Str(s)) => Value::Str(s.to_lowercase()),
        ("strip", Value::Str(s)) => Value::Str(s.trim().to_string()),
        (name, v) => {
            return Err(ExprErrorKind::Unsupported(format!(
                "the method `{name}()` of a {}",
                v.type_name()
            )));
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::expr::{Env, Value, eval};

    #[test]
    fn argument_free_methods_of_lists_dicts_and_numbers() {
        let env = Env::new();
        let v = |t: &str| eval(t, &env).unwrap().to_string();
        assert_eq!(v("np.arange(3).tolist()"), "[0, 1, 2]");
        assert_eq!(v("{'a': 1, 'b': 2}.keys()"), "[\"a\", \"b\"]");
        assert_eq!(v("{'a': 1}.items()"), "[[\"a\", 1]]");
        assert_eq!(v("(1+2j).conjugate()"), "(1-2j)");
        assert!(eval("[1].keys()", &env).is_err());
        assert!(eval("[1].tolist(2)", &env).is_err());
        assert_eq!(eval("len({'a': 1})", &env).unwrap(), Value::Int(1));
    }
}
