//! [`ChunksToSymbols`]: maps each input index to `dimension` consecutive
//! entries of a symbol table, GNU Radio's `chunks_to_symbols`.

use super::bits::Word;
use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};

/// Writes `table[i * dimension .. (i + 1) * dimension]` for each input
/// index `i`. An index past the table writes `dimension` zeros (GNU Radio
/// rejects it with an exception).
///
/// ```
/// use rfgraph_dsp::digital::ChunksToSymbols;
/// use rfgraph_dsp::Kernel;
/// let mut map = ChunksToSymbols::<u8, f32>::new(vec![-1.0, 1.0], 1).unwrap();
/// let mut out = [0.0f32; 3];
/// assert_eq!(map.process(&[1, 0, 1], &mut out), (3, 3));
/// assert_eq!(out, [1.0, -1.0, 1.0]);
/// ```
#[derive(Clone, Debug)]
pub struct ChunksToSymbols<I: Word, T: Copy + Default> {
    table: Vec<T>,
    dimension: usize,
    _input: std::marker::PhantomData<fn(I)>,
}

impl<I: Word, T: Copy + Default> ChunksToSymbols<I, T> {
    /// A mapper over `table`, `dimension` symbols per index.
    ///
    /// Errors: an empty table, a zero dimension, or a table whose length
    /// is not a multiple of the dimension.
    pub fn new(table: Vec<T>, dimension: usize) -> Result<Self, DspError> {
        if table.is_empty() {
            return Err(DspError::InvalidSpec("the symbol table is empty".into()));
        }
        if dimension == 0 || !table.len().is_multiple_of(dimension) {
            return Err(DspError::OutOfRange {
                name: "dimension",
                value: dimension as f64,
                expected: "must be at least 1 and divide the symbol table's length",
            });
        }
        Ok(Self {
            table,
            dimension,
            _input: std::marker::PhantomData,
        })
    }

    /// Replaces the table (same rules as [`new`](Self::new)).
    pub fn set_table(&mut self, table: Vec<T>) -> Result<(), DspError> {
        *self = Self::new(table, self.dimension)?;
        Ok(())
    }
}

impl<I: Word, T: Copy + Default> Kernel for ChunksToSymbols<I, T> {
    type Input = I;
    type Output = T;

    fn process(&mut self, input: &[I], output: &mut [T]) -> (usize, usize) {
        let d = self.dimension;
        let n = input.len().min(output.len() / d);
        for (x, out) in input[..n].iter().zip(output.chunks_exact_mut(d)) {
            let start = (x.to_bits() as usize).saturating_mul(d);
            match self.table.get(start..start.saturating_add(d)) {
                Some(symbols) => out.copy_from_slice(symbols),
                None => out.fill(T::default()),
            }
        }
        (n, n * d)
    }

    fn min_output(&self) -> usize {
        self.dimension
    }

    fn ratio(&self) -> Ratio {
        Ratio::new(self.dimension as u64, 1)
    }

    fn reset(&mut self) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_dimensional_tables_and_out_of_range_indices() {
        let mut k = ChunksToSymbols::<i16, f32>::new(vec![1.0, 2.0, 3.0, 4.0], 2).unwrap();
        let mut out = [9.0f32; 6];
        assert_eq!(k.process(&[1, 0, 5, 1], &mut out), (3, 6));
        assert_eq!(out, [3.0, 4.0, 1.0, 2.0, 0.0, 0.0]);
        assert_eq!(k.process(&[-1], &mut out), (1, 2));
        assert_eq!(out[..2], [0.0, 0.0]);
        assert!(ChunksToSymbols::<u8, f32>::new(vec![1.0; 3], 2).is_err());
    }
}
