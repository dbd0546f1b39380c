//! Stateless 1:1 transforms that several threads may apply at once.
//!
//! A block whose every output item depends on its input item alone, with
//! nothing carried from one call to the next, can hand the runtime a
//! [`ParallelInPlace`]: a shareable copy of its arithmetic. The `chain`
//! scheduler then runs a run of such blocks on several cores at once, each
//! core taking whole chunks through every block of the run (data
//! parallelism), instead of cutting the run between two cores and moving
//! every chunk across (see `scheduler::segment`). [`StatelessMap`] is the
//! closure form; under every other scheduler it is an ordinary 1:1 block.
//!
//! This module owns the contract and the closure block; it never looks at
//! buffers or threads.

use super::fixed_rate::{FixedRateBlock, FixedRateKernel};
use super::vectorize::vectorized;
use crate::item::Item;
use std::marker::PhantomData;
use std::sync::Arc;

/// The arithmetic of a stateless 1:1 block whose input and output item
/// types are equal, callable from several threads at once on disjoint
/// chunks of items.
pub trait ParallelInPlace: Send + Sync {
    /// Size in bytes of one item.
    fn item_size(&self) -> usize;

    /// Replaces every item of `items` with its result. `items` holds whole
    /// items of the block's type, aligned for it.
    fn apply(&self, items: &mut [u8]);
}

/// A 1:1 block from a closure with no state: `f` must give the same
/// output for the same input whatever it saw before, like
/// `|x: f32| a * x + b`. Unlike [`Map`](super::map::Map), whose closure
/// may keep state, its chunks may be processed on several cores at once.
pub struct StatelessMap<T, F> {
    f: Arc<F>,
    _item: PhantomData<fn(T) -> T>,
}

impl<T: Item, F: Fn(T) -> T + Send + Sync + 'static> StatelessMap<T, F> {
    /// A block applying `f` to every item.
    #[allow(clippy::new_ret_no_self)]
    pub fn new(f: F) -> FixedRateBlock<Self> {
        FixedRateBlock::of_valid(Self {
            f: Arc::new(f),
            _item: PhantomData,
        })
    }
}

/// Applies `f` to every item of `items`, in place, vectorised.
#[inline]
fn map_in_place<T: Item>(f: &impl Fn(T) -> T, items: &mut [T]) {
    vectorized(|| {
        for x in items.iter_mut() {
            *x = f(*x);
        }
    });
}

impl<T: Item, F: Fn(T) -> T + Send + Sync + 'static> FixedRateKernel for StatelessMap<T, F> {
    type In = T;
    type Out = T;

    #[inline]
    fn process(&mut self, input: &[T], output: &mut [T]) {
        let f = &*self.f;
        vectorized(|| {
            for (o, &i) in output.iter_mut().zip(input) {
                *o = f(i);
            }
        });
    }

    fn supports_in_place(&self) -> bool {
        true
    }

    #[inline]
    fn process_in_place(&mut self, data: &mut [T]) {
        map_in_place(&*self.f, data);
    }

    fn parallel_in_place(&self) -> Option<Arc<dyn ParallelInPlace>> {
        Some(Arc::new(SharedClosure::<T, F> {
            f: self.f.clone(),
            _item: PhantomData,
        }))
    }
}

/// [`StatelessMap`]'s closure, shared between threads.
struct SharedClosure<T, F> {
    f: Arc<F>,
    _item: PhantomData<fn(T) -> T>,
}

impl<T: Item, F: Fn(T) -> T + Send + Sync + 'static> ParallelInPlace for SharedClosure<T, F> {
    fn item_size(&self) -> usize {
        std::mem::size_of::<T>()
    }

    #[inline]
    fn apply(&self, items: &mut [u8]) {
        // Panics (never unsound) if the caller broke the size or
        // alignment contract.
        map_in_place(&*self.f, bytemuck::cast_slice_mut::<u8, T>(items));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::Block;

    #[test]
    fn shared_copy_computes_what_the_block_computes() {
        let mut block = StatelessMap::new(|x: u32| x * 3 + 1);
        let shared = block.parallel_in_place().expect("stateless blocks share");
        assert_eq!(shared.item_size(), 4);
        let mut items: Vec<u32> = (0..100).collect();
        shared.apply(bytemuck::cast_slice_mut(&mut items));
        let expected: Vec<u32> = (0..100).map(|x| x * 3 + 1).collect();
        assert_eq!(items, expected);
        // The kernel's own path agrees.
        let mut direct: Vec<u32> = (0..100).collect();
        let mut kernel = StatelessMap {
            f: Arc::new(|x: u32| x * 3 + 1),
            _item: PhantomData,
        };
        kernel.process_in_place(&mut direct);
        assert_eq!(direct, expected);
        let _ = block.ports();
    }

    #[test]
    fn stateful_maps_do_not_share() {
        let mut count = 0u32;
        let block = crate::Map::new(move |x: u32| {
            count += 1;
            x + count
        });
        assert!(block.parallel_in_place().is_none());
    }
}
