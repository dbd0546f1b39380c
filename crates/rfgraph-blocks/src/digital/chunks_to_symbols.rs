//! `chunks_to_symbols`: symbol-table lookup (GNU Radio
//! `digital_chunks_to_symbols_xx`).

use crate::DspBlock;
use num_complex::Complex32;
use rfgraph::Pmt;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};
use rfgraph_dsp::DspError;
use rfgraph_dsp::digital::{ChunksToSymbols, Word};

/// Maps each input index `i` to `dimension` symbols
/// `table[i·dimension ..]` (GNU Radio's `chunks_to_symbols_xx`). An index
/// past the table gives zeros; GNU Radio throws instead.
///
/// # Stream Inputs
/// - `in`: `I` (`u8`, `i16`, `i32`) symbol indices
///
/// # Stream Outputs
/// - `out`: `T` (`f32` or `Complex32`), `dimension` per input
///
/// # Parameters
/// - `table`: the symbol table, `dimension` entries per index.
/// - `dimension`: symbols per index (≥ 1, divides the table's length).
///
/// # Usage
/// ```
/// use num_complex::Complex32;
/// use rfgraph_blocks::digital::chunks_to_symbols;
/// let bpsk = chunks_to_symbols::<u8, Complex32>(vec![Complex32::new(-1.0, 0.0), Complex32::new(1.0, 0.0)], 1)?;
/// # let _ = bpsk;
/// # Ok::<(), rfgraph_dsp::DspError>(())
/// ```
pub fn chunks_to_symbols<I, T>(
    table: Vec<T>,
    dimension: usize,
) -> Result<DspBlock<ChunksToSymbols<I, T>>, DspError>
where
    I: Word + rfgraph::Item,
    T: rfgraph::Item + Default,
{
    Ok(DspBlock::new(ChunksToSymbols::new(table, dimension)?))
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new("chunks_to_symbols", "Digital", "Maps symbol indices to points of a symbol table.", |p| {
        let table = p.complexes("symbol_table")?;
        let dim = p.usize("dimension")?;
        let out = p.string("output_type")?;
        let cplx: Vec<Complex32> = table.iter().map(|[re, im]| Complex32::new(*re, *im)).collect();
        let reals: Vec<f32> = table.iter().map(|[re, _]| *re).collect();
        let refuse = |e: DspError| p.refused(e);
        match ItemKind::parse(&out) {
            Some(ItemKind::C32) => rfgraph::for_item_kinds!(p, p.item_type()?, { U8 => u8, I16 => i16, I32 => i32 } as I
                => chunks_to_symbols::<I, Complex32>(cplx, dim).map_err(refuse)?),
            Some(ItemKind::F32) => rfgraph::for_item_kinds!(p, p.item_type()?, { U8 => u8, I16 => i16, I32 => i32 } as I
                => chunks_to_symbols::<I, f32>(reals, dim).map_err(refuse)?),
            _ => Err(p.invalid("output_type", format!("`{out}` is neither f32 nor c32"))),
        }
    })
    .doc("GNU Radio's `digital_chunks_to_symbols_xx`. For a real output only the real parts of the table are used. An index past the table writes zeros (GNU Radio throws).")
    .param(ParamSpec::complexes("symbol_table").default(Pmt::VecComplexF32(vec![[-1.0, 0.0], [1.0, 0.0]])).doc("symbols, `dimension` per index"))
    .param(ParamSpec::uint("dimension").default(1u64).doc("symbols per input index"))
    .param(ParamSpec::item_type(&[ItemKind::U8, ItemKind::I16, ItemKind::I32]))
    .param(ParamSpec::string("output_type").default("c32").choices(&["c32", "f32"]).doc("output item type"))
    .input(PortSpec::new("in", PortItem::OfType).doc("symbol indices"))
    .output(PortSpec::new("out", PortItem::OfParam("output_type")).doc("symbols"))
}
