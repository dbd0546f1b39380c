//! [`Value`]: what an expression evaluates to, Python's names for its
//! types, its printed form, its truth, and its conversion to the
//! [`Pmt`] a block parameter of a given [`ParamType`] takes. Owns values
//! only; operators are in `ops`.

use super::function::Function;
use super::object::Object;
use num_complex::Complex64;
use rfgraph::ParamType;
use rfgraph::Pmt;
use std::fmt;
use std::sync::Arc;

/// The value of an expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Python's `None`.
    None,
    /// `True` / `False`.
    Bool(bool),
    /// A 64-bit integer (Python's are unbounded; overflow is an error).
    Int(i64),
    /// A double.
    Float(f64),
    /// A complex number (`1j`).
    Complex(Complex64),
    /// Text.
    Str(String),
    /// A list or tuple (and a set, in order of first appearance).
    List(Vec<Value>),
    /// A dictionary, in insertion order (a repeated key keeps its first
    /// place and its last value, as in Python).
    Dict(Vec<(Value, Value)>),
    /// A GNU Radio message value made by the `pmt` module
    /// (`pmt.intern("x")`, `pmt.to_pmt({...})`, `pmt.PMT_NIL`).
    Pmt(Pmt),
    /// A GNU Radio configuration object (`digital.header_format_default(...)`,
    /// `fec.cc_encoder_make(...)`): a block parameter given one takes all
    /// of its fields.
    Object(Box<Object>),
    /// A function made by `lambda x: ...`, with the values it closes
    /// over (see [`Function`]).
    Function(Arc<Function>),
}

