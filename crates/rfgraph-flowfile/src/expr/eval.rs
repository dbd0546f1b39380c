//! The tree walk: evaluates a parsed expression in an [`Env`], giving
//! each error the byte range of the node at fault. Names resolve to
//! variables first, then to the modules and built-ins of `builtins`.
//! Recursion is bounded by the parser's depth limit.

use super::ast::{Node, NodeKind, Subscript};
use super::builtins::{self, Arg};
use super::error::{ExprError, ExprErrorKind};
use super::function::Function;
use super::functional;
use super::ops;
use super::value::Value;
use super::{Env, MAX_STEPS};
use num_complex::Complex64;
use std::cell::{Cell, RefCell};
use std::ops::Range;
use std::sync::Arc;

thread_local! {
    /// Comprehension variables in scope, innermost last.
    static LOCALS: RefCell<Vec<(String, Value)>> = const { RefCell::new(Vec::new()) };
    /// Comprehension steps taken by the evaluation under way.
    static STEPS: Cell<u64> = const { Cell::new(0) };
}

/// A comprehension variable bound while it lives.
struct Local;

impl Local {
    fn bind(name: &str, value: Value) -> Local {
        LOCALS.with(|l| l.borrow_mut().push((name.to_string(), value)));
        Local
    }
}

impl Drop for Local {
    fn drop(&mut self) {
        LOCALS.with(|l| {
            l.borrow_mut().pop();
        });
    }
}

fn lookup(name: &str, env: &Env) -> Option<Value> {
    let local = LOCALS.with(|l| {
        l.borrow()
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    });
    local.or_else(|| env.get(name).cloned())
}

/// Evaluates `f` with `scope` as the only local variables (a lambda's
/// parameters and the values it closes over), the caller's hidden.
pub(crate) fn with_scope<R>(scope: Vec<(String, Value)>, f: impl FnOnce() -> R) -> R {
    /// Puts the caller's locals back, also when `f` unwinds.
    struct Restore(Vec<(String, Value)>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = std::mem::take(&mut self.0);
            LOCALS.with(|l| *l.borrow_mut() = outer);
        }
    }
    let outer = LOCALS.with(|l| std::mem::replace(&mut *l.borrow_mut(), scope));
    let _restore = Restore(outer);
    f()
}

/// Starts the step count afresh (a new evaluation).
pub(crate) fn reset_steps() {
    STEPS.with(|s| s.set(0));
}

/// Counts one comprehension step or lambda call; errors past
/// [`MAX_STEPS`].
pub(crate) fn step(span: &Range<usize>) -> Result<(), ExprError> {
    let n = STEPS.with(|s| {
        s.set(s.get() + 1);
        s.get()
    });
    if n > MAX_STEPS {
        return Err(ExprError::new(
            ExprErrorKind::TooLarge {
                what: "the comprehensions' iterations".into(),
                size: u128::from(n),
                limit: MAX_STEPS as usize,
            },
            span.clone(),
        ));
    }
    Ok(())
}

/// `v` when Python could hash it (a dictionary key, a set item): lists
/// and dictionaries cannot be.
fn hashable(v: Value, span: &Range<usize>) -> Result<Value, ExprError> {
    match v {
        Value::List(_) | Value::Dict(_) => Err(ExprError::new(
            ExprErrorKind::Type {
                context: "dictionary key or set item".into(),
                expected: "a number, str, tuple or None".into(),
                found: v.type_name().into(),
            },
            span.clone(),
        )),
        v => Ok(v),
    }
}

/// `v` when it holds at most [`MAX_ITEMS`](super::MAX_ITEMS) items.
fn bounded(v: Value, what: &str) -> Result<Value, ExprErrorKind> {
    let weight = v.weight();
    if weight > super::MAX_ITEMS {
        return Err(ExprErrorKind::TooLarge {
            what: what.into(),
            size: weight as u128,
            limit: super::MAX_ITEMS,
        });
    }
    Ok(v)
}

/// Evaluates `root`, a whole expression: the step count starts afresh.
pub(crate) fn eval_root(root: &Node, env: &Env) -> Result<Value, ExprError> {
    reset_steps();
    eval(root, env)
}

