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
use rfgraph::Map;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, Params, PortItem, PortSpec};

const KINDS: [ItemKind; 3] = [ItemKind::U8, ItemKind::I16, ItemKind::I32];

fn vlen() -> ParamSpec {
    ParamSpec::uint("vlen")
        .default(1u64)
        .doc("GNU Radio vector length (items are handled one by one)")
}

macro_rules! fold_spec {
    ($fn:ident, $name:literal, $summary:literal, $op:tt, $formula:literal) => {
        #[doc = concat!("`", $name, "`: GNU Radio's `blocks_", $name, "_xx`.")]
        pub(crate) fn $fn() -> BlockSpec {
            BlockSpec::new($name, "Boolean Operators", $summary, |p: &Params| {
                let n = p.usize("inputs")?;
                let refuse = |e: rfgraph::ParamError| p.refused(e);
                rfgraph::for_item_kinds!(p, p.item_type()?, { U8 => u8, I16 => i16, I32 => i32 } as T
                    => Combine::<T>::with(|a, b| a $op b, n).map_err(refuse)?)
            })
            .doc(concat!(
                "`out[i] = ", $formula, "`: bitwise on `u8`, `i16` or `i32` items, folded over \
                 `in0`, `in1`, … in input order (one input copies it). `inputs` must be at \
                 least 1. GNU Radio vectors are flat streams here, so `vlen` is not used. \
                 GNU Radio's `blocks_", $name, "_xx`."
            ))
            .param(ParamSpec::item_type(&KINDS))
            .param(ParamSpec::uint("inputs").default(2u64).doc("number of inputs"))
            .param(vlen())
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
    BlockSpec::new(
        "not",
        "Boolean Operators",
        "Bitwise NOT of an integer stream.",
        |p: &Params| {
            rfgraph::for_item_kinds!(p, p.item_type()?, { U8 => u8, I16 => i16, I32 => i32 } as T
                => Map::new(|x: T| !x))
        },
    )
    .doc("`out[i] = !in[i]`: every bit flipped (`u8`, `i16` or `i32`; for the signed types `!x = -x - 1`). GNU Radio vectors are flat streams here, so `vlen` is not used. GNU Radio's `blocks_not_xx`.")
    .param(ParamSpec::item_type(&KINDS))
    .param(vlen())
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
