//! The block trait: what a signal-processing component implements.
//!
//! This module owns [`Block`], the per-call [`WorkIo`] a block uses to tell
//! the runtime it finished or wants a timer, and the [`TagPolicy`]. Helpers
//! for 1:1, decimating and interpolating blocks live in [`fixed_rate`] and
//! [`map`]; declared parameters, which messages may change while the block
//! runs, in [`params`](crate::params).

pub mod copy_items;
pub mod fixed_rate;
pub mod map;
pub mod stateless;
pub mod vectorize;

use crate::error::BoxError;
use crate::pmt::Pmt;
use crate::port::Ports;
pub use crate::signal::Waker;
use std::any::Any;
use std::time::Instant;

/// What a block tells the runtime about the call that just returned.
#[derive(Debug, Default)]
pub struct WorkIo {
    pub(crate) finished: bool,
    pub(crate) call_again_at: Option<Instant>,
    pub(crate) in_flight: bool,
}

impl WorkIo {
    /// The block will produce nothing more: the runtime finishes it, and its
    /// readers finish once they have consumed everything it wrote.
    pub fn finish(&mut self) {
        self.finished = true;
    }

    /// Run the block again at `at` even if no data or space arrives (timers,
    /// rate limiting). The earliest request of a call wins.
    pub fn call_again_at(&mut self, at: Instant) {
        self.call_again_at = Some(self.call_again_at.map_or(at, |t| t.min(at)));
    }

    /// The block has work in flight outside the flowgraph (device commands,
    /// I/O) whose completion will wake it through its [`Waker`]. Until a
    /// call returns without this, the runtime never concludes that the block
    /// is stuck and finishes it for want of input.
    pub fn in_flight(&mut self) {
        self.in_flight = true;
    }

    /// True once [`finish`](Self::finish) was called.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The block asked for a timer or has work in flight: it may hold
    /// items it consumed, and only it can end itself.
    pub(crate) fn is_waiting(&self) -> bool {
        self.call_again_at.is_some() || self.in_flight
    }
}

/// How the runtime moves tags from a block's inputs to its outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagPolicy {
    /// Every tag consumed on any input is copied to every output with its
    /// index scaled by `interpolation / decimation` (1:1 blocks: unchanged).
    Propagate {
        /// Output items per `decimation` input items.
        interpolation: u64,
        /// Input items per `interpolation` output items.
        decimation: u64,
    },
    /// The block handles tags itself.
    Manual,
}

impl TagPolicy {
    /// Propagation for a 1:1 block.
    pub const ONE_TO_ONE: TagPolicy = TagPolicy::Propagate {
        interpolation: 1,
        decimation: 1,
    };
}

/// A signal-processing block.
///
/// A block is a plain struct holding its ports as fields. The runtime calls
/// [`work`](Self::work) whenever an input gained items, an output gained
/// space, a message arrived, or a requested timer expired. `work` must not
/// block: it processes what its slices show and returns.
///
/// ```
/// use rfgraph::{Block, BoxError, Ports, StreamInput, StreamOutput, WorkIo};
///
/// struct Double { input: StreamInput<f32>, output: StreamOutput<f32> }
///
/// impl Block for Double {
///     fn ports(&mut self) -> Ports<'_> {
///         Ports::new().input(&mut self.input).output(&mut self.output)
///     }
///     fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
///         let i = self.input.slice();
///         let o = self.output.slice();
///         let n = i.len().min(o.len());
///         for (o, i) in o[..n].iter_mut().zip(i) { *o = 2.0 * i; }
///         self.input.consume(n);
///         self.output.produce(n);
///         Ok(())
///     }
/// }
/// ```
pub trait Block: Any + Send {
    /// Declares the block's ports, in a fixed order.
    fn ports(&mut self) -> Ports<'_>;

    /// Called once, before [`init`](Self::init), with a handle that makes
    /// this block runnable from any thread: device completion callbacks,
    /// I/O threads. Blocks that only react to their ports ignore it.
    fn attach_waker(&mut self, _waker: Waker) {}

    /// Called once on every block before any block runs.
    fn init(&mut self) -> Result<(), BoxError> {
        Ok(())
    }

