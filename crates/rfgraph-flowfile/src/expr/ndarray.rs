//! numpy arrays, as a PDU lambda sees its uniform vector: a message
//! vector (`Value::Pmt` of a `u8`/`f32`/`c32`/... vector) read as an
//! array with numpy's element type, element-wise arithmetic with numpy
//! 1.x's result types (a Python scalar keeps the array's type when it
//! fits: `u8 * 2` stays `u8` and wraps), the few numpy functions GNU
//! Radio's PDU lambda examples use (`np.exp`, `np.angle`, `np.unwrap`,
//! `np.abs`, casts like `np.complex64`), `len`, indexing and slicing.
//! `float32`/`complex64` arithmetic rounds every step to single
//! precision, as numpy computes it. Owns arrays only.

use super::ast::BinOp;
use super::error::ExprErrorKind;
use super::value::Value;
use num_complex::Complex64;
use rfgraph::Pmt;
use rfgraph::pmt::Uniform;

/// numpy's element types that GNU Radio's message vectors carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dtype {
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    U64,
    I64,
    F32,
    F64,
    C64,
    C128,
}

use Dtype::*;

impl Dtype {
    fn name(self) -> &'static str {
        match self {
            U8 => "uint8",
            I8 => "int8",
            U16 => "uint16",
            I16 => "int16",
            U32 => "uint32",
            I32 => "int32",
            U64 => "uint64",
            I64 => "int64",
            F32 => "float32",
            F64 => "float64",
            C64 => "complex64",
            C128 => "complex128",
        }
    }

    /// 0 integer, 1 real, 2 complex.
    fn kind(self) -> u8 {
        match self {
            F32 | F64 => 1,
            C64 | C128 => 2,
            _ => 0,
        }
    }

    /// An integer type's bits and signedness.
    fn int(self) -> Option<(u32, bool)> {
        Some(match self {
            U8 => (8, false),
            I8 => (8, true),
            U16 => (16, false),
            I16 => (16, true),
            U32 => (32, false),
            I32 => (32, true),
            U64 => (64, false),
            I64 => (64, true),
            _ => return None,
        })
    }

    fn of_int(bits: u32, signed: bool) -> Dtype {
        match (bits, signed) {
            (8, false) => U8,
            (8, true) => I8,
            (16, false) => U16,
            (16, true) => I16,
            (32, false) => U32,
            (32, true) => I32,
            (64, false) => U64,
            _ => I64,
        }
    }

    /// Whether the integer `v` is a value of the type.
    fn holds(self, v: i128) -> bool {
        match self.int() {
            Some((bits, false)) => v >= 0 && v < (1i128 << bits),
            Some((bits, true)) => v >= -(1i128 << (bits - 1)) && v < (1i128 << (bits - 1)),
            None => true,
        }
    }

    /// The smallest type numpy gives the integer `v` (`min_scalar_type`).
    fn of_scalar(v: i128) -> Dtype {
        [U8, I8, U16, I16, U32, I32, U64, I64]
            .into_iter()
            .find(|t| (v >= 0 || t.int().is_some_and(|(_, s)| s)) && t.holds(v))
            .unwrap_or(I64)
    }

    /// numpy's `promote_types`.
    fn promote(a: Dtype, b: Dtype) -> Dtype {
        if a == b {
            return a;
        }
        let small = |t: Dtype| t.int().is_some_and(|(bits, _)| bits <= 16);
        match (a.int(), b.int()) {
            (Some((ba, sa)), Some((bb, sb))) => {
                if sa == sb {
                    Dtype::of_int(ba.max(bb), sa)
                } else {
                    let (ub, sbits) = if sa { (bb, ba) } else { (ba, bb) };
                    if sbits > ub {
                        Dtype::of_int(sbits, true)
                    } else if ub < 64 {
                        Dtype::of_int(ub * 2, true)
                    } else {
                        F64
                    }
                }
            }
            (Some(_), None) | (None, Some(_)) => {
                let (i, f) = if a.int().is_some() { (a, b) } else { (b, a) };
                match f {
                    F32 if small(i) => F32,
                    F32 | F64 => F64,
                    C64 if small(i) => C64,
                    _ => C128,
                }
            }
            (None, None) => match (
                a.max_kind(b),
                a == F64 || b == F64 || a == C128 || b == C128,
            ) {
                (2, true) => C128,
                (2, false) => C64,
                (_, true) => F64,
                _ => F32,
            },
        }
    }

    fn max_kind(self, other: Dtype) -> u8 {
        self.kind().max(other.kind())
    }

    /// The floating type numpy's transcendental functions give.
    fn inexact(self) -> Result<Dtype, ExprErrorKind> {
        match self {
            U8 | I8 => Err(ExprErrorKind::Unsupported(format!(
                "numpy functions of {} arrays (numpy gives float16)",
                self.name()
            ))),
            U16 | I16 => Ok(F32),
            U32 | I32 | U64 | I64 => Ok(F64),
            other => Ok(other),
        }
    }

    /// The real type of a complex one.
    fn real(self) -> Dtype {
        match self {
            C64 => F32,
            C128 => F64,
            other => other,
        }
    }
}

