//! Python's operators on [`Value`]s: arithmetic with Python's rules
//! (`/` gives a float, `//` and `%` floor, `**` with a negative integer
//! exponent gives a float, bools count as integers), sequence
//! concatenation and repetition (bounded by [`MAX_ITEMS`]), comparisons
//! and membership. Errors carry no place; the evaluator adds the
//! operator's.

use super::MAX_ITEMS;
use super::ast::{BinOp, CmpOp, UnOp};
use super::error::ExprErrorKind;
use super::value::Value;
use num_complex::Complex64;
use std::cmp::Ordering;

type R = Result<Value, ExprErrorKind>;

fn type_error(context: String, expected: &str, found: &Value) -> ExprErrorKind {
    ExprErrorKind::Type {
        context,
        expected: expected.to_string(),
        found: found.type_name().to_string(),
    }
}

/// A number's rank: 0 int (bools too), 1 float, 2 complex.
fn rank(v: &Value) -> Option<u8> {
    match v {
        Value::Bool(_) | Value::Int(_) => Some(0),
        Value::Float(_) => Some(1),
        Value::Complex(_) => Some(2),
        _ => None,
    }
}

/// `-a`, `+a`, `~a`, `not a`.
pub(crate) fn unary(op: UnOp, a: Value) -> R {
    if op == UnOp::Neg
        && let Some(out) = super::ndarray::negate(&a)
    {
        return out;
    }
    match (op, &a) {
        (UnOp::Not, _) => Ok(Value::Bool(!a.truthy())),
        (UnOp::Neg, Value::Bool(_) | Value::Int(_)) => a
            .as_i64()
            .and_then(i64::checked_neg)
            .map(Value::Int)
            .ok_or(ExprErrorKind::Overflow),
        (UnOp::Neg, Value::Float(v)) => Ok(Value::Float(-v)),
        (UnOp::Neg, Value::Complex(c)) => Ok(Value::Complex(-c)),
        (UnOp::Pos, Value::Bool(_)) => Ok(Value::Int(a.as_i64().unwrap_or(0))),
        (UnOp::Pos, Value::Int(_) | Value::Float(_) | Value::Complex(_)) => Ok(a),
        (UnOp::Invert, Value::Bool(_) | Value::Int(_)) => Ok(Value::Int(!a.as_i64().unwrap_or(0))),
        (UnOp::Invert, _) => Err(type_error("operand of `~`".into(), "int", &a)),
        (_, _) => Err(type_error(
            format!(
                "operand of unary `{}`",
                if op == UnOp::Neg { "-" } else { "+" }
            ),
            "a number",
            &a,
        )),
    }
}

/// `a op b`.
pub(crate) fn binary(op: BinOp, a: Value, b: Value) -> R {
    if let Some(out) = super::ndarray::binary(op, &a, &b) {
        return out;
    }
    match (rank(&a), rank(&b)) {
        (Some(ra), Some(rb)) => numeric(op, &a, &b, ra.max(rb)),
        _ => sequence(op, a, b),
    }
}

fn numeric(op: BinOp, a: &Value, b: &Value, rank: u8) -> R {
    match rank {
        0 => {
            let (x, y) = (a.as_i64().unwrap_or(0), b.as_i64().unwrap_or(0));
            int_op(op, x, y)
        }
        1 => {
            if matches!(
                op,
                BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr
            ) {
                let bad = if matches!(a, Value::Float(_)) { a } else { b };
                return Err(type_error(
                    format!("operand of `{}`", op.symbol()),
                    "int",
                    bad,
                ));
            }
            float_op(op, a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0))
        }
        _ => {
            let (x, y) = (
                a.as_complex().unwrap_or_default(),
                b.as_complex().unwrap_or_default(),
            );
            complex_op(op, x, y, a, b)
        }
    }
}

