//! GNU Radio's `pmt` module in expressions: the constructors GNU Radio
//! Companion files write for message values (`pmt.intern("freq")`,
//! `pmt.to_pmt({"freq": 2e3})`, `pmt.cons(pmt.PMT_NIL, v)`,
//! `pmt.init_u8vector(4, [1, 2, 3, 4])`), each giving a
//! [`Value::Pmt`]. Owns the mapping from Python values to rfgraph's
//! [`Pmt`], which follows GNU Radio's `pmt.to_pmt`: `None` → nil, bools,
//! `str` → symbol (a string), `int` → long, `float` → double, `complex`
//! → complex, tuple → tuple, list → vector (a list), dict → dict (a map,
//! whose keys must be strings: rfgraph's maps have text keys).

use super::builtins::{Arg, Call, arg_type, count, integer, real};
use super::error::{ExprError, ExprErrorKind};
use super::value::Value;
use rfgraph::Pmt;
use rfgraph::pmt::Uniform;

/// The functions of `pmt`.
pub(crate) const FUNCTIONS: &[&str] = &[
    "intern",
    "string_to_symbol",
    "symbol_to_string",
    "to_pmt",
    "from_long",
    "from_uint64",
    "from_double",
    "from_float",
    "from_bool",
    "from_complex",
    "to_long",
    "to_uint64",
    "to_double",
    "to_float",
    "to_bool",
    "to_python",
    "cons",
    "car",
    "cdr",
    "make_dict",
    "dict_add",
    "make_tuple",
    "make_vector",
    "list1",
    "list2",
    "list3",
    "list4",
    "list5",
    "list6",
    "init_u8vector",
    "init_s8vector",
    "init_u16vector",
    "init_s16vector",
    "init_u32vector",
    "init_s32vector",
    "init_u64vector",
    "init_s64vector",
    "init_f32vector",
    "init_f64vector",
    "init_c32vector",
    "init_c64vector",
    "make_u8vector",
    "make_s8vector",
    "make_u16vector",
    "make_s16vector",
    "make_u32vector",
    "make_s32vector",
    "make_u64vector",
    "make_s64vector",
    "make_f32vector",
    "make_f64vector",
    "make_c32vector",
    "make_c64vector",
];

/// The constants of `pmt`.
pub(crate) const CONSTANTS: &[&str] = &["PMT_NIL", "PMT_T", "PMT_F"];

/// The value of constant `name`.
pub(crate) fn constant(name: &str) -> Option<Value> {
    Some(Value::Pmt(match name {
        "PMT_NIL" => Pmt::Null,
        "PMT_T" => Pmt::Bool(true),
        "PMT_F" => Pmt::Bool(false),
        _ => return None,
    }))
}

/// `value` as GNU Radio's `pmt.to_pmt` makes it.
pub(crate) fn to_pmt(value: &Value) -> Result<Pmt, String> {
    Ok(match value {
        Value::Pmt(p) => p.clone(),
        Value::Function(_) => return Err("a function has no message form".into()),
        Value::None => Pmt::Null,
        Value::Bool(b) => Pmt::Bool(*b),
        Value::Int(v) => Pmt::I64(*v),
        Value::Float(v) => Pmt::F64(*v),
        Value::Complex(c) => Pmt::Complex([c.re, c.im]),
        Value::Str(s) => Pmt::String(s.clone()),
        Value::List(items) => Pmt::List(items.iter().map(to_pmt).collect::<Result<_, _>>()?),
        Value::Dict(pairs) => Pmt::Map(
            pairs
                .iter()
                .map(|(k, v)| Ok((key(k)?, to_pmt(v)?)))
                .collect::<Result<_, String>>()?,
        ),
        Value::Object(o) => return Err(format!("a {} object has no message form", o.class)),
    })
}