/// An array: its type and its elements (integers and reals in `re`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Array {
    pub dtype: Dtype,
    pub data: Vec<Complex64>,
}

impl Array {
    /// The array a message vector is, if it is one.
    pub(crate) fn from_pmt(p: &Pmt) -> Option<Array> {
        let re = |dtype, v: Vec<f64>| Array {
            dtype,
            data: v.into_iter().map(|x| Complex64::new(x, 0.0)).collect(),
        };
        Some(match p {
            Pmt::Blob(b) => re(U8, b.iter().map(|&x| f64::from(x)).collect()),
            Pmt::VecF32(v) => re(F32, v.iter().map(|&x| f64::from(x)).collect()),
            Pmt::VecComplexF32(v) => Array {
                dtype: C64,
                data: v
                    .iter()
                    .map(|&[r, i]| Complex64::new(f64::from(r), f64::from(i)))
                    .collect(),
            },
            Pmt::Uniform(u) => match u {
                Uniform::I8(v) => re(I8, v.iter().map(|&x| f64::from(x)).collect()),
                Uniform::U16(v) => re(U16, v.iter().map(|&x| f64::from(x)).collect()),
                Uniform::I16(v) => re(I16, v.iter().map(|&x| f64::from(x)).collect()),
                Uniform::U32(v) => re(U32, v.iter().map(|&x| f64::from(x)).collect()),
                Uniform::I32(v) => re(I32, v.iter().map(|&x| f64::from(x)).collect()),
                Uniform::U64(v) => re(U64, v.iter().map(|&x| x as f64).collect()),
                Uniform::I64(v) => re(I64, v.iter().map(|&x| x as f64).collect()),
                Uniform::F64(v) => re(F64, v.clone()),
                Uniform::C64(v) => Array {
                    dtype: C128,
                    data: v.iter().map(|&[r, i]| Complex64::new(r, i)).collect(),
                },
            },
            _ => return None,
        })
    }

    /// The message vector of the array, as GNU Radio's `pmt.to_pmt`
    /// makes it (an `int8` array becomes a `u8` vector, as GNU Radio's
    /// table says; 64-bit integers have no conversion).
    pub(crate) fn to_pmt(&self) -> Result<Pmt, ExprErrorKind> {
        let re = || self.data.iter().map(|c| c.re);
        Ok(match self.dtype {
            U8 | I8 => Pmt::Blob(re().map(|x| x as i64 as u8).collect()),
            F32 => Pmt::VecF32(re().map(|x| x as f32).collect()),
            C64 => Pmt::VecComplexF32(
                self.data
                    .iter()
                    .map(|c| [c.re as f32, c.im as f32])
                    .collect(),
            ),
            U16 => Pmt::Uniform(Uniform::U16(re().map(|x| x as u16).collect())),
            I16 => Pmt::Uniform(Uniform::I16(re().map(|x| x as i16).collect())),
            U32 => Pmt::Uniform(Uniform::U32(re().map(|x| x as u32).collect())),
            I32 => Pmt::Uniform(Uniform::I32(re().map(|x| x as i32).collect())),
            F64 => Pmt::Uniform(Uniform::F64(re().collect())),
            C128 => Pmt::Uniform(Uniform::C64(
                self.data.iter().map(|c| [c.re, c.im]).collect(),
            )),
            U64 | I64 => {
                return Err(ExprErrorKind::Value(format!(
                    "unsupported numpy array dtype for conversion to pmt {}",
                    self.dtype.name()
                )));
            }
        })
    }

