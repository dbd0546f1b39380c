//! [`ParamValue`]: the Rust types a parameter can have, and how each
//! converts from and to a [`Pmt`].
//!
//! Numbers convert between widths when the value fits: an integer sets a
//! float parameter, a float with no fractional part sets an integer one,
//! and anything that would wrap or truncate is a [`PmtTypeError`] naming
//! the expected type and what was found. Enums become string parameters
//! with `#[derive(ParamChoice)]`.

use super::types::{ItemKind, ParamType};
use crate::pmt::Pmt;
use num_complex::Complex32;

/// A [`Pmt`] that does not convert to a parameter's type.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}expected {expected}, found {found}", param.map(|p| format!("parameter `{p}`: ")).unwrap_or_default())]
pub struct PmtTypeError {
    /// The parameter, once known.
    pub param: Option<&'static str>,
    /// The type the parameter takes.
    pub expected: ParamType,
    /// What arrived: the value's kind and, for scalars, the value.
    pub found: String,
}

impl PmtTypeError {
    /// `found` is no value of type `expected`.
    pub fn new(expected: ParamType, found: &Pmt) -> Self {
        Self {
            param: None,
            expected,
            found: describe(found),
        }
    }
}

/// A short description of a value for error messages: its kind, and the
/// value itself when it is a scalar.
pub fn describe(p: &Pmt) -> String {
    match p {
        Pmt::Null => "null".into(),
        Pmt::Bool(v) => format!("bool {v}"),
        Pmt::I64(v) => format!("int {v}"),
        Pmt::U64(v) => format!("uint {v}"),
        Pmt::F32(v) => format!("f32 {v}"),
        Pmt::F64(v) => format!("f64 {v}"),
        Pmt::Complex([re, im]) => format!("complex {re}{im:+}j"),
        Pmt::String(s) => format!("string {s:?}"),
        Pmt::Blob(b) => format!("blob of {} bytes", b.len()),
        Pmt::VecF32(v) => format!("f32 vector of {}", v.len()),
        Pmt::VecComplexF32(v) => format!("complex vector of {}", v.len()),
        Pmt::Uniform(u) => format!("{} vector of {}", u.element(), u.len()),
        Pmt::List(v) => format!("list of {}", v.len()),
        Pmt::Tuple(v) => format!("tuple of {}", v.len()),
        Pmt::Pair(_) => "pair".into(),
        Pmt::Map(m) => format!("map of {}", m.len()),
    }
}

/// A Rust type a parameter can have: its [`ParamType`], and its
/// conversion from and to a [`Pmt`].
pub trait ParamValue: Sized {
    /// The parameter type this value has.
    const TYPE: ParamType;
    /// `Option<T>`: the parameter may be left unset.
    const OPTIONAL: bool = false;
    /// Converts `pmt`, or says why it does not fit.
    fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError>;
    /// The value as a [`Pmt`] (what a flowgraph file or the control port
    /// reads back).
    fn to_pmt(&self) -> Pmt;
    /// The values a string parameter of this type may take (an enum's
    /// names); empty for any.
    fn choices() -> Vec<&'static str> {
        Vec::new()
    }

    /// Every text the type parses (its choices and their other
    /// spellings), compared without case; empty for any.
    fn spellings() -> Vec<&'static str> {
        Self::choices()
    }
}

impl ParamValue for Pmt {
    const TYPE: ParamType = ParamType::Any;
    fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
        Ok(pmt)
    }
    fn to_pmt(&self) -> Pmt {
        self.clone()
    }
}

impl ParamValue for f64 {
    const TYPE: ParamType = ParamType::Float;
    fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
        pmt.as_f64()
            .ok_or_else(|| PmtTypeError::new(Self::TYPE, &pmt))
    }
    fn to_pmt(&self) -> Pmt {
        Pmt::F64(*self)
    }
}

impl ParamValue for f32 {
    const TYPE: ParamType = ParamType::Float;
    /// A finite number too large for `f32` does not fit.
    fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
        let v = f64::from_pmt(pmt.clone())?;
        narrow(v).ok_or_else(|| PmtTypeError {
            param: None,
            expected: Self::TYPE,
            found: format!("{} (too large for 32 bits)", describe(&pmt)),
        })
    }
    fn to_pmt(&self) -> Pmt {
        Pmt::F64(*self as f64)
    }
}

