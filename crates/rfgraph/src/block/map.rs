//! 1:1 blocks from closures: [`Map`] applies a closure to every item,
//! [`MapWith`] one that keeps state beside it, and [`MapParams`] one that
//! reads declared parameters, which messages may change between calls.
//!
//! Both are [`FixedRateKernel`]s run by a [`FixedRateBlock`]; when the
//! input and output item types are equal they work in place whenever the
//! flowgraph allows it.

use super::fixed_rate::{FixedRateBlock, FixedRateKernel};
use super::vectorize::vectorized;
use crate::item::Item;
use std::any::TypeId;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

/// Applies `f` to every item of `data` in place. `I` and `O` must be the
/// same type (the caller checked `supports_in_place`).
#[inline]
fn map_in_place<I: Item, O: Item>(data: &mut [I], mut f: impl FnMut(I) -> O) {
    assert!(
        TypeId::of::<I>() == TypeId::of::<O>(),
        "in place needs equal item types"
    );
    vectorized(|| {
        for x in data.iter_mut() {
            let y = f(*x);
            // SAFETY: `I` and `O` are the same type (equal `TypeId`s,
            // asserted above), so this copies an `I` into an `I`.
            *x = unsafe { std::mem::transmute_copy::<O, I>(&y) };
        }
    });
}

/// Applies `f` to every item of `input`, writing `output`.
#[inline]
fn map_into<I: Item, O: Item>(input: &[I], output: &mut [O], mut f: impl FnMut(I) -> O) {
    vectorized(|| {
        for (o, &i) in output.iter_mut().zip(input) {
            *o = f(i);
        }
    });
}

/// A 1:1 kernel from a closure, e.g. `Map::new(|x: f32| 2.0 * x)`.
pub struct Map<I, O, F> {
    f: F,
    _types: PhantomData<fn(I) -> O>,
}

impl<I: Item, O: Item, F: FnMut(I) -> O + Send + 'static> Map<I, O, F> {
    /// A block applying `f` to every item.
    #[allow(clippy::new_ret_no_self)]
    pub fn new(f: F) -> FixedRateBlock<Self> {
        FixedRateBlock::of_valid(Self {
            f,
            _types: PhantomData,
        })
    }
}

impl<I: Item, O: Item, F: FnMut(I) -> O + Send + 'static> FixedRateKernel for Map<I, O, F> {
    type In = I;
    type Out = O;
    #[inline]
    fn process(&mut self, input: &[I], output: &mut [O]) {
        map_into(input, output, &mut self.f);
    }

    fn supports_in_place(&self) -> bool {
        TypeId::of::<I>() == TypeId::of::<O>()
    }

    #[inline]
    fn process_in_place(&mut self, data: &mut [I]) {
        map_in_place(data, &mut self.f);
    }
}

/// A 1:1 kernel from a closure over state `S` kept beside it (a
/// differential encoder's last symbol); the kernel dereferences to `S`.
/// Parameters that messages may change belong in [`MapParams`].
///
/// ```
/// use rfgraph::MapWith;
///
/// // A running sum.
/// let block = MapWith::new(0.0f32, |sum: &mut f32, x: f32| {
///     *sum += x;
///     *sum
/// });
/// # let _ = block;
/// ```
pub struct MapWith<S, I, O, F> {
    state: S,
    f: F,
    _types: PhantomData<fn(I) -> O>,
}

impl<S, I, O, F> MapWith<S, I, O, F>
where
    S: Send + 'static,
    I: Item,
    O: Item,
    F: FnMut(&mut S, I) -> O + Send + 'static,
{
    /// A block applying `f` to every item, with `state` beside it.
    #[allow(clippy::new_ret_no_self)]
    pub fn new(state: S, f: F) -> FixedRateBlock<Self> {
        FixedRateBlock::of_valid(Self {
            state,
            f,
            _types: PhantomData,
        })
    }
}

impl<S, I, O, F> Deref for MapWith<S, I, O, F> {
    type Target = S;
    fn deref(&self) -> &S {
        &self.state
    }
}

impl<S, I, O, F> DerefMut for MapWith<S, I, O, F> {
    fn deref_mut(&mut self) -> &mut S {
        &mut self.state
    }
}

impl<S, I, O, F> FixedRateKernel for MapWith<S, I, O, F>
where
    S: Send + 'static,
    I: Item,
    O: Item,
    F: FnMut(&mut S, I) -> O + Send + 'static,
{
    type In = I;
    type Out = O;
    #[inline]
    fn process(&mut self, input: &[I], output: &mut [O]) {
        let (state, f) = (&mut self.state, &mut self.f);
        map_into(input, output, |x| f(state, x));
    }

    fn supports_in_place(&self) -> bool {
        TypeId::of::<I>() == TypeId::of::<O>()
    }

    #[inline]
    fn process_in_place(&mut self, data: &mut [I]) {
        let (state, f) = (&mut self.state, &mut self.f);
        map_in_place(data, |x| f(state, x));
    }
}

/// A 1:1 kernel from a closure over a block's declared parameters `P`
/// (a [`ParamSet`](crate::params::ParamSet)): the parameters are the
/// block's, so each settable one is a message input, and `f` reads the
/// current values on every item.
///
/// ```
/// use rfgraph::{MapParams, ParamSet};
///
/// /// The parameters of a gain block.
/// #[derive(ParamSet, Clone, Debug)]
/// struct Gain {
///     /// linear gain
///     #[param(default = 1.0, settable)]
///     k: f32,
/// }
/// let block = MapParams::new(Gain { k: 2.0 }, |g: &Gain, x: f32| g.k * x);
/// # let _ = block;
/// ```
pub struct MapParams<P, I, O, F> {
    params: P,
    f: F,
    _types: PhantomData<fn(I) -> O>,
}

impl<P, I, O, F> MapParams<P, I, O, F>
where
    P: crate::params::ParamSet,
    I: Item,
    O: Item,
    F: FnMut(&P, I) -> O + Send + 'static,
{
    /// A block applying `f` to every item, with `params` as its
    /// parameters.
    #[allow(clippy::new_ret_no_self)]
    pub fn new(params: P, f: F) -> FixedRateBlock<Self> {
        FixedRateBlock::of_valid(Self {
            params,
            f,
            _types: PhantomData,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &P {
        &self.params
    }
}

impl<P, I, O, F> FixedRateKernel for MapParams<P, I, O, F>
where
    P: crate::params::ParamSet,
    I: Item,
    O: Item,
    F: FnMut(&P, I) -> O + Send + 'static,
{
    type In = I;
    type Out = O;
    #[inline]
    fn process(&mut self, input: &[I], output: &mut [O]) {
        let (params, f) = (&self.params, &mut self.f);
        map_into(input, output, |x| f(params, x));
    }

    fn supports_in_place(&self) -> bool {
        TypeId::of::<I>() == TypeId::of::<O>()
    }

    #[inline]
    fn process_in_place(&mut self, data: &mut [I]) {
        let (params, f) = (&self.params, &mut self.f);
        map_in_place(data, |x| f(params, x));
    }

    fn params(&mut self) -> Option<&mut dyn crate::params::ParamSet> {
        Some(&mut self.params)
    }
}