/// Evaluates `node` with the variables of `env`.
pub(crate) fn eval(node: &Node, env: &Env) -> Result<Value, ExprError> {
    let at = |kind: ExprErrorKind| ExprError::new(kind, node.span.clone());
    Ok(match &node.kind {
        NodeKind::Int(v) => Value::Int(*v),
        NodeKind::Float(v) => Value::Float(*v),
        NodeKind::Imag(v) => Value::Complex(Complex64::new(0.0, *v)),
        NodeKind::Str(s) => Value::Str(s.clone()),
        NodeKind::Bool(b) => Value::Bool(*b),
        NodeKind::None => Value::None,
        NodeKind::Name(n) => match lookup(n, env) {
            Some(v) => v,
            None => return Err(at(builtins::name_error(&[n.as_str()], env))),
        },
        NodeKind::Attr(base, attr) => match node.dotted() {
            Some(path) if lookup(path[0], env).is_none() => {
                builtins::constant(&path).ok_or_else(|| at(builtins::name_error(&path, env)))?
            }
            _ => {
                let v = eval(base, env)?;
                attribute(v, attr).map_err(at)?
            }
        },
        NodeKind::List(items) | NodeKind::Tuple(items) => {
            let mut out = Vec::with_capacity(items.len());
            let mut weight = 0usize;
            for item in items {
                let v = eval(item, env)?;
                weight += v.weight();
                if weight > super::MAX_ITEMS {
                    return Err(at(ExprErrorKind::TooLarge {
                        what: "list".into(),
                        size: weight as u128,
                        limit: super::MAX_ITEMS,
                    }));
                }
                out.push(v);
            }
            Value::List(out)
        }
        NodeKind::Dict(pairs) => {
            let mut out: Vec<(Value, Value)> = Vec::with_capacity(pairs.len());
            for (k, v) in pairs {
                let key = hashable(eval(k, env)?, &k.span)?;
                let value = eval(v, env)?;
                match out.iter_mut().find(|(old, _)| *old == key) {
                    Some(slot) => slot.1 = value,
                    None => out.push((key, value)),
                }
            }
            bounded(Value::Dict(out), "dict").map_err(at)?
        }
        NodeKind::Set(items) => {
            let mut out: Vec<Value> = Vec::with_capacity(items.len());
            for item in items {
                let v = hashable(eval(item, env)?, &item.span)?;
                if !out.contains(&v) {
                    out.push(v);
                }
            }
            bounded(Value::List(out), "set").map_err(at)?
        }
        NodeKind::Unary(op, a) => ops::unary(*op, eval(a, env)?).map_err(at)?,
        NodeKind::Binary(op, a, b) => {
            let (x, y) = (eval(a, env)?, eval(b, env)?);
            ops::binary(*op, x, y).map_err(at)?
        }
        NodeKind::Compare(first, rest) => {
            let mut left = eval(first, env)?;
            for (op, right) in rest {
                let r = eval(right, env)?;
                if !ops::compare(*op, &left, &r).map_err(at)? {
                    return Ok(Value::Bool(false));
                }
                left = r;
            }
            Value::Bool(true)
        }
        NodeKind::And(a, b) => {
            let x = eval(a, env)?;
            if x.truthy() { eval(b, env)? } else { x }
        }
        NodeKind::Or(a, b) => {
            let x = eval(a, env)?;
            if x.truthy() { x } else { eval(b, env)? }
        }
        NodeKind::IfElse(cond, then, other) => {
            if eval(cond, env)?.truthy() {
                eval(then, env)?
            } else {
                eval(other, env)?
            }
        }
        NodeKind::Subscript(base, sub) => {
            let v = eval(base, env)?;
            match &**sub {
                Subscript::Index(i) => {
                    let idx = eval(i, env)?;
                    index(v, idx, i.span.clone())?
                }
                Subscript::Slice(a, b, c) => {
                    let bound = |n: &Option<Node>| -> Result<Option<i64>, ExprError> {
                        match n {
                            None => Ok(None),
                            Some(n) => match eval(n, env)? {
                                Value::None => Ok(None),
                                v @ (Value::Int(_) | Value::Bool(_)) => Ok(v.as_i64()),
                                other => Err(ExprError::new(
                                    ExprErrorKind::Type {
                                        context: "slice bound".into(),
                                        expected: "int".into(),
                                        found: other.type_name().into(),
                                    },
                                    n.span.clone(),
                                )),
                            },
                        }
                    };
                    let (a, b, c) = (bound(a)?, bound(b)?, bound(c)?);
                    slice(v, a, b, c).map_err(at)?
                }
            }
        }
        NodeKind::ListComp(c) => {
            let items = match eval(&c.iterable, env)? {
                Value::List(items) => items,
                Value::Str(s) => s.chars().map(|ch| Value::Str(ch.to_string())).collect(),
                other => {
                    return Err(ExprError::new(
                        ExprErrorKind::Type {
                            context: "comprehension".into(),
                            expected: "list or str".into(),
                            found: other.type_name().into(),
                        },
                        c.iterable.span.clone(),
                    ));
                }
            };
            let mut out = Vec::with_capacity(items.len());
            let mut weight = 0usize;
            'items: for item in items {
                step(&node.span)?;
                let _bound = Local::bind(&c.name, item);
                for cond in &c.conditions {
                    if !eval(cond, env)?.truthy() {
                        continue 'items;
                    }
                }
                let v = eval(&c.element, env)?;
                weight += v.weight();
                if weight > super::MAX_ITEMS {
                    return Err(at(ExprErrorKind::TooLarge {
                        what: "list".into(),
                        size: weight as u128,
                        limit: super::MAX_ITEMS,
                    }));
                }
                out.push(v);
            }
            Value::List(out)
        }
        NodeKind::Lambda(def) => Value::Function(Arc::new(Function::new(def, |n| lookup(n, env)))),
        NodeKind::Call(f, args) => {
            // A lambda called by name or as the result of an expression
            // (`f(2)`, `(lambda x: x)(2)`, `g(1)(2)`).
            let callee = match f.dotted() {
                Some(path) if path.len() == 1 => lookup(path[0], env),
                Some(_) => None,
                None if matches!(f.kind, NodeKind::Attr(..)) => None,
                None => Some(eval(f, env)?),
            };
            if let Some(Value::Function(func)) = callee {
                let values = positional(args, env)?;
                return func.call_at(values, &node.span);
            }
            // A method: the callee is an attribute of a value, not of a
            // module (`np.arange(8).tolist()`, `taps.tolist()`).
            if let NodeKind::Attr(base, name) = &f.kind
                && f.dotted().is_none_or(|p| lookup(p[0], env).is_some())
            {
                if !args.is_empty() {
                    return Err(at(ExprErrorKind::Unsupported(format!(
                        "arguments to the method `{name}()`"
                    ))));
                }
                let v = eval(base, env)?;
                return super::methods::call(v, name).map_err(at);
            }
            if let Some(path) = f.dotted()
                && let [name @ ("map" | "filter" | "sorted")] = path[..]
                && lookup(name, env).is_none()
            {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(Arg {
                        name: a.name.clone(),
                        value: eval(&a.value, env)?,
                        span: a.value.span.clone(),
                    });
                }
                return functional::call(name, values, node.span.clone());
            }
            let Some(path) = f.dotted() else {
                return Err(at(ExprErrorKind::Unsupported(
                    "calling the result of an expression".into(),
                )));
            };
            if lookup(path[0], env).is_some() {
                return Err(ExprError::new(
                    ExprErrorKind::Unsupported(format!("calling `{}`", path.join("."))),
                    f.span.clone(),
                ));
            }
            let mut values = Vec::with_capacity(args.len());
            for a in args {
                values.push(Arg {
                    name: a.name.clone(),
                    value: eval(&a.value, env)?,
                    span: a.value.span.clone(),
                });
            }
            builtins::call(&path, values, env, f.span.clone(), node.span.clone())?
        }
    })
}