impl ParamValue for bool {
    const TYPE: ParamType = ParamType::Bool;
    fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
        match pmt {
            Pmt::Bool(v) => Ok(v),
            Pmt::I64(v @ (0 | 1)) => Ok(v == 1),
            Pmt::U64(v @ (0 | 1)) => Ok(v == 1),
            other => Err(PmtTypeError::new(Self::TYPE, &other)),
        }
    }
    fn to_pmt(&self) -> Pmt {
        Pmt::Bool(*self)
    }
}

impl ParamValue for String {
    const TYPE: ParamType = ParamType::String;
    fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
        match pmt {
            Pmt::String(s) => Ok(s),
            other => Err(PmtTypeError::new(Self::TYPE, &other)),
        }
    }
    fn to_pmt(&self) -> Pmt {
        Pmt::String(self.clone())
    }
}

/// `v` as `f32`, unless it is finite and too large for one (NaN and
/// infinities pass as they are: the finiteness check is the spec's).
fn narrow(v: f64) -> Option<f32> {
    let n = v as f32;
    (n.is_finite() || !v.is_finite()).then_some(n)
}

/// The value as an integer, if it is one or a finite float without a
/// fractional part.
fn integral(pmt: &Pmt) -> Option<i128> {
    match *pmt {
        Pmt::I64(v) => Some(v as i128),
        Pmt::U64(v) => Some(v as i128),
        Pmt::F32(v) if v.fract() == 0.0 && v.is_finite() && v.abs() < 1e30 => Some(v as i128),
        Pmt::F64(v) if v.fract() == 0.0 && v.is_finite() && v.abs() < 1e30 => Some(v as i128),
        _ => None,
    }
}

macro_rules! integer_value {
    ($($t:ty => $kind:ident as $pmt:ident),* $(,)?) => {$(
        impl ParamValue for $t {
            const TYPE: ParamType = ParamType::$kind;
            fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
                integral(&pmt)
                    .and_then(|v| <$t>::try_from(v).ok())
                    .ok_or_else(|| PmtTypeError::new(Self::TYPE, &pmt))
            }
            fn to_pmt(&self) -> Pmt {
                Pmt::$pmt(*self as _)
            }
        }
    )*};
}

integer_value!(
    i64 => Int as I64, i32 => Int as I64, i16 => Int as I64, i8 => Int as I64,
    u64 => UInt as U64, u32 => UInt as U64, u16 => UInt as U64, u8 => UInt as U64,
    usize => UInt as U64,
);

/// A complex number from a real number, `[re, im]`, or a one-element
/// complex vector.
fn complex(pmt: &Pmt) -> Option<Complex32> {
    match pmt {
        Pmt::VecComplexF32(v) if v.len() == 1 => Some(Complex32::new(v[0][0], v[0][1])),
        Pmt::VecF32(v) if v.len() == 2 => Some(Complex32::new(v[0], v[1])),
        Pmt::List(pair) if pair.len() == 2 => Some(Complex32::new(
            narrow(pair[0].as_f64()?)?,
            narrow(pair[1].as_f64()?)?,
        )),
        other => Some(Complex32::new(narrow(other.as_f64()?)?, 0.0)),
    }
}

impl ParamValue for Complex32 {
    const TYPE: ParamType = ParamType::Complex;
    fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
        complex(&pmt).ok_or_else(|| PmtTypeError::new(Self::TYPE, &pmt))
    }
    fn to_pmt(&self) -> Pmt {
        if self.im == 0.0 {
            Pmt::F64(self.re as f64)
        } else {
            Pmt::VecComplexF32(vec![[self.re, self.im]])
        }
    }
}

impl ParamValue for Vec<f32> {
    const TYPE: ParamType = ParamType::FloatVec;
    fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
        match pmt {
            Pmt::VecF32(v) => Ok(v),
            Pmt::List(items) => {
                let converted: Option<Vec<f32>> =
                    items.iter().map(|p| p.as_f64().and_then(narrow)).collect();
                converted.ok_or_else(|| PmtTypeError::new(Self::TYPE, &Pmt::List(items)))
            }
            other => Err(PmtTypeError::new(Self::TYPE, &other)),
        }
    }
    fn to_pmt(&self) -> Pmt {
        Pmt::VecF32(self.clone())
    }
}

