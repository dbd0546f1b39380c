//! A run from Python on rfgraph's control port: the REST API, the live
//! WebSocket and the web UI (`rfgraph-control`), as `rfgraph run
//! --control` serves a file's run. Python blocks show there like any
//! other block: counters, rates, status, placement.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rfgraph::FlowgraphHandle;
use rfgraph_control::{ControlOptions, ControlPort, ServedGraph};
use rfgraph_flowfile::build::Controller;
use std::sync::{Arc, Mutex};

/// A name the control port accepts in URLs: letters, digits, `-` and
/// `_`, anything else as `_` (empty: `flowgraph`).
pub fn url_name(name: &str) -> String {
    if name.is_empty() {
        return "flowgraph".into();
    }
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Starts a control port on `addr` serving `handle` (and the file's
/// settable variables, when built from one) as `name`.
///
/// Raises `ValueError` for an address that does not parse,
/// `RuntimeError` for one that cannot be bound.
pub fn start(
    addr: &str,
    token: Option<String>,
    name: &str,
    handle: &FlowgraphHandle,
    variables: Option<Arc<Mutex<Controller>>>,
) -> PyResult<ControlPort> {
    let addr = addr
        .parse()
        .map_err(|e| PyValueError::new_err(format!("control address `{addr}`: {e}")))?;
    let port = ControlPort::start(ControlOptions { addr, token })
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let mut graph = ServedGraph::new(url_name(name), handle.clone());
    if let Some(variables) = variables {
        graph = graph.with_variables(variables);
    }
    port.serve(graph);
    Ok(port)
}
