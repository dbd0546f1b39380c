//! The `chain` scheduler's online refinement: after a calibration window,
//! re-partition from the measured time each block spent in `work`.
//!
//! The first partition assumes every block costs the same (or uses costs
//! the caller supplied). Real blocks differ by orders of magnitude, and a
//! block's cost also depends on where it runs: a source that overwrites
//! ring lines another core touched last pays for moving them. So `chain`
//! runs the first partition for [`Refine::warmup`], measures time in
//! `work` per block over [`Refine::window`], pauses every worker between
//! two rounds, and applies the partition those costs give when it
//! promises a clearly shorter critical core ([`Refine::min_gain`]).
//!
//! This module owns the decision and the pieces that let a block change
//! worker: `WorkerWaker`, a waker that follows its block.

use super::partition::{Node, Partition, partition};
use crate::signal::Wake;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::Thread;
use std::time::Duration;

/// When and how `chain` refines its partition.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Refine {
    /// Run time before measuring: first calls fault in ring pages and fill
    /// caches, and are not representative.
    pub warmup: Duration,
    /// How long costs are measured.
    pub window: Duration,
    /// The refined partition is applied only if its most loaded core
    /// costs less than `1 - min_gain` times the current one's (at the
    /// measured costs), so noise never makes blocks migrate.
    pub min_gain: f64,
    /// A graph whose blocks together keep less than this share of one
    /// core busy (time in `work` and handlers over the window's wall
    /// time, summed over every core) moves onto one core: a light graph
    /// gains nothing from a second core and pays a cross-core wake-up on
    /// every item that crosses. 0 never merges.
    pub light_load: f64,
}

impl Default for Refine {
    /// 2 ms of warm-up and 8 ms of measurement: long enough for hundreds of
    /// `work` calls per block on cache-sized chunks, short enough that
    /// a run of a few tens of milliseconds spends most of its time on the
    /// refined partition. A 25 % gain at least: time in `work` misses the
    /// cost of lines moving between cores, which lands on whichever block
    /// touches them first; on the saxpy chain (12 equal blocks, 2 cores)
    /// acting on 10 % predicted gains made runs 7 % slower. Graphs under
    /// half a core merge onto one: measured on two cores split, time in
    /// `work` includes lines moving between them, which merged blocks no
    /// longer pay, so half a core split is well under one merged.
    fn default() -> Self {
        Self {
            warmup: Duration::from_millis(2),
            window: Duration::from_millis(8),
            min_gain: 0.25,
            light_load: 0.5,
        }
    }
}

/// A block's waker that wakes whichever worker runs the block now. The
/// worker changes only while every worker is paused; a wake-up racing
/// with the change may unpark the old worker, which costs the new one at
/// most one capped park (`LOCAL_POLL_INTERVAL`).
pub(crate) struct WorkerWaker {
    worker: AtomicUsize,
    threads: Arc<[Thread]>,
}

impl WorkerWaker {
    /// A waker for a block run by worker `worker` of `threads`.
    pub(crate) fn new(threads: Arc<[Thread]>, worker: usize) -> Arc<Self> {
        Arc::new(Self {
            worker: AtomicUsize::new(worker),
            threads,
        })
    }

    /// The block moves to worker `worker`.
    pub(crate) fn move_to(&self, worker: usize) {
        self.worker.store(worker, Ordering::Release);
    }

    /// The thread a wake-up goes to now.
    fn target(&self) -> &Thread {
        &self.threads[self.worker.load(Ordering::Acquire)]
    }
}

impl Wake for WorkerWaker {
    fn wake(&self) {
        self.target().unpark();
    }
}

/// Cost of the most loaded part of `plan` at `costs` (per node).
pub fn critical_cost(plan: &Partition, costs: &[f64]) -> f64 {
    plan.parts
        .iter()
        .map(|members| members.iter().map(|&b| costs[b]).sum::<f64>())
        .fold(0.0, f64::max)
}