impl ParamValue for Vec<Complex32> {
    const TYPE: ParamType = ParamType::ComplexVec;
    fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
        let converted = match &pmt {
            Pmt::VecComplexF32(v) => {
                Some(v.iter().map(|&[re, im]| Complex32::new(re, im)).collect())
            }
            Pmt::VecF32(v) => Some(v.iter().map(|&re| Complex32::new(re, 0.0)).collect()),
            Pmt::List(items) => items.iter().map(complex).collect(),
            _ => None,
        };
        converted.ok_or_else(|| PmtTypeError::new(Self::TYPE, &pmt))
    }
    /// Real numbers when no element has an imaginary part (a real
    /// filter's taps read back as a real vector).
    fn to_pmt(&self) -> Pmt {
        if self.iter().all(|c| c.im == 0.0) {
            Pmt::VecF32(self.iter().map(|c| c.re).collect())
        } else {
            Pmt::VecComplexF32(self.iter().map(|c| [c.re, c.im]).collect())
        }
    }
}

macro_rules! integer_vector_value {
    ($($t:ty),* $(,)?) => {$(
        impl ParamValue for Vec<$t> {
            const TYPE: ParamType = ParamType::IntVec;
            fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
                let converted: Option<Vec<$t>> = match &pmt {
                    Pmt::Blob(bytes) => bytes.iter().map(|&b| <$t>::try_from(b).ok()).collect(),
                    Pmt::VecF32(v) => v
                        .iter()
                        .map(|&x| integral(&Pmt::F32(x)).and_then(|i| <$t>::try_from(i).ok()))
                        .collect(),
                    Pmt::List(items) => items
                        .iter()
                        .map(|p| integral(p).and_then(|i| <$t>::try_from(i).ok()))
                        .collect(),
                    _ => None,
                };
                converted.ok_or_else(|| PmtTypeError::new(Self::TYPE, &pmt))
            }
            fn to_pmt(&self) -> Pmt {
                Pmt::List(self.iter().map(|&v| Pmt::I64(v as i64)).collect())
            }
        }
    )*};
}

integer_vector_value!(i64, i32, u64, u32, usize, u8, i16, i8);

impl<T: ParamValue> ParamValue for Option<T> {
    const TYPE: ParamType = T::TYPE;
    const OPTIONAL: bool = true;
    fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
        match pmt {
            Pmt::Null => Ok(None),
            other => T::from_pmt(other).map(Some),
        }
    }
    fn to_pmt(&self) -> Pmt {
        self.as_ref().map_or(Pmt::Null, T::to_pmt)
    }
    fn choices() -> Vec<&'static str> {
        T::choices()
    }
    fn spellings() -> Vec<&'static str> {
        T::spellings()
    }
}

impl ParamValue for ItemKind {
    const TYPE: ParamType = ParamType::String;
    fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
        match &pmt {
            Pmt::String(s) => ItemKind::parse(s),
            _ => None,
        }
        .ok_or_else(|| PmtTypeError::new(Self::TYPE, &pmt))
    }
    fn to_pmt(&self) -> Pmt {
        Pmt::from(self.name())
    }
    fn choices() -> Vec<&'static str> {
        ItemKind::ALL.iter().map(|k| k.name()).collect()
    }
    fn spellings() -> Vec<&'static str> {
        ItemKind::spellings(&ItemKind::ALL)
    }
}

/// A fieldless enum used as a string parameter, implemented by
/// `#[derive(ParamChoice)]` together with its [`ParamValue`].
pub trait ParamChoice: Sized {
    /// Every variant's name, in declaration order.
    const NAMES: &'static [&'static str];
    /// Every text that parses: names and aliases, in lower case.
    const SPELLINGS: &'static [&'static str];
    /// This variant's name.
    fn choice_name(&self) -> &'static str;
    /// The variant called `name` (or one of its aliases), in any case.
    fn from_choice(name: &str) -> Option<Self>;
}

