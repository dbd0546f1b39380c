//! The latency budget: how much of a stream may queue on each edge of a
//! paced flowgraph, in items, so that an item due at a clock (a radio's
//! burst, a throttle's release) reaches the sink within the budget.
//!
//! Latency only means something against a clock, so the budget acts on
//! the edges a *paced* block reaches: one that declares the rate it waits
//! on ([`Block::paced_rate`](crate::Block::paced_rate): a throttle, a
//! device, a paced source). That rate is carried along the stream edges in
//! both directions, each block taken as 1:1 (the nearest paced block
//! wins). Each edge holds at most its rate times its share of the
//! budget: the **fill cap** (see
//! [`EdgeBuffer::limit_fill`](crate::buffer::EdgeBuffer::limit_fill)).
//! That also caps the **batch** (the most items a port sees at once): a
//! reader never sees more than its writer may have ahead of it.
//!
//! The share depends on how many queues can be full at once. Upstream of a
//! block that consumes at a clock's pace (a throttle, a device sink),
//! every edge fills: the paced block pulls, everything behind it waits.
//! An edge on such a path shares the budget with every edge of the
//! longest path through it that ends at the paced block. An edge no paced
//! block pulls on (downstream of a paced source, of a throttle) is empty
//! while the graph keeps up, and fills only behind a bottleneck, one such
//! queue at a time: it gets half the budget, the other half being the
//! blocks' own work.
//!
//! An in-place chain holds its items in its first ring, so that ring's cap
//! is the sum of the chain's shares, and the chain's later edges need no
//! cap of their own: what flows through them is what that ring let in.
//! Halving batches further (so a writer fills one half while its reader
//! takes the other) was tried and dropped: on one core it only adds calls
//! (a burst through 40 copies at 1 MS/s took 4× longer at the last item),
//! and a thread per block fell behind its source altogether. No cap goes
//! below what the edge's blocks need to move at all (their `min_items`);
//! where that floor is longer than the share, the run says so (see
//! [`LatencyReport::short_shares`](super::latency::LatencyReport::short_shares)).
//!
//! The caps are sized once, when the flowgraph starts: a paced block's
//! rate changed while it runs keeps the old caps, and a decimator between
//! a paced block and an edge makes that edge's share longer or shorter
//! than planned by its factor (items are counted 1:1). A tight budget on a
//! graph whose branches rejoin also makes the stall watch's "ring too
//! small" error likelier: a branch that must hold more than its cap before
//! the join moves (a delay, a skip) deadlocks at the cap, not at the ring.
//!
//! A paced graph without a budget gets [`PACED_DEFAULT`]: a throttle at
//! 32 kS/s behind 64 Ki-item rings would otherwise hold two seconds of
//! stale samples, and a change of setting would take that long to reach
//! the sink. At radio rates the default caps nothing (its share holds more
//! than the rings). A graph with no paced block runs as fast as it can and
//! is not capped: its items wait on throughput, not on a clock.

use super::Flowgraph;
use super::in_place::{OutputGroup, owner};
use super::latency::LatencyReport;
use std::time::Duration;

/// The budget of a paced flowgraph that sets none: 200 ms, under GNU
/// Radio's own delay on a throttled simulation graph (0.28 s on the
/// 32 kS/s `sig_source → low_pass_filter → throttle` graph).
pub const PACED_DEFAULT: Duration = Duration::from_millis(200);

/// What the budget gives each output group.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct BudgetPlan {
    /// Per group: the fill cap of its ring, which is also its batch cap
    /// (owners of memory only: see the module doc).
    pub(crate) fill: Vec<Option<usize>>,
    /// Edges whose blocks need more than their share, in words.
    pub(crate) notes: Vec<String>,
}

/// The fill cap of each of `fg`'s `groups` (see
/// [`in_place::plan`](super::in_place::plan) for `reuses`), and the run's
/// report as far as the plan knows it (the budget, the short shares; the
/// build adds the caps it applied); `floors[g]`: the fewest items group
/// `g`'s ring must be able to hold for its blocks to move.
pub(crate) fn plan(
    fg: &mut Flowgraph,
    groups: &[OutputGroup],
    reuses: &[Option<usize>],
    floors: &[usize],
) -> (Vec<Option<usize>>, LatencyReport) {
    let paced: Vec<Option<f64>> = fg
        .blocks
        .iter()
        .map(|b| b.block.paced_rate().filter(|r| r.is_finite() && *r > 0.0))
        .collect();
    let edges: Vec<(usize, usize)> = fg.streams.iter().map(|e| (e.src, e.dst)).collect();
    let budget = fg.max_latency.unwrap_or(PACED_DEFAULT);
    let names: Vec<String> = fg.blocks.iter().map(|b| b.name.clone()).collect();
    let writers: Vec<usize> = groups.iter().map(|((src, _), _)| *src).collect();
    let plan = caps(
        &Graph { paced, edges },
        &writers,
        reuses,
        floors,
        budget,
        &names,
    );
    let report = LatencyReport {
        budget: plan.fill.iter().any(Option::is_some).then_some(budget),
        set: fg.max_latency.is_some(),
        short_shares: plan.notes,
        ..LatencyReport::default()
    };
    (plan.fill, report)
}

