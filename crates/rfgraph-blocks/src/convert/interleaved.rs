//! Complex items to and from interleaved integer pairs (`re, im, re, im,
//! …`): GNU Radio's `interleaved_short_to_complex`,
//! `interleaved_char_to_complex`, `complex_to_interleaved_short` and
//! `complex_to_interleaved_char`, as [`PairsToComplex`] and
//! [`ComplexToPairs`] kernels with their registry entries.

use super::round;
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, BuildError, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{FixedRateBlock, FixedRateKernel, Item};

/// Two integers in, one complex out: `(a / scale, b / scale)` (swapped
/// with `swap`: `(b, a)`).
///
/// # Stream Inputs
/// - `in`: `T`, interleaved real and imaginary parts.
///
/// # Stream Outputs
/// - `out`: `Complex32`, one per pair.
///
/// # Usage
/// ```
/// use rfgraph_blocks::convert::PairsToComplex;
/// let block = PairsToComplex::block(|x: i16| x as f32, 32768.0, false);
/// # let _ = block;
/// ```
pub struct PairsToComplex<T> {
    to_float: fn(T) -> f32,
    scale: f32,
    swap: bool,
}

impl<T: Item> PairsToComplex<T> {
    /// The block reading items with `to_float`, dividing by `scale`.
    #[allow(clippy::new_ret_no_self)]
    pub fn block(to_float: fn(T) -> f32, scale: f32, swap: bool) -> FixedRateBlock<Self> {
        FixedRateBlock::new(Self {
            to_float,
            scale,
            swap,
        })
        .expect("rates 2:1")
    }
}

impl<T: Item> FixedRateKernel for PairsToComplex<T> {
    type In = T;
    type Out = Complex32;
    fn decimation(&self) -> usize {
        2
    }
    fn process(&mut self, input: &[T], output: &mut [Complex32]) {
        let (f, s) = (self.to_float, self.scale);
        for (o, pair) in output.iter_mut().zip(input.chunks_exact(2)) {
            let (a, b) = (f(pair[0]) / s, f(pair[1]) / s);
            *o = if self.swap {
                Complex32::new(b, a)
            } else {
                Complex32::new(a, b)
            };
        }
    }
}

/// One complex in, two integers out: `re · scale, im · scale`, rounded
/// half to even and saturated.
///
/// # Stream Inputs
/// - `in`: `Complex32`.
///
/// # Stream Outputs
/// - `out`: `T`, two per input item.
///
/// # Usage
/// ```
/// use rfgraph_blocks::convert::ComplexToPairs;
/// let block = ComplexToPairs::block(|x: f32| x as i16, 32767.0);
/// # let _ = block;
/// ```
pub struct ComplexToPairs<T> {
    from_float: fn(f32) -> T,
    scale: f32,
}

impl<T: Item> ComplexToPairs<T> {
    /// The block scaling by `scale` and converting with `from_float`.
    #[allow(clippy::new_ret_no_self)]
    pub fn block(from_float: fn(f32) -> T, scale: f32) -> FixedRateBlock<Self> {
        FixedRateBlock::new(Self { from_float, scale }).expect("rates 1:2")
    }
}

impl<T: Item> FixedRateKernel for ComplexToPairs<T> {
    type In = Complex32;
    type Out = T;
    fn interpolation(&self) -> usize {
        2
    }
    fn process(&mut self, input: &[Complex32], output: &mut [T]) {
        let (f, s) = (self.from_float, self.scale);
        for (pair, x) in output.chunks_exact_mut(2).zip(input) {
            pair[0] = f(x.re * s);
            pair[1] = f(x.im * s);
        }
    }
}

fn scale(p: &Params) -> Result<f32, BuildError> {
    let s = p.f32("scale")?;
    if !s.is_finite() || s == 0.0 {
        return Err(p.invalid("scale", "must be finite and not 0"));
    }
    Ok(s)
}

fn to_complex(
    name: &'static str,
    summary: &'static str,
    doc: &'static str,
    item: ItemKind,
    swap: bool,
    build: fn(f32, bool) -> Box<dyn rfgraph::Block>,
) -> BlockSpec {
    let mut spec = BlockSpec::new(name, "Type Converters", summary, move |p: &Params| {
        let swap = if swap { p.bool("swap")? } else { false };
        Ok(build(scale(p)?, swap))
    })
    .doc(doc)
    .param(ParamSpec::float("scale").default(1.0).doc("divisor"))
    .param(
        ParamSpec::bool("vector_input")
            .default(false)
            .doc("GNU Radio's pairs-as-vectors input (the same flat stream here)"),
    )
    .input(PortSpec::new("in", PortItem::Fixed(item)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)));
    if swap {
        spec = spec.param(
            ParamSpec::bool("swap")
                .default(false)
                .doc("the first of each pair is the imaginary part"),
        );
    }
    spec
}

