//! [`GraphShape`]: what a scheduler sees of a flowgraph before it is
//! built, to plan ring sizes (see [`Scheduler::plan_buffer_bytes`]).
//!
//! [`Scheduler::plan_buffer_bytes`]: super::Scheduler::plan_buffer_bytes

/// The blocks and stream edges of a flowgraph, as a scheduler planning its
/// rings sees them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct GraphShape {
    /// Per block: it must get a thread of its own
    /// ([`Block::is_blocking`](crate::Block::is_blocking)).
    pub blocking: Vec<bool>,
    /// Per block: it offers stateless arithmetic that may run on several
    /// cores at once
    /// ([`Block::parallel_in_place`](crate::Block::parallel_in_place)).
    pub stateless: Vec<bool>,
    /// Stream edges as (writer, reader) block indices, in edge order.
    pub edges: Vec<(usize, usize)>,
    /// Some block moves its stream at a clock's pace
    /// ([`Block::paced_rate`](crate::Block::paced_rate)): the graph's
    /// load is set by that clock, not by how fast it can run.
    pub paced: bool,
}
