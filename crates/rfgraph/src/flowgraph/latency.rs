//! [`LatencyReport`]: what a run says about its latency budget: the caps
//! the budget put on each edge (see [`budget`](super::budget)) and where
//! the budget did not hold.
//!
//! The caps bound how long an item queues; what they cannot bound is a
//! clock served late (a paced block run after its timer by more than the
//! budget: a scheduler busy elsewhere, an overloaded machine) and an edge
//! whose blocks need more items at once than its share holds. Those are
//! reported. The end-to-end figure itself needs timestamps on the items,
//! which `rfgraph bench latency` measures.

use std::fmt;
use std::time::Duration;

/// The caps the budget set on one edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeCap {
    /// The writing block's instance name.
    pub writer: String,
    /// Its output port.
    pub port: String,
    /// The ring's capacity in items.
    pub capacity: usize,
    /// Most items the writer may have ahead of its slowest reader.
    pub fill: usize,
    /// Most items a port sees at once (the chunk limit, or the fill).
    pub batch: usize,
}

/// A paced block whose timers came later than the budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LateTimer {
    /// The block's instance name.
    pub block: String,
    /// Its worst lateness.
    pub worst: Duration,
    /// Its timers served later than the budget.
    pub over_budget: u64,
}

/// What a run reports about its latency budget.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LatencyReport {
    /// The budget the caps were sized for: the flowgraph's, or the paced
    /// default; `None` when no block is paced (nothing was capped).
    pub budget: Option<Duration>,
    /// Whether the flowgraph set the budget itself (only then is a miss
    /// reported as one).
    pub set: bool,
    /// The edges the budget capped below their ring.
    pub edges: Vec<EdgeCap>,
    /// Edges whose blocks need more than their share of the budget.
    pub short_shares: Vec<String>,
    /// Paced blocks whose timers came later than the budget.
    pub late_timers: Vec<LateTimer>,
}

impl LatencyReport {
    /// True when the flowgraph set a budget and the run could not keep
    /// to it.
    pub fn exceeded(&self) -> bool {
        self.set && (!self.short_shares.is_empty() || !self.late_timers.is_empty())
    }

    /// Adds the blocks of `stats` whose timers missed the budget.
    pub(crate) fn with_timers(mut self, stats: &[crate::BlockStats]) -> Self {
        self.late_timers = stats
            .iter()
            .filter(|s| s.timers_over_budget > 0)
            .map(|s| LateTimer {
                block: s.block.clone(),
                worst: Duration::from_nanos(s.timer_late_max_ns),
                over_budget: s.timers_over_budget,
            })
            .collect();
        self
    }
}

impl fmt::Display for LatencyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(budget) = self.budget else {
            return writeln!(f, "latency budget: no paced block, nothing capped");
        };
        let kind = if self.set { "set" } else { "paced default" };
        writeln!(f, "latency budget {budget:?} ({kind}):")?;
        for e in &self.edges {
            writeln!(
                f,
                "  `{}`.{}: at most {} of {} items queued, {} at once",
                e.writer, e.port, e.fill, e.capacity, e.batch
            )?;
        }
        for note in &self.short_shares {
            writeln!(f, "  exceeded: {note}")?;
        }
        for t in &self.late_timers {
            writeln!(
                f,
                "  exceeded: `{}` ran {} time(s) later than the budget after its timer (worst {:?})",
                t.block, t.over_budget, t.worst
            )?;
        }
        Ok(())
    }
}