/// `interleaved_short_to_complex`: GNU Radio's `blocks_interleaved_short_to_complex`.
pub(crate) fn interleaved_short_to_complex_spec() -> BlockSpec {
    to_complex(
        "interleaved_short_to_complex",
        "Pairs of 16-bit integers to complex items, divided by `scale`.",
        "`out[k] = (in[2k] + j·in[2k+1]) / scale` for `i16` pairs `re, im, re, im, …`, divided in `f32` (scale 32768 maps full scale to about ±1); with `swap` the first of each pair is the imaginary part. One output per two inputs; an unpaired last item gives nothing. `scale` must be finite and not 0. GNU Radio's `vector_input` is the same flat stream here. GNU Radio's `blocks_interleaved_short_to_complex`.",
        ItemKind::I16,
        true,
        |s, swap| Box::new(PairsToComplex::block(|x: i16| x as f32, s, swap)),
    )
}

/// `interleaved_char_to_complex`: GNU Radio's `blocks_interleaved_char_to_complex`.
pub(crate) fn interleaved_char_to_complex_spec() -> BlockSpec {
    to_complex(
        "interleaved_char_to_complex",
        "Pairs of signed bytes to complex items, divided by `scale`.",
        "`out[k] = (in[2k] + j·in[2k+1]) / scale` with each byte read as a signed `i8` (byte 255 is −1), divided in `f32` (scale 128 maps full scale to about ±1). One output per two inputs; an unpaired last item gives nothing. `scale` must be finite and not 0. GNU Radio's `vector_input` is the same flat stream here. GNU Radio's `blocks_interleaved_char_to_complex`.",
        ItemKind::U8,
        false,
        |s, _| Box::new(PairsToComplex::block(|x: u8| x as i8 as f32, s, false)),
    )
}

fn from_complex(
    name: &'static str,
    summary: &'static str,
    doc: &'static str,
    item: ItemKind,
    build: fn(f32) -> Box<dyn rfgraph::Block>,
) -> BlockSpec {
    BlockSpec::new(name, "Type Converters", summary, move |p: &Params| {
        Ok(build(scale(p)?))
    })
    .doc(doc)
    .param(ParamSpec::float("scale").default(1.0).doc("factor"))
    .param(
        ParamSpec::bool("vector_output")
            .default(false)
            .doc("GNU Radio's pairs-as-vectors output (the same flat stream here)"),
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(item)))
}

/// `complex_to_interleaved_short`: GNU Radio's `blocks_complex_to_interleaved_short`.
pub(crate) fn complex_to_interleaved_short_spec() -> BlockSpec {
    from_complex(
        "complex_to_interleaved_short",
        "Complex items times `scale` to pairs of 16-bit integers (rounded, saturated).",
        "`out[2k] = q(re·scale)`, `out[2k+1] = q(im·scale)` for `c32` `in[k]`, where `q` rounds half to even and saturates to `−32768 … 32767` as `float_to_short` does (NaN gives 0). Two outputs per input. `scale` must be finite and not 0 (32767 maps ±1 to full scale). GNU Radio's `vector_output` is the same flat stream here. GNU Radio's `blocks_complex_to_interleaved_short`.",
        ItemKind::I16,
        |s| Box::new(ComplexToPairs::block(round::to_i16, s)),
    )
}

/// `complex_to_interleaved_char`: GNU Radio's `blocks_complex_to_interleaved_char`.
pub(crate) fn complex_to_interleaved_char_spec() -> BlockSpec {
    from_complex(
        "complex_to_interleaved_char",
        "Complex items times `scale` to pairs of signed bytes (rounded, saturated).",
        "`out[2k] = q(re·scale)`, `out[2k+1] = q(im·scale)` for `c32` `in[k]`, where `q` rounds half to even, saturates to `−128 … 127` and writes the byte of the `i8` (−1 is byte 255), as `float_to_char` does (NaN gives 0). Two outputs per input. `scale` must be finite and not 0 (127 maps ±1 to full scale). GNU Radio's `vector_output` is the same flat stream here. GNU Radio's `blocks_complex_to_interleaved_char`.",
        ItemKind::U8,
        |s| Box::new(ComplexToPairs::block(round::to_i8, s)),
    )
}
