//! Helpers for fixed-rate blocks: write the per-item arithmetic, get a block.
//!
//! A [`Kernel`] maps whole groups of `decimation` input items to groups of
//! `interpolation` output items. [`KernelBlock`] wraps it into a [`Block`]
//! that sizes the slices, consumes, produces and propagates tags with the
//! right rate. [`Map`] is the 1:1 case for a closure.

use super::stateless::ParallelInPlace;
use super::{Block, TagPolicy, WorkIo};
use crate::error::BoxError;
use crate::item::Item;
use crate::port::Ports;
use crate::port::stream::{StreamInput, StreamOutput};
use std::any::TypeId;
use std::sync::Arc;

/// Fixed-rate processing of one input stream into one output stream.
pub trait Kernel: Send + 'static {
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
    /// [`ParallelInPlace`]); `None` (the default) for kernels with state.
    fn parallel_in_place(&self) -> Option<Arc<dyn ParallelInPlace>> {
        None
    }
}

/// A block running a [`Kernel`] between input `in` and output `out`.
pub struct KernelBlock<K: Kernel> {
    input: StreamInput<K::In>,
    output: StreamOutput<K::Out>,
    kernel: K,
}

impl<K: Kernel> KernelBlock<K> {
    /// Wraps `kernel`. A kernel that supports in-place processing lets
    /// its output reuse the input's ring when the flowgraph allows it.
    pub fn new(kernel: K) -> Self {
        assert!(kernel.interpolation() > 0 && kernel.decimation() > 0);
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

impl<K: Kernel> Block for KernelBlock<K> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
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
        if one_to_one && self.kernel.supports_in_place() {
            self.kernel.parallel_in_place()
        } else {
            None
        }
    }
}

/// A 1:1 kernel from a closure, e.g. `Map::new(|x: f32| 2.0 * x)`.
pub struct Map<I, O, F> {
    f: F,
    _types: std::marker::PhantomData<fn(I) -> O>,
}

impl<I: Item, O: Item, F: FnMut(I) -> O + Send + 'static> Map<I, O, F> {
    /// A block applying `f` to every item.
    #[allow(clippy::new_ret_no_self)]
    pub fn new(f: F) -> KernelBlock<Self> {
        KernelBlock::new(Self {
            f,
            _types: std::marker::PhantomData,
        })
    }
}

impl<I: Item, O: Item, F: FnMut(I) -> O + Send + 'static> Kernel for Map<I, O, F> {
    type In = I;
    type Out = O;
    #[inline]
    fn process(&mut self, input: &[I], output: &mut [O]) {
        let f = &mut self.f;
        super::vectorize::vectorized(|| {
            for (o, &i) in output.iter_mut().zip(input) {
                *o = f(i);
            }
        });
    }

    fn supports_in_place(&self) -> bool {
        TypeId::of::<I>() == TypeId::of::<O>()
    }

    #[inline]
    fn process_in_place(&mut self, data: &mut [I]) {
        assert!(self.supports_in_place(), "in place needs equal item types");
        let f = &mut self.f;
        super::vectorize::vectorized(|| {
            for x in data.iter_mut() {
                let y = f(*x);
                // SAFETY: `I` and `O` are the same type (equal `TypeId`s,
                // asserted above), so this copies an `I` into an `I`.
                *x = unsafe { std::mem::transmute_copy::<O, I>(&y) };
            }
        });
    }
}
