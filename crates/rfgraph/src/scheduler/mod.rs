//! Pluggable schedulers (see `docs/architecture.md`, Schedulers).
//!
//! A scheduler receives every block as a [`BlockRunner`] and decides on which
//! thread and when each one runs; it drives them only through
//! [`BlockRunner::run_once`] and the block's [`Signal`](crate::signal::Signal).
//! It returns when every runner reports done. Blocks never know which
//! scheduler runs them, so one flowgraph runs unchanged on each.

pub mod cache;
pub mod chain;
pub(crate) mod contain;
mod local_polling;
pub mod partition;
pub mod placement;
mod poll;
pub mod pool;
pub mod refine;
mod segment;
mod shape;
pub mod single;
mod task;
pub mod thread;
mod timers;
pub mod tpb;

use crate::runner::BlockRunner;
pub use chain::Chain;
pub(crate) use contain::contain_panic;
pub(crate) use local_polling::mark_local_polling;
pub use placement::{Placement, PlacementView, Worker};
pub use pool::Pool;
pub use shape::GraphShape;
pub use single::Single;
pub use thread::{RealtimePriority, RtPolicy};
pub use tpb::Tpb;

/// A way of running blocks.
pub trait Scheduler: Send + 'static {
    /// The short name used on the command line (`tpb`, `single`, ...).
    fn name(&self) -> &str;

    /// Runs every runner until it is done, then hands them all back.
    fn execute(&self, runners: Vec<BlockRunner>) -> Vec<BlockRunner>;

    /// The ring size this scheduler works best with, used for edges whose
    /// size the user did not set (`None`: the flowgraph default).
    fn default_buffer_bytes(&self) -> Option<usize> {
        None
    }

    /// Per-edge ring sizes, one per edge of `shape.edges`, for edges whose
    /// size the user did not set. `None` leaves every edge at the default.
    fn plan_buffer_bytes(&self, _shape: &GraphShape) -> Option<Vec<usize>> {
        None
    }

    /// A live view of which worker runs which of `runners` (the blocks
    /// it is about to [`execute`](Self::execute)), asked for just before
    /// the run starts; `None` (the default) where placement is not fixed
    /// (work stealing) or not known.
    fn placement(&self, _runners: &[BlockRunner]) -> Option<PlacementView> {
        None
    }
}

impl Scheduler for Box<dyn Scheduler> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn execute(&self, runners: Vec<BlockRunner>) -> Vec<BlockRunner> {
        (**self).execute(runners)
    }
    fn default_buffer_bytes(&self) -> Option<usize> {
        (**self).default_buffer_bytes()
    }
    fn plan_buffer_bytes(&self, shape: &GraphShape) -> Option<Vec<usize>> {
        (**self).plan_buffer_bytes(shape)
    }
    fn placement(&self, runners: &[BlockRunner]) -> Option<PlacementView> {
        (**self).placement(runners)
    }
}

/// Scheduler names known to [`by_name`].
pub const SCHEDULERS: &[&str] = &["tpb", "single", "pool", "chain"];

/// Schedulers that are planned but not built yet.
pub const PLANNED_SCHEDULERS: &[&str] = &[];

/// The scheduler called `name`, with default settings.
pub fn by_name(name: &str) -> Result<Box<dyn Scheduler>, String> {
    match name {
        "tpb" => Ok(Box::new(Tpb::new())),
        "single" => Ok(Box::new(Single::new())),
        "pool" => Ok(Box::new(Pool::new())),
        "chain" => Ok(Box::new(Chain::new())),
        other if PLANNED_SCHEDULERS.contains(&other) => Err(format!(
            "scheduler `{other}` is not available yet; available: {}",
            SCHEDULERS.join(", ")
        )),
        other => Err(format!(
            "unknown scheduler `{other}`; available: {}",
            SCHEDULERS.join(", ")
        )),
    }
}
