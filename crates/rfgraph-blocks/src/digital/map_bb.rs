//! `map`: byte-to-byte lookup table (GNU Radio `digital_map_bb`).

use super::params::{ItemStep, ParamMap};
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{FixedRateBlock, ParamError, ParamSet};

/// The parameters of `map`, GNU Radio's `digital_map_bb`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct MapBbParams {
    /// the table: byte `x` becomes `map[x]` (as GNU Radio casts it to a
    /// byte: `-1` is 255); bytes past its end pass unchanged
    #[param(default = Vec::new(), max_len = 256)]
    pub map: Vec<i64>,
}

/// The lookup of [`map_bb`]: `table[x]`, identity past the given entries.
pub struct ByteMap {
    table: [u8; 256],
}

impl ByteMap {
    fn new(map: &[i64]) -> Self {
        let mut table = [0u8; 256];
        for (i, t) in table.iter_mut().enumerate() {
            // GNU Radio's `(unsigned char)` cast: the low byte.
            *t = map.get(i).map_or(i as u8, |&m| m as u8);
        }
        Self { table }
    }
}

impl ItemStep for ByteMap {
    type In = u8;
    type Out = u8;
    const IN_PLACE: bool = true;
    #[inline]
    fn step(&mut self, x: u8) -> u8 {
        self.table[x as usize]
    }
    fn step_in_place(&mut self, data: &mut [u8]) {
        for x in data {
            *x = self.table[*x as usize];
        }
    }
}

/// The block [`map_bb`] builds.
pub type ByteMapBlock = FixedRateBlock<ParamMap<MapBbParams, ByteMap>>;

/// Replaces each byte `x` by `map[x]`; bytes past the map's length pass
/// unchanged (GNU Radio's `digital_map_bb`).
///
/// # Parameters
/// [`MapBbParams`].
///
/// # Stream Inputs
/// - `in`: `u8`
///
/// # Stream Outputs
/// - `out`: `u8`
///
/// # Usage
/// ```
/// use rfgraph_blocks::digital::{MapBbParams, map_bb};
/// let gray = map_bb(MapBbParams { map: vec![0, 1, 3, 2] })?;
/// # let _ = gray;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn map_bb(params: MapBbParams) -> Result<ByteMapBlock, ParamError> {
    params.validate()?;
    let table = ByteMap::new(&params.map);
    ParamMap::block(params, table)
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<MapBbParams>("map", "Digital", "Replaces each byte x by map[x].", |p| {
        Ok(Box::new(map_bb(p)?) as Box<dyn rfgraph::Block>)
    })
    .doc("GNU Radio's `digital_map_bb`: `out = map[in]`, bytes past the map's length unchanged.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}