impl Value {
    /// Python's name for the value's type (`int`, `float`, `str`, ...).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::None => "NoneType",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Complex(_) => "complex",
            Value::Str(_) => "str",
            Value::List(_) => "list",
            Value::Dict(_) => "dict",
            Value::Pmt(_) => "pmt",
            Value::Object(_) => "object",
            Value::Function(_) => "function",
        }
    }

    /// Python's truth: zero, empty and `None` are false.
    pub fn truthy(&self) -> bool {
        match self {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(v) => *v != 0,
            Value::Float(v) => *v != 0.0,
            Value::Complex(c) => c.re != 0.0 || c.im != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(v) => !v.is_empty(),
            Value::Dict(v) => !v.is_empty(),
            Value::Pmt(p) => *p != Pmt::Null,
            Value::Object(_) | Value::Function(_) => true,
        }
    }

    /// The value as a real number (bools and ints too).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Bool(b) => Some(f64::from(u8::from(b))),
            Value::Int(v) => Some(v as f64),
            Value::Float(v) => Some(v),
            _ => None,
        }
    }

    /// The value as an integer (bools too; floats only when whole).
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::Bool(b) => Some(i64::from(b)),
            Value::Int(v) => Some(v),
            Value::Float(v) if v.fract() == 0.0 && v.abs() < 9.2e18 => Some(v as i64),
            _ => None,
        }
    }

    /// The value as a complex number (any number).
    pub fn as_complex(&self) -> Option<Complex64> {
        match self {
            Value::Complex(c) => Some(*c),
            other => other.as_f64().map(|v| Complex64::new(v, 0.0)),
        }
    }

    /// How many items the value holds, nested lists and string lengths
    /// counted in full (the measure [`MAX_ITEMS`](super::MAX_ITEMS)
    /// bounds).
    pub fn weight(&self) -> usize {
        match self {
            Value::Str(s) => s.len().max(1),
            Value::List(v) => 1 + v.iter().map(Value::weight).sum::<usize>(),
            Value::Dict(v) => {
                1 + v
                    .iter()
                    .map(|(k, v)| k.weight() + v.weight())
                    .sum::<usize>()
            }
            _ => 1,
        }
    }

    /// The [`Pmt`] a parameter of type `ty` takes, converted by the rules
    /// of run-time settings: an integer sets a float, a whole float sets
    /// an integer, a list of numbers sets a vector, a number sets a
    /// one-item vector.
    ///
    /// Errors: `(expected, found)` type names when the value does not fit.
    pub fn to_pmt(&self, ty: ParamType) -> Result<Pmt, (String, String)> {
        let mismatch = || (ty.name().to_string(), self.describe());
        match (self, ty) {
            (Value::Pmt(p), ParamType::Any) => return Ok(p.clone()),
            (Value::Pmt(p), _) => {
                return Value::from_pmt(p)
                    .filter(|v| !matches!(v, Value::Pmt(_)))
                    .ok_or_else(mismatch)?
                    .to_pmt(ty);
            }
            // A number where a vector goes is a one-item vector, as GNU
            // Radio Companion makes it (`channel_model`'s default taps
            // `1.0 + 1.0j`).
            (Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Complex(_), _)
                if matches!(
                    ty,
                    ParamType::FloatVec | ParamType::ComplexVec | ParamType::IntVec
                ) =>
            {
                return Value::List(vec![self.clone()]).to_pmt(ty);
            }
            _ => {}
        }
        match ty {
            ParamType::Bool => match self {
                Value::Bool(b) => Ok(Pmt::Bool(*b)),
                Value::Int(v @ (0 | 1)) => Ok(Pmt::Bool(*v == 1)),
                _ => Err(mismatch()),
            },
            ParamType::Int => match self {
                Value::Bool(_) | Value::Int(_) | Value::Float(_) => {
                    self.as_i64().map(Pmt::I64).ok_or_else(mismatch)
                }
                _ => Err(mismatch()),
            },
            ParamType::UInt => match self {
                Value::Bool(_) | Value::Int(_) | Value::Float(_) => self
                    .as_i64()
                    .and_then(|v| u64::try_from(v).ok())
                    .map(Pmt::U64)
                    .ok_or_else(mismatch),
                _ => Err(mismatch()),
            },
            ParamType::Float => match self {
                Value::Complex(c) if c.im == 0.0 => Ok(Pmt::F64(c.re)),
                other => other.as_f64().map(Pmt::F64).ok_or_else(mismatch),
            },
            ParamType::Complex => match self {
                Value::List(p) if p.len() == 2 => match (p[0].as_f64(), p[1].as_f64()) {
                    (Some(re), Some(im)) => Ok(Pmt::List(vec![Pmt::F64(re), Pmt::F64(im)])),
                    _ => Err(mismatch()),
                },
                Value::Complex(c) if c.im != 0.0 => {
                    Ok(Pmt::VecComplexF32(vec![[c.re as f32, c.im as f32]]))
                }
                other => other
                    .as_complex()
                    .map(|c| Pmt::F64(c.re))
                    .ok_or_else(mismatch),
            },
            ParamType::String => match self {
                Value::Str(s) => Ok(Pmt::String(s.clone())),
                _ => Err(mismatch()),
            },
            ParamType::IntVec => match self {
                Value::List(items) => items
                    .iter()
                    .map(|v| v.as_i64().map(Pmt::I64))
                    .collect::<Option<Vec<Pmt>>>()
                    .map(Pmt::List)
                    .ok_or_else(mismatch),
                _ => Err(mismatch()),
            },
            ParamType::FloatVec => match self {
                Value::List(items) => items
                    .iter()
                    .map(|v| v.as_f64().map(|x| x as f32))
                    .collect::<Option<Vec<f32>>>()
                    .map(Pmt::VecF32)
                    .ok_or_else(mismatch),
                _ => Err(mismatch()),
            },
            ParamType::ComplexVec => match self {
                Value::List(items) => items
                    .iter()
                    .map(|v| {
                        v.as_complex()
                            .map(|c| [c.re as f32, c.im as f32])
                            .or_else(|| match v {
                                Value::List(p) if p.len() == 2 => {
                                    Some([p[0].as_f64()? as f32, p[1].as_f64()? as f32])
                                }
                                _ => None,
                            })
                    })
                    .collect::<Option<Vec<_>>>()
                    .map(Pmt::VecComplexF32)
                    .ok_or_else(mismatch),
                _ => Err(mismatch()),
            },
            ParamType::Any => Ok(self.to_any_pmt()),
        }
    }

    /// The value as a [`Pmt`] without a target type: numbers as
    /// `I64`/`F64`, a complex number as a one-item complex vector, lists of
    /// real numbers as `VecF32`, lists with a complex number as
    /// `VecComplexF32`, other lists as `List`.
    pub fn to_any_pmt(&self) -> Pmt {
        match self {
            Value::None | Value::Function(_) => Pmt::Null,
            Value::Bool(b) => Pmt::Bool(*b),
            Value::Int(v) => Pmt::I64(*v),
            Value::Float(v) => Pmt::F64(*v),
            Value::Complex(c) => Pmt::VecComplexF32(vec![[c.re as f32, c.im as f32]]),
            Value::Str(s) => Pmt::String(s.clone()),
            Value::Pmt(p) => p.clone(),
            Value::Object(o) => Pmt::Map(
                o.fields
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_any_pmt()))
                    .collect(),
            ),
            Value::Dict(pairs) => Pmt::Map(
                pairs
                    .iter()
                    .map(|(k, v)| (k.key_text(), v.to_any_pmt()))
                    .collect(),
            ),
            Value::List(items) => {
                let numbers = !items.is_empty()
                    && items
                        .iter()
                        .all(|v| matches!(v, Value::Int(_) | Value::Float(_) | Value::Complex(_)));
                if numbers && items.iter().any(|v| matches!(v, Value::Complex(_))) {
                    self.to_pmt(ParamType::ComplexVec).unwrap_or(Pmt::Null)
                } else if numbers && items.iter().any(|v| matches!(v, Value::Float(_))) {
                    self.to_pmt(ParamType::FloatVec).unwrap_or(Pmt::Null)
                } else {
                    Pmt::List(items.iter().map(Value::to_any_pmt).collect())
                }
            }
        }
    }

    /// A dictionary key as a map's text key: a string as itself, other
    /// values printed.
    pub fn key_text(&self) -> String {
        match self {
            Value::Str(s) => s.clone(),
            other => other.to_string(),
        }
    }

    /// The expression value a message value reads as (symbols as
    /// strings, vectors and tuples as lists, maps as dictionaries);
    /// `None` for a number `Value` cannot hold (a `u64` past `i64`).
    pub fn from_pmt(p: &Pmt) -> Option<Value> {
        let list = |items: &[Pmt]| {
            items
                .iter()
                .map(Value::from_pmt)
                .collect::<Option<Vec<_>>>()
        };
        Some(match p {
            Pmt::Null => Value::None,
            Pmt::Bool(b) => Value::Bool(*b),
            Pmt::I64(v) => Value::Int(*v),
            Pmt::U64(v) => Value::Int(i64::try_from(*v).ok()?),
            Pmt::F32(v) => Value::Float(f64::from(*v)),
            Pmt::F64(v) => Value::Float(*v),
            Pmt::Complex([re, im]) => Value::Complex(Complex64::new(*re, *im)),
            Pmt::String(s) => Value::Str(s.clone()),
            Pmt::Blob(b) => Value::List(b.iter().map(|&x| Value::Int(i64::from(x))).collect()),
            Pmt::VecF32(v) => Value::List(v.iter().map(|&x| Value::Float(f64::from(x))).collect()),
            Pmt::VecComplexF32(v) => Value::List(
                v.iter()
                    .map(|&[re, im]| Value::Complex(Complex64::new(f64::from(re), f64::from(im))))
                    .collect(),
            ),
            Pmt::List(items) | Pmt::Tuple(items) => Value::List(list(items)?),
            Pmt::Map(m) => Value::Dict(
                m.iter()
                    .map(|(k, v)| Some((Value::Str(k.clone()), Value::from_pmt(v)?)))
                    .collect::<Option<Vec<_>>>()?,
            ),
            Pmt::Pair(_) | Pmt::Uniform(_) => Value::Pmt(p.clone()),
        })
    }

    /// The type name with a short form of the value, for error messages:
    /// `str "abc"`, `float 2.5`, `list of 3`.
    pub fn describe(&self) -> String {
        match self {
            Value::List(v) => format!("list of {}", v.len()),
            Value::Dict(v) => format!("dict of {}", v.len()),
            Value::Pmt(p) => format!("pmt {}", short(&format!("{p:?}"))),
            Value::Object(o) => format!("{} object", o.class),
            Value::Str(s) if s.chars().count() > 24 => {
                let short: String = s.chars().take(24).collect();
                format!("str {short:?}...")
            }
            Value::None => "None".to_string(),
            other => format!("{} {other}", other.type_name()),
        }
    }
}

