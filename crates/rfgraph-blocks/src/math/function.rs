//! `transcendental` (a named function of every item, GNU Radio's
//! `blocks_transcendental`) and `mute` (zeros while its settable `mute`
//! says so, `blocks_mute_xx`), with their registry entries. Both read
//! `in` and write `out`, one item per item.
//!
//! # Usage
//! ```
//! let mut registry = rfgraph::registry::Registry::new();
//! registry.extend(rfgraph_blocks::registry::specs());
//! let params = [("function".to_string(), rfgraph::Pmt::from("log10"))].into_iter().collect();
//! let log = registry.build("transcendental", params)?;
//! # let _ = log;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::scalar::Arith;
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, MapParams, ParamChoice, ParamSet};

/// The functions of `transcendental`, by C's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ParamChoice)]
pub enum Function {
    /// cosine
    Cos,
    /// sine
    Sin,
    /// tangent
    Tan,
    /// arc cosine
    Acos,
    /// arc sine
    Asin,
    /// arc tangent
    Atan,
    /// hyperbolic cosine
    Cosh,
    /// hyperbolic sine
    Sinh,
    /// hyperbolic tangent
    Tanh,
    /// inverse hyperbolic cosine
    Acosh,
    /// inverse hyperbolic sine
    Asinh,
    /// inverse hyperbolic tangent
    Atanh,
    /// `e^x`
    Exp,
    /// natural logarithm
    Log,
    /// decimal logarithm
    #[choice(name = "log10")]
    Log10,
    /// square root
    Sqrt,
}

impl Function {
    /// The function on real items.
    pub fn real(self) -> fn(f32) -> f32 {
        match self {
            Function::Cos => f32::cos,
            Function::Sin => f32::sin,
            Function::Tan => f32::tan,
            Function::Acos => f32::acos,
            Function::Asin => f32::asin,
            Function::Atan => f32::atan,
            Function::Cosh => f32::cosh,
            Function::Sinh => f32::sinh,
            Function::Tanh => f32::tanh,
            Function::Acosh => f32::acosh,
            Function::Asinh => f32::asinh,
            Function::Atanh => f32::atanh,
            Function::Exp => f32::exp,
            Function::Log => f32::ln,
            Function::Log10 => f32::log10,
            Function::Sqrt => f32::sqrt,
        }
    }

    /// The function on complex items.
    pub fn complex(self) -> fn(Complex32) -> Complex32 {
        match self {
            Function::Cos => Complex32::cos,
            Function::Sin => Complex32::sin,
            Function::Tan => Complex32::tan,
            Function::Acos => Complex32::acos,
            Function::Asin => Complex32::asin,
            Function::Atan => Complex32::atan,
            Function::Cosh => Complex32::cosh,
            Function::Sinh => Complex32::sinh,
            Function::Tanh => Complex32::tanh,
            Function::Acosh => Complex32::acosh,
            Function::Asinh => Complex32::asinh,
            Function::Atanh => Complex32::atanh,
            Function::Exp => Complex32::exp,
            Function::Log => Complex32::ln,
            Function::Log10 => |z: Complex32| z.ln() / std::f32::consts::LN_10,
            Function::Sqrt => Complex32::sqrt,
        }
    }
}

/// The parameters of `transcendental`.
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct TranscendentalParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32))]
    pub item: ItemKind,
    /// the function
    #[param(default = Function::Cos, alias = "name")]
    pub function: Function,
}

/// `transcendental`: GNU Radio's `blocks_transcendental`.
pub(crate) fn transcendental_spec() -> BlockSpec {
    BlockSpec::of::<TranscendentalParams>(
        "transcendental",
        "Math",
        "A named function (`cos`, `log10`, `sqrt`, …) of every item.",
        |p| {
            let function = p.function;
            let block: Box<dyn Block> = match p.item {
                ItemKind::C32 => {
                    let f = function.complex();
                    Box::new(MapParams::new(p, move |_: &TranscendentalParams, x| f(x)))
                }
                ItemKind::F32 => {
                    let f = function.real();
                    Box::new(MapParams::new(p, move |_: &TranscendentalParams, x| f(x)))
                }
                other => return Err(format!("item type `{other}` is not supported here").into()),
            };
            Ok(block)
        },
    )
    .doc("Real inputs out of a function's domain give NaN, as C's functions do.")
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// The parameters of `mute`.
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct MuteParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, I32, I16))]
    pub item: ItemKind,
    /// write zeros instead of the items
    #[param(default = false, settable)]
    pub mute: bool,
}

/// `mute`: GNU Radio's `blocks_mute_xx`.
pub(crate) fn mute_spec() -> BlockSpec {
    BlockSpec::of::<MuteParams>(
        "mute",
        "Level Controllers",
        "Zeros instead of the items while `mute` is on.",
        |p| {
            rfgraph::for_item_kinds!(p.item, {
                F32 => f32, C32 => Complex32, I32 => i32, I16 => i16
            } as T => MapParams::new(p, |m: &MuteParams, x: T| if m.mute { T::ZERO } else { x }))
        },
    )
    .doc("`out[i] = mute ? 0 : in[i]` for `f32`, `c32`, `i32` or `i16` items: one output per input either way, so the stream keeps its rate and timing while muted. `mute` can be changed while running (its message input); a change applies between work calls, from one item on. GNU Radio's `blocks_mute_xx`.")
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
