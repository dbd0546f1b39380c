//! [`Placement`]: which worker (thread), pinned to which core, runs which
//! block of a running flowgraph, as its scheduler reports it through a
//! [`PlacementView`] (see [`Scheduler::placement`](super::Scheduler::placement)).
//! A control port or user interface shows it beside the blocks' load.
//!
//! Every block of the graph is in exactly one worker: a block the
//! scheduler runs on a thread of its own (a blocking block), or has not
//! placed yet, is a worker of its own with no core.

use serde::Serialize;
use std::sync::Arc;

/// One worker thread and the blocks it runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Worker {
    /// The core it is pinned to (`None`: not pinned to one core).
    pub core: Option<usize>,
    /// The blocks it runs (topology block ids).
    pub blocks: Vec<usize>,
}

/// Which worker runs which block, now.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Placement {
    /// Every worker; each block is in exactly one.
    pub workers: Vec<Worker>,
    /// Runs of blocks (ids, in stream order) that run data-parallel on
    /// the cores of several workers (`chain`'s segments).
    pub parallel_segments: Vec<Vec<usize>>,
}

impl Placement {
    /// Adds a worker with no core for each of the `blocks` blocks that no
    /// worker has yet, so that every block is in one.
    pub(crate) fn complete(mut self, blocks: usize) -> Self {
        let mut placed = vec![false; blocks];
        for w in &self.workers {
            for &b in &w.blocks {
                if let Some(p) = placed.get_mut(b) {
                    *p = true;
                }
            }
        }
        self.workers.extend(
            placed
                .iter()
                .enumerate()
                .filter(|(_, p)| !**p)
                .map(|(b, _)| Worker {
                    core: None,
                    blocks: vec![b],
                }),
        );
        self
    }
}

/// A live view of a run's placement: each [`get`](Self::get) says where
/// blocks run now (a scheduler that refines its partition mid-run moves
/// them). Cheap to clone.
#[derive(Clone)]
pub struct PlacementView(Arc<dyn Fn() -> Placement + Send + Sync>);

impl PlacementView {
    /// A view that asks `now` each time.
    pub fn new(now: impl Fn() -> Placement + Send + Sync + 'static) -> Self {
        Self(Arc::new(now))
    }

    /// A view of a placement that never changes.
    pub fn fixed(placement: Placement) -> Self {
        Self::new(move || placement.clone())
    }

    /// The placement now.
    pub fn get(&self) -> Placement {
        (self.0)()
    }
}

impl std::fmt::Debug for PlacementView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("PlacementView").field(&self.get()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Flowgraph;
    use crate::scheduler::{Chain, Scheduler, Single, Tpb};
    use crate::test_blocks::{Sink, Source};
    use std::time::Duration;

    /// source → sink, source → blocking sink, a second source → sink.
    fn graph() -> Flowgraph {
        let mut fg = Flowgraph::new();
        let a = fg.add(Source::new(1 << 16));
        let b = fg.add(Sink::new(false));
        let c = fg.add(Sink::new(true));
        fg.connect(a, "out", b, "in").unwrap();
        fg.connect(a, "out", c, "in").unwrap();
        let d = fg.add(Source::new(1 << 16));
        let e = fg.add(Sink::new(false));
        fg.connect(d, "out", e, "in").unwrap();
        fg
    }

    /// Every block id appears exactly once over the workers.
    fn each_once(p: &Placement, blocks: usize) {
        let mut seen: Vec<usize> = p.workers.iter().flat_map(|w| w.blocks.clone()).collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..blocks).collect::<Vec<_>>(), "{p:?}");
    }

    /// Runs the graph on `scheduler` and returns its placement during the
    /// run and at the end.
    fn placed(scheduler: impl Scheduler) -> Placement {
        let fg = graph();
        let running = fg.start(scheduler).unwrap();
        let handle = running.handle();
        let during = handle.placement().expect("a placement");
        running.wait_timeout(Duration::from_secs(60)).unwrap();
        each_once(&during, 5);
        handle.placement().unwrap()
    }

    #[test]
    fn chain_places_every_block_once_on_its_cores() {
        let p = placed(Chain::new().on_cores(&[0, 1]).static_partition());
        each_once(&p, 5);
        // The blocking sink runs on a thread of its own.
        assert!(p.workers.contains(&Worker {
            core: None,
            blocks: vec![2]
        }));
        let pinned: Vec<_> = p.workers.iter().filter_map(|w| w.core).collect();
        assert_eq!(pinned, vec![0, 1], "{p:?}");
    }

    #[test]
    fn tpb_runs_each_block_on_its_own_worker() {
        let p = placed(Tpb::new().pin(crate::BlockId(1), &[0]));
        each_once(&p, 5);
        assert_eq!(p.workers.len(), 5);
        assert_eq!(p.workers[1].core, Some(0));
        assert_eq!(p.workers[0].core, None);
    }

    #[test]
    fn single_runs_all_but_blocking_blocks_on_one_worker() {
        let p = placed(Single::new());
        each_once(&p, 5);
        assert_eq!(p.workers[0].blocks, vec![0, 1, 3, 4]);
        assert_eq!(p.workers.len(), 2);
    }
}
