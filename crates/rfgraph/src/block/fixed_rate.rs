//! Helpers for fixed-rate blocks: write the per-item arithmetic, get a block.
//!
//! A [`FixedRateKernel`] maps whole groups of `decimation` input items to
//! groups of `interpolation` output items. [`FixedRateBlock`] wraps it into
//! a [`Block`] that sizes the slices, consumes, produces and propagates tags
//! with the right rate, and exposes the kernel's declared parameters
//! ([`FixedRateKernel::params`]) as the block's. [`Map`](super::map::Map) is the 1:1 case for a closure.
//!
//! (The DSP crate's streaming kernels, with their own consumed/produced
//! counts, have their own wrapper in the block library.)

use super::stateless::ParallelInPlace;
use super::{Block, TagPolicy, WorkIo};
use crate::error::{BoxError, ParamError};
use crate::item::Item;
use crate::params::ParamSet;
use crate::port::Ports;
use crate::port::stream::{StreamInput, StreamOutput};
use std::sync::Arc;

/// Fixed-rate processing of one input stream into one output stream.
pub trait FixedRateKernel: Send + 'static {
    /// Input item type.
    type In: Item;
    /// Output item type.
    type Out: Item;
    /// Output items per group.
    fn interpolation(&self) -> usize {
        1
    }
    /// Input items per group.
    fn decimation(&self) -> usize {
        1
    }
    /// Processes `input.len() / decimation` groups into `output`, whose
    /// length is exactly `groups * interpolation`.
    fn process(&mut self, input: &[Self::In], output: &mut [Self::Out]);

    /// True when [`process_in_place`](Self::process_in_place) works: a 1:1
    /// kernel whose output type is its input type. The runtime then lets
    /// the block overwrite its input items with the results when nothing
    /// else reads them, sparing a ring and a pass over memory.
    fn supports_in_place(&self) -> bool {
        false
    }

    /// Replaces every item of `data` with its result. Called only when
    /// [`supports_in_place`](Self::supports_in_place) is true.
    fn process_in_place(&mut self, _data: &mut [Self::In]) {
        unreachable!("process_in_place on a kernel that does not support it")
    }

    /// A shareable copy of a stateless in-place kernel's arithmetic (see
    /// [`ParallelInPlace`]); `None` (the default) for kernels with state,
    /// and for kernels with settable [`params`](Self::params), whose
    /// arithmetic changes between calls.
    fn parallel_in_place(&self) -> Option<Arc<dyn ParallelInPlace>> {
        None
    }

    /// The kernel's parameters, which become the block's
    /// ([`Block::params`]).
    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        None
    }

    /// The kernel's reaction to a changed parameter
    /// ([`Block::params_changed`]).
    fn params_changed(&mut self, _name: &str) -> Result<(), BoxError> {
        Ok(())
    }
}

/// A block running a [`FixedRateKernel`] between input `in` and output
/// `out`; the kernel's settable parameters are its message inputs.
pub struct FixedRateBlock<K: FixedRateKernel> {
    input: StreamInput<K::In>,
    output: StreamOutput<K::Out>,
    kernel: K,
}

impl<K: FixedRateKernel> FixedRateBlock<K> {
    /// Wraps `kernel`. A kernel that supports in-place processing lets
    /// its output reuse the input's ring when the flowgraph allows it.
    ///
    /// Errors: a kernel whose interpolation or decimation is zero.
    pub fn new(kernel: K) -> Result<Self, ParamError> {
        for (param, value) in [
            ("interpolation", kernel.interpolation()),
            ("decimation", kernel.decimation()),
        ] {
            if value == 0 {
                return Err(ParamError::new(
                    std::any::type_name::<K>(),
                    param,
                    "must be at least 1",
                ));
            }
        }
        Ok(Self::of_valid(kernel))
    }

    /// Wraps a kernel whose interpolation and decimation are known to be
    /// positive.
    pub(crate) fn of_valid(kernel: K) -> Self {
        let one_to_one = kernel.interpolation() == 1 && kernel.decimation() == 1;
        let output = StreamOutput::new("out");
        // A call needs a whole decimation group in and room for a whole
        // interpolation group out.
        let input = StreamInput::new("in").with_min_items(kernel.decimation());
        let output = output.with_min_items(kernel.interpolation());
        Self {
            input,
            output: if one_to_one && kernel.supports_in_place() {
                output.in_place_of(0)
            } else {
                output
            },
            kernel,
        }
    }

    /// The wrapped kernel.
    pub fn kernel(&self) -> &K {
        &self.kernel
    }
}

impl<K: FixedRateKernel> Block for FixedRateBlock<K> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        self.kernel.params()
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        self.kernel.params_changed(name)
    }

    fn idle_when_drained(&self) -> bool {
        true
    }

    #[inline]
    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        if let Some(data) = self.input.slice_in_place() {
            let n = data.len();
            if n > 0 {
                self.kernel.process_in_place(data);
                self.input.consume(n);
                self.output.produce_in_place(n);
            }
            return Ok(());
        }
        let (interp, decim) = (self.kernel.interpolation(), self.kernel.decimation());
        let i = self.input.slice();
        let o = self.output.slice();
        let groups = (i.len() / decim).min(o.len() / interp);
        if groups > 0 {
            self.kernel
                .process(&i[..groups * decim], &mut o[..groups * interp]);
            self.input.consume(groups * decim);
            self.output.produce(groups * interp);
        }
        Ok(())
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Propagate {
            interpolation: self.kernel.interpolation() as u64,
            decimation: self.kernel.decimation() as u64,
        }
    }

    fn parallel_in_place(&self) -> Option<Arc<dyn ParallelInPlace>> {
        let one_to_one = self.kernel.interpolation() == 1 && self.kernel.decimation() == 1;
        // A kernel with settable parameters returns none (see the trait).
        if one_to_one && self.kernel.supports_in_place() {
            self.kernel.parallel_in_place()
        } else {
            None
        }
    }
}
