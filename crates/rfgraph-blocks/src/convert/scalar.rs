//! Item-by-item type conversions with GNU Radio's scale semantics, as
//! registry entries built from [`MapParams`]: `char_to_float`,
//! `uchar_to_float`, `short_to_float`, `int_to_float` (divide by
//! `scale`), `float_to_char`, `float_to_uchar`, `float_to_short`,
//! `float_to_int` (multiply by `scale`, round half to even, saturate),
//! `char_to_short` (× 256) and `short_to_char` (÷ 256, arithmetic shift).
//!
//! GNU Radio's `char` streams are its `byte` streams, `u8` here: the
//! `char_*` blocks read each byte as a signed `i8`, and `float_to_char`
//! writes the byte of an `i8`, so they connect to every byte block.
//! Each block reads `in` and writes `out`, one item per item; GNU Radio's
//! vectors (`vlen`) are flat streams, converted item by item.
//!
//! # Usage
//! ```
//! use rfgraph::{Flowgraph, Pmt, scheduler::Tpb};
//! use rfgraph_blocks::{VectorSink, VectorSource};
//!
//! let mut registry = rfgraph::registry::Registry::new();
//! registry.extend(rfgraph_blocks::registry::specs());
//! let params = [("scale".to_string(), Pmt::F64(2.0))].into_iter().collect();
//! let mut fg = Flowgraph::new();
//! let src = fg.add(VectorSource::new(vec![255u8, 4]));
//! let conv = fg.add_boxed("conv", "char_to_float", registry.build("char_to_float", params)?);
//! let sink = fg.add(VectorSink::<f32>::new());
//! fg.connect(src, "out", conv, "in")?;
//! fg.connect(conv, "out", sink, "in")?;
//! let done = fg.run(Tpb::new())?;
//! assert_eq!(done.block::<VectorSink<f32>>(sink).unwrap().items(), &[-0.5, 2.0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::round;
use crate::math::FlatVlenParams;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, Item, MapParams, ParamError, ParamSet};

/// The parameters of the converters with a scale (`char_to_float`,
/// `short_to_float`, `int_to_float`, `float_to_char`, `float_to_short`,
/// `float_to_int`). The scale may change while they run, as GNU Radio's
/// `set_scale` does: the next item is converted with the new one.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ScaleParams {
    /// GNU Radio vector length (items are converted one by one)
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
    /// integers are divided by it on the way to float, floats multiplied
    /// by it on the way to integers; not 0
    #[param(default = 1.0, settable)]
    pub scale: f32,
}

impl ScaleParams {
    /// The scale is not 0.
    fn check(&self) -> Result<(), ParamError> {
        if self.scale == 0.0 {
            return Err(ParamError::new("converter", "scale", "must not be 0"));
        }
        Ok(())
    }
}

/// The registry entry of a converter `convert(&params, item)`, its
/// parameters `P`.
fn spec<P: ParamSet, I: Item, O: Item>(
    name: &'static str,
    summary: &'static str,
    doc: &'static str,
    input: ItemKind,
    output: ItemKind,
    convert: impl Fn(&P, I) -> O + Copy + Send + Sync + 'static,
) -> BlockSpec {
    BlockSpec::of::<P>(name, "Type Converters", summary, move |p| {
        let block: Box<dyn Block> = Box::new(MapParams::new(p, convert));
        Ok(block)
    })
    .doc(doc)
    .input(PortSpec::new("in", PortItem::Fixed(input)))
    .output(PortSpec::new("out", PortItem::Fixed(output)))
}

/// `char_to_float`: GNU Radio's `blocks_char_to_float`.
pub(crate) fn char_to_float_spec() -> BlockSpec {
    spec(
        "char_to_float",
        "Signed bytes to floats, divided by `scale`.",
        "`out[i] = (in[i] as i8) / scale`: each byte read as a signed `i8` (GNU Radio's `char`; byte 255 is −1), divided in `f32`, so the default scale 1 gives −128 … 127. `scale` must not be 0; it may change while it runs (GNU Radio's `set_scale`), from one item on. GNU Radio vectors are flat streams here: `vlen` only has to be at least 1. GNU Radio's `blocks_char_to_float`.",
        ItemKind::U8,
        ItemKind::F32,
        |p: &ScaleParams, x: u8| x as i8 as f32 / p.scale,
    )
}

/// `uchar_to_float`: GNU Radio's `blocks_uchar_to_float`.
pub(crate) fn uchar_to_float_spec() -> BlockSpec {
    spec(
        "uchar_to_float",
        "Unsigned bytes to floats.",
        "`out[i] = in[i]` as an `f32`: each `u8` byte read as an unsigned value 0 … 255, exactly, with no scale. GNU Radio vectors are flat streams here: `vlen` only has to be at least 1. GNU Radio's `blocks_uchar_to_float`.",
        ItemKind::U8,
        ItemKind::F32,
        |_: &FlatVlenParams, x: u8| x as f32,
    )
}

/// `short_to_float`: GNU Radio's `blocks_short_to_float`.
pub(crate) fn short_to_float_spec() -> BlockSpec {
    spec(
        "short_to_float",
        "16-bit integers to floats, divided by `scale`.",
        "`out[i] = in[i] / scale` for `i16` items, divided in `f32` (scale 32768 maps full scale to about ±1). `scale` must not be 0; it may change while it runs (GNU Radio's `set_scale`), from one item on. GNU Radio vectors are flat streams here: `vlen` only has to be at least 1. GNU Radio's `blocks_short_to_float`.",
        ItemKind::I16,
        ItemKind::F32,
        |p: &ScaleParams, x: i16| x as f32 / p.scale,
    )
}