/// The stream graph as the budget sees it.
struct Graph {
    /// Per block: the rate it paces at.
    paced: Vec<Option<f64>>,
    /// Stream edges (writer, reader).
    edges: Vec<(usize, usize)>,
}

impl Graph {
    /// Per block: the rate of the nearest paced block along stream edges
    /// either way (breadth first; ties go to the lower block index).
    fn rates(&self) -> Vec<Option<f64>> {
        let n = self.paced.len();
        let mut rate = self.paced.clone();
        let mut frontier: Vec<usize> = (0..n).filter(|&b| rate[b].is_some()).collect();
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &b in &frontier {
                for &(s, d) in &self.edges {
                    let other = if s == b {
                        d
                    } else if d == b {
                        s
                    } else {
                        continue;
                    };
                    if rate[other].is_none() {
                        rate[other] = rate[b];
                        next.push(other);
                    }
                }
            }
            frontier = next;
        }
        rate
    }

    /// Per block: the edges of the longest path from a block without
    /// inputs to it.
    fn depth_from_sources(&self) -> Vec<usize> {
        let mut depth = vec![0usize; self.paced.len()];
        // Stream graphs are acyclic; a cycle stops after one pass a block.
        for _ in 0..self.paced.len() {
            let mut changed = false;
            for &(s, d) in &self.edges {
                if depth[d] < depth[s] + 1 {
                    depth[d] = depth[s] + 1;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        depth
    }

    /// Per block: the edges of the longest path from it to a paced block
    /// downstream (0 for a paced block), if any.
    fn depth_to_paced(&self) -> Vec<Option<usize>> {
        let mut depth: Vec<Option<usize>> = self.paced.iter().map(|p| p.map(|_| 0)).collect();
        for _ in 0..self.paced.len() {
            let mut changed = false;
            for &(s, d) in &self.edges {
                let through = depth[d].map(|k| k + 1);
                if through > depth[s] && self.paced[s].is_none() {
                    depth[s] = through;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        depth
    }

    /// Per block: how many queues the budget is shared with on its
    /// outputs (see the module doc): the edges of the longest path
    /// through its output that ends at a paced block pulling on it, or 2
    /// (half the budget) when none pulls.
    fn queues(&self) -> Vec<usize> {
        let from = self.depth_from_sources();
        let to = self.depth_to_paced();
        (0..self.paced.len())
            .map(|w| {
                self.edges
                    .iter()
                    .filter(|&&(s, _)| s == w)
                    .filter_map(|&(_, d)| to[d].map(|k| from[w] + 1 + k))
                    .max()
                    .unwrap_or(2)
                    .max(1)
            })
            .collect()
    }
}

/// The caps for groups written by `writers` (per group).
fn caps(
    graph: &Graph,
    writers: &[usize],
    reuses: &[Option<usize>],
    floors: &[usize],
    budget: Duration,
    names: &[String],
) -> BudgetPlan {
    let groups = writers.len();
    let mut plan = BudgetPlan {
        fill: vec![None; groups],
        notes: Vec::new(),
    };
    if graph.paced.iter().all(Option::is_none) {
        return plan;
    }
    let rates = graph.rates();
    let queues = graph.queues();
    for g in 0..groups {
        let w = writers[g];
        let Some(rate) = rates[w] else { continue };
        let share = budget.as_secs_f64() / queues[w] as f64;
        // Items the group may hold: its rate over its share of the budget.
        let items = (rate * share).ceil().min(usize::MAX as f64 / 4.0) as usize;
        let floor = floors[g].max(1);
        let root = owner(reuses, g);
        let total = plan.fill[root].unwrap_or(0).saturating_add(items);
        plan.fill[root] = Some(total);
        if floor > items {
            plan.notes.push(format!(
                "the output of `{}` needs {floor} items to move ({:.3} ms at {rate} items/s), more than its {:.3} ms share of the {:?} latency budget",
                names[writers[g]],
                floor as f64 / rate * 1e3,
                share * 1e3,
                budget
            ));
        }
    }
    for (fill, &floor) in plan.fill.iter_mut().zip(floors) {
        if let Some(fill) = fill {
            *fill = (*fill).max(floor.max(1));
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|b| format!("b{b}")).collect()
    }

    /// `n` blocks in a line, block `paced_at` paced at `rate`.
    fn line(n: usize, paced_at: usize, rate: f64) -> Graph {
        let mut paced = vec![None; n];
        paced[paced_at] = Some(rate);
        Graph {
            paced,
            edges: (0..n - 1).map(|b| (b, b + 1)).collect(),
        }
    }

    #[test]
    fn edges_a_paced_block_pulls_on_share_the_budget() {
        // Three blocks → throttle (32 kS/s) → head → sink: the three edges
        // before the throttle fill together, a third of 200 ms each; the
        // two after it stay empty unless a bottleneck fills one: half.
        let graph = line(6, 3, 32_000.0);
        let writers = [0, 1, 2, 3, 4];
        let plan = caps(
            &graph,
            &writers,
            &[None; 5],
            &[2; 5],
            Duration::from_millis(200),
            &names(6),
        );
        let third = (32_000.0_f64 * 0.2 / 3.0).ceil() as usize;
        assert_eq!(third, 2134);
        assert_eq!(
            plan.fill,
            vec![
                Some(third),
                Some(third),
                Some(third),
                Some(3200),
                Some(3200)
            ]
        );
        assert!(plan.notes.is_empty());
    }

    #[test]
    fn an_in_place_chain_holds_its_shares_in_its_first_ring() {
        let graph = line(4, 0, 1e6);
        // Groups 1 and 2 reuse group 0's ring.
        let reuses = [None, Some(0), Some(1)];
        let plan = caps(
            &graph,
            &[0, 1, 2],
            &reuses,
            &[2; 3],
            Duration::from_millis(3),
            &names(4),
        );
        // Nothing pulls: half of 3 ms at 1 MS/s per edge, three edges.
        assert_eq!(plan.fill, vec![Some(4500), None, None]);
    }

    /// A budget meant as "unlimited" saturates instead of overflowing the
    /// sum of an in-place chain's shares.
    #[test]
    fn a_huge_budget_saturates() {
        let graph = line(7, 0, 1e15);
        let reuses = [None, Some(0), Some(1), Some(2), Some(3), Some(4)];
        let plan = caps(
            &graph,
            &[0, 1, 2, 3, 4, 5],
            &reuses,
            &[2; 6],
            Duration::MAX,
            &names(7),
        );
        assert_eq!(plan.fill[0], Some(usize::MAX));
    }

    #[test]
    fn floors_win_over_shares_and_are_reported() {
        let graph = line(2, 0, 1000.0);
        let plan = caps(
            &graph,
            &[0],
            &[None],
            &[64],
            Duration::from_millis(2),
            &names(2),
        );
        assert_eq!(plan.fill, vec![Some(64)]);
        assert_eq!(plan.notes.len(), 1, "{:?}", plan.notes);
        assert!(plan.notes[0].contains("`b0`"), "{}", plan.notes[0]);
    }

    #[test]
    fn unpaced_graphs_and_unreached_branches_are_not_capped() {
        let mut graph = line(3, 0, 1e6);
        graph.paced[0] = None;
        let plan = caps(
            &graph,
            &[0, 1],
            &[None; 2],
            &[1; 2],
            Duration::from_millis(1),
            &names(3),
        );
        assert_eq!(plan.fill, vec![None; 2]);
        // Two components: only the paced one is capped.
        let graph = Graph {
            paced: vec![Some(1e6), None, None, None],
            edges: vec![(0, 1), (2, 3)],
        };
        let plan = caps(
            &graph,
            &[0, 2],
            &[None; 2],
            &[1; 2],
            Duration::from_millis(1),
            &names(4),
        );
        assert_eq!(plan.fill, vec![Some(500), None]);
    }

    #[test]
    fn the_longest_pulled_path_sets_the_share() {
        // A diamond 0 → {1 → 2, 3} → 4 into a paced sink: the longest path
        // has 3 edges; the short branch's last edge lies on a path of 2.
        let graph = Graph {
            paced: vec![None, None, None, None, Some(3000.0)],
            edges: vec![(0, 1), (1, 2), (2, 4), (0, 3), (3, 4)],
        };
        assert_eq!(graph.queues(), vec![3, 3, 3, 2, 2]);
        let rates = graph.rates();
        assert!(rates.iter().all(|r| *r == Some(3000.0)), "{rates:?}");
    }
}
