//! The standard registry as JSON: the same document `rfgraph blocks
//! --json` prints (`BlockSpec::to_json`), each parameter from its block's
//! single declaration.

use pyo3::prelude::*;
use serde_json::Value;

/// Every block of the standard registry, as a JSON array.
#[pyfunction]
pub fn blocks_json() -> String {
    let registry = rfgraph_flowfile::standard::registry();
    let all: Vec<Value> = registry.specs().iter().map(|s| s.to_json()).collect();
    Value::Array(all).to_string()
}
