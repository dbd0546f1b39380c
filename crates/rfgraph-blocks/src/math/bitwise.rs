//! Bitwise blocks on integer streams, GNU Radio's `and_xx`, `or_xx`,
//! `xor_xx` (N inputs, as [`Combine`]s) and `not_xx`, with their registry
//! entries. Each reads `in0`, `in1`, … (or `in` for `not`) and writes
//! `out`, item by item; GNU Radio's vectors are flat streams here.
//!
//! # Usage
//! ```
//! let mut registry = rfgraph::registry::Registry::new();
//! registry.extend(rfgraph_blocks::registry::specs());
//! let params = [("type".to_string(), rfgraph::Pmt::from("u8"))].into_iter().collect();
//! let xor = registry.build("xor", params)?;
//! # let _ = xor;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::nary::Combine;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{MapParams, ParamSet};

/// The parameters of `and`, `or` and `xor`.
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct BitwiseParams {
    /// stream item type
    #[param(name = "type", kinds(U8, I16, I32))]
    pub item: ItemKind,
    /// number of inputs
    #[param(default = 2, min = 1, max = limits::MAX_PORTS, alias = "num_inputs")]
    pub inputs: usize,
    /// GNU Radio vector length (items are handled one by one)
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
}

/// The parameters of `not`.
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct NotParams {
    /// stream item type
    #[param(name = "type", kinds(U8, I16, I32))]
    pub item: ItemKind,
    /// GNU Radio vector length (items are handled one by one)
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
}

macro_rules! fold_spec {
    ($fn:ident, $name:literal, $summary:literal, $op:tt, $formula:literal) => {
        #[doc = concat!("`", $name, "`: GNU Radio's `blocks_", $name, "_xx`.")]
        pub(crate) fn $fn() -> BlockSpec {
            BlockSpec::of::<BitwiseParams>($name, "Boolean Operators", $summary, |p| {
                let n = p.inputs;
                rfgraph::for_item_kinds!(p.item, { U8 => u8, I16 => i16, I32 => i32 } as T
                    => Combine::<T, BitwiseParams>::with(|a, b| a $op b, n, p)?)
            })
            .doc(concat!(
                "`out[i] = ", $formula, "`: bitwise on `u8`, `i16` or `i32` items, folded over \
                 `in0`, `in1`, … in input order (one input copies it). `inputs` must be at \
                 least 1. GNU Radio vectors are flat streams here, so `vlen` is not used. \
                 GNU Radio's `blocks_", $name, "_xx`."
            ))
            .input(PortSpec::new("in", PortItem::OfType).repeated("inputs"))
            .output(PortSpec::new("out", PortItem::OfType))
        }
    };
}

fold_spec!(and_spec, "and", "Bitwise AND of N integer streams.", &, "in0[i] & in1[i] & …");
fold_spec!(or_spec, "or", "Bitwise OR of N integer streams.", |, "in0[i] | in1[i] | …");
fold_spec!(xor_spec, "xor", "Bitwise XOR of N integer streams.", ^, "in0[i] ^ in1[i] ^ …");

/// `not`: GNU Radio's `blocks_not_xx`.
pub(crate) fn not_spec() -> BlockSpec {
    BlockSpec::of::<NotParams>(
        "not",
        "Boolean Operators",
        "Bitwise NOT of an integer stream.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { U8 => u8, I16 => i16, I32 => i32 } as T
                => MapParams::new(p, |_: &NotParams, x: T| !x))
        },
    )
    .doc("`out[i] = !in[i]`: every bit flipped (`u8`, `i16` or `i32`; for the signed types `!x = -x - 1`). GNU Radio vectors are flat streams here, so `vlen` is not used. GNU Radio's `blocks_not_xx`.")
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
