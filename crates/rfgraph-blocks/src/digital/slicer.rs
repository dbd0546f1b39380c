//! `binary_slicer`: sign to bit (GNU Radio `digital_binary_slicer_fb`).

use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};
use rfgraph::{FixedRateBlock, Map};

type SlicerBlock = FixedRateBlock<Map<f32, u8, fn(f32) -> u8>>;

fn slice(x: f32) -> u8 {
    // GNU Radio: 1 unless below zero (NaN gives 1 too).
    u8::from(x.is_nan() || x >= 0.0)
}

/// Writes 1 for inputs ≥ 0 and 0 for negative ones (GNU Radio's
/// `digital_binary_slicer_fb`).
///
/// # Stream Inputs
/// - `in`: `f32`
///
/// # Stream Outputs
/// - `out`: `u8`, 0 or 1
///
/// # Usage
/// ```
/// let slicer = rfgraph_blocks::digital::binary_slicer();
/// # let _ = slicer;
/// ```
pub fn binary_slicer() -> SlicerBlock {
    Map::new(slice as fn(f32) -> u8)
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<rfgraph::params::NoParams>(
        "binary_slicer",
        "Digital",
        "Writes 1 for inputs >= 0, 0 for negative ones.",
        |_| Ok(Box::new(binary_slicer()) as Box<dyn rfgraph::Block>),
    )
    .doc("GNU Radio's `digital_binary_slicer_fb`.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)).doc("bits"))
}
