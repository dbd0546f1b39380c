//! `chunks_to_symbols`: symbol-table lookup (GNU Radio
//! `digital_chunks_to_symbols_xx`).

use super::params::dsp_error;
use crate::DspBlock;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{BoxError, ParamError, ParamSet};
use rfgraph_dsp::digital::{ChunksToSymbols, Word};

/// The parameters of `chunks_to_symbols`, GNU Radio's
/// `digital_chunks_to_symbols_xx`. The table may change while it runs,
/// as GNU Radio's `set_symbol_table` allows.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ChunksToSymbolsParams {
    /// the symbols, `dimension` per index (a real output takes the real
    /// parts); a multiple of `dimension` long
    #[param(
        default = vec![Complex32::new(-1.0, 0.0), Complex32::new(1.0, 0.0)],
        max_len = limits::MAX_ELEMENTS,
        settable
    )]
    pub symbol_table: Vec<Complex32>,
    /// symbols per input index
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub dimension: usize,
    /// input item type: the symbol indices
    #[param(name = "type", kinds(U8, I16, I32), alias = "in_type")]
    pub item: ItemKind,
    /// output item type
    #[param(kinds(C32, F32), alias = "out_type")]
    pub output_type: ItemKind,
}

impl ChunksToSymbolsParams {
    fn check(&self) -> Result<(), ParamError> {
        let n = self.symbol_table.len();
        if n == 0 {
            return Err(ParamError::new(
                "chunks_to_symbols",
                "symbol_table",
                "needs at least one symbol",
            ));
        }
        if !n.is_multiple_of(self.dimension) {
            return Err(ParamError::new(
                "chunks_to_symbols",
                "dimension",
                format!(
                    "the symbol table's {n} symbols are no whole number of indices of \
                     dimension {}",
                    self.dimension
                ),
            ));
        }
        Ok(())
    }
}

/// A symbol type of the output: `f32` takes the real parts of the table.
pub trait Symbol: rfgraph::Item + Default {
    /// The table as symbols of this type.
    fn table(points: &[Complex32]) -> Vec<Self>;
}

impl Symbol for Complex32 {
    fn table(points: &[Complex32]) -> Vec<Self> {
        points.to_vec()
    }
}

impl Symbol for f32 {
    fn table(points: &[Complex32]) -> Vec<Self> {
        points.iter().map(|c| c.re).collect()
    }
}

/// The block [`chunks_to_symbols`] builds.
pub type ChunksToSymbolsBlock<I, T> = DspBlock<ChunksToSymbols<I, T>, ChunksToSymbolsParams>;

/// Maps each input index `i` to `dimension` symbols
/// `table[i·dimension ..]` (GNU Radio's `chunks_to_symbols_xx`). An index
/// past the table gives zeros; GNU Radio throws instead. The table may
/// change while it runs (the dimension stays).
///
/// # Parameters
/// [`ChunksToSymbolsParams`]; `I` and `T` are the input and output item
/// types (`params.item` and `params.output_type` are what the registry
/// builds from).
///
/// # Stream Inputs
/// - `in`: `I` (`u8`, `i16`, `i32`) symbol indices
///
/// # Stream Outputs
/// - `out`: `T` (`f32` or `Complex32`), `dimension` per input
///
/// # Usage
/// ```
/// use num_complex::Complex32;
/// use rfgraph_blocks::digital::{ChunksToSymbolsParams, chunks_to_symbols};
/// let bpsk = chunks_to_symbols::<u8, Complex32>(ChunksToSymbolsParams::default())?;
/// # let _ = bpsk;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn chunks_to_symbols<I, T>(
    params: ChunksToSymbolsParams,
) -> Result<ChunksToSymbolsBlock<I, T>, ParamError>
where
    I: Word + rfgraph::Item,
    T: Symbol,
{
    params.validate()?;
    let kernel = ChunksToSymbols::new(T::table(&params.symbol_table), params.dimension).map_err(
        dsp_error(
            "chunks_to_symbols",
            "symbol_table",
            &[("dimension", "dimension")],
        ),
    )?;
    Ok(DspBlock::tuned(kernel, params, |kernel, p, _| {
        Ok(kernel.set_table(T::table(&p.symbol_table))?)
    }))
}

pub(crate) fn spec() -> BlockSpec {
    fn block<T: Symbol>(p: ChunksToSymbolsParams) -> Result<Box<dyn rfgraph::Block>, BoxError> {
        rfgraph::for_item_kinds!(p.item, { U8 => u8, I16 => i16, I32 => i32 } as I
            => chunks_to_symbols::<I, T>(p)?)
    }
    BlockSpec::of::<ChunksToSymbolsParams>(
        "chunks_to_symbols",
        "Digital",
        "Maps symbol indices to points of a symbol table.",
        |p| match p.output_type {
            ItemKind::F32 => block::<f32>(p),
            _ => block::<Complex32>(p),
        },
    )
    .doc(
        "GNU Radio's `digital_chunks_to_symbols_xx`. For a real output only the real parts \
         of the table are used. An index past the table writes zeros (GNU Radio throws). \
         The table may change while it runs (GNU Radio's `set_symbol_table`), from the next \
         index on; the dimension stays.",
    )
    .input(PortSpec::new("in", PortItem::OfType).doc("symbol indices"))
    .output(PortSpec::new("out", PortItem::OfParam("output_type")).doc("symbols"))
}
