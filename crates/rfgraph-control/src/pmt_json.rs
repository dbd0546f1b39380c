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
//!
//! What only a display draws (a display block's `display` and `frame`
//! readings, streamed on `/live`, see [`crate::routes`]) goes out *plain* instead
//! ([`to_plain_json`]): smaller and easier to draw, at the cost of types.

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

/// The plain (untagged) JSON of `p`: a map is an object, a list, tuple,
/// pair (`[car, cdr]`), blob or numeric vector an array, a complex number
/// `[re, im]`, a number a number, a string a string, null null. A
/// non-finite float (NaN, ±∞), which JSON cannot hold, is null.
pub fn to_plain_json(p: &Pmt) -> Value {
    let float = |f: f64| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number);
    let complex = |re: f64, im: f64| Value::Array(vec![float(re), float(im)]);
    match p {
        Pmt::Null => Value::Null,
        Pmt::Bool(b) => Value::Bool(*b),
        Pmt::I64(i) => Value::from(*i),
        Pmt::U64(u) => Value::from(*u),
        Pmt::F32(f) => float(f64::from(*f)),
        Pmt::F64(f) => float(*f),
        Pmt::Complex([re, im]) => complex(*re, *im),
        Pmt::String(s) => Value::String(s.clone()),
        Pmt::Blob(b) => Value::Array(b.iter().map(|&x| Value::from(x)).collect()),
        Pmt::VecF32(v) => Value::Array(v.iter().map(|&x| float(f64::from(x))).collect()),
        Pmt::VecComplexF32(v) => Value::Array(
            v.iter()
                .map(|&[re, im]| complex(f64::from(re), f64::from(im)))
                .collect(),
        ),
        Pmt::Uniform(u) => u.to_plain_json(),
        Pmt::List(l) | Pmt::Tuple(l) => Value::Array(l.iter().map(to_plain_json).collect()),
        Pmt::Pair(pair) => Value::Array(vec![to_plain_json(&pair.0), to_plain_json(&pair.1)]),
        Pmt::Map(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), to_plain_json(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plain_json_drops_the_tags() {
        let frame = Pmt::Map(
            [
                ("seq".to_string(), Pmt::U64(7)),
                ("bins".to_string(), Pmt::VecF32(vec![1.0, f32::NAN, -2.5])),
                (
                    "iq".to_string(),
                    Pmt::VecComplexF32(vec![[1.0, -1.0], [0.0, f32::INFINITY]]),
                ),
                ("c".to_string(), Pmt::Complex([0.5, -0.5])),
                (
                    "t".to_string(),
                    Pmt::Tuple(vec![Pmt::Null, Pmt::Bool(true), Pmt::String("x".into())]),
                ),
                (
                    "p".to_string(),
                    Pmt::Pair(Box::new((Pmt::I64(-1), Pmt::F64(f64::NEG_INFINITY)))),
                ),
                ("b".to_string(), Pmt::Blob(vec![0, 255])),
                (
                    "u".to_string(),
                    Pmt::Uniform(rfgraph::pmt::Uniform::I16(vec![-3, 4])),
                ),
            ]
            .into(),
        );
        assert_eq!(
            to_plain_json(&frame),
            json!({
                "seq": 7,
                "bins": [1.0, null, -2.5],
                "iq": [[1.0, -1.0], [0.0, null]],
                "c": [0.5, -0.5],
                "t": [null, true, "x"],
                "p": [-1, null],
                "b": [0, 255],
                "u": [-3, 4],
            })
        );
    }

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

    /// Any `Pmt`, nested a few levels, non-finite floats included.
    fn pmt() -> impl Strategy<Value = Pmt> {
        let float = prop_oneof![
            any::<f64>(),
            Just(f64::NAN),
            Just(f64::INFINITY),
            Just(f64::NEG_INFINITY)
        ];
        let leaf = prop_oneof![
            Just(Pmt::Null),
            any::<bool>().prop_map(Pmt::Bool),
            any::<i64>().prop_map(Pmt::I64),
            any::<u64>().prop_map(Pmt::U64),
            float.clone().prop_map(|f| Pmt::F32(f as f32)),
            float.clone().prop_map(Pmt::F64),
            (float.clone(), float.clone()).prop_map(|(a, b)| Pmt::Complex([a, b])),
            "[a-z ]{0,8}".prop_map(Pmt::String),
            prop::collection::vec(any::<u8>(), 0..4).prop_map(Pmt::Blob),
            prop::collection::vec(float.clone(), 0..4)
                .prop_map(|v| Pmt::VecF32(v.into_iter().map(|f| f as f32).collect())),
            prop::collection::vec((float.clone(), float), 0..4).prop_map(|v| {
                Pmt::VecComplexF32(v.into_iter().map(|(a, b)| [a as f32, b as f32]).collect())
            }),
        ];
        leaf.prop_recursive(3, 32, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Pmt::List),
                prop::collection::vec(inner.clone(), 0..5).prop_map(Pmt::Tuple),
                (inner.clone(), inner.clone()).prop_map(|p| Pmt::Pair(Box::new(p))),
                prop::collection::btree_map("[a-z]{1,6}", inner, 0..5).prop_map(Pmt::Map),
            ]
        })
    }

    /// Checks that `v` is the plain JSON of `p` in shape: maps keep their
    /// keys, sequences their length, non-finite floats are null.
    fn same_shape(p: &Pmt, v: &Value) -> Result<(), TestCaseError> {
        match (p, v) {
            (Pmt::Map(m), Value::Object(o)) => {
                prop_assert_eq!(m.len(), o.len());
                for (k, x) in m {
                    same_shape(x, o.get(k).ok_or_else(|| TestCaseError::fail(k.clone()))?)?;
                }
            }
            (Pmt::List(l) | Pmt::Tuple(l), Value::Array(a)) => {
                prop_assert_eq!(l.len(), a.len());
                for (x, y) in l.iter().zip(a) {
                    same_shape(x, y)?;
                }
            }
            (Pmt::F64(f), y) => prop_assert_eq!(f.is_finite(), !y.is_null()),
            (Pmt::F32(f), y) => prop_assert_eq!(f.is_finite(), !y.is_null()),
            _ => {}
        }
        Ok(())
    }

    proptest! {
        /// Any `Pmt` has a plain JSON form of the same shape, never a
        /// panic, and that form is valid JSON text.
        #[test]
        fn any_pmt_has_a_plain_form(p in pmt()) {
            let v = to_plain_json(&p);
            same_shape(&p, &v)?;
            prop_assert!(serde_json::to_string(&v).is_ok());
        }

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