/// A dictionary key as a map key: strings and symbols only.
fn key(k: &Value) -> Result<String, String> {
    match k {
        Value::Str(s) | Value::Pmt(Pmt::String(s)) => Ok(s.clone()),
        other => Err(format!(
            "dictionary key {other}: rfgraph's message maps have text keys"
        )),
    }
}

/// `pmt.f(...)`.
pub(crate) fn call(f: &str, call: Call) -> Result<Value, ExprError> {
    let name = format!("pmt.{f}");
    let value_error = |m: String| call.error(ExprErrorKind::Value(format!("{name}: {m}")));
    let one = || call.positional(1, 1).map(|a| a[0]);
    let pmt_of = |a: &Arg| to_pmt(&a.value).map_err(&value_error);
    let out = match f {
        "intern" | "string_to_symbol" => match &one()?.value {
            Value::Str(s) => Pmt::String(s.clone()),
            _ => return Err(arg_type(&name, "str", one()?)),
        },
        "to_pmt" => pmt_of(one()?)?,
        "from_long" => Pmt::I64(integer(&name, one()?)?),
        "from_uint64" => {
            let a = one()?;
            Pmt::U64(
                u64::try_from(integer(&name, a)?)
                    .map_err(|_| value_error("a negative number".into()))?,
            )
        }
        "from_double" | "from_float" => Pmt::F64(real(&name, one()?)?),
        "from_bool" => Pmt::Bool(one()?.value.truthy()),
        "from_complex" => {
            let args = call.positional(1, 2)?;
            let c = match args.as_slice() {
                [re, im] => [real(&name, re)?, real(&name, im)?],
                [c] => {
                    let c = c
                        .value
                        .as_complex()
                        .ok_or_else(|| arg_type(&name, "complex", c))?;
                    [c.re, c.im]
                }
                _ => unreachable!("positional(1, 2) gives one or two"),
            };
            Pmt::Complex(c)
        }
        "symbol_to_string" | "to_long" | "to_uint64" | "to_double" | "to_float" | "to_bool"
        | "to_python" | "car" | "cdr" => return read(f, &name, one()?),
        "cons" => {
            let args = call.positional(2, 2)?;
            Pmt::pair(pmt_of(args[0])?, pmt_of(args[1])?)
        }
        "make_dict" => {
            call.positional(0, 0)?;
            Pmt::Map(Default::default())
        }
        "dict_add" => {
            let args = call.positional(3, 3)?;
            let Pmt::Map(mut m) = pmt_of(args[0])? else {
                return Err(arg_type(&name, "a dict", args[0]));
            };
            let k = key(&Value::Pmt(pmt_of(args[1])?)).map_err(value_error)?;
            m.insert(k, pmt_of(args[2])?);
            Pmt::Map(m)
        }
        "make_tuple" => Pmt::Tuple(
            call.positional(0, 10)?
                .into_iter()
                .map(pmt_of)
                .collect::<Result<_, _>>()?,
        ),
        "list1" | "list2" | "list3" | "list4" | "list5" | "list6" => {
            let n = usize::from(f.as_bytes()[4] - b'0');
            Pmt::List(
                call.positional(n, n)?
                    .into_iter()
                    .map(pmt_of)
                    .collect::<Result<_, _>>()?,
            )
        }
        "make_vector" => {
            let args = call.positional(2, 2)?;
            let n = count(&name, args[0])?;
            vec_len(n, &call)?;
            Pmt::List(vec![pmt_of(args[1])?; n])
        }
        _ => {
            if let Some(kind) = f.strip_prefix("init_") {
                let args = call.positional(2, 2)?;
                let n = count(&name, args[0])?;
                let items = match &args[1].value {
                    Value::List(items) if items.len() >= n => &items[..n],
                    _ => return Err(arg_type(&name, &format!("a list of {n} numbers"), args[1])),
                };
                uniform(kind, items).ok_or_else(|| arg_type(&name, "numbers", args[1]))?
            } else if let Some(kind) = f.strip_prefix("make_") {
                let args = call.positional(2, 2)?;
                let n = count(&name, args[0])?;
                vec_len(n, &call)?;
                uniform(kind, &vec![args[1].value.clone(); n])
                    .ok_or_else(|| arg_type(&name, "a number", args[1]))?
            } else {
                return Err(call.error(ExprErrorKind::UnknownName {
                    name,
                    suggest: None,
                }));
            }
        }
    };
    Ok(Value::Pmt(out))
}