/// `int_to_float`: GNU Radio's `blocks_int_to_float`.
pub(crate) fn int_to_float_spec() -> BlockSpec {
    spec(
        "int_to_float",
        "32-bit integers to floats, divided by `scale`.",
        "`out[i] = in[i] / scale` for `i32` items, converted to `f32` first (so integers above 2²⁴ in magnitude lose their low bits) and then divided. `scale` must not be 0; it may change while it runs (GNU Radio's `set_scale`), from one item on. GNU Radio vectors are flat streams here: `vlen` only has to be at least 1. GNU Radio's `blocks_int_to_float`.",
        ItemKind::I32,
        ItemKind::F32,
        |p: &ScaleParams, x: i32| x as f32 / p.scale,
    )
}

/// `float_to_char`: GNU Radio's `blocks_float_to_char`.
pub(crate) fn float_to_char_spec() -> BlockSpec {
    spec(
        "float_to_char",
        "Floats times `scale` to signed bytes, rounded half to even and saturated.",
        "`out[i] = clamp(round(in[i]·scale), −128, 127)` written as the byte of an `i8` (−1 is byte 255), with the product in `f32`, rounding half to even (2.5 → 2, −1.5 → −2) and saturation at the range, as GNU Radio's VOLK kernel does; NaN gives 0. `scale` must not be 0; it may change while it runs (GNU Radio's `set_scale`), from one item on. GNU Radio vectors are flat streams here: `vlen` only has to be at least 1. GNU Radio's `blocks_float_to_char`.",
        ItemKind::F32,
        ItemKind::U8,
        |p: &ScaleParams, x: f32| round::to_i8(x * p.scale),
    )
}

/// `float_to_uchar`: GNU Radio's `blocks_float_to_uchar`.
pub(crate) fn float_to_uchar_spec() -> BlockSpec {
    spec(
        "float_to_uchar",
        "Floats to unsigned bytes, rounded half to even and saturated to 0..255.",
        "`out[i] = clamp(round(in[i]), 0, 255)` as a `u8`, rounding half to even (2.5 → 2) and saturating (negative values give 0, 300 gives 255), as GNU Radio does; NaN gives 0. There is no scale. GNU Radio vectors are flat streams here: `vlen` only has to be at least 1. GNU Radio's `blocks_float_to_uchar`.",
        ItemKind::F32,
        ItemKind::U8,
        |_: &FlatVlenParams, x: f32| round::to_u8(x),
    )
}

/// `float_to_short`: GNU Radio's `blocks_float_to_short`.
pub(crate) fn float_to_short_spec() -> BlockSpec {
    spec(
        "float_to_short",
        "Floats times `scale` to 16-bit integers, rounded half to even and saturated.",
        "`out[i] = clamp(round(in[i]·scale), −32768, 32767)` as an `i16`, with the product in `f32`, rounding half to even (2.5 → 2, −1.5 → −2) and saturation, as GNU Radio's VOLK kernel does; NaN gives 0. `scale` must not be 0; it may change while it runs (GNU Radio's `set_scale`), from one item on. GNU Radio vectors are flat streams here: `vlen` only has to be at least 1. GNU Radio's `blocks_float_to_short`.",
        ItemKind::F32,
        ItemKind::I16,
        |p: &ScaleParams, x: f32| round::to_i16(x * p.scale),
    )
}

/// `float_to_int`: GNU Radio's `blocks_float_to_int`.
pub(crate) fn float_to_int_spec() -> BlockSpec {
    spec(
        "float_to_int",
        "Floats times `scale` to 32-bit integers, rounded half to even and saturated.",
        "`out[i] = clamp(round(in[i]·scale), −2³¹, 2³¹ − 1)` as an `i32`, with the product in `f32`, rounding half to even and saturation; NaN gives `−2³¹` (`i32::MIN`), as GNU Radio's kernel does on x86. `scale` must not be 0; it may change while it runs (GNU Radio's `set_scale`), from one item on. GNU Radio vectors are flat streams here: `vlen` only has to be at least 1. GNU Radio's `blocks_float_to_int`.",
        ItemKind::F32,
        ItemKind::I32,
        |p: &ScaleParams, x: f32| round::to_i32(x * p.scale),
    )
}

/// `char_to_short`: GNU Radio's `blocks_char_to_short`.
pub(crate) fn char_to_short_spec() -> BlockSpec {
    spec(
        "char_to_short",
        "Signed bytes to 16-bit integers, times 256.",
        "`out[i] = (in[i] as i8) · 256`: each byte read as a signed `i8` and shifted into the high byte of an `i16` (−128 … 127 becomes −32768 … 32512), exact, with no scale. GNU Radio vectors are flat streams here: `vlen` only has to be at least 1. GNU Radio's `blocks_char_to_short`.",
        ItemKind::U8,
        ItemKind::I16,
        |_: &FlatVlenParams, x: u8| (x as i8 as i16) << 8,
    )
}

/// `short_to_char`: GNU Radio's `blocks_short_to_char`.
pub(crate) fn short_to_char_spec() -> BlockSpec {
    spec(
        "short_to_char",
        "16-bit integers to signed bytes, divided by 256 (arithmetic shift).",
        "`out[i] = in[i] >> 8`: the high byte of each `i16`, an arithmetic shift, so it rounds toward −∞ (−1 gives −1, 255 gives 0), written as the byte of an `i8`. No saturation is needed and there is no scale. GNU Radio vectors are flat streams here: `vlen` only has to be at least 1. GNU Radio's `blocks_short_to_char`.",
        ItemKind::I16,
        ItemKind::U8,
        |_: &FlatVlenParams, x: i16| (x >> 8) as i8 as u8,
    )
}
