//! [`ServedGraph`]: one running flowgraph as the control port serves it,
//! its handle and, for a graph built from a file, the [`Controller`] of
//! its settable variables (shared with whoever else sets them, such as
//! `rfgraph run --control-stdin`).

use crate::live::frames::Displays;
use rfgraph::{BlockId, FlowgraphHandle};
use rfgraph_flowfile::build::Controller;
use std::sync::{Arc, Mutex};

/// A running flowgraph the control port serves under `name`.
#[derive(Clone)]
pub struct ServedGraph {
    pub(crate) name: String,
    pub(crate) handle: FlowgraphHandle,
    pub(crate) variables: Option<Arc<Mutex<Controller>>>,
    /// Its display blocks, shared by every clone (and so by every live
    /// client of this graph).
    pub(crate) displays: Arc<Displays>,
}

impl ServedGraph {
    /// The graph running as `handle`, served as `name` (letters, digits,
    /// `-` and `_`, for the URL).
    pub fn new(name: impl Into<String>, handle: FlowgraphHandle) -> Self {
        Self {
            name: name.into(),
            displays: Arc::new(Displays::of(&handle)),
            handle,
            variables: None,
        }
    }

    /// Serves the settable variables of `control` too (a graph built
    /// from a file).
    pub fn with_variables(mut self, control: Arc<Mutex<Controller>>) -> Self {
        self.variables = Some(control);
        self
    }

    /// The name it is served as.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The block called `name`.
    pub(crate) fn block(&self, name: &str) -> Option<BlockId> {
        self.handle.block_id(name)
    }
}
