//! `map`: byte-to-byte lookup table (GNU Radio `digital_map_bb`).

use super::params::ints;
use rfgraph::Pmt;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph::{FixedRateBlock, MapWith};

/// The lookup of [`map_bb`]: `table[x]`, identity past the given entries.
pub struct ByteMap {
    table: [u8; 256],
}

impl ByteMap {
    fn new(map: &[u8]) -> Self {
        let mut table = [0u8; 256];
        for (i, t) in table.iter_mut().enumerate() {
            *t = map.get(i).copied().unwrap_or(i as u8);
        }
        Self { table }
    }
}

type ByteMapBlock = FixedRateBlock<MapWith<ByteMap, u8, u8, fn(&mut ByteMap, u8) -> u8>>;

/// Replaces each byte `x` by `map[x]`; bytes past the map's length pass
/// unchanged (GNU Radio's `digital_map_bb`).
///
/// # Stream Inputs
/// - `in`: `u8`
///
/// # Stream Outputs
/// - `out`: `u8`
///
/// # Parameters
/// - `map`: the table, at most 256 entries.
///
/// # Usage
/// ```
/// let gray = rfgraph_blocks::digital::map_bb(&[0, 1, 3, 2]);
/// # let _ = gray;
/// ```
pub fn map_bb(map: &[u8]) -> ByteMapBlock {
    MapWith::new(
        ByteMap::new(map),
        (|m: &mut ByteMap, x: u8| m.table[x as usize]) as fn(&mut ByteMap, u8) -> u8,
    )
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new("map", "Digital", "Replaces each byte x by map[x].", |p| {
        let map = ints(p, "map")?;
        if map.len() > 256 || map.iter().any(|&v| !(0..=255).contains(&v)) {
            return Err(p.invalid("map", "needs at most 256 values, each 0..=255"));
        }
        let map: Vec<u8> = map.iter().map(|&v| v as u8).collect();
        Ok(Box::new(map_bb(&map)) as Box<dyn rfgraph::Block>)
    })
    .doc("GNU Radio's `digital_map_bb`: `out = map[in]`, bytes past the map's length unchanged.")
    .param(
        ParamSpec::any("map")
            .default(Pmt::List(Vec::new()))
            .doc("list of byte values (at most 256)"),
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}