impl fmt::Display for Value {
    /// Python's `repr`-like form (`str()` of a string is the string).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Function(func) => write!(f, "{func}"),
            Value::None => f.write_str("None"),
            Value::Bool(true) => f.write_str("True"),
            Value::Bool(false) => f.write_str("False"),
            Value::Int(v) => write!(f, "{v}"),
            Value::Float(v) => write_float(f, *v),
            Value::Complex(c) => {
                if c.re == 0.0 && c.re.is_sign_positive() {
                    write_float_trim(f, c.im)?;
                    f.write_str("j")
                } else {
                    f.write_str("(")?;
                    write_float_trim(f, c.re)?;
                    if !c.im.is_sign_negative() || c.im.is_nan() {
                        f.write_str("+")?;
                    }
                    write_float_trim(f, c.im)?;
                    f.write_str("j)")
                }
            }
            Value::Str(s) => write!(f, "{s:?}"),
            Value::List(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Value::Dict(pairs) => {
                f.write_str("{")?;
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                f.write_str("}")
            }
            Value::Pmt(p) => write!(f, "{p:?}"),
            Value::Object(o) => {
                write!(f, "{}(", o.class)?;
                for (i, (k, v)) in o.fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}={v}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// `text` cut to 24 characters, `...` marking a cut.
fn short(text: &str) -> String {
    if text.chars().count() > 24 {
        format!("{}...", text.chars().take(24).collect::<String>())
    } else {
        text.to_string()
    }
}

/// Python's `repr` of a float: the shortest digits that read back,
/// positional for exponents from -4 to 15 (`2.0`, `0.0001`), else
/// scientific (`1e-05`, `2.4e+16`).
fn python_float(v: f64) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.into();
    }
    let sci = format!("{v:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..16).contains(&exp) {
        let s = format!("{v}");
        if s.contains('.') { s } else { format!("{s}.0") }
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.abs())
    }
}

