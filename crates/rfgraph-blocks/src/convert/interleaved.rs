//! Complex items to and from interleaved integer pairs (`re, im, re, im,
//! …`): GNU Radio's `interleaved_short_to_complex`,
//! `interleaved_char_to_complex`, `complex_to_interleaved_short` and
//! `complex_to_interleaved_char`, as [`PairsToComplex`] and
//! [`ComplexToPairs`] kernels with their registry entries.

use super::round;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, ParamSet};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{FixedRateBlock, FixedRateKernel, Item, ParamError};

/// The scale of the interleaved converters is not 0.
fn check_scale(scale: f32) -> Result<(), ParamError> {
    if scale == 0.0 {
        return Err(ParamError::new("converter", "scale", "must not be 0"));
    }
    Ok(())
}

/// The parameters of `interleaved_short_to_complex`; `scale` and `swap`
/// may change while it runs, as GNU Radio's `set_scale_factor` and
/// `set_swap` do.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct InterleavedShortParams {
    /// divisor of every part; not 0
    #[param(default = 1.0, alias = "scale_factor", settable)]
    pub scale: f32,
    /// GNU Radio's pairs-as-vectors input (the same flat stream here)
    #[param(default = false)]
    pub vector_input: bool,
    /// the first of each pair is the imaginary part
    #[param(default = false, settable)]
    pub swap: bool,
}

impl InterleavedShortParams {
    fn check(&self) -> Result<(), ParamError> {
        check_scale(self.scale)
    }
}

/// The parameters of `interleaved_char_to_complex`; `scale` may change
/// while it runs, as GNU Radio's `set_scale_factor` does.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct InterleavedCharParams {
    /// divisor of every part; not 0
    #[param(default = 1.0, alias = "scale_factor", settable)]
    pub scale: f32,
    /// GNU Radio's pairs-as-vectors input (the same flat stream here)
    #[param(default = false)]
    pub vector_input: bool,
}

impl InterleavedCharParams {
    fn check(&self) -> Result<(), ParamError> {
        check_scale(self.scale)
    }
}

/// The parameters of `complex_to_interleaved_short` and
/// `complex_to_interleaved_char`; `scale` may change while they run, as
/// GNU Radio's `set_scale_factor` does.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ToInterleavedParams {
    /// factor of every part; not 0
    #[param(default = 1.0, alias = "scale_factor", settable)]
    pub scale: f32,
    /// GNU Radio's pairs-as-vectors output (the same flat stream here)
    #[param(default = false)]
    pub vector_output: bool,
}

impl ToInterleavedParams {
    fn check(&self) -> Result<(), ParamError> {
        check_scale(self.scale)
    }
}

/// What [`PairsToComplex`] reads of its parameters.
pub trait PairsParams: ParamSet {
    /// The divisor.
    fn scale(&self) -> f32;
    /// Whether the first of each pair is the imaginary part.
    fn swap(&self) -> bool;
}

impl PairsParams for InterleavedShortParams {
    fn scale(&self) -> f32 {
        self.scale
    }
    fn swap(&self) -> bool {
        self.swap
    }
}

impl PairsParams for InterleavedCharParams {
    fn scale(&self) -> f32 {
        self.scale
    }
    fn swap(&self) -> bool {
        false
    }
}

/// Two integers in, one complex out: `(a / scale, b / scale)` (swapped
/// with `swap`: `(b, a)`), both read from the parameters `P` on every
/// call, so a change applies from the next pair on.
///
/// # Parameters
/// [`InterleavedShortParams`] or [`InterleavedCharParams`].
///
/// # Stream Inputs
/// - `in`: `T`, interleaved real and imaginary parts.
///
/// # Stream Outputs
/// - `out`: `Complex32`, one per pair.
///
/// # Usage
/// ```
/// use rfgraph_blocks::convert::{InterleavedShortParams, PairsToComplex};
/// let block = PairsToComplex::block(
///     |x: i16| x as f32,
///     InterleavedShortParams { scale: 32768.0, ..Default::default() },
/// )?;
/// # let _ = block;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct PairsToComplex<T, P> {
    to_float: fn(T) -> f32,
    params: P,
}

impl<T: Item, P: PairsParams> PairsToComplex<T, P> {
    /// The block reading items with `to_float`, dividing by the scale.
    ///
    /// Errors: a parameter out of its range.
    #[allow(clippy::new_ret_no_self)]
    pub fn block(to_float: fn(T) -> f32, params: P) -> Result<FixedRateBlock<Self>, ParamError> {
        params.validate()?;
        FixedRateBlock::new(Self { to_float, params })
    }
}

impl<T: Item, P: PairsParams> FixedRateKernel for PairsToComplex<T, P> {
    type In = T;
    type Out = Complex32;
    fn decimation(&self) -> usize {
        2
    }
    fn process(&mut self, input: &[T], output: &mut [Complex32]) {
        let (f, s, swap) = (self.to_float, self.params.scale(), self.params.swap());
        for (o, pair) in output.iter_mut().zip(input.chunks_exact(2)) {
            let (a, b) = (f(pair[0]) / s, f(pair[1]) / s);
            *o = if swap {
                Complex32::new(b, a)
            } else {
                Complex32::new(a, b)
            };
        }
    }
    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }
}

/// One complex in, two integers out: `re · scale, im · scale`, rounded
/// half to even and saturated; the scale read from the parameters on
/// every call, so a change applies from the next item on.
///
/// # Parameters
/// [`ToInterleavedParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`.
///
/// # Stream Outputs
/// - `out`: `T`, two per input item.
///
/// # Usage
/// ```
/// use rfgraph_blocks::convert::{ComplexToPairs, ToInterleavedParams};
/// let block = ComplexToPairs::block(
///     |x: f32| x as i16,
///     ToInterleavedParams { scale: 32767.0, ..Default::default() },
/// )?;
/// # let _ = block;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct ComplexToPairs<T> {
    from_float: fn(f32) -> T,
    params: ToInterleavedParams,
}

