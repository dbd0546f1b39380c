//! [`TpcEncoder`]: GNU Radio's `tpc_encoder`. The frame's bits follow
//! `B + Q` zeros in a `kcol × krow` matrix; each row gains its code's
//! tail bits, each column (the row tails' columns too) its column code's;
//! the product codeword goes out row by row without its first `B` bits.

use super::params::TpcShape;

/// A turbo product encoder.
#[derive(Clone, Debug)]
pub(crate) struct TpcEncoder {
    shape: TpcShape,
    /// The padded information matrix, row-major.
    matrix: Vec<u8>,
    /// Each row's tail bits, in row order.
    row_tails: Vec<u8>,
    /// Each codeword column's tail bits, in column order.
    col_tails: Vec<u8>,
    column: Vec<u8>,
}

impl TpcEncoder {
    pub(crate) fn new(shape: TpcShape) -> Self {
        Self {
            matrix: vec![0; shape.krow * shape.kcol],
            shape,
            row_tails: Vec::new(),
            col_tails: Vec::new(),
            column: Vec::new(),
        }
    }

    pub(crate) fn input_size(&self) -> usize {
        self.shape.info_bits()
    }

    pub(crate) fn output_size(&self) -> usize {
        self.shape.coded_bits()
    }

    /// Encodes one frame of bits (the lowest bit of each byte).
    pub(crate) fn encode(&mut self, input: &[u8], output: &mut [u8]) {
        let s = &self.shape;
        let (krow, kcol) = (s.krow, s.kcol);
        let (mr, mc) = (s.row.memory(), s.col.memory());
        let pad = s.bval + s.qval;
        for (m, &b) in self.matrix[pad..].iter_mut().zip(&input[..s.info_bits()]) {
            *m = b & 1;
        }
        self.row_tails.clear();
        for row in self.matrix.chunks_exact(krow) {
            s.row.tail_of(row.iter().copied(), &mut self.row_tails);
        }
        self.col_tails.clear();
        for c in 0..krow + mr {
            self.column.clear();
            if c < krow {
                self.column
                    .extend((0..kcol).map(|r| self.matrix[r * krow + c]));
            } else {
                self.column
                    .extend((0..kcol).map(|r| self.row_tails[r * mr + c - krow]));
            }
            s.col
                .tail_of(self.column.iter().copied(), &mut self.col_tails);
        }
        let mut o = 0;
        let mut put = |b: u8| {
            output[o] = b;
            o += 1;
        };
        for r in 0..kcol {
            let from = if r == 0 { s.bval } else { 0 };
            for &b in &self.matrix[r * krow + from..(r + 1) * krow] {
                put(b);
            }
            for &b in &self.row_tails[r * mr..(r + 1) * mr] {
                put(b);
            }
        }
        for i in 0..mc {
            for c in 0..krow + mr {
                put(self.col_tails[c * mc + i]);
            }
        }
    }
}
