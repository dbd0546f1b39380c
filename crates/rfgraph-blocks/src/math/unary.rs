//! One-input math blocks made from [`Map`]s and slice kernels, with their
//! registry entries: GNU Radio's `complex_to_mag`, `complex_to_mag_squared`,
//! `complex_to_arg`, `complex_to_real`, `complex_to_imag`, `conjugate_cc`,
//! `abs_xx` and `nlog10_ff`. Magnitudes use `rfgraph-dsp`'s SIMD kernels.
//!
//! Each block reads stream input `in` and writes one item per input item
//! to stream output `out`; types and parameters are in each entry.
//!
//! # Usage
//! ```
//! use rfgraph::{Flowgraph, Pmt, scheduler::Tpb};
//! use rfgraph_blocks::{VectorSink, VectorSource};
//! use num_complex::Complex32;
//!
//! let mut registry = rfgraph::registry::Registry::new();
//! registry.extend(rfgraph_blocks::registry::specs());
//! let mut fg = Flowgraph::new();
//! let src = fg.add(VectorSource::new(vec![Complex32::new(3.0, 4.0)]));
//! let mag = fg.add_boxed("mag", "complex_to_mag", registry.build("complex_to_mag", Default::default())?);
//! let sink = fg.add(VectorSink::<f32>::new());
//! fg.connect(src, "out", mag, "in")?;
//! fg.connect(mag, "out", sink, "in")?;
//! let done = fg.run(Tpb::new())?;
//! assert_eq!(done.block::<VectorSink<f32>>(sink).unwrap().items(), &[5.0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::vlen::FlatVlenParams;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, NoParams, ParamSet, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, FixedRateBlock, FixedRateKernel, Item, Map, MapParams};
use std::marker::PhantomData;

/// A 1:1 kernel from a function over whole slices (a SIMD kernel), with
/// the block's parameters `P`.
pub struct SliceKernel<I, O, P = NoParams> {
    f: fn(&[I], &mut [O]) -> usize,
    params: P,
    _types: PhantomData<fn(I) -> O>,
}

impl<I: Item, O: Item> SliceKernel<I, O> {
    /// The block applying `f` to every slice.
    #[allow(clippy::new_ret_no_self)]
    pub fn block(f: fn(&[I], &mut [O]) -> usize) -> FixedRateBlock<Self> {
        Self::with_params(f, NoParams)
    }
}

impl<I: Item, O: Item, P: ParamSet> SliceKernel<I, O, P> {
    /// The block applying `f` to every slice, with `params` as its
    /// parameters (none of which changes what `f` computes).
    pub fn with_params(f: fn(&[I], &mut [O]) -> usize, params: P) -> FixedRateBlock<Self> {
        FixedRateBlock::new(Self {
            f,
            params,
            _types: PhantomData,
        })
        .expect("1:1 kernels have valid rates")
    }
}

impl<I: Item, O: Item, P: ParamSet> FixedRateKernel for SliceKernel<I, O, P> {
    type In = I;
    type Out = O;
    fn process(&mut self, input: &[I], output: &mut [O]) {
        (self.f)(input, output);
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }
}

fn c32_to_f32(
    name: &'static str,
    summary: &'static str,
    doc: &'static str,
    build: fn(FlatVlenParams) -> Box<dyn Block>,
) -> BlockSpec {
    BlockSpec::of::<FlatVlenParams>(name, "Math", summary, move |p| Ok(build(p)))
        .doc(doc)
        .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
        .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}

/// `complex_to_mag`: `|x|` (GNU Radio's `blocks_complex_to_mag`).
pub(crate) fn complex_to_mag_spec() -> BlockSpec {
    c32_to_f32(
        "complex_to_mag",
        "Magnitude |x| of complex items.",
        "`out[i] = sqrt(re² + im²)` of `c32` `in[i]`, as an `f32` (computed in single precision, not `hypot`: parts above about 1.8e19 overflow to infinity, as in GNU Radio). One output per input; GNU Radio vectors are flat streams here, so `vlen` is not used. GNU Radio's `blocks_complex_to_mag`.",
        |p| {
            Box::new(SliceKernel::with_params(
                rfgraph_dsp::complex_ops::magnitude,
                p,
            ))
        },
    )
}

/// `complex_to_mag_squared`: `|x|²` (GNU Radio's `blocks_complex_to_mag_squared`).
pub(crate) fn complex_to_mag_squared_spec() -> BlockSpec {
    c32_to_f32(
        "complex_to_mag_squared",
        "Squared magnitude |x|² of complex items.",
        "`out[i] = re² + im²` of `c32` `in[i]`, as an `f32` (the power; no square root). One output per input; GNU Radio vectors are flat streams here, so `vlen` is not used. GNU Radio's `blocks_complex_to_mag_squared`.",
        |p| {
            Box::new(SliceKernel::with_params(
                rfgraph_dsp::complex_ops::magnitude_squared,
                p,
            ))
        },
    )
}

