//! rfgraph: a software-defined-radio runtime.
//!
//! How the crates fit together, the runtime contract and the project's
//! rules: `docs/architecture.md` in the repository.
//!
//! Blocks ([`Block`]) with typed stream ports ([`StreamInput`],
//! [`StreamOutput`]) on lock-free double-mapped ring buffers, message ports
//! carrying [`Pmt`] values, stream [`Tag`]s, and pluggable
//! [`schedulers`](scheduler). This crate knows nothing about DSP, devices or
//! the command line.
//!
//! ```
//! use rfgraph::{Flowgraph, Map};
//! use rfgraph::scheduler::Tpb;
//! # use rfgraph::{Block, BoxError, Ports, StreamInput, StreamOutput, WorkIo};
//! # struct Src { out: StreamOutput<f32>, left: usize }
//! # impl Block for Src {
//! #   fn ports(&mut self) -> Ports<'_> { Ports::new().output(&mut self.out) }
//! #   fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
//! #     let o = self.out.slice(); let n = o.len().min(self.left);
//! #     o[..n].fill(1.0); self.out.produce(n); self.left -= n;
//! #     if self.left == 0 { io.finish() } Ok(()) }
//! # }
//! # struct Sum { input: StreamInput<f32>, total: f32 }
//! # impl Block for Sum {
//! #   fn ports(&mut self) -> Ports<'_> { Ports::new().input(&mut self.input) }
//! #   fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
//! #     let i = self.input.slice(); self.total += i.iter().sum::<f32>();
//! #     let n = i.len(); self.input.consume(n); Ok(()) }
//! # }
//! let mut fg = Flowgraph::new();
//! let src = fg.add(Src { out: StreamOutput::new("out"), left: 1000 });
//! let double = fg.add(Map::new(|x: f32| 2.0 * x));
//! let sum = fg.add(Sum { input: StreamInput::new("in"), total: 0.0 });
//! fg.chain(&[src, double, sum])?;
//! let done = fg.run(Tpb::new())?;
//! assert_eq!(done.block::<Sum>(sum).unwrap().total, 2000.0);
//! # Ok::<(), rfgraph::RunError>(())
//! ```

#![warn(missing_docs)]

// The derives name `::rfgraph::...`; this lets them work inside the crate.
extern crate self as rfgraph;

pub mod block;
pub mod buffer;
mod control;
pub mod cycles;
pub mod error;
pub mod flowgraph;
pub mod item;
pub mod message;
pub mod params;
pub mod pmt;
pub mod port;
pub mod registry;
pub mod runner;
pub mod scheduler;
pub mod signal;
pub mod stats;
pub mod tag;
#[cfg(test)]
mod test_blocks;

pub use block::copy_items::copy_items;
pub use block::fixed_rate::{FixedRateBlock, FixedRateKernel};
pub use block::map::{Map, MapParams, MapWith};
pub use block::stateless::{ParallelInPlace, StatelessMap};
pub use block::{Block, TagPolicy, Waker, WorkIo};
pub use buffer::MemoryDomain;
pub use error::{
    BoxError, GraphError, HandleError, ParamError, RunError, Stall, StalledBlock, StreamWait,
};
pub use flowgraph::latency::LatencyReport;
pub use flowgraph::{BlockId, Finished, Flowgraph, FlowgraphHandle, RunState, Running};
pub use item::{Item, ItemType};
pub use params::{ParamChoice, ParamSet, ParamType, ParamValue, PmtTypeError};
pub use pmt::Pmt;
pub use port::Ports;
pub use port::message::MessageOutput;
pub use port::stream::{StreamInput, StreamOutput};
pub use rfgraph_derive::{ParamChoice, ParamSet};
pub use runner::{BlockRunner, Step};
pub use scheduler::Scheduler;
pub use stats::BlockStats;
pub use tag::Tag;