/// The values of a lambda call's arguments, which must be positional.
fn positional(args: &[super::ast::Arg], env: &Env) -> Result<Vec<Value>, ExprError> {
    let mut values = Vec::with_capacity(args.len());
    for a in args {
        if let Some(name) = &a.name {
            return Err(ExprError::new(
                ExprErrorKind::Unsupported(format!("the keyword argument `{name}=` to a lambda")),
                a.value.span.clone(),
            ));
        }
        values.push(eval(&a.value, env)?);
    }
    Ok(values)
}

fn attribute(v: Value, attr: &str) -> Result<Value, ExprErrorKind> {
    match (attr, &v) {
        ("real", _) if v.as_complex().is_some() => {
            Ok(Value::Float(v.as_complex().unwrap_or_default().re))
        }
        ("imag", _) if v.as_complex().is_some() => {
            Ok(Value::Float(v.as_complex().unwrap_or_default().im))
        }
        _ => Err(ExprErrorKind::Unsupported(format!(
            "the attribute `{attr}` of a {}",
            v.type_name()
        ))),
    }
}

/// `v[idx]`.
fn index(v: Value, idx: Value, idx_span: Range<usize>) -> Result<Value, ExprError> {
    if let Value::Dict(pairs) = v {
        return pairs
            .into_iter()
            .find(|(k, _)| *k == idx)
            .map(|(_, v)| v)
            .ok_or_else(|| {
                ExprError::new(ExprErrorKind::Value(format!("no key {idx}")), idx_span)
            });
    }
    let i = match idx {
        Value::Int(_) | Value::Bool(_) => idx.as_i64().unwrap_or(0),
        other => {
            return Err(ExprError::new(
                ExprErrorKind::Type {
                    context: "index".into(),
                    expected: "int".into(),
                    found: other.type_name().into(),
                },
                idx_span,
            ));
        }
    };
    if let Some(out) = super::ndarray::index(&v, i) {
        return out.map_err(|k| ExprError::new(k, idx_span));
    }
    let out_of_range =
        |len: usize| ExprError::new(ExprErrorKind::Index { index: i, len }, idx_span.clone());
    let pos = |len: usize| -> Option<usize> {
        let j = if i < 0 { i.checked_add(len as i64)? } else { i };
        usize::try_from(j).ok().filter(|&j| j < len)
    };
    match v {
        Value::List(items) => {
            let len = items.len();
            let j = pos(len).ok_or_else(|| out_of_range(len))?;
            Ok(items.into_iter().nth(j).unwrap_or(Value::None))
        }
        Value::Str(s) => {
            let chars: Vec<char> = s.chars().collect();
            let j = pos(chars.len()).ok_or_else(|| out_of_range(chars.len()))?;
            Ok(Value::Str(chars[j].to_string()))
        }
        other => Err(ExprError::new(
            ExprErrorKind::Type {
                context: "indexing".into(),
                expected: "list or str".into(),
                found: other.type_name().into(),
            },
            idx_span,
        )),
    }
}

