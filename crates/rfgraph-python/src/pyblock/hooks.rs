//! A Python block's life beyond `work`: GNU Radio's `start()` and
//! `stop()` (run by the block's `init` and `deinit`), and messages its
//! `message_port_pub` posts from another Python thread (a block's timer
//! thread), which wake the block through [`Wake`] so that its next call
//! posts them.

use super::messages;
use super::view::describe;
use pyo3::prelude::*;
use rfgraph::{Pmt, Waker};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// What the Python object shares with its block.
#[derive(Default)]
pub struct Outside {
    /// The block's waker, once the flowgraph attached it.
    waker: OnceLock<Waker>,
    /// Messages wait in the object (set by [`Wake`], cleared by
    /// [`take_published`]).
    pending: AtomicBool,
}

impl Outside {
    /// Keeps the block's waker.
    pub fn attach(&self, waker: Waker) {
        let _ = self.waker.set(waker);
    }

    /// Marks messages as waiting (those published before the run).
    pub fn mark_pending(&self) {
        self.pending.store(true, Ordering::Release);
    }
}

/// The object's `_rfgraph_wake()`: messages are waiting; wakes the block.
#[pyclass(module = "rfgraph._rfgraph", frozen)]
pub struct Wake(Arc<Outside>);

#[pymethods]
impl Wake {
    fn __call__(&self) {
        self.0.mark_pending();
        if let Some(waker) = self.0.waker.get() {
            waker.wake();
        }
    }
}

/// Gives `object` its `_rfgraph_wake` for a new block; the state shared.
pub fn install(object: &Bound<'_, PyAny>) -> PyResult<Arc<Outside>> {
    let outside = Arc::new(Outside::default());
    object.setattr("_rfgraph_wake", Wake(outside.clone()))?;
    Ok(outside)
}

/// The messages waiting in `object` (none unless [`Wake`] said so).
pub fn take_published(outside: &Outside, object: &Py<PyAny>) -> Result<Vec<(String, Pmt)>, String> {
    if !outside.pending.swap(false, Ordering::AcqRel) {
        return Ok(Vec::new());
    }
    crate::gil::attach(|py| {
        let call = || -> PyResult<Vec<(String, Pmt)>> {
            let published = object.bind(py).call_method0("_rfgraph_take_published")?;
            if published.is_none() {
                return Ok(Vec::new());
            }
            messages::parse(&published)
        };
        call().map_err(|e| describe(py, &e))
    })
}

/// Calls `object.<hook>()` (`_rfgraph_start`, `_rfgraph_stop`).
pub fn call(object: &Py<PyAny>, hook: &str) -> Result<(), String> {
    crate::gil::attach(|py| {
        object
            .bind(py)
            .call_method0(hook)
            .map(drop)
            .map_err(|e| describe(py, &e))
    })
}