fn int_op(op: BinOp, x: i64, y: i64) -> R {
    let overflow = ExprErrorKind::Overflow;
    let v = match op {
        BinOp::Add => x.checked_add(y).ok_or(overflow)?,
        BinOp::Sub => x.checked_sub(y).ok_or(overflow)?,
        BinOp::Mul => x.checked_mul(y).ok_or(overflow)?,
        BinOp::Div => {
            if y == 0 {
                return Err(ExprErrorKind::DivisionByZero);
            }
            return Ok(Value::Float(x as f64 / y as f64));
        }
        BinOp::FloorDiv => {
            if y == 0 {
                return Err(ExprErrorKind::DivisionByZero);
            }
            let q = x.checked_div(y).ok_or(overflow)?;
            if (x % y != 0) && ((x < 0) != (y < 0)) {
                q - 1
            } else {
                q
            }
        }
        BinOp::Mod => {
            if y == 0 {
                return Err(ExprErrorKind::DivisionByZero);
            }
            let r = x.checked_rem(y).unwrap_or(0);
            if r != 0 && ((r < 0) != (y < 0)) {
                r + y
            } else {
                r
            }
        }
        BinOp::Pow => {
            if y < 0 {
                if x == 0 {
                    return Err(ExprErrorKind::DivisionByZero);
                }
                return Ok(Value::Float((x as f64).powf(y as f64)));
            }
            match x {
                0 | 1 => {
                    if y == 0 {
                        1
                    } else {
                        x
                    }
                }
                -1 => {
                    if y % 2 == 0 {
                        1
                    } else {
                        -1
                    }
                }
                _ => {
                    let e = u32::try_from(y).map_err(|_| ExprErrorKind::Overflow)?;
                    x.checked_pow(e).ok_or(overflow)?
                }
            }
        }
        BinOp::BitAnd => x & y,
        BinOp::BitOr => x | y,
        BinOp::BitXor => x ^ y,
        BinOp::Shl => {
            if y < 0 {
                return Err(ExprErrorKind::Value("negative shift count".into()));
            }
            let s = u32::try_from(y).map_err(|_| ExprErrorKind::Overflow)?;
            let v = x.checked_shl(s).filter(|_| s < 64).ok_or(overflow)?;
            if (v >> s) != x {
                return Err(ExprErrorKind::Overflow);
            }
            v
        }
        BinOp::Shr => {
            if y < 0 {
                return Err(ExprErrorKind::Value("negative shift count".into()));
            }
            x >> y.min(63)
        }
    };
    Ok(Value::Int(v))
}

fn float_op(op: BinOp, x: f64, y: f64) -> R {
    let v = match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        BinOp::Div => {
            if y == 0.0 {
                return Err(ExprErrorKind::DivisionByZero);
            }
            x / y
        }
        BinOp::FloorDiv => {
            if y == 0.0 {
                return Err(ExprErrorKind::DivisionByZero);
            }
            (x / y).floor()
        }
        BinOp::Mod => {
            if y == 0.0 {
                return Err(ExprErrorKind::DivisionByZero);
            }
            let r = x % y;
            if r != 0.0 && ((r < 0.0) != (y < 0.0)) {
                r + y
            } else {
                r
            }
        }
        BinOp::Pow => {
            if x == 0.0 && y < 0.0 {
                return Err(ExprErrorKind::DivisionByZero);
            }
            if x < 0.0 && y.fract() != 0.0 {
                return Ok(Value::Complex(Complex64::new(x, 0.0).powf(y)));
            }
            x.powf(y)
        }
        _ => unreachable_bit_op()?,
    };
    Ok(Value::Float(v))
}

fn unreachable_bit_op() -> Result<f64, ExprErrorKind> {
    Err(ExprErrorKind::Value(
        "bit operations take integers".to_string(),
    ))
}

