//! `Pmt`, the dynamically typed value carried by messages and tags.
//!
//! Named after GNU Radio's "polymorphic types". This module owns the value
//! type and its conversions; it knows nothing about ports or scheduling.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod uniform;

pub use uniform::Uniform;

/// A complex sample as two `f32` (re, im), so that `Pmt` needs no complex crate.
pub type ComplexF32 = [f32; 2];

/// A complex number as two `f64` (re, im): GNU Radio's complex PMT.
pub type ComplexF64 = [f64; 2];

/// A dynamically typed message or tag value.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Pmt {
    /// No value. Also the reply of handlers that have nothing to say.
    #[default]
    Null,
    /// A boolean.
    Bool(bool),
    /// A signed integer.
    I64(i64),
    /// An unsigned integer (sample counts, indices).
    U64(u64),
    /// A single-precision float.
    F32(f32),
    /// A double-precision float (frequencies, times).
    F64(f64),
    /// A complex number (GNU Radio's `pmt.from_complex`).
    Complex(ComplexF64),
    /// A string.
    String(String),
    /// Raw bytes (PDUs).
    Blob(Vec<u8>),
    /// A vector of `f32`.
    VecF32(Vec<f32>),
    /// A vector of complex `f32` as (re, im) pairs.
    VecComplexF32(Vec<ComplexF32>),
    /// A vector of another numeric type.
    Uniform(Uniform),
    /// A list of values (GNU Radio's vector, `pmt.to_pmt([...])`, and
    /// its lists).
    List(Vec<Pmt>),
    /// A fixed group of values (GNU Radio's tuple, `pmt.to_pmt((...))`).
    Tuple(Vec<Pmt>),
    /// Two values (GNU Radio's `pmt.cons(car, cdr)`); a PDU is the pair
    /// of its metadata map and its data.
    Pair(Box<(Pmt, Pmt)>),
    /// A map from string keys to values.
    Map(BTreeMap<String, Pmt>),
}

impl Pmt {
    /// The value as `f64` when it is numeric.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Pmt::I64(v) => Some(v as f64),
            Pmt::U64(v) => Some(v as f64),
            Pmt::F32(v) => Some(v as f64),
            Pmt::F64(v) => Some(v),
            _ => None,
        }
    }

    /// The value as `u64` when it is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Pmt::U64(v) => Some(v),
            Pmt::I64(v) => u64::try_from(v).ok(),
            _ => None,
        }
    }

    /// The value as `&str` when it is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Pmt::String(s) => Some(s),
            _ => None,
        }
    }

    /// The pair `(car, cdr)`.
    pub fn pair(car: impl Into<Pmt>, cdr: impl Into<Pmt>) -> Pmt {
        Pmt::Pair(Box::new((car.into(), cdr.into())))
    }

    /// True for [`Pmt::Null`].
    pub fn is_null(&self) -> bool {
        matches!(self, Pmt::Null)
    }

    /// The value as plain JSON, the way a flowgraph file writes it:
    /// numbers, strings, arrays and objects, a complex number as
    /// `[re, im]`, a blob as an array of bytes, null as `null`. (The
    /// tagged form `serde` gives keeps the variant; this one is for
    /// people and for documentation.)
    pub fn to_plain_json(&self) -> serde_json::Value {
        use serde_json::{Value, json};
        match self {
            Pmt::Null => Value::Null,
            Pmt::Bool(b) => json!(b),
            Pmt::I64(v) => json!(v),
            Pmt::U64(v) => json!(v),
            Pmt::F32(v) => json!(v),
            Pmt::F64(v) => json!(v),
            Pmt::Complex(c) => json!(c),
            Pmt::String(s) => json!(s),
            Pmt::Blob(b) => json!(b),
            Pmt::VecF32(v) => json!(v),
            Pmt::VecComplexF32(v) => json!(v),
            Pmt::Uniform(u) => u.to_plain_json(),
            Pmt::List(items) | Pmt::Tuple(items) => {
                Value::Array(items.iter().map(Pmt::to_plain_json).collect())
            }
            Pmt::Pair(pair) => Value::Array(vec![pair.0.to_plain_json(), pair.1.to_plain_json()]),
            Pmt::Map(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), v.to_plain_json()))
                    .collect(),
            ),
        }
    }
}

macro_rules! pmt_from {
    ($($t:ty => $v:ident),* $(,)?) => {$(
        impl From<$t> for Pmt {
            fn from(v: $t) -> Self { Pmt::$v(v.into()) }
        }
    )*};
}

pmt_from!(
    bool => Bool, i64 => I64, i32 => I64, u64 => U64, u32 => U64, f32 => F32, f64 => F64,
    String => String, &str => String, Vec<u8> => Blob, Vec<f32> => VecF32,
    Vec<ComplexF32> => VecComplexF32, Vec<Pmt> => List, BTreeMap<String, Pmt> => Map,
);

impl From<Uniform> for Pmt {
    fn from(v: Uniform) -> Self {
        Pmt::Uniform(v)
    }
}

impl From<usize> for Pmt {
    fn from(v: usize) -> Self {
        Pmt::U64(v as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_and_accessors() {
        assert_eq!(Pmt::from(3u64).as_u64(), Some(3));
        assert_eq!(Pmt::from(-3i64).as_u64(), None);
        assert_eq!(Pmt::from(2.5f32).as_f64(), Some(2.5));
        assert_eq!(Pmt::from("hi").as_str(), Some("hi"));
        assert!(Pmt::default().is_null());
    }

    #[test]
    fn json_round_trip() {
        let mut map = BTreeMap::new();
        map.insert("freq".to_string(), Pmt::F64(100e6));
        map.insert("iq".to_string(), Pmt::VecComplexF32(vec![[1.0, -1.0]]));
        let v = Pmt::List(vec![Pmt::Map(map), Pmt::Blob(vec![1, 2]), Pmt::Null]);
        let json = serde_json::to_string(&v).unwrap();
        let back: Pmt = serde_json::from_str(&json).unwrap();
        assert_eq!(v, back);
    }
}