/// `complex_to_arg`: `atan2(im, re)` in radians (GNU Radio's `blocks_complex_to_arg`).
pub(crate) fn complex_to_arg_spec() -> BlockSpec {
    c32_to_f32(
        "complex_to_arg",
        "Phase atan2(im, re) of complex items, in radians.",
        "`out[i] = atan2(im, re)` of `c32` `in[i]`, in radians in `[-π, π]` (the exact `atan2`, where GNU Radio's VOLK kernel approximates it; `0 + 0j` gives 0). One output per input; GNU Radio vectors are flat streams here, so `vlen` is not used. GNU Radio's `blocks_complex_to_arg`.",
        |p| {
            Box::new(MapParams::new(p, |_: &FlatVlenParams, x: Complex32| {
                x.im.atan2(x.re)
            }))
        },
    )
}

/// `complex_to_real` (GNU Radio's `blocks_complex_to_real`).
pub(crate) fn complex_to_real_spec() -> BlockSpec {
    c32_to_f32(
        "complex_to_real",
        "Real part of complex items.",
        "`out[i] = re(in[i])`: the real part of each `c32` item, as an `f32`; the imaginary part is dropped. One output per input; GNU Radio vectors are flat streams here, so `vlen` is not used. GNU Radio's `blocks_complex_to_real`.",
        |p| Box::new(MapParams::new(p, |_: &FlatVlenParams, x: Complex32| x.re)),
    )
}

/// `complex_to_imag` (GNU Radio's `blocks_complex_to_imag`).
pub(crate) fn complex_to_imag_spec() -> BlockSpec {
    c32_to_f32(
        "complex_to_imag",
        "Imaginary part of complex items.",
        "`out[i] = im(in[i])`: the imaginary part of each `c32` item, as an `f32`; the real part is dropped. One output per input; GNU Radio vectors are flat streams here, so `vlen` is not used. GNU Radio's `blocks_complex_to_imag`.",
        |p| Box::new(MapParams::new(p, |_: &FlatVlenParams, x: Complex32| x.im)),
    )
}

/// `conjugate`: GNU Radio's `blocks_conjugate_cc`.
pub(crate) fn conjugate_spec() -> BlockSpec {
    BlockSpec::of::<NoParams>(
        "conjugate",
        "Math",
        "Complex conjugate of every item.",
        |_| Ok(Box::new(Map::new(|x: Complex32| x.conj()))),
    )
    .doc("`out[i] = re − j·im` of `c32` `in[i]`: the sign of the imaginary part flipped (NaNs and signed zeros included), one output per input. It has no parameters. GNU Radio's `blocks_conjugate_cc`.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}

/// The parameters of `abs`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct AbsParams {
    /// stream item type
    #[param(name = "type", kinds(F32, I32, I16))]
    pub item: ItemKind,
    /// GNU Radio vector length (items are handled one by one)
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
}

/// `abs`: GNU Radio's `blocks_abs_xx`.
pub(crate) fn abs_spec() -> BlockSpec {
    fn block<T: Item>(p: AbsParams, f: fn(T) -> T) -> Result<Box<dyn Block>, BoxError> {
        Ok(Box::new(MapParams::new(p, move |_: &AbsParams, x: T| f(x))))
    }
    BlockSpec::of::<AbsParams>(
        "abs",
        "Math",
        "Absolute value of every item.",
        |p| match p.item {
            ItemKind::F32 => block(p, f32::abs),
            // C++'s abs of the most negative integer stays negative.
            ItemKind::I32 => block(p, i32::wrapping_abs),
            ItemKind::I16 => block(p, i16::wrapping_abs),
            other => Err(format!("item type `{other}` is not supported here").into()),
        },
    )
    .doc("`|x|`; integers as in C++ (the most negative value stays as it is).")
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// The parameters of `nlog10`: `n · log10(x) + k`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct Nlog10Params {
    /// factor
    #[param(default = 1.0)]
    pub n: f32,
    /// offset, added after the logarithm
    #[param(default = 0.0, settable)]
    pub k: f32,
    /// GNU Radio vector length (items are handled one by one)
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
}

/// `nlog10`: GNU Radio's `blocks_nlog10_ff`.
pub(crate) fn nlog10_spec() -> BlockSpec {
    BlockSpec::of::<Nlog10Params>(
        "nlog10",
        "Math",
        "n · log10(x) + k of every item (decibels with n = 10 or 20).",
        |p| {
            Ok(Box::new(MapParams::new(p, |p: &Nlog10Params, x: f32| {
                p.n * x.max(f32::MIN_POSITIVE).log10() + p.k
            })))
        },
    )
    .doc("`n · log10(x) + k`; inputs below the smallest normal float (0, negative numbers, NaN) count as it (log10 ≈ −37.9), so the output stays finite as GNU Radio's does (whose floor is about −37.7). `k` may change while it runs.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}
