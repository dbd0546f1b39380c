//! [`Arith`]: the arithmetic the math blocks apply to each item type
//! (`f32`, `f64`, `Complex32`, `i32`, `i16`, `u8`), with GNU Radio's
//! semantics (integers wrap as C++'s `short`/`int` arithmetic does), and
//! the reading of a constant (a number or a vector of them) from a
//! parameter or a message: a constant must fit the item type (finite and
//! within `f32` for floats, a whole number in range for integers).

use num_complex::Complex32;
use rfgraph::{Item, Pmt};

/// Item arithmetic for the math blocks.
pub trait Arith: Item + PartialEq {
    /// The neutral element of addition.
    const ZERO: Self;
    /// `a + b` (wrapping for integers).
    fn add(self, b: Self) -> Self;
    /// `a - b` (wrapping for integers).
    fn sub(self, b: Self) -> Self;
    /// `a * b` (wrapping for integers).
    fn mul(self, b: Self) -> Self;
    /// `a / b`; an integer divided by zero gives zero (GNU Radio crashes).
    fn div(self, b: Self) -> Self;
    /// A scalar constant from a message or parameter value; `None` when
    /// it is no number or does not fit `Self` (a float that is not finite
    /// or too large, an integer out of range or with a fraction).
    fn from_pmt(p: &Pmt) -> Option<Self>;
}

macro_rules! float_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            const ZERO: Self = 0.0;
            #[inline(always)]
            fn add(self, b: Self) -> Self { self + b }
            #[inline(always)]
            fn sub(self, b: Self) -> Self { self - b }
            #[inline(always)]
            fn mul(self, b: Self) -> Self { self * b }
            #[inline(always)]
            fn div(self, b: Self) -> Self { self / b }
            fn from_pmt(p: &Pmt) -> Option<Self> {
                let v = p.as_f64()?;
                let x = v as $t;
                (v.is_finite() && x.is_finite()).then_some(x)
            }
        }
    )*};
}

float_arith!(f32, f64);

macro_rules! int_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn add(self, b: Self) -> Self { self.wrapping_add(b) }
            #[inline(always)]
            fn sub(self, b: Self) -> Self { self.wrapping_sub(b) }
            #[inline(always)]
            fn mul(self, b: Self) -> Self { self.wrapping_mul(b) }
            #[inline(always)]
            fn div(self, b: Self) -> Self { self.checked_div(b).unwrap_or(0) }
            fn from_pmt(p: &Pmt) -> Option<Self> {
                match *p {
                    Pmt::I64(v) => <$t>::try_from(v).ok(),
                    Pmt::U64(v) => <$t>::try_from(v).ok(),
                    Pmt::F32(_) | Pmt::F64(_) => {
                        let v = p.as_f64()?;
                        (v.fract() == 0.0 && v >= <$t>::MIN as f64 && v <= <$t>::MAX as f64)
                            .then_some(v as $t)
                    }
                    _ => None,
                }
            }
        }
    )*};
}

int_arith!(i32, i16, u8);

impl Arith for Complex32 {
    const ZERO: Self = Complex32::new(0.0, 0.0);
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        self + b
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        self - b
    }
    #[inline(always)]
    fn mul(self, b: Self) -> Self {
        self * b
    }
    #[inline(always)]
    fn div(self, b: Self) -> Self {
        self / b
    }
    fn from_pmt(p: &Pmt) -> Option<Self> {
        let part = |v: Option<&Pmt>| v.map_or(Some(0.0), <f32 as Arith>::from_pmt);
        match p {
            Pmt::VecComplexF32(v) if v.len() == 1 => {
                let c = Complex32::new(v[0][0], v[0][1]);
                c.is_finite().then_some(c)
            }
            Pmt::Map(m) => Some(Complex32::new(part(m.get("re"))?, part(m.get("im"))?)),
            other => Some(Complex32::new(<f32 as Arith>::from_pmt(other)?, 0.0)),
        }
    }
}

/// The constants in `p`: one number, or a vector of them (a list, an
/// `f32` vector, a complex vector; complex items also as `[re, im]`
/// pairs). `None` when `p` holds something else or nothing.
pub fn constants<T: Arith>(p: &Pmt) -> Option<Vec<T>> {
    let v: Vec<T> = match p {
        Pmt::List(items) => items
            .iter()
            .map(|i| match i {
                Pmt::List(pair) if pair.len() == 2 => T::from_pmt(&Pmt::VecComplexF32(vec![[
                    pair[0].as_f64()? as f32,
                    pair[1].as_f64()? as f32,
                ]])),
                other => T::from_pmt(other),
            })
            .collect::<Option<_>>()?,
        Pmt::VecF32(v) => v
            .iter()
            .map(|&x| T::from_pmt(&Pmt::F64(x as f64)))
            .collect::<Option<_>>()?,
        Pmt::VecComplexF32(v) => v
            .iter()
            .map(|&c| T::from_pmt(&Pmt::VecComplexF32(vec![c])))
            .collect::<Option<_>>()?,
        other => vec![T::from_pmt(other)?],
    };
    (!v.is_empty()).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_wrap_and_divide_by_zero_to_zero() {
        assert_eq!(Arith::add(i16::MAX, 1), i16::MIN);
        assert_eq!(Arith::mul(200u8, 2), 144);
        assert_eq!(Arith::div(7i32, 0), 0);
        assert_eq!(Arith::div(-7i32, 2), -3);
    }

    #[test]
    fn constants_come_as_numbers_or_vectors() {
        assert_eq!(constants::<f32>(&Pmt::I64(3)), Some(vec![3.0]));
        assert_eq!(
            constants::<f32>(&Pmt::List(vec![Pmt::F64(1.0), Pmt::I64(2)])),
            Some(vec![1.0, 2.0])
        );
        assert_eq!(
            constants::<Complex32>(&Pmt::List(vec![Pmt::List(vec![
                Pmt::F64(1.0),
                Pmt::F64(-1.0)
            ])])),
            Some(vec![Complex32::new(1.0, -1.0)])
        );
        assert_eq!(
            constants::<Complex32>(&Pmt::VecComplexF32(vec![[0.0, 2.0]])),
            Some(vec![Complex32::new(0.0, 2.0)])
        );
        assert_eq!(constants::<i16>(&Pmt::F64(2.5)), None);
        assert_eq!(constants::<u8>(&Pmt::I64(300)), None);
        assert_eq!(constants::<f32>(&Pmt::F64(1e300)), None);
        assert_eq!(constants::<f32>(&Pmt::F64(f64::NAN)), None);
        assert_eq!(
            constants::<Complex32>(&Pmt::VecF32(vec![f32::INFINITY])),
            None
        );
        assert_eq!(constants::<f32>(&Pmt::from("x")), None);
        assert_eq!(constants::<f32>(&Pmt::List(vec![])), None);
    }
}