/// Refuses vectors longer than [`MAX_ITEMS`](super::MAX_ITEMS).
fn vec_len(n: usize, call: &Call) -> Result<(), ExprError> {
    if n > super::MAX_ITEMS {
        return Err(call.error(ExprErrorKind::TooLarge {
            what: "vector".into(),
            size: n as u128,
            limit: super::MAX_ITEMS,
        }));
    }
    Ok(())
}

/// The accessors (`pmt.to_double(x)`, `pmt.car(p)`): the Python value
/// GNU Radio gives back.
fn read(f: &str, name: &str, a: &Arg) -> Result<Value, ExprError> {
    let p = to_pmt(&a.value).map_err(|m| arg_type(name, &m, a))?;
    let v = match (f, &p) {
        ("car", Pmt::Pair(pair)) => Value::Pmt(pair.0.clone()),
        ("cdr", Pmt::Pair(pair)) => Value::Pmt(pair.1.clone()),
        ("car" | "cdr", _) => return Err(arg_type(name, "a pair", a)),
        ("symbol_to_string", Pmt::String(s)) => Value::Str(s.clone()),
        ("to_bool", Pmt::Bool(b)) => Value::Bool(*b),
        ("to_long" | "to_uint64", _) => Value::from_pmt(&p)
            .filter(|v| matches!(v, Value::Int(_)))
            .ok_or_else(|| arg_type(name, "an integer", a))?,
        ("to_double" | "to_float", _) => p
            .as_f64()
            .map(Value::Float)
            .ok_or_else(|| arg_type(name, "a number", a))?,
        ("to_python", _) => Value::from_pmt(&p).unwrap_or(Value::Pmt(p)),
        _ => return Err(arg_type(name, "a message value of its kind", a)),
    };
    Ok(v)
}