/// The positions `[a:b:c]` picks from a sequence of `len`, by Python's
/// rules.
fn slice_positions(
    len: usize,
    a: Option<i64>,
    b: Option<i64>,
    c: Option<i64>,
) -> Result<Vec<usize>, ExprErrorKind> {
    let step = c.unwrap_or(1);
    if step == 0 {
        return Err(ExprErrorKind::Value("slice step cannot be zero".into()));
    }
    let len = len as i64;
    let clamp = |v: Option<i64>, default: i64, lo: i64, hi: i64| match v {
        None => default,
        Some(v) if v < 0 => (v.saturating_add(len)).max(lo),
        Some(v) => v.min(hi),
    };
    let mut out = Vec::new();
    if step > 0 {
        let start = clamp(a, 0, 0, len);
        let stop = clamp(b, len, 0, len);
        let mut i = start;
        while i < stop {
            out.push(i as usize);
            i = i.saturating_add(step);
        }
    } else {
        let start = clamp(a, len - 1, -1, len - 1);
        let stop = clamp(b, -1, -1, len - 1);
        let mut i = start;
        while i > stop {
            out.push(i as usize);
            i = i.saturating_add(step);
        }
    }
    Ok(out)
}

fn slice(v: Value, a: Option<i64>, b: Option<i64>, c: Option<i64>) -> Result<Value, ExprErrorKind> {
    if let Some(len) = super::ndarray::len(&v) {
        let pos = slice_positions(len, a, b, c)?;
        if let Some(out) = super::ndarray::pick(&v, &pos) {
            return out;
        }
    }
    match v {
        Value::List(items) => {
            let pos = slice_positions(items.len(), a, b, c)?;
            Ok(Value::List(
                pos.into_iter().map(|i| items[i].clone()).collect(),
            ))
        }
        Value::Str(s) => {
            let chars: Vec<char> = s.chars().collect();
            let pos = slice_positions(chars.len(), a, b, c)?;
            Ok(Value::Str(pos.into_iter().map(|i| chars[i]).collect()))
        }
        other => Err(ExprErrorKind::Type {
            context: "slicing".into(),
            expected: "list or str".into(),
            found: other.type_name().into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_follow_python() {
        assert_eq!(
            slice_positions(5, Some(1), None, None),
            Ok(vec![1, 2, 3, 4])
        );
        assert_eq!(
            slice_positions(5, None, None, Some(-1)),
            Ok(vec![4, 3, 2, 1, 0])
        );
        assert_eq!(slice_positions(5, Some(-2), None, None), Ok(vec![3, 4]));
        assert_eq!(slice_positions(5, None, Some(-1), Some(2)), Ok(vec![0, 2]));
        assert_eq!(
            slice_positions(5, Some(10), Some(-10), Some(-2)),
            Ok(vec![4, 2, 0])
        );
        assert!(slice_positions(5, None, None, Some(0)).is_err());
    }
}
