//! Blocks that measure time through a flowgraph, for `rfgraph bench
//! latency` and for tests: [`PacedSource`] releases bursts of numbered
//! items on a fixed schedule, as a USB radio hands over its transfers, and
//! records how late it was; [`LatencySink`] checks that every item arrives
//! in order and records when each burst's first and last item arrived.
//!
//! Items are `u32` sequence numbers (item `i` holds `i mod 2³²`), so any
//! stream block generic over its item (`Copy`) can stand between the two.
//! Both blocks keep [`Instant`](std::time::Instant)s (the monotonic
//! clock); latency is an arrival minus the burst's due time
//! ([`PacedSource::due`]). Neither is in the block registry: they exist
//! for measurement, not for flowgraph files.

mod latency_sink;
mod paced_source;

pub use latency_sink::{LatencySink, SequenceError};
pub use paced_source::{PacedSource, Pacing};