impl<T: Item> ComplexToPairs<T> {
    /// The block scaling by `params.scale` and converting with
    /// `from_float`.
    ///
    /// Errors: a parameter out of its range.
    #[allow(clippy::new_ret_no_self)]
    pub fn block(
        from_float: fn(f32) -> T,
        params: ToInterleavedParams,
    ) -> Result<FixedRateBlock<Self>, ParamError> {
        params.validate()?;
        FixedRateBlock::new(Self { from_float, params })
    }
}

impl<T: Item> FixedRateKernel for ComplexToPairs<T> {
    type In = Complex32;
    type Out = T;
    fn interpolation(&self) -> usize {
        2
    }
    fn process(&mut self, input: &[Complex32], output: &mut [T]) {
        let (f, s) = (self.from_float, self.params.scale);
        for (pair, x) in output.chunks_exact_mut(2).zip(input) {
            pair[0] = f(x.re * s);
            pair[1] = f(x.im * s);
        }
    }
    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }
}

/// `interleaved_short_to_complex`: GNU Radio's `blocks_interleaved_short_to_complex`.
pub(crate) fn interleaved_short_to_complex_spec() -> BlockSpec {
    BlockSpec::of::<InterleavedShortParams>(
        "interleaved_short_to_complex",
        "Type Converters",
        "Pairs of 16-bit integers to complex items, divided by `scale`.",
        |p| Ok(Box::new(PairsToComplex::block(|x: i16| x as f32, p)?)),
    )
    .doc("`out[k] = (in[2k] + j·in[2k+1]) / scale` for `i16` pairs `re, im, re, im, …`, divided in `f32` (scale 32768 maps full scale to about ±1); with `swap` the first of each pair is the imaginary part. One output per two inputs; an unpaired last item gives nothing. `scale` must not be 0. `scale` and `swap` may change while it runs (GNU Radio's `set_scale_factor` and `set_swap`), from one pair on. GNU Radio's `vector_input` is the same flat stream here. GNU Radio's `blocks_interleaved_short_to_complex`.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::I16)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}

/// `interleaved_char_to_complex`: GNU Radio's `blocks_interleaved_char_to_complex`.
pub(crate) fn interleaved_char_to_complex_spec() -> BlockSpec {
    BlockSpec::of::<InterleavedCharParams>(
        "interleaved_char_to_complex",
        "Type Converters",
        "Pairs of signed bytes to complex items, divided by `scale`.",
        |p| Ok(Box::new(PairsToComplex::block(|x: u8| x as i8 as f32, p)?)),
    )
    .doc("`out[k] = (in[2k] + j·in[2k+1]) / scale` with each byte read as a signed `i8` (byte 255 is −1), divided in `f32` (scale 128 maps full scale to about ±1). One output per two inputs; an unpaired last item gives nothing. `scale` must not be 0; it may change while it runs (GNU Radio's `set_scale_factor`), from one pair on. GNU Radio's `vector_input` is the same flat stream here. GNU Radio's `blocks_interleaved_char_to_complex`.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}

fn from_complex<T: Item>(
    name: &'static str,
    summary: &'static str,
    doc: &'static str,
    item: ItemKind,
    from_float: fn(f32) -> T,
) -> BlockSpec {
    BlockSpec::of::<ToInterleavedParams>(name, "Type Converters", summary, move |p| {
        Ok(Box::new(ComplexToPairs::block(from_float, p)?))
    })
    .doc(doc)
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)))
    .output(PortSpec::new("out", PortItem::Fixed(item)))
}

/// `complex_to_interleaved_short`: GNU Radio's `blocks_complex_to_interleaved_short`.
pub(crate) fn complex_to_interleaved_short_spec() -> BlockSpec {
    from_complex(
        "complex_to_interleaved_short",
        "Complex items times `scale` to pairs of 16-bit integers (rounded, saturated).",
        "`out[2k] = q(re·scale)`, `out[2k+1] = q(im·scale)` for `c32` `in[k]`, where `q` rounds half to even and saturates to `−32768 … 32767` as `float_to_short` does (NaN gives 0). Two outputs per input. `scale` must not be 0 (32767 maps ±1 to full scale); it may change while it runs (GNU Radio's `set_scale_factor`), from one item on. GNU Radio's `vector_output` is the same flat stream here. GNU Radio's `blocks_complex_to_interleaved_short`.",
        ItemKind::I16,
        round::to_i16,
    )
}

/// `complex_to_interleaved_char`: GNU Radio's `blocks_complex_to_interleaved_char`.
pub(crate) fn complex_to_interleaved_char_spec() -> BlockSpec {
    from_complex(
        "complex_to_interleaved_char",
        "Complex items times `scale` to pairs of signed bytes (rounded, saturated).",
        "`out[2k] = q(re·scale)`, `out[2k+1] = q(im·scale)` for `c32` `in[k]`, where `q` rounds half to even, saturates to `−128 … 127` and writes the byte of the `i8` (−1 is byte 255), as `float_to_char` does (NaN gives 0). Two outputs per input. `scale` must not be 0 (127 maps ±1 to full scale); it may change while it runs (GNU Radio's `set_scale_factor`), from one item on. GNU Radio's `vector_output` is the same flat stream here. GNU Radio's `blocks_complex_to_interleaved_char`.",
        ItemKind::U8,
        round::to_i8,
    )
}
