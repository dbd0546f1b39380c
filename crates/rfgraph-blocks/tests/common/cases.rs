//! Blocks built through the registry, as the `gr_*` tests build them: from
//! parameter lists, or from the cases a reference script wrote to
//! `cases.json` (objects with `name`, `block`, `kind` and `params`), and
//! such a case checked bit for bit.

use super::compare::first_difference;
use super::flow::run_items;
use super::gr_reference::load;
use rfgraph::registry::Registry;
use rfgraph::{Block, Item, Pmt, Tag};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// A registry of every block of this crate.
pub fn registry() -> Registry {
    let mut r = Registry::new();
    r.extend(rfgraph_blocks::registry::specs());
    r
}

/// Parameters given as a list.
pub fn param_map(list: &[(&str, Pmt)]) -> BTreeMap<String, Pmt> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// Registered block `name` with the parameters of `list`; panics naming
/// the block when it is refused.
pub fn build_named(name: &str, list: &[(&str, Pmt)]) -> Box<dyn Block> {
    registry()
        .build(name, param_map(list))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The JSON document at `path`.
pub fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// The cases of `dir/cases.json` whose `field` is `value` (at least one).
pub fn cases_where(dir: &Path, field: &str, value: &str) -> Vec<Value> {
    let all: Vec<Value> = serde_json::from_value(json(&dir.join("cases.json"))).unwrap();
    let some: Vec<Value> = all.into_iter().filter(|c| c[field] == value).collect();
    assert!(!some.is_empty(), "no {value} cases");
    some
}

/// The cases of `dir/cases.json` of `kind` (at least one).
pub fn cases(dir: &Path, kind: &str) -> Vec<Value> {
    cases_where(dir, "kind", kind)
}

/// A parameter value written as JSON.
pub fn to_pmt(v: &Value) -> Pmt {
    match v {
        Value::Bool(b) => Pmt::Bool(*b),
        Value::Number(n) => n
            .as_i64()
            .map(Pmt::I64)
            .unwrap_or_else(|| Pmt::F64(n.as_f64().unwrap())),
        Value::String(s) => Pmt::String(s.clone()),
        Value::Array(a) => Pmt::List(a.iter().map(to_pmt).collect()),
        other => panic!("no parameter value: {other}"),
    }
}

/// A case's parameters.
pub fn params(case: &Value) -> BTreeMap<String, Pmt> {
    case["params"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), to_pmt(v)))
        .collect()
}

/// A case's name.
pub fn name(case: &Value) -> &str {
    case["name"].as_str().unwrap()
}

/// A case's block with `params`, or the registry's error.
pub fn try_build_with(
    case: &Value,
    params: BTreeMap<String, Pmt>,
) -> Result<Box<dyn Block>, String> {
    registry()
        .build(case["block"].as_str().unwrap(), params)
        .map_err(|e| e.to_string())
}

/// A case's block, or the registry's error.
pub fn try_build(case: &Value) -> Result<Box<dyn Block>, String> {
    try_build_with(case, params(case))
}

/// A case's block; panics naming the case when it is refused.
pub fn build(case: &Value) -> Box<dyn Block> {
    try_build(case).unwrap_or_else(|e| panic!("{}: {e}", name(case)))
}

/// Length tags `key` for packets of `lengths`, back to back.
pub fn length_tags(key: &str, lengths: &[u64]) -> Vec<Tag> {
    let mut at = 0;
    lengths
        .iter()
        .map(|&n| {
            let t = Tag::new(at, key, Pmt::U64(n));
            at = at.saturating_add(n);
            t
        })
        .collect()
}

/// Runs `block` on case `case`'s input `<name>.in` (items `I`): its output
/// bits must be GNU Radio's `<name>.out`, item for item. Gives them.
pub fn check_bits<I: Item>(dir: &Path, case: &Value, block: Box<dyn Block>) -> Vec<u8> {
    let n = name(case);
    let input: Vec<I> = load(&dir.join(format!("{n}.in")));
    let want: Vec<u8> = load(&dir.join(format!("{n}.out")));
    assert!(!want.is_empty(), "{n}: GNU Radio wrote nothing");
    let got = run_items::<I, u8>(block, input);
    assert_eq!(got.len(), want.len(), "{n}: output length");
    first_difference(n, &got, &want);
    got
}

/// A text parameter value.
pub fn s(v: &str) -> Pmt {
    Pmt::from(v)
}

/// An unsigned parameter value.
pub fn u(v: u64) -> Pmt {
    Pmt::U64(v)
}

/// A signed parameter value.
pub fn i(v: i64) -> Pmt {
    Pmt::I64(v)
}

/// A real parameter value.
pub fn f(v: f64) -> Pmt {
    Pmt::F64(v)
}

/// A flag parameter value.
pub fn b(v: bool) -> Pmt {
    Pmt::Bool(v)
}