fn write_float(f: &mut fmt::Formatter<'_>, v: f64) -> fmt::Result {
    f.write_str(&python_float(v))
}

/// A complex number's part as Python prints it: without `.0` when whole.
fn write_float_trim(f: &mut fmt::Formatter<'_>, v: f64) -> fmt::Result {
    let s = python_float(v);
    f.write_str(s.strip_suffix(".0").unwrap_or(&s))
}

impl From<&crate::model::Value> for Value {
    /// A literal from a file (a TOML number, bool or list); text becomes
    /// a string (the builder decides whether to evaluate it first).
    fn from(v: &crate::model::Value) -> Self {
        use crate::model::Value as M;
        match v {
            M::Expr(s) | M::Text(s) => Value::Str(s.clone()),
            M::Bool(b) => Value::Bool(*b),
            M::Int(i) => Value::Int(*i),
            M::Float(x) => Value::Float(*x),
            M::List(items) => Value::List(items.iter().map(Value::from).collect()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_follow_the_parameter_type() {
        assert_eq!(Value::Int(3).to_pmt(ParamType::Float), Ok(Pmt::F64(3.0)));
        assert_eq!(Value::Float(4.0).to_pmt(ParamType::UInt), Ok(Pmt::U64(4)));
        assert_eq!(
            Value::Float(4.5).to_pmt(ParamType::Int),
            Err(("int".to_string(), "float 4.5".to_string()))
        );
        assert_eq!(
            Value::Int(-1).to_pmt(ParamType::UInt),
            Err(("uint".to_string(), "int -1".to_string()))
        );
        assert_eq!(
            Value::Str("x".into()).to_pmt(ParamType::Float),
            Err(("float".to_string(), "str \"x\"".to_string()))
        );
        assert_eq!(
            Value::List(vec![Value::Int(1), Value::Float(0.5)]).to_pmt(ParamType::FloatVec),
            Ok(Pmt::VecF32(vec![1.0, 0.5]))
        );
        assert_eq!(
            Value::List(vec![Value::Complex(Complex64::new(1.0, 2.0))])
                .to_pmt(ParamType::ComplexVec),
            Ok(Pmt::VecComplexF32(vec![[1.0, 2.0]]))
        );
        assert_eq!(Value::Int(1).to_pmt(ParamType::Bool), Ok(Pmt::Bool(true)));
        assert_eq!(
            Value::Complex(Complex64::new(1.0, 1.0)).to_pmt(ParamType::ComplexVec),
            Ok(Pmt::VecComplexF32(vec![[1.0, 1.0]]))
        );
        assert_eq!(
            Value::Float(0.5).to_pmt(ParamType::FloatVec),
            Ok(Pmt::VecF32(vec![0.5]))
        );
    }

    #[test]
    fn printed_like_python() {
        assert_eq!(Value::Float(2.0).to_string(), "2.0");
        assert_eq!(Value::Float(1e16).to_string(), "1e+16");
        assert_eq!(Value::Float(2.5e-5).to_string(), "2.5e-05");
        assert_eq!(Value::Float(0.0001).to_string(), "0.0001");
        assert_eq!(Value::Float(123456789.5).to_string(), "123456789.5");
        assert_eq!(
            Value::Complex(Complex64::new(2.0, -0.0)).to_string(),
            "(2-0j)"
        );
        assert_eq!(Value::Complex(Complex64::new(0.0, 1.0)).to_string(), "1j");
        assert_eq!(
            Value::Complex(Complex64::new(1.0, -2.5)).to_string(),
            "(1-2.5j)"
        );
        assert_eq!(
            Value::List(vec![Value::Int(1), Value::Str("a".into())]).to_string(),
            "[1, \"a\"]"
        );
    }
}
