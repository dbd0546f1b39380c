//! Helpers shared by the integration tests of this crate: schedulers and
//! the watchdog here; GNU Radio's reference outputs, blocks built through
//! the registry and small flowgraphs around one block in the modules
//! (each test binary uses some of them).

#[allow(dead_code, unused_imports)]
pub mod cases;
#[allow(dead_code, unused_imports)]
pub mod compare;
#[allow(dead_code, unused_imports)]
pub mod flow;
#[allow(dead_code, unused_imports)]
pub mod gr_reference;
#[allow(dead_code, unused_imports)]
pub mod pmt_text;

use rfgraph::Scheduler;
use rfgraph::scheduler::{Chain, Pool, Single, Tpb};

/// One fresh instance of every scheduler, with default settings.
#[allow(dead_code)]
pub fn every_scheduler() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(Tpb::new()),
        Box::new(Single::new()),
        Box::new(Pool::new()),
        Box::new(Chain::new()),
    ]
}

/// Waits for `running` with a watchdog: on timeout the run is stopped and
/// the test fails instead of hanging the suite.
#[allow(dead_code)]
pub fn wait_within(
    running: rfgraph::Running,
    timeout: std::time::Duration,
) -> Result<rfgraph::Finished, rfgraph::RunError> {
    match running.wait_timeout(timeout) {
        Err(e @ rfgraph::RunError::Timeout { .. }) => panic!("{e}"),
        other => other,
    }
}

/// The most any test flowgraph may take: a hang fails the test instead of
/// eating the suite's time.
#[allow(dead_code)]
pub const WATCHDOG: std::time::Duration = std::time::Duration::from_secs(60);

/// [`Flowgraph::run`](rfgraph::Flowgraph::run) with a watchdog.
#[allow(dead_code)]
pub trait RunBounded {
    /// Runs to completion on `scheduler`, or fails with
    /// `RunError::Timeout` after [`WATCHDOG`].
    fn run_bounded(self, scheduler: impl Scheduler)
    -> Result<rfgraph::Finished, rfgraph::RunError>;
}

impl RunBounded for rfgraph::Flowgraph {
    fn run_bounded(
        self,
        scheduler: impl Scheduler,
    ) -> Result<rfgraph::Finished, rfgraph::RunError> {
        self.start(scheduler)?.wait_timeout(WATCHDOG)
    }
}
