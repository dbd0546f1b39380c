//! Helpers shared by the integration tests of this crate.

use rfgraph::Scheduler;
use rfgraph::scheduler::{Chain, Pool, Single, Tpb};

/// One fresh instance of every scheduler, with default settings.
pub fn every_scheduler() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(Tpb::new()),
        Box::new(Single::new()),
        Box::new(Pool::new()),
        Box::new(Chain::new()),
    ]
}

/// Waits for `running` with a watchdog: on timeout it stops the graph and
/// fails the test instead of hanging the suite.
#[allow(dead_code)]
pub fn wait_within(
    running: rfgraph::Running,
    timeout: std::time::Duration,
) -> Result<rfgraph::Finished, rfgraph::RunError> {
    let deadline = std::time::Instant::now() + timeout;
    while !running.is_finished() {
        if std::time::Instant::now() > deadline {
            running.handle().stop();
            panic!("flowgraph did not finish within {timeout:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    running.wait()
}
