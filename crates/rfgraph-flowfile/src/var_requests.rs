//! Variables set by the flowgraph itself: `msgpair_to_var` blocks (GNU
//! Radio's `blocks_msgpair_to_var`) ask for a variable's new value, and
//! the builder gives each one a setter that queues the request
//! (its `channel`); whoever runs the graph drains the queue into its
//! [`Controller`] ([`VariableRequests::apply`]), so a message sets a
//! variable as `--control-stdin` does, with every block setting that
//! depends on it.

use crate::build::Controller;
use crate::expr::Value;
use rfgraph::registry::BlockSpec;
use rfgraph::{FlowgraphHandle, Pmt};
use rfgraph_blocks::message::{VariableSetter, msgpair_to_var_spec};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel as mpsc};

/// The registry name of the blocks that set variables.
pub(crate) const KIND: &str = "msgpair_to_var";

/// The requests of one built flowgraph's `msgpair_to_var` blocks, in
/// the order they came.
pub struct VariableRequests {
    rx: Receiver<(String, Pmt)>,
}

/// A setter that queues requests, and the queue.
pub(crate) fn channel() -> (VariableSetter, VariableRequests) {
    let (tx, rx): (Sender<(String, Pmt)>, _) = mpsc();
    let tx = std::sync::Mutex::new(tx);
    let setter: VariableSetter = Arc::new(move |name: &str, v: Pmt| {
        tx.lock()
            .map_err(|_| "the runner is gone".to_string())?
            .send((name.to_string(), v))
            .map_err(|_| "the runner is gone".to_string())
    });
    (setter, VariableRequests { rx })
}

/// `msgpair_to_var` as the standard registry lists it (for checks and
/// documentation): its requests go nowhere. The builder builds each one
/// with its own setter ([`spec`]).
pub(crate) fn unbound_spec() -> BlockSpec {
    msgpair_to_var_spec(Arc::new(|name: &str, _| {
        Err(format!(
            "nothing runs this flowgraph's variables: `{name}` stays"
        ))
    }))
}

/// `msgpair_to_var` setting variables through `setter`.
pub(crate) fn spec(setter: VariableSetter) -> BlockSpec {
    msgpair_to_var_spec(setter)
}

impl VariableRequests {
    /// Sets every variable asked for so far through `control`, the graph
    /// running as `handle`: one line each, what changed or why not.
    pub fn apply(&self, control: &mut Controller, handle: &FlowgraphHandle) -> Vec<String> {
        self.rx
            .try_iter()
            .map(|(name, value)| {
                let text = Value::from_pmt(&value)
                    .and_then(|v| crate::lambda::literal(&v))
                    .unwrap_or_else(|| format!("{value:?}"));
                match control.set(handle, &name, &text) {
                    Ok(change) => format!("set {change}"),
                    Err(e) => format!("error: {e}"),
                }
            })
            .collect()
    }
}