    fn value(self) -> Result<Value, ExprErrorKind> {
        let len = self.data.len();
        if len > super::MAX_ITEMS {
            return Err(ExprErrorKind::TooLarge {
                what: "array".into(),
                size: len as u128,
                limit: super::MAX_ITEMS,
            });
        }
        // Any type converts but 64-bit integers; those stay a list.
        match self.to_pmt() {
            Ok(p) => Ok(Value::Pmt(p)),
            Err(_) => Ok(Value::List(
                self.data.iter().map(|c| Value::Int(c.re as i64)).collect(),
            )),
        }
    }

    /// Every element cast to `dtype` (numpy's wraparound for integers,
    /// the real part of a complex number for reals).
    fn cast(mut self, dtype: Dtype) -> Array {
        for c in &mut self.data {
            *c = round(dtype, *c);
        }
        self.dtype = dtype;
        self
    }
}

/// `c` as a value of `dtype`.
fn round(dtype: Dtype, c: Complex64) -> Complex64 {
    match dtype {
        F32 => Complex64::new(f64::from(c.re as f32), 0.0),
        F64 => Complex64::new(c.re, 0.0),
        C64 => Complex64::new(f64::from(c.re as f32), f64::from(c.im as f32)),
        C128 => c,
        int => {
            let Some((bits, signed)) = int.int() else {
                return c;
            };
            let x = if c.re.is_finite() {
                c.re.trunc() as i128
            } else {
                0
            };
            let m = 1i128 << bits;
            let mut v = x.rem_euclid(m);
            if signed && v >= m / 2 {
                v -= m;
            }
            Complex64::new(v as f64, 0.0)
        }
    }
}

/// The array `v` is, if it is one.
pub(crate) fn array(v: &Value) -> Option<Array> {
    match v {
        Value::Pmt(p) => Array::from_pmt(p),
        _ => None,
    }
}

/// A Python scalar operand: its value and the type numpy gives it next
/// to an array of `other`.
fn scalar(v: &Value, other: Dtype) -> Option<(Complex64, Dtype)> {
    Some(match v {
        Value::Bool(_) | Value::Int(_) => {
            let x = v.as_i64()?;
            let t = if other.kind() > 0 || other.holds(i128::from(x)) {
                other
            } else {
                Dtype::promote(other, Dtype::of_scalar(i128::from(x)))
            };
            (Complex64::new(x as f64, 0.0), t)
        }
        Value::Float(x) => (
            Complex64::new(*x, 0.0),
            if other.kind() == 0 { F64 } else { other },
        ),
        Value::Complex(c) => (
            *c,
            match other {
                F32 | C64 => C64,
                _ => C128,
            },
        ),
        _ => return None,
    })
}

/// `a op b` where one side is an array (element-wise, broadcasting a
/// scalar or a one-element array); `None` when neither is.
pub(crate) fn binary(op: BinOp, a: &Value, b: &Value) -> Option<Result<Value, ExprErrorKind>> {
    let (x, y) = (array(a), array(b));
    if x.is_none() && y.is_none() {
        return None;
    }
    Some(binary_arrays(op, a, b, x, y))
}

fn binary_arrays(
    op: BinOp,
    a: &Value,
    b: &Value,
    x: Option<Array>,
    y: Option<Array>,
) -> Result<Value, ExprErrorKind> {
    let bad = |v: &Value| ExprErrorKind::Type {
        context: format!("operand of `{}` with an array", op.symbol()),
        expected: "an array or a number".into(),
        found: v.type_name().into(),
    };
    let (xs, ys, dtype) = match (x, y) {
        (Some(x), Some(y)) => {
            let t = Dtype::promote(x.dtype, y.dtype);
            (x.data, y.data, t)
        }
        (Some(x), None) => {
            let (s, t) = scalar(b, x.dtype).ok_or_else(|| bad(b))?;
            (x.data, vec![s], t)
        }
        (None, Some(y)) => {
            let (s, t) = scalar(a, y.dtype).ok_or_else(|| bad(a))?;
            (vec![s], y.data, t)
        }
        (None, None) => unreachable!("one operand is an array"),
    };
    let len = match (xs.len(), ys.len()) {
        (n, m) if n == m => n,
        (1, m) => m,
        (n, 1) => n,
        (n, m) => {
            return Err(ExprErrorKind::Value(format!(
                "operands could not be broadcast together with shapes ({n},) ({m},)"
            )));
        }
    };
    let dtype = match op {
        BinOp::Div if dtype.kind() == 0 => F64,
        _ => dtype,
    };
    let pick = |v: &[Complex64], i: usize| if v.len() == 1 { v[0] } else { v[i] };
    let mut data = Vec::with_capacity(len);
    for i in 0..len {
        let (p, q) = (round(dtype, pick(&xs, i)), round(dtype, pick(&ys, i)));
        data.push(element(op, dtype, p, q)?);
    }
    Array { dtype, data }.value()
}

