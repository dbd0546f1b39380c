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
