//! Per-block statistics: work calls, items, time in `work`, a
//! log2 histogram of items per call, messages, and the context switches of
//! the thread(s) that ran the block.
//!
//! Each block's live counters are atomics in a shared cell that anyone may
//! snapshot at any time. The thread running the block counts its `work`
//! calls in the runner's own memory and adds them to the cell in batches,
//! so a call costs a few plain adds and touches no shared line. The parts:
//! - `report`: [`BlockStats`], the snapshot a run reports;
//! - `thread_usage`: [`ThreadUsage`], a thread's context switches;
//! - `cpu_time`: [`CpuTime`], the whole process's CPU time (for
//!   benchmarks);
//! - `rusage`: the one reader of the kernel's counters both use;
//! - `sampler`: which `work` calls get timed;
//! - `tally`: the batch of `work` counters a runner keeps;
//! - `cell`: the shared counters and the estimates made from them.
//!
//! Statistics must never make a block call lock, allocate, make a system
//! call or write a shared line: all of that happens once per batch, per
//! thread or per snapshot.

mod cell;
mod cpu_time;
mod report;
mod rusage;
mod sampler;
mod tally;
mod thread_usage;

pub(crate) use cell::StatsCell;
pub use cpu_time::CpuTime;
pub use report::{BlockStats, HISTOGRAM_BUCKETS};
pub(crate) use sampler::TimingSampler;
pub use sampler::{ALWAYS_TIMED_CALLS, MAX_TIMING_PERIOD, TIMING_PERIOD};
pub use tally::TALLY_CALLS;
pub(crate) use tally::WorkTally;
pub use thread_usage::ThreadUsage;