/// One element of `p op q` in `dtype`.
fn element(
    op: BinOp,
    dtype: Dtype,
    p: Complex64,
    q: Complex64,
) -> Result<Complex64, ExprErrorKind> {
    let single = dtype == C64;
    let f = |x: f64| if single { f64::from(x as f32) } else { x };
    let v = match op {
        BinOp::Add => Complex64::new(f(p.re + q.re), f(p.im + q.im)),
        BinOp::Sub => Complex64::new(f(p.re - q.re), f(p.im - q.im)),
        BinOp::Mul if dtype.kind() == 2 => Complex64::new(
            f(f(p.re * q.re) - f(p.im * q.im)),
            f(f(p.re * q.im) + f(p.im * q.re)),
        ),
        BinOp::Mul => Complex64::new(p.re * q.re, 0.0),
        BinOp::Div if dtype.kind() == 2 => p / q,
        BinOp::Div => Complex64::new(p.re / q.re, 0.0),
        BinOp::Pow if dtype.kind() == 2 => p.powc(q),
        BinOp::Pow => Complex64::new(p.re.powf(q.re), 0.0),
        BinOp::Mod if dtype.kind() == 1 => {
            let r = p.re % q.re;
            let r = if r != 0.0 && (r < 0.0) != (q.re < 0.0) {
                r + q.re
            } else {
                r
            };
            Complex64::new(r, 0.0)
        }
        BinOp::FloorDiv if dtype.kind() == 1 => Complex64::new((p.re / q.re).floor(), 0.0),
        BinOp::Mod | BinOp::FloorDiv if dtype.kind() == 0 => {
            let (x, y) = (p.re as i128, q.re as i128);
            let v = if y == 0 {
                0
            } else if op == BinOp::Mod {
                x.rem_euclid(y) + if y < 0 && x.rem_euclid(y) != 0 { y } else { 0 }
            } else {
                x.div_euclid(y) - if y < 0 && x.rem_euclid(y) != 0 { 1 } else { 0 }
            };
            Complex64::new(v as f64, 0.0)
        }
        _ => {
            return Err(ExprErrorKind::Unsupported(format!(
                "`{}` on {} arrays",
                op.symbol(),
                dtype.name()
            )));
        }
    };
    Ok(round(dtype, v))
}

/// `-a` of an array.
pub(crate) fn negate(a: &Value) -> Option<Result<Value, ExprErrorKind>> {
    let x = array(a)?;
    let dtype = x.dtype;
    let data = x.data.into_iter().map(|c| round(dtype, -c)).collect();
    Some(Array { dtype, data }.value())
}

/// `len(a)` of an array.
pub(crate) fn len(a: &Value) -> Option<usize> {
    array(a).map(|x| x.data.len())
}

/// The element at `i` (negative counts from the end) as a Python number.
pub(crate) fn index(a: &Value, i: i64) -> Option<Result<Value, ExprErrorKind>> {
    let x = array(a)?;
    let len = x.data.len();
    let j = if i < 0 {
        i.checked_add(len as i64)
    } else {
        Some(i)
    };
    let Some(j) = j.and_then(|j| usize::try_from(j).ok()).filter(|&j| j < len) else {
        return Some(Err(ExprErrorKind::Index { index: i, len }));
    };
    let c = x.data[j];
    Some(Ok(match x.dtype.kind() {
        0 => Value::Int(c.re as i64),
        1 => Value::Float(c.re),
        _ => Value::Complex(c),
    }))
}

