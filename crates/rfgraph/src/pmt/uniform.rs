//! [`Uniform`]: the numeric vectors a [`Pmt`](super::Pmt) holds besides
//! its own `Blob`, `VecF32` and `VecComplexF32`, so that every uniform
//! vector GNU Radio has (`s8` ... `c64`) has a home.

use super::ComplexF64;
use serde::{Deserialize, Serialize};

/// A vector of one numeric type. Bytes (`u8`), `f32` and complex `f32`
/// are [`Pmt::Blob`](super::Pmt::Blob), [`Pmt::VecF32`](super::Pmt::VecF32)
/// and [`Pmt::VecComplexF32`](super::Pmt::VecComplexF32), never these.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Uniform {
    /// `i8` (GNU Radio's `s8vector`).
    I8(Vec<i8>),
    /// `u16`.
    U16(Vec<u16>),
    /// `i16`.
    I16(Vec<i16>),
    /// `u32`.
    U32(Vec<u32>),
    /// `i32`.
    I32(Vec<i32>),
    /// `u64`.
    U64(Vec<u64>),
    /// `i64`.
    I64(Vec<i64>),
    /// `f64`.
    F64(Vec<f64>),
    /// complex `f64` as (re, im).
    C64(Vec<ComplexF64>),
}

impl Uniform {
    /// The number of elements.
    pub fn len(&self) -> usize {
        match self {
            Uniform::I8(v) => v.len(),
            Uniform::U16(v) => v.len(),
            Uniform::I16(v) => v.len(),
            Uniform::U32(v) => v.len(),
            Uniform::I32(v) => v.len(),
            Uniform::U64(v) => v.len(),
            Uniform::I64(v) => v.len(),
            Uniform::F64(v) => v.len(),
            Uniform::C64(v) => v.len(),
        }
    }

    /// True when it holds no element.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element type's name (`i8`, ..., `c64`).
    pub fn element(&self) -> &'static str {
        match self {
            Uniform::I8(_) => "i8",
            Uniform::U16(_) => "u16",
            Uniform::I16(_) => "i16",
            Uniform::U32(_) => "u32",
            Uniform::I32(_) => "i32",
            Uniform::U64(_) => "u64",
            Uniform::I64(_) => "i64",
            Uniform::F64(_) => "f64",
            Uniform::C64(_) => "c64",
        }
    }

    /// The elements as plain JSON numbers (complex as `[re, im]`).
    pub fn to_plain_json(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            Uniform::I8(v) => json!(v),
            Uniform::U16(v) => json!(v),
            Uniform::I16(v) => json!(v),
            Uniform::U32(v) => json!(v),
            Uniform::I32(v) => json!(v),
            Uniform::U64(v) => json!(v),
            Uniform::I64(v) => json!(v),
            Uniform::F64(v) => json!(v),
            Uniform::C64(v) => json!(v),
        }
    }
}