fn complex_op(op: BinOp, x: Complex64, y: Complex64, a: &Value, b: &Value) -> R {
    let zero = y.re == 0.0 && y.im == 0.0;
    let v = match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        BinOp::Div => {
            if zero {
                return Err(ExprErrorKind::DivisionByZero);
            }
            x / y
        }
        BinOp::Pow => {
            if x.re == 0.0 && x.im == 0.0 {
                if zero {
                    return Ok(Value::Complex(Complex64::new(1.0, 0.0)));
                }
                if y.re < 0.0 || y.im != 0.0 {
                    return Err(ExprErrorKind::DivisionByZero);
                }
                return Ok(Value::Complex(Complex64::new(0.0, 0.0)));
            }
            // Whole exponents by repeated multiplication, as Python does
            // (exact for 1j ** 2), others in polar form.
            if y.im == 0.0 && y.re.fract() == 0.0 && y.re.abs() <= 100.0 {
                let n = y.re as i32;
                if n >= 0 {
                    x.powi(n)
                } else {
                    Complex64::new(1.0, 0.0) / x.powi(-n)
                }
            } else {
                x.powc(y)
            }
        }
        _ => {
            let bad = if matches!(a, Value::Complex(_)) { a } else { b };
            return Err(type_error(
                format!("operand of `{}`", op.symbol()),
                "int or float",
                bad,
            ));
        }
    };
    Ok(Value::Complex(v))
}

fn check_size(what: &str, size: u128) -> Result<(), ExprErrorKind> {
    if size > MAX_ITEMS as u128 {
        return Err(ExprErrorKind::TooLarge {
            what: what.to_string(),
            size,
            limit: MAX_ITEMS,
        });
    }
    Ok(())
}

fn repeat<T: Clone>(
    items: &[T],
    n: i64,
    weight: usize,
    what: &str,
) -> Result<Vec<T>, ExprErrorKind> {
    let n = n.max(0) as u128;
    check_size(what, weight as u128 * n)?;
    let mut out = Vec::with_capacity(items.len() * n as usize);
    for _ in 0..n {
        out.extend_from_slice(items);
    }
    Ok(out)
}

fn sequence(op: BinOp, a: Value, b: Value) -> R {
    match (op, a, b) {
        (BinOp::Add, Value::Str(x), Value::Str(y)) => {
            check_size("string", x.len() as u128 + y.len() as u128)?;
            Ok(Value::Str(x + &y))
        }
        (BinOp::Add, Value::List(mut x), Value::List(y)) => {
            let w: usize = x.iter().chain(&y).map(Value::weight).sum();
            check_size("list", w as u128)?;
            x.extend(y);
            Ok(Value::List(x))
        }
        (BinOp::Mul, Value::List(x), n @ (Value::Int(_) | Value::Bool(_)))
        | (BinOp::Mul, n @ (Value::Int(_) | Value::Bool(_)), Value::List(x)) => {
            let w = x.iter().map(Value::weight).sum::<usize>().max(1);
            Ok(Value::List(repeat(&x, n.as_i64().unwrap_or(0), w, "list")?))
        }
        (BinOp::Mul, Value::Str(x), n @ (Value::Int(_) | Value::Bool(_)))
        | (BinOp::Mul, n @ (Value::Int(_) | Value::Bool(_)), Value::Str(x)) => {
            let bytes = repeat(
                x.as_bytes(),
                n.as_i64().unwrap_or(0),
                x.len().max(1),
                "string",
            )?;
            Ok(Value::Str(String::from_utf8(bytes).unwrap_or_default()))
        }
        (op, a, b) => {
            let (expected, bad) = match (&a, &b) {
                (Value::Str(_), _) if op == BinOp::Add => ("str", &b),
                (Value::List(_), _) if op == BinOp::Add => ("list", &b),
                (Value::Str(_) | Value::List(_), _) if op == BinOp::Mul => ("int", &b),
                (_, Value::Str(_) | Value::List(_)) if op == BinOp::Mul => ("int", &a),
                _ if rank(&a).is_some() => ("a number", &b),
                _ => ("a number", &a),
            };
            Err(ExprErrorKind::Type {
                context: format!("operand of `{}`", op.symbol()),
                expected: expected.to_string(),
                found: bad.type_name().to_string(),
            })
        }
    }
}