/// The elements at `positions`.
pub(crate) fn pick(a: &Value, positions: &[usize]) -> Option<Result<Value, ExprErrorKind>> {
    let x = array(a)?;
    let data = positions.iter().map(|&i| x.data[i]).collect();
    Some(
        Array {
            dtype: x.dtype,
            data,
        }
        .value(),
    )
}

/// The numpy functions only arrays have (the others take arrays too).
pub(crate) const FUNCTIONS: &[&str] = &[
    "angle",
    "unwrap",
    "real",
    "imag",
    "conj",
    "conjugate",
    "complex64",
    "complex128",
    "float32",
    "float64",
    "uint8",
    "int8",
    "int16",
    "int32",
    "array",
];

/// `np.f(a)` of an array `a`; `None` when `a` is no array (and `f` is
/// no cast) or `f` is no array function.
pub(crate) fn numpy(f: &str, a: &Value) -> Option<Result<Value, ExprErrorKind>> {
    let cast = match f {
        "complex64" => Some(C64),
        "complex128" => Some(C128),
        "float32" => Some(F32),
        "float64" => Some(F64),
        "uint8" => Some(U8),
        "int8" => Some(I8),
        "int16" => Some(I16),
        "int32" => Some(I32),
        _ => None,
    };
    let x = array(a)?;
    if let Some(t) = cast {
        return Some(x.cast(t).value());
    }
    Some(numpy_of(f, x))
}

fn numpy_of(f: &str, x: Array) -> Result<Value, ExprErrorKind> {
    let map = |t: Dtype, g: &dyn Fn(Complex64) -> Complex64| -> Result<Value, ExprErrorKind> {
        let data = x.data.iter().map(|&c| round(t, g(c))).collect();
        Array { dtype: t, data }.value()
    };
    let single = |t: Dtype| matches!(t, F32 | C64);
    let real = |c: f64| Complex64::new(c, 0.0);
    match f {
        "array" => x.value(),
        "real" => map(x.dtype.real(), &|c| real(c.re)),
        "imag" => map(x.dtype.real(), &|c| real(c.im)),
        "conj" | "conjugate" => map(x.dtype, &|c| c.conj()),
        "abs" if x.dtype.kind() == 0 => map(x.dtype, &|c| real(c.re.abs())),
        "abs" => {
            let t = x.dtype.real();
            if single(t) {
                map(t, &|c| real(f64::from((c.re as f32).hypot(c.im as f32))))
            } else {
                map(t, &|c| real(c.norm()))
            }
        }
        "angle" => {
            let t = if x.dtype.kind() == 0 {
                F64
            } else {
                x.dtype.real()
            };
            if single(t) {
                map(t, &|c| real(f64::from((c.im as f32).atan2(c.re as f32))))
            } else {
                map(t, &|c| real(c.im.atan2(c.re)))
            }
        }
        "exp" | "sin" | "cos" | "sqrt" | "log" | "log10" | "tan" => {
            let t = x.dtype.inexact()?;
            if t.kind() == 2 {
                let g = |c: Complex64| match f {
                    "exp" if single(t) => {
                        let (re, im) = (c.re as f32, c.im as f32);
                        let m = re.exp();
                        Complex64::new(f64::from(m * im.cos()), f64::from(m * im.sin()))
                    }
                    "exp" => c.exp(),
                    "sin" => c.sin(),
                    "cos" => c.cos(),
                    "sqrt" => c.sqrt(),
                    "log" => c.ln(),
                    "log10" => c.log10(),
                    _ => c.tan(),
                };
                map(t, &g)
            } else {
                let g = |v: f64| -> f64 {
                    if single(t) {
                        let v = v as f32;
                        f64::from(match f {
                            "exp" => v.exp(),
                            "sin" => v.sin(),
                            "cos" => v.cos(),
                            "sqrt" => v.sqrt(),
                            "log" => v.ln(),
                            "log10" => v.log10(),
                            _ => v.tan(),
                        })
                    } else {
                        match f {
                            "exp" => v.exp(),
                            "sin" => v.sin(),
                            "cos" => v.cos(),
                            "sqrt" => v.sqrt(),
                            "log" => v.ln(),
                            "log10" => v.log10(),
                            _ => v.tan(),
                        }
                    }
                };
                map(t, &|c| real(g(c.re)))
            }
        }
        "unwrap" => unwrap(x),
        "sum" => {
            let t = x.dtype;
            let s = x
                .data
                .iter()
                .fold(Complex64::new(0.0, 0.0), |s, &c| round(t, s + c));
            Ok(match t.kind() {
                0 => Value::Int(s.re as i64),
                1 => Value::Float(s.re),
                _ => Value::Complex(s),
            })
        }
        _ => Err(ExprErrorKind::Unsupported(format!("numpy.{f} of an array"))),
    }
}