/// A uniform vector of GNU Radio's element code `kind` (`u8vector`,
/// `f32vector`, ...) from numbers; `None` when one is no number of it.
fn uniform(kind: &str, items: &[Value]) -> Option<Pmt> {
    fn ints<T: TryFrom<i64>>(items: &[Value]) -> Option<Vec<T>> {
        items
            .iter()
            .map(|v| T::try_from(v.as_i64()?).ok())
            .collect()
    }
    let reals = || {
        items
            .iter()
            .map(Value::as_f64)
            .collect::<Option<Vec<f64>>>()
    };
    let complexes = || {
        items
            .iter()
            .map(|v| v.as_complex().map(|c| [c.re, c.im]))
            .collect::<Option<Vec<[f64; 2]>>>()
    };
    Some(match kind {
        "u8vector" => Pmt::Blob(ints(items)?),
        "s8vector" => Pmt::Uniform(Uniform::I8(ints(items)?)),
        "u16vector" => Pmt::Uniform(Uniform::U16(ints(items)?)),
        "s16vector" => Pmt::Uniform(Uniform::I16(ints(items)?)),
        "u32vector" => Pmt::Uniform(Uniform::U32(ints(items)?)),
        "s32vector" => Pmt::Uniform(Uniform::I32(ints(items)?)),
        "u64vector" => Pmt::Uniform(Uniform::U64(ints(items)?)),
        "s64vector" => Pmt::Uniform(Uniform::I64(ints(items)?)),
        "f32vector" => Pmt::VecF32(reals()?.into_iter().map(|x| x as f32).collect()),
        "f64vector" => Pmt::Uniform(Uniform::F64(reals()?)),
        "c32vector" => Pmt::VecComplexF32(
            complexes()?
                .into_iter()
                .map(|[re, im]| [re as f32, im as f32])
                .collect(),
        ),
        "c64vector" => Pmt::Uniform(Uniform::C64(complexes()?)),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::expr::{Env, Value, eval};
    use rfgraph::Pmt;
    use rfgraph::pmt::Uniform;
    use std::collections::BTreeMap;

    fn pmt(text: &str) -> Pmt {
        let mut env = Env::new();
        env.set("v", Value::List(vec![Value::Int(1), Value::Int(2)]));
        match eval(text, &env) {
            Ok(Value::Pmt(p)) => p,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn to_pmt_follows_gnu_radios_python_mapping() {
        let map: BTreeMap<String, Pmt> = [
            ("freq".to_string(), Pmt::I64(2000)),
            ("ampl".to_string(), Pmt::F64(1.5)),
        ]
        .into();
        assert_eq!(
            pmt(r#"pmt.to_pmt({"freq": 2000, "ampl":1.5})"#),
            Pmt::Map(map)
        );
        assert_eq!(
            pmt("pmt.to_pmt((1, 'a', None, 2j))"),
            Pmt::List(vec![
                Pmt::I64(1),
                Pmt::String("a".into()),
                Pmt::Null,
                Pmt::Complex([0.0, 2.0])
            ])
        );
        assert_eq!(
            pmt("pmt.to_pmt(v)"),
            Pmt::List(vec![Pmt::I64(1), Pmt::I64(2)])
        );
        assert_eq!(pmt("pmt.PMT_NIL"), Pmt::Null);
        assert_eq!(pmt("pmt.from_double(0.5)"), Pmt::F64(0.5));
        assert_eq!(pmt("pmt.from_uint64(7)"), Pmt::U64(7));
        assert_eq!(pmt("pmt.intern('x')"), Pmt::String("x".into()));
    }

    #[test]
    fn constructors_build_pairs_tuples_dicts_and_vectors() {
        assert_eq!(
            pmt("pmt.cons(pmt.PMT_NIL, pmt.init_u8vector(2, v))"),
            Pmt::pair(Pmt::Null, Pmt::Blob(vec![1, 2]))
        );
        assert_eq!(
            pmt("pmt.make_tuple(pmt.from_uint64(1), pmt.from_double(0.1234))"),
            Pmt::Tuple(vec![Pmt::U64(1), Pmt::F64(0.1234)])
        );
        assert_eq!(
            pmt("pmt.dict_add(pmt.make_dict(), pmt.intern('k'), pmt.from_long(3))"),
            Pmt::Map([("k".to_string(), Pmt::I64(3))].into())
        );
        assert_eq!(
            pmt("pmt.make_f64vector(3, 0.5)"),
            Pmt::Uniform(Uniform::F64(vec![0.5; 3]))
        );
        assert_eq!(
            pmt("pmt.init_c32vector(1, [1+2j])"),
            Pmt::VecComplexF32(vec![[1.0, 2.0]])
        );
        assert_eq!(
            pmt("pmt.car(pmt.cons(pmt.intern('a'), pmt.PMT_T))"),
            Pmt::String("a".into())
        );
    }

    #[test]
    fn what_has_no_message_form_is_an_error_not_a_panic() {
        let env = Env::new();
        for bad in [
            "pmt.to_pmt({1: 2})",
            "pmt.init_u8vector(3, [1, 2])",
            "pmt.init_u8vector(1, [300])",
            "pmt.from_uint64(-1)",
            "pmt.car(pmt.PMT_T)",
            "pmt.make_vector(100000000000, 0)",
            "pmt.nothing(1)",
            "pmt.dict_add(pmt.PMT_NIL, 1, 2)",
            "{[1]: 2}",
        ] {
            assert!(eval(bad, &env).is_err(), "{bad}");
        }
    }
}
