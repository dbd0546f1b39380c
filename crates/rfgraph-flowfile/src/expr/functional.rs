//! The built-ins that take a function: `map`, `filter` and `sorted`
//! (with `key=` and `reverse=`). Each gives a list (Python 3's `map` and
//! `filter` give iterators, which GRC files turn into lists with
//! `list(...)` anyway).

use super::ast::CmpOp;
use super::builtins::{self, Arg, Call};
use super::error::{ExprError, ExprErrorKind};
use super::function::Function;
use super::ops;
use super::value::Value;
use std::ops::Range;

/// Calls the built-in `name` (`map`, `filter` or `sorted`).
pub(crate) fn call(name: &str, args: Vec<Arg>, span: Range<usize>) -> Result<Value, ExprError> {
    let call = Call {
        name: name.to_string(),
        args,
        span,
    };
    match name {
        "map" => map(&call),
        "filter" => filter(&call),
        _ => sorted(&call),
    }
}

/// The function argument `a` of `call` (`None` when `a` is `None` and
/// `none_ok`).
fn function<'a>(call: &Call, a: &'a Arg, none_ok: bool) -> Result<Option<&'a Function>, ExprError> {
    match &a.value {
        Value::Function(f) => Ok(Some(f)),
        Value::None if none_ok => Ok(None),
        _ => Err(builtins::arg_type(&call.name, "function", a)),
    }
}

/// `map(f, xs, ...)`: `f` of the items at each position, as far as the
/// shortest list.
fn map(call: &Call) -> Result<Value, ExprError> {
    let args = call.positional(2, usize::MAX)?;
    let Some(f) = function(call, args[0], false)? else {
        return Err(builtins::arg_type("map", "function", args[0]));
    };
    let lists = args[1..]
        .iter()
        .map(|a| builtins::items("map", a))
        .collect::<Result<Vec<_>, _>>()?;
    let len = lists.iter().map(Vec::len).min().unwrap_or(0);
    let mut out = Vec::with_capacity(len);
    let mut weight = 0usize;
    for i in 0..len {
        let v = f.call_at(lists.iter().map(|l| l[i].clone()).collect(), &call.span)?;
        weight += v.weight();
        if weight > super::MAX_ITEMS {
            return Err(call.error(ExprErrorKind::TooLarge {
                what: "list".into(),
                size: weight as u128,
                limit: super::MAX_ITEMS,
            }));
        }
        out.push(v);
    }
    Ok(Value::List(out))
}

/// `filter(f, xs)`: the items `f` finds true (`filter(None, xs)`: the
/// true items).
fn filter(call: &Call) -> Result<Value, ExprError> {
    let args = call.positional(2, 2)?;
    let f = function(call, args[0], true)?;
    let mut out = Vec::new();
    for item in builtins::items("filter", args[1])? {
        let keep = match f {
            Some(f) => f.call_at(vec![item.clone()], &call.span)?.truthy(),
            None => item.truthy(),
        };
        if keep {
            out.push(item);
        }
    }
    Ok(Value::List(out))
}

/// `sorted(xs, key=None, reverse=False)`: a stable sort by `<`.
fn sorted(call: &Call) -> Result<Value, ExprError> {
    let bound = call.bind(&["iterable", "key", "reverse"], 1, &[])?;
    let Some(iterable) = bound[0].filter(|a| a.name.is_none()) else {
        return Err(call.error(ExprErrorKind::Value(
            "`sorted` takes its list as the first positional argument".into(),
        )));
    };
    let items = builtins::items("sorted", iterable)?;
    let key = match bound[1] {
        Some(a) => function(call, a, true)?,
        None => None,
    };
    let reverse = bound[2].is_some_and(|a| a.value.truthy());
    let keys = match key {
        Some(f) => items
            .iter()
            .map(|v| f.call_at(vec![v.clone()], &call.span))
            .collect::<Result<Vec<_>, _>>()?,
        None => items.clone(),
    };
    // Python's `reverse=True` keeps equal items in their order, so it is
    // a sort by `>`, not a reversed sort by `<`.
    let op = if reverse { CmpOp::Gt } else { CmpOp::Lt };
    let order = merge_sort(items.len(), |a, b| ops::compare(op, &keys[a], &keys[b]))
        .map_err(|kind| call.error(kind))?;
    Ok(Value::List(
        order.into_iter().map(|i| items[i].clone()).collect(),
    ))
}

/// The positions `0..len` in a stable order by `before` (a merge sort:
/// std's sorts may panic when an order is not total, as with NaN).
fn merge_sort(
    len: usize,
    mut before: impl FnMut(usize, usize) -> Result<bool, ExprErrorKind>,
) -> Result<Vec<usize>, ExprErrorKind> {
    let mut order: Vec<usize> = (0..len).collect();
    let mut scratch = Vec::with_capacity(len);
    let mut width = 1;
    while width < len {
        scratch.clear();
        for start in (0..len).step_by(2 * width) {
            let mid = (start + width).min(len);
            let end = (start + 2 * width).min(len);
            let (mut i, mut j) = (start, mid);
            while i < mid && j < end {
                // The right run's item goes first only when strictly
                // before: ties keep their order.
                if before(order[j], order[i])? {
                    scratch.push(order[j]);
                    j += 1;
                } else {
                    scratch.push(order[i]);
                    i += 1;
                }
            }
            scratch.extend_from_slice(&order[i..mid]);
            scratch.extend_from_slice(&order[j..end]);
        }
        std::mem::swap(&mut order, &mut scratch);
        width *= 2;
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::merge_sort;

    #[test]
    fn merge_sort_is_stable_and_total() {
        let keys = [3, 1, 2, 1, 0, 3, 2];
        let order = merge_sort(keys.len(), |a, b| Ok(keys[a] < keys[b])).unwrap();
        assert_eq!(order, vec![4, 1, 3, 2, 6, 0, 5]);
        let nan = [1.0, f64::NAN, 0.5, f64::NAN, -1.0];
        let order = merge_sort(nan.len(), |a, b| Ok(nan[a] < nan[b])).unwrap();
        assert_eq!(order.len(), nan.len());
        assert!(merge_sort(0, |_, _| Ok(true)).unwrap().is_empty());
    }
}