/// `np.unwrap(p)` (period 2π), step by step as numpy 1.24 computes it
/// in the array's precision.
fn unwrap(x: Array) -> Result<Value, ExprErrorKind> {
    if x.dtype.kind() == 2 {
        return Err(ExprErrorKind::Unsupported("numpy.unwrap of complex".into()));
    }
    let t = if x.dtype.kind() == 0 { F64 } else { x.dtype };
    let r = |v: f64| round(t, Complex64::new(v, 0.0)).re;
    let p: Vec<f64> = x.data.iter().map(|c| c.re).collect();
    // numpy casts the Python float period to the array's type.
    let pi = r(std::f64::consts::PI);
    let period = r(2.0 * std::f64::consts::PI);
    let mut out = p.clone();
    let mut correction = 0.0;
    for i in 1..p.len() {
        let dd = r(p[i] - p[i - 1]);
        let shifted = r(dd + pi);
        let mut m = shifted % period;
        if m != 0.0 && m < 0.0 {
            m += period;
        }
        let mut ddmod = r(r(m) - pi);
        if ddmod == -pi && dd > 0.0 {
            ddmod = pi;
        }
        let mut ph = r(ddmod - dd);
        if dd.abs() < pi {
            ph = 0.0;
        }
        correction = r(correction + ph);
        out[i] = r(p[i] + correction);
    }
    Array {
        dtype: t,
        data: out.into_iter().map(|v| Complex64::new(v, 0.0)).collect(),
    }
    .value()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blob(v: &[u8]) -> Value {
        Value::Pmt(Pmt::Blob(v.to_vec()))
    }

    #[test]
    fn scalars_keep_the_arrays_type_as_numpy_does() {
        let u = blob(&[200, 3]);
        let two = binary(BinOp::Mul, &u, &Value::Int(2)).unwrap().unwrap();
        assert_eq!(two, blob(&[144, 6]));
        let wide = binary(BinOp::Mul, &u, &Value::Int(300)).unwrap().unwrap();
        assert_eq!(
            wide,
            Value::Pmt(Pmt::Uniform(Uniform::U16(vec![60000, 900])))
        );
        let neg = binary(BinOp::Mul, &u, &Value::Int(-1)).unwrap().unwrap();
        assert_eq!(neg, Value::Pmt(Pmt::Uniform(Uniform::I16(vec![-200, -3]))));
        let half = binary(BinOp::Mul, &u, &Value::Float(1.5)).unwrap().unwrap();
        assert_eq!(
            half,
            Value::Pmt(Pmt::Uniform(Uniform::F64(vec![300.0, 4.5])))
        );
        let f = Value::Pmt(Pmt::VecF32(vec![1.5, 2.0]));
        let c = binary(BinOp::Mul, &f, &Value::Complex(Complex64::new(0.0, 1.0)));
        assert_eq!(
            c.unwrap().unwrap(),
            Value::Pmt(Pmt::VecComplexF32(vec![[0.0, 1.5], [0.0, 2.0]]))
        );
        assert_eq!(negate(&u).unwrap().unwrap(), blob(&[56, 253]));
        assert!(binary(BinOp::Add, &Value::Int(1), &Value::Int(2)).is_none());
    }

    #[test]
    fn unwrap_removes_jumps() {
        let p = Value::Pmt(Pmt::VecF32(vec![3.0, -3.0, 3.1]));
        let Value::Pmt(Pmt::VecF32(v)) = numpy("unwrap", &p).unwrap().unwrap() else {
            panic!("not f32")
        };
        assert!(
            (v[1] - (-3.0 + 2.0 * std::f32::consts::PI)).abs() < 1e-5,
            "{v:?}"
        );
        assert!((v[2] - 3.1).abs() < 1e-5, "{v:?}");
    }
}
