//! A Python block's message ports: their names (per instance, from the
//! `message_inputs` / `message_outputs` list parameters the registry
//! reads with `message_inputs_named_by`), and the messages its
//! `message_port_pub` calls left, posted after each Python call.

use crate::pmt::to_pmt;
use pyo3::prelude::*;
use rfgraph::port::message::MessageOutput;
use rfgraph::{BoxError, Pmt};
use std::collections::BTreeSet;
use std::sync::Mutex;

/// Every message port name a Python block used, each leaked once: the
/// runtime names ports with `&'static str`, and a process builds blocks
/// with few distinct names, so the set stays small.
static NAMES: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

/// `name` as a `&'static str`, from [`NAMES`].
fn intern(name: &str) -> &'static str {
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = names.get(name) {
        return n;
    }
    let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.insert(leaked);
    leaked
}

/// The port names in list parameter `param` (`value`).
pub fn names(value: &Pmt, param: &str) -> Result<Vec<&'static str>, BoxError> {
    let list = match value {
        Pmt::Null => return Ok(Vec::new()),
        Pmt::List(list) => list,
        other => return Err(format!("`{param}` must be a list of names, not {other:?}").into()),
    };
    let mut out: Vec<&'static str> = Vec::with_capacity(list.len());
    for name in list {
        let name = name
            .as_str()
            .ok_or_else(|| format!("`{param}` must list names (strings), not {name:?}"))?;
        if name.is_empty() || out.contains(&name) {
            return Err(format!("`{param}`: the name `{name}` is empty or repeated").into());
        }
        out.push(intern(name));
    }
    Ok(out)
}

/// Reads the `(port, value)` pairs of `published` (values mapped now,
/// under the GIL).
pub fn parse(published: &Bound<'_, PyAny>) -> PyResult<Vec<(String, Pmt)>> {
    let mut out = Vec::new();
    for entry in published.try_iter()? {
        let (port, value): (String, Bound<'_, PyAny>) = entry?.extract()?;
        out.push((port, to_pmt(&value)?));
    }
    Ok(out)
}

/// Posts each message on the output it names.
pub fn post(outputs: &[MessageOutput], published: Vec<(String, Pmt)>) -> Result<(), String> {
    for (port, msg) in published {
        let output = outputs
            .iter()
            .find(|o| o.name() == port)
            .ok_or_else(|| format!("message_port_pub: no message output `{port}` registered"))?;
        output.post(msg);
    }
    Ok(())
}