/// Every block of `nodes` on the first of `parts` cores, the others idle:
/// the partition of a light graph (see [`Refine::light_load`]), with
/// `load` (cores' worth of time in `work`) as its reason.
pub fn on_one_core(nodes: &[Node], parts: usize, load: f64) -> Partition {
    let mut one = partition(nodes, 1);
    one.reasons = vec![vec![format!(
        "the graph keeps {:.0} % of one core busy: one core keeps up, and no item crosses cores",
        load * 100.0
    )]];
    one.parts.resize(parts.max(1), Vec::new());
    one.reasons.resize(parts.max(1), Vec::new());
    one
}

/// `nodes` with their costs replaced by `costs` (per node).
pub fn with_costs(nodes: &[Node], costs: &[f64]) -> Vec<Node> {
    nodes
        .iter()
        .zip(costs)
        .map(|(n, &cost)| Node {
            cost: cost.max(1e-9),
            ..n.clone()
        })
        .collect()
}

/// The partition that `measured` costs (per node, any unit) give for
/// `nodes` on `parts` cores, if it beats `current` by `min_gain`.
pub fn refined(
    nodes: &[Node],
    measured: &[f64],
    current: &Partition,
    parts: usize,
    min_gain: f64,
) -> Option<Partition> {
    let candidate = partition(&with_costs(nodes, measured), parts);
    let now = critical_cost(current, measured);
    let then = critical_cost(&candidate, measured);
    (then < now * (1.0 - min_gain)).then_some(candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A linear chain of `costs.len()` nodes.
    fn chain(costs: &[f64]) -> Vec<Node> {
        (0..costs.len())
            .map(|i| Node {
                cost: 1.0,
                downstream: if i + 1 < costs.len() {
                    vec![i + 1]
                } else {
                    Vec::new()
                },
                name: format!("b{i}"),
            })
            .collect()
    }

    #[test]
    fn heavy_neighbours_are_split() {
        let measured = [1.0, 10.0, 10.0, 1.0, 1.0, 1.0, 1.0, 1.0];
        let nodes = chain(&measured);
        let equal = partition(&nodes, 2);
        let better = refined(&nodes, &measured, &equal, 2, 0.1).expect("refined");
        assert!(critical_cost(&better, &measured) < critical_cost(&equal, &measured));
        let part_of = better.part_of(measured.len());
        assert_ne!(part_of[1], part_of[2], "{:?}", better.parts);
        // Whole chain still covered, in order.
        let mut all: Vec<usize> = better.parts.concat();
        all.sort_unstable();
        assert_eq!(all, (0..8).collect::<Vec<_>>());
    }

    #[test]
    fn a_light_graph_goes_onto_the_first_core() {
        let nodes = chain(&[1.0; 6]);
        let one = on_one_core(&nodes, 2, 0.12);
        assert_eq!(one.parts, vec![(0..6).collect::<Vec<_>>(), Vec::new()]);
        assert_eq!(one.cut_edges, 0);
        assert!(one.reasons[0][0].contains("12 %"), "{:?}", one.reasons);
        assert_eq!(one.part_of(6), vec![0; 6]);
    }

    #[test]
    fn small_differences_keep_the_partition() {
        let measured = [1.0, 1.05, 0.97, 1.0, 1.02, 0.99];
        let nodes = chain(&measured);
        let equal = partition(&nodes, 2);
        assert_eq!(refined(&nodes, &measured, &equal, 2, 0.1), None);
    }

    #[test]
    fn waker_follows_its_block() {
        let other = std::thread::spawn(|| ());
        let threads: Arc<[Thread]> = vec![std::thread::current(), other.thread().clone()].into();
        let waker = WorkerWaker::new(threads, 0);
        assert_eq!(waker.target().id(), std::thread::current().id());
        waker.move_to(1);
        assert_eq!(waker.target().id(), other.thread().id());
        other.join().unwrap();
    }
}