    /// Processes what is available. The hot method.
    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        Ok(())
    }

    /// Handles a message that arrived on message input `port`. The returned
    /// value is the reply to a caller awaiting one.
    fn handle_message(&mut self, port: &str, _msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        Err(format!("no handler for message input `{port}`").into())
    }

    /// Called once when the runtime finishes this block (its own
    /// `io.finish()`, a finish rule, a stop or a failure), right before it
    /// hands the block's input items back to their writers and ends its
    /// outputs. A block with work in flight that still reads its input
    /// items or writes its output items (a device copy from host memory)
    /// waits for it here: once this returns, the writers may reuse that
    /// memory at once.
    fn finishing(&mut self) {}

    /// Called once on every block after all blocks are done.
    fn deinit(&mut self) -> Result<(), BoxError> {
        Ok(())
    }

    /// The block's parameters: the struct of its declared parameters
    /// (see [`params`](crate::params)). The runtime gives each settable
    /// one a message input of its name and applies what arrives there
    /// between two `work` calls; the registry, the control port and the
    /// bindings read the declarations and current values. Blocks with
    /// parameters return the struct they hold: `Some(&mut self.params)`.
    fn params(&mut self) -> Option<&mut dyn crate::params::ParamSet> {
        None
    }

    /// Called between two `work` calls after settable parameter `name`
    /// took a new value (already in the struct [`params`](Self::params)
    /// returns): the block updates what it derives from it (an NCO's
    /// step, a filter's taps). An error undoes the change and goes back to
    /// the sender; the block must then be as it was before the call.
    fn params_changed(&mut self, _name: &str) -> Result<(), BoxError> {
        Ok(())
    }

    /// Counters of the block's own (a device's overflows, a decoder's
    /// frames), by name, reported with its statistics
    /// ([`BlockStats::counters`](crate::BlockStats)). Called once, when
    /// the flowgraph starts; the block bumps the atomics as it goes, and
    /// every snapshot reads them.
    fn counters(&self) -> Vec<(&'static str, std::sync::Arc<std::sync::atomic::AtomicU64>)> {
        Vec::new()
    }

    /// The names of the block's readings: values it measures while it
    /// runs (a probe's level, a synchronizer's frequency estimate), read
    /// through [`reading`](Self::reading). Unlike parameters, nothing sets
    /// them.
    fn readings(&self) -> &'static [&'static str] {
        &[]
    }

    /// The current value of reading `name` (one of
    /// [`readings`](Self::readings)), asked between two `work` calls
    /// ([`FlowgraphHandle::reading`](crate::FlowgraphHandle::reading));
    /// `None` for a name the block does not have.
    fn reading(&mut self, _name: &str) -> Option<Pmt> {
        None
    }

    /// How tags travel through this block.
    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::ONE_TO_ONE
    }

    /// True when the block never holds work back: once a call has taken
    /// every item its inputs offered (or fewer are left than an input's
    /// `min_items`), it has nothing to do until new items arrive. A
    /// scheduler that parks a thread per block then waits for input right
    /// after such a call instead of calling `work` once more to find it
    /// idle: one wake-up and one call per item hop. A block that keeps
    /// items of its own to emit later (a burst it releases over several
    /// calls, a timer) must say false, the default.
    fn idle_when_drained(&self) -> bool {
        false
    }

    /// For a block that moves its stream at a clock's pace (a throttle, a
    /// device, a paced source): the items per second it moves. The runtime
    /// sizes the queues near it from this so that the flowgraph's latency
    /// budget holds (see
    /// [`Flowgraph::set_max_latency`](crate::Flowgraph::set_max_latency));
    /// read once, when the flowgraph is built.
    fn paced_rate(&self) -> Option<f64> {
        None
    }

    /// True for blocks whose `work` may block on I/O (files, sockets,
    /// devices): every scheduler gives them a thread of their own.
    fn is_blocking(&self) -> bool {
        false
    }

    /// For a stateless 1:1 block with equal input and output item types:
    /// a shareable copy of its arithmetic, which lets the `chain`
    /// scheduler process chunks of this block's stream on several cores
    /// at once when the flowgraph lets it work in place (see
    /// [`stateless`]). Such a block must have no message ports, keep the
    /// default tag policy, and compute each item from that item alone.
    fn parallel_in_place(&self) -> Option<std::sync::Arc<dyn stateless::ParallelInPlace>> {
        None
    }
}
