//! A running block seen from Python ([`BlockHandle`], from `Run.block`):
//! messages posted to its inputs, calls awaiting the handler's reply, and
//! its parameters read and set while it runs, all through the
//! flowgraph's `FlowgraphHandle`, values mapped by [`crate::pmt`].
//!
//! Every wait releases the GIL: the block answering may be a Python block
//! that needs it. Errors are `ValueError`s with the runtime's text.

use crate::pmt::{from_pmt, to_pmt};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rfgraph::{BlockId, FlowgraphHandle, HandleError};
use std::time::Duration;

/// The runtime's error as Python's `ValueError`.
fn error(e: HandleError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// `seconds` as a duration (negative: none).
fn timeout(seconds: f64) -> PyResult<Duration> {
    Duration::try_from_secs_f64(seconds.max(0.0))
        .map_err(|_| PyValueError::new_err(format!("bad timeout {seconds}")))
}

/// One block of a running flowgraph.
#[pyclass(module = "rfgraph._rfgraph", frozen)]
pub struct BlockHandle {
    handle: FlowgraphHandle,
    id: BlockId,
    /// The block's instance name.
    #[pyo3(get)]
    name: String,
}

impl BlockHandle {
    /// The block `id`, named `name`, of the flowgraph `handle` runs.
    pub fn new(handle: FlowgraphHandle, id: BlockId, name: String) -> Self {
        Self { handle, id, name }
    }
}

#[pymethods]
impl BlockHandle {
    /// Posts `value` to message input `port` without waiting.
    fn post(&self, port: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let msg = to_pmt(value)?;
        self.handle.post(self.id, port, msg).map_err(error)
    }

    /// Posts `value` to message input `port` and returns the handler's
    /// reply, waiting at most `timeout` seconds.
    #[pyo3(signature = (port, value, timeout=5.0))]
    fn call<'py>(
        &self,
        py: Python<'py>,
        port: &str,
        value: &Bound<'py, PyAny>,
        timeout: f64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let msg = to_pmt(value)?;
        let limit = self::timeout(timeout)?;
        let reply = py
            .detach(|| self.handle.call(self.id, port, msg, limit))
            .map_err(error)?;
        from_pmt(py, &reply)
    }

    /// The current value of parameter `name`, waiting at most `timeout`
    /// seconds for the block to answer between two `work` calls.
    #[pyo3(signature = (name, timeout=5.0))]
    fn get<'py>(&self, py: Python<'py>, name: &str, timeout: f64) -> PyResult<Bound<'py, PyAny>> {
        let limit = self::timeout(timeout)?;
        let value = py
            .detach(|| self.handle.param(self.id, name, limit))
            .map_err(error)?;
        from_pmt(py, &value)
    }

    /// Sets settable parameter `name` to `value` and waits (at most
    /// `timeout` seconds) until the block took it or refused it.
    #[pyo3(signature = (name, value, timeout=5.0))]
    fn set(
        &self,
        py: Python<'_>,
        name: &str,
        value: &Bound<'_, PyAny>,
        timeout: f64,
    ) -> PyResult<()> {
        if !self.settable()?.iter().any(|n| n == name) {
            return Err(PyValueError::new_err(format!(
                "block `{}` has no settable parameter `{name}`",
                self.name
            )));
        }
        let msg = to_pmt(value)?;
        let limit = self::timeout(timeout)?;
        py.detach(|| self.handle.call(self.id, name, msg, limit))
            .map(drop)
            .map_err(error)
    }

    /// The names of the block's parameters.
    fn params(&self) -> PyResult<Vec<String>> {
        let specs = self.handle.param_specs(self.id).map_err(error)?;
        Ok(specs.iter().map(|p| p.name.to_string()).collect())
    }

    /// The names of the parameters that may change while it runs (with
    /// their aliases).
    fn settable(&self) -> PyResult<Vec<String>> {
        let specs = self.handle.param_specs(self.id).map_err(error)?;
        Ok(specs
            .iter()
            .filter(|p| p.settable)
            .flat_map(|p| std::iter::once(p.name).chain(p.aliases.iter().copied()))
            .map(str::to_string)
            .collect())
    }
}
