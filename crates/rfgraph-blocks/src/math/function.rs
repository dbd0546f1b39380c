//! `transcendental` (a named function of every item, GNU Radio's
//! `blocks_transcendental`) and `mute` (zeros while a setting says so,
//! `blocks_mute_xx`), with their registry entries. Both read `in` and
//! write `out`, one item per item.
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
use rfgraph::registry::{BlockSpec, BuildError, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{Block, Map, MapWith, Setting};

const FUNCTIONS: [&str; 16] = [
    "cos", "sin", "tan", "acos", "asin", "atan", "cosh", "sinh", "tanh", "acosh", "asinh", "atanh",
    "exp", "log", "log10", "sqrt",
];

fn real(name: &str) -> Option<fn(f32) -> f32> {
    Some(match name {
        "cos" => f32::cos,
        "sin" => f32::sin,
        "tan" => f32::tan,
        "acos" => f32::acos,
        "asin" => f32::asin,
        "atan" => f32::atan,
        "cosh" => f32::cosh,
        "sinh" => f32::sinh,
        "tanh" => f32::tanh,
        "acosh" => f32::acosh,
        "asinh" => f32::asinh,
        "atanh" => f32::atanh,
        "exp" => f32::exp,
        "log" => f32::ln,
        "log10" => f32::log10,
        "sqrt" => f32::sqrt,
        _ => return None,
    })
}

fn complex(name: &str) -> Option<fn(Complex32) -> Complex32> {
    Some(match name {
        "cos" => Complex32::cos,
        "sin" => Complex32::sin,
        "tan" => Complex32::tan,
        "acos" => Complex32::acos,
        "asin" => Complex32::asin,
        "atan" => Complex32::atan,
        "cosh" => Complex32::cosh,
        "sinh" => Complex32::sinh,
        "tanh" => Complex32::tanh,
        "acosh" => Complex32::acosh,
        "asinh" => Complex32::asinh,
        "atanh" => Complex32::atanh,
        "exp" => Complex32::exp,
        "log" => Complex32::ln,
        "log10" => |z: Complex32| z.ln() / std::f32::consts::LN_10,
        "sqrt" => Complex32::sqrt,
        _ => return None,
    })
}

fn boxed(b: impl Block) -> Result<Box<dyn Block>, BuildError> {
    Ok(Box::new(b))
}

/// `transcendental`: GNU Radio's `blocks_transcendental`.
pub(crate) fn transcendental_spec() -> BlockSpec {
    BlockSpec::new(
        "transcendental",
        "Math",
        "A named function (`cos`, `log10`, `sqrt`, …) of every item.",
        |p: &Params| {
            let name = p.string("function")?.to_ascii_lowercase();
            let unknown = || {
                p.invalid(
                    "function",
                    format!("`{name}` is not one of {}", FUNCTIONS.join(", ")),
                )
            };
            match p.item_type()? {
                ItemKind::C32 => boxed(Map::new(complex(&name).ok_or_else(unknown)?)),
                _ => boxed(Map::new(real(&name).ok_or_else(unknown)?)),
            }
        },
    )
    .doc("Real inputs out of a function's domain give NaN, as C's functions do.")
    .param(ParamSpec::item_type(&[ItemKind::F32, ItemKind::C32]))
    .param(
        ParamSpec::string("function")
            .choices(&FUNCTIONS)
            .default("cos")
            .doc("the function"),
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `mute`: GNU Radio's `blocks_mute_xx`.
pub(crate) fn mute_spec() -> BlockSpec {
    BlockSpec::new(
        "mute",
        "Level Controllers",
        "Zeros instead of the items while `mute` is on.",
        |p: &Params| {
            let on = p.bool("mute")?;
            rfgraph::for_item_kinds!(p, p.item_type()?, {
                F32 => f32, C32 => Complex32, I32 => i32, I16 => i16
            } as T => MapWith::new(on, |m: &mut bool, x: T| if *m { T::ZERO } else { x })
                .with_setting(Setting::new("mute", |m: &mut bool, v: bool| *m = v).doc("write zeros")))
        },
    )
    .doc("`out[i] = mute ? 0 : in[i]` for `f32`, `c32`, `i32` or `i16` items: one output per input either way, so the stream keeps its rate and timing while muted. `mute` can be changed while running (its message port); a change applies between work calls. GNU Radio's `blocks_mute_xx`.")
    .param(ParamSpec::item_type(&[ItemKind::F32, ItemKind::C32, ItemKind::I32, ItemKind::I16]))
    .param(ParamSpec::bool("mute").default(false).settable().doc("write zeros"))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