/// The [`ParamValue::from_pmt`] of a [`ParamChoice`] enum.
pub fn choice_from_pmt<C: ParamChoice>(pmt: Pmt) -> Result<C, PmtTypeError> {
    match &pmt {
        Pmt::String(s) => C::from_choice(s),
        _ => None,
    }
    .ok_or_else(|| PmtTypeError::new(ParamType::String, &pmt))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_convert_when_they_fit() {
        assert_eq!(f64::from_pmt(Pmt::I64(-3)).unwrap(), -3.0);
        assert_eq!(f32::from_pmt(Pmt::F64(2.5)).unwrap(), 2.5);
        assert_eq!(u32::from_pmt(Pmt::F64(7.0)).unwrap(), 7);
        assert_eq!(usize::from_pmt(Pmt::U64(9)).unwrap(), 9);
        assert_eq!(i32::from_pmt(Pmt::I64(-5)).unwrap(), -5);
        assert!(bool::from_pmt(Pmt::I64(1)).unwrap());
        assert_eq!(
            Vec::<f32>::from_pmt(Pmt::List(vec![Pmt::I64(1), Pmt::F64(0.5)])).unwrap(),
            vec![1.0, 0.5]
        );
        assert_eq!(u8::from_pmt(Pmt::I64(255)).unwrap(), 255);
    }

    #[test]
    fn values_that_would_truncate_or_wrap_are_rejected() {
        let e = u32::from_pmt(Pmt::I64(-1)).unwrap_err();
        assert_eq!(e.expected, ParamType::UInt);
        assert_eq!(e.found, "int -1");
        assert!(u32::from_pmt(Pmt::F64(1.5)).is_err());
        assert!(i32::from_pmt(Pmt::I64(1 << 40)).is_err());
        assert!(u64::from_pmt(Pmt::F64(f64::NAN)).is_err());
        assert!(u64::from_pmt(Pmt::F64(1e300)).is_err());
        assert!(u8::from_pmt(Pmt::I64(300)).is_err());
        assert!(f32::from_pmt(Pmt::F64(1e300)).is_err());
        assert!(Complex32::from_pmt(Pmt::F64(-1e300)).is_err());
        assert!(Vec::<f32>::from_pmt(Pmt::List(vec![Pmt::F64(1e39)])).is_err());
        assert!(bool::from_pmt(Pmt::I64(2)).is_err());
        assert!(f64::from_pmt(Pmt::from("1.0")).is_err());
        assert!(Vec::<f32>::from_pmt(Pmt::List(vec![Pmt::from("x")])).is_err());
        assert!(Vec::<u8>::from_pmt(Pmt::List(vec![Pmt::I64(256)])).is_err());
    }

    #[test]
    fn complex_values_come_in_several_shapes() {
        let c = Complex32::new(1.0, 2.0);
        for p in [
            Pmt::VecComplexF32(vec![[1.0, 2.0]]),
            Pmt::List(vec![Pmt::F64(1.0), Pmt::I64(2)]),
            Pmt::VecF32(vec![1.0, 2.0]),
        ] {
            assert_eq!(Complex32::from_pmt(p).unwrap(), c);
        }
        assert_eq!(
            Complex32::from_pmt(Pmt::I64(3)).unwrap(),
            Complex32::new(3.0, 0.0)
        );
        assert_eq!(Complex32::from_pmt(c.to_pmt()).unwrap(), c);
        let taps = Vec::<Complex32>::from_pmt(Pmt::List(vec![
            Pmt::List(vec![Pmt::F64(1.0), Pmt::F64(2.0)]),
            Pmt::F64(3.0),
        ]))
        .unwrap();
        assert_eq!(taps, vec![c, Complex32::new(3.0, 0.0)]);
        assert!(Vec::<Complex32>::from_pmt(Pmt::from("x")).is_err());
    }

    #[test]
    fn options_are_null_when_unset() {
        assert_eq!(Option::<u64>::from_pmt(Pmt::Null).unwrap(), None);
        assert_eq!(Option::<u64>::from_pmt(Pmt::I64(5)).unwrap(), Some(5));
        assert_eq!(Some(5u64).to_pmt(), Pmt::U64(5));
        assert_eq!(None::<u64>.to_pmt(), Pmt::Null);
    }

    #[test]
    fn every_value_reads_back_as_itself() {
        fn round<T: ParamValue + PartialEq + std::fmt::Debug + Clone>(v: T) {
            assert_eq!(T::from_pmt(v.to_pmt()).unwrap(), v);
        }
        round(2.5f64);
        round(-3i64);
        round(7usize);
        round(true);
        round("x".to_string());
        round(vec![1.0f32, 2.0]);
        round(vec![3u8, 4]);
        round(vec![Complex32::new(1.0, -1.0)]);
        round(vec![Complex32::new(1.0, 0.0)]);
        assert_eq!(
            vec![Complex32::new(2.0, 0.0)].to_pmt(),
            Pmt::VecF32(vec![2.0])
        );
        round(ItemKind::I16);
    }
}