/// Python's `==` between two values.
pub(crate) fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q))
        }
        (Value::None, Value::None) => true,
        _ => match (rank(a), rank(b)) {
            (Some(0), Some(0)) => a.as_i64() == b.as_i64(),
            (Some(_), Some(_)) => a.as_complex() == b.as_complex(),
            _ => false,
        },
    }
}

/// Python's ordering of two values (numbers, strings, lists).
fn order(a: &Value, b: &Value) -> Result<Option<Ordering>, ExprErrorKind> {
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => Ok(Some(x.cmp(y))),
        (Value::List(x), Value::List(y)) => {
            for (p, q) in x.iter().zip(y) {
                if !equal(p, q) {
                    return order(p, q);
                }
            }
            Ok(Some(x.len().cmp(&y.len())))
        }
        _ => match (rank(a), rank(b)) {
            (Some(0), Some(0)) => Ok(a.as_i64().partial_cmp(&b.as_i64())),
            (Some(ra), Some(rb)) if ra < 2 && rb < 2 => Ok(a.as_f64().partial_cmp(&b.as_f64())),
            _ => Err(ExprErrorKind::Type {
                context: "comparison".to_string(),
                expected: format!("two numbers, strings or lists (not {})", a.type_name()),
                found: b.type_name().to_string(),
            }),
        },
    }
}

/// `a op b` for a comparison operator.
pub(crate) fn compare(op: CmpOp, a: &Value, b: &Value) -> Result<bool, ExprErrorKind> {
    Ok(match op {
        CmpOp::Eq => equal(a, b),
        CmpOp::Ne => !equal(a, b),
        CmpOp::Is => equal(a, b) && std::mem::discriminant(a) == std::mem::discriminant(b),
        CmpOp::IsNot => !(equal(a, b) && std::mem::discriminant(a) == std::mem::discriminant(b)),
        CmpOp::In | CmpOp::NotIn => {
            let found = match b {
                Value::List(items) => items.iter().any(|v| equal(a, v)),
                Value::Dict(pairs) => pairs.iter().any(|(k, _)| equal(a, k)),
                Value::Str(s) => match a {
                    Value::Str(sub) => s.contains(sub.as_str()),
                    other => {
                        return Err(type_error(
                            "left operand of `in` a string".into(),
                            "str",
                            other,
                        ));
                    }
                },
                other => {
                    return Err(type_error(
                        "right operand of `in`".into(),
                        "list or str",
                        other,
                    ));
                }
            };
            found == (op == CmpOp::In)
        }
        CmpOp::Lt => order(a, b)? == Some(Ordering::Less),
        CmpOp::Le => matches!(order(a, b)?, Some(Ordering::Less | Ordering::Equal)),
        CmpOp::Gt => order(a, b)? == Some(Ordering::Greater),
        CmpOp::Ge => matches!(order(a, b)?, Some(Ordering::Greater | Ordering::Equal)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_division_floors_like_python() {
        assert_eq!(int_op(BinOp::FloorDiv, -7, 2), Ok(Value::Int(-4)));
        assert_eq!(int_op(BinOp::Mod, -7, 2), Ok(Value::Int(1)));
        assert_eq!(int_op(BinOp::Mod, 7, -2), Ok(Value::Int(-1)));
        assert_eq!(int_op(BinOp::Div, 7, 2), Ok(Value::Float(3.5)));
        assert_eq!(int_op(BinOp::Pow, 2, -1), Ok(Value::Float(0.5)));
        assert_eq!(
            int_op(BinOp::Pow, 0, -1),
            Err(ExprErrorKind::DivisionByZero)
        );
        assert_eq!(int_op(BinOp::Pow, 2, 64), Err(ExprErrorKind::Overflow));
        assert_eq!(
            int_op(BinOp::FloorDiv, i64::MIN, -1),
            Err(ExprErrorKind::Overflow)
        );
        assert_eq!(float_op(BinOp::Mod, -1.0, 3.0), Ok(Value::Float(2.0)));
    }
}
