//! Pluggable schedulers (DESIGN §3).
//!
//! A scheduler receives every block as a [`BlockRunner`] and decides on which
//! thread and when each one runs; it drives them only through
//! [`BlockRunner::run_once`] and the block's [`Signal`](crate::signal::Signal).
//! It returns when every runner reports done. Blocks never know which
//! scheduler runs them, so one flowgraph runs unchanged on each.

pub mod cache;
pub mod chain;
pub mod partition;
pub mod pool;
pub mod refine;
mod segment;
mod shape;
pub mod single;
mod task;
pub mod thread;
pub mod tpb;

use crate::runner::BlockRunner;
pub use chain::Chain;
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
}

/// Marks which stream edges join blocks polled by one thread (see
/// [`BlockRunner::mark_same_thread_peers`]) and lets a block skip its
/// look's fence ([`Signal::set_polled_locally`]) only when every wake-up a
/// peer can send it comes from its own thread: its stream peers run there,
/// and so does every reader that frees its memory in place (the last
/// reader of an in-place chain wakes the chain's first writer directly; a
/// fence-free look could lose that wake-up, and the writer would wait for
/// ever). `same_thread(a, b)`: blocks `a` and `b` (flowgraph indices) are
/// polled by one thread.
///
/// [`Signal::set_polled_locally`]: crate::signal::Signal::set_polled_locally
pub(crate) fn mark_local_polling(
    runners: &mut [BlockRunner],
    same_thread: impl Fn(usize, usize) -> bool,
) {
    let mut freed_from_afar = std::collections::HashSet::new();
    let mut all_local = Vec::with_capacity(runners.len());
    for r in runners.iter_mut() {
        let me = r.index();
        all_local.push(r.mark_same_thread_peers(|peer| same_thread(me, peer)));
        freed_from_afar.extend(r.space_roots().filter(|&root| !same_thread(me, root)));
    }
    for (r, all_local) in runners.iter().zip(all_local) {
        r.signal()
            .set_polled_locally(all_local && !freed_from_afar.contains(&r.index()));
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

#[cfg(test)]
mod tests {
    use super::mark_local_polling;
    use crate::{Block, BoxError, Flowgraph, Map, Ports, StreamInput, StreamOutput, WorkIo};

    struct Src(StreamOutput<f32>);
    impl Block for Src {
        fn ports(&mut self) -> Ports<'_> {
            Ports::new().output(&mut self.0)
        }
        fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
            Ok(())
        }
    }

    struct Snk(StreamInput<f32>);
    impl Block for Snk {
        fn ports(&mut self) -> Ports<'_> {
            Ports::new().input(&mut self.0)
        }
        fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
            Ok(())
        }
    }

    /// src → map (in place) → {sink A, sink B}: the map's readers free the
    /// source's memory. With sink B on another thread, the source hears
    /// from that thread and must keep its fence, though its only stream
    /// peer (the map) is local; with every block on one thread, it may
    /// skip it.
    #[test]
    fn a_writer_whose_memory_is_freed_from_another_thread_keeps_its_fence() {
        let mut fg = Flowgraph::new();
        let src = fg.add(Src(StreamOutput::new("out")));
        let map = fg.add(Map::new(|x: f32| x + 1.0));
        let a = fg.add(Snk(StreamInput::new("in")));
        let b = fg.add(Snk(StreamInput::new("in")));
        fg.chain(&[src, map, a]).unwrap();
        fg.connect(map, "out", b, "in").unwrap();
        let mut runners = crate::flowgraph::build::build(fg).unwrap().runners;
        let src_signal = runners[src.0].signal().clone();
        assert!(
            runners[b.0].space_roots().any(|r| r == src.0),
            "the map must work in place for this test"
        );
        let thread = |block: usize| usize::from(block == b.0);
        mark_local_polling(&mut runners, |x, y| thread(x) == thread(y));
        assert!(!src_signal.is_polled_locally());
        assert!(runners[a.0].signal().is_polled_locally());
        mark_local_polling(&mut runners, |_, _| true);
        assert!(src_signal.is_polled_locally());
    }
}
