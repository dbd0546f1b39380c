//! [`RunWithControl`]: run a [`Flowgraph`] with a control port serving
//! it, in one call from Rust — what `rfgraph run --control` does for a
//! file.

use crate::graph::ServedGraph;
use crate::server::{ControlOptions, ControlPort, StartError};
use rfgraph::{Finished, Flowgraph, RunError, Running, Scheduler};

/// Why a run with a control port failed.
#[derive(Debug, thiserror::Error)]
pub enum ControlRunError {
    /// The control port did not start (the graph was not started).
    #[error(transparent)]
    Port(#[from] StartError),
    /// The graph did not start, or its run failed.
    #[error(transparent)]
    Run(#[from] RunError),
}

/// Runs a flowgraph with a control port serving it (see the crate docs
/// for what a client can do through it).
///
/// ```no_run
/// use rfgraph::{Flowgraph, scheduler::Chain};
/// use rfgraph_control::{ControlOptions, RunWithControl};
///
/// let fg = Flowgraph::new();
/// // ... add and connect blocks ...
/// // Serves http://127.0.0.1:1337/api/flowgraphs/radio until the graph
/// // finishes (or a client stops it: POST .../radio/stop).
/// let finished = fg.run_with_control(Chain::new(), ControlOptions::default(), "radio")?;
/// println!("{:?}", finished.run_time());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait RunWithControl {
    /// Starts a control port with `options`, then the graph on
    /// `scheduler`, served as `name`; returns both, the graph running.
    ///
    /// Errors: the port cannot start (the graph is then not started), or
    /// the graph cannot.
    fn start_with_control(
        self,
        scheduler: impl Scheduler,
        options: ControlOptions,
        name: &str,
    ) -> Result<(Running, ControlPort), ControlRunError>;

    /// As [`start_with_control`](Self::start_with_control), then waits
    /// until the graph finished and stops the port.
    ///
    /// Errors: those of `start_with_control`, and the run's failure.
    fn run_with_control(
        self,
        scheduler: impl Scheduler,
        options: ControlOptions,
        name: &str,
    ) -> Result<Finished, ControlRunError>;
}

impl RunWithControl for Flowgraph {
    fn start_with_control(
        self,
        scheduler: impl Scheduler,
        options: ControlOptions,
        name: &str,
    ) -> Result<(Running, ControlPort), ControlRunError> {
        let port = ControlPort::start(options)?;
        let running = self.start(scheduler)?;
        port.serve(ServedGraph::new(name, running.handle()));
        Ok((running, port))
    }

    fn run_with_control(
        self,
        scheduler: impl Scheduler,
        options: ControlOptions,
        name: &str,
    ) -> Result<Finished, ControlRunError> {
        let (running, port) = self.start_with_control(scheduler, options, name)?;
        let finished = running.wait();
        port.shutdown();
        Ok(finished?)
    }
}
