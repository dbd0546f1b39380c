//! How a [`Pmt`] travels as JSON over the control port.
//!
//! Replies are always *tagged*: `{"type": "f64", "value": 2.5}`, the
//! `Pmt`'s own serde form (`type` is the variant in snake case: `null`,
//! `bool`, `i64`, `u64`, `f32`, `f64`, `complex` as `[re, im]`, `string`,
//! `blob` as bytes, `vec_f32`, `vec_complex_f32`, `uniform`, `list`,
//! `tuple`, `pair` as `[car, cdr]`, `map`), so no type is lost.
//!
//! Requests may be tagged too, or *plain* JSON for convenience: `null`,
//! `true`, `3` (an `i64`; one past `i64::MAX` a `u64`), `2.5` (an `f64`),
//! `"text"`, `[...]` (a list), and an object without a `type` member (a
//! map). A block's parameter converts what it gets to its declared type
//! (an `i64` sets a float parameter), so plain numbers serve most uses.

use rfgraph::Pmt;
use serde_json::Value;

/// The `Pmt` a request's JSON stands for (see the module docs).
///
/// Errors: a tagged object whose `type` or `value` does not fit.
pub fn from_json(v: Value) -> Result<Pmt, String> {
    match v {
        Value::Object(o) if o.contains_key("type") => {
            serde_json::from_value(Value::Object(o)).map_err(|e| format!("not a tagged PMT: {e}"))
        }
        Value::Object(o) => o
            .into_iter()
            .map(|(k, v)| from_json(v).map(|p| (k, p)))
            .collect::<Result<_, _>>()
            .map(Pmt::Map),
        Value::Null => Ok(Pmt::Null),
        Value::Bool(b) => Ok(Pmt::Bool(b)),
        Value::Number(n) => Ok(match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Pmt::I64(i),
            (None, Some(u)) => Pmt::U64(u),
            _ => Pmt::F64(n.as_f64().unwrap_or(f64::NAN)),
        }),
        Value::String(s) => Ok(Pmt::String(s)),
        Value::Array(a) => a
            .into_iter()
            .map(from_json)
            .collect::<Result<_, _>>()
            .map(Pmt::List),
    }
}

/// The tagged JSON of `p` (see the module docs).
pub fn to_json(p: &Pmt) -> Value {
    serde_json::to_value(p).unwrap_or_else(|e| {
        // Only a non-finite float cannot be JSON; say what it was.
        serde_json::json!({ "type": "string", "value": format!("{p:?} ({e})") })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plain_values_map_onto_their_natural_pmts() {
        assert_eq!(from_json(json!(null)).unwrap(), Pmt::Null);
        assert_eq!(from_json(json!(3)).unwrap(), Pmt::I64(3));
        assert_eq!(from_json(json!(u64::MAX)).unwrap(), Pmt::U64(u64::MAX));
        assert_eq!(from_json(json!(2.5)).unwrap(), Pmt::F64(2.5));
        assert_eq!(from_json(json!("x")).unwrap(), Pmt::String("x".into()));
        assert_eq!(
            from_json(json!([1, "a"])).unwrap(),
            Pmt::List(vec![Pmt::I64(1), Pmt::String("a".into())])
        );
        assert_eq!(
            from_json(json!({"freq": 1.5})).unwrap(),
            Pmt::Map([("freq".to_string(), Pmt::F64(1.5))].into())
        );
    }

    #[test]
    fn tagged_values_round_trip_and_bad_tags_are_refused() {
        for p in [
            Pmt::U64(7),
            Pmt::F32(0.5),
            Pmt::Complex([1.0, -2.0]),
            Pmt::Pair(Box::new((Pmt::String("k".into()), Pmt::VecF32(vec![1.0])))),
            Pmt::Blob(vec![1, 2, 3]),
        ] {
            assert_eq!(from_json(to_json(&p)).unwrap(), p);
        }
        assert!(from_json(json!({"type": "f64", "value": "loud"})).is_err());
        assert!(from_json(json!({"type": "nonsense"})).is_err());
    }
}

#[cfg(test)]
mod mutated {
    use super::*;
    use proptest::prelude::*;

    /// Any JSON value, nested a few levels, with `type`/`value` members
    /// often present so the tagged path sees malformed tags too.
    fn json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            "[a-z_0-9]{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map(
                    prop_oneof![
                        Just("type".to_string()),
                        Just("value".to_string()),
                        "[a-z]{1,6}"
                    ],
                    inner,
                    0..4,
                )
                .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Whatever a client sends gives a `Pmt` or an error, never a
        /// panic, and every `Pmt` it gives goes back out as JSON that
        /// reads as that same `Pmt` (JSON numbers are finite).
        #[test]
        fn any_json_reads_or_is_refused(v in json()) {
            if let Ok(p) = from_json(v) {
                prop_assert_eq!(from_json(to_json(&p)), Ok(p));
            }
        }
    }
}
