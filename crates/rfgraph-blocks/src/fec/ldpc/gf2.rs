//! [`BitMatrix`]: a dense matrix over GF(2), rows packed in 64-bit
//! words, with the operations the LDPC codes need (row sums, column
//! swaps, products, the inverse).

/// A dense binary matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitMatrix {
    rows: usize,
    cols: usize,
    words: usize,
    data: Vec<u64>,
}

impl BitMatrix {
    /// All zeros, `rows × cols`.
    pub fn zeros(rows: usize, cols: usize) -> Self {
        let words = cols.div_ceil(64);
        Self {
            rows,
            cols,
            words,
            data: vec![0; rows * words],
        }
    }

    /// The identity, `n × n`.
    pub fn identity(n: usize) -> Self {
        let mut m = Self::zeros(n, n);
        for i in 0..n {
            m.set(i, i, true);
        }
        m
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Element `(r, c)`.
    #[inline]
    pub fn get(&self, r: usize, c: usize) -> bool {
        self.data[r * self.words + c / 64] >> (c % 64) & 1 == 1
    }

    /// Sets element `(r, c)`.
    #[inline]
    pub fn set(&mut self, r: usize, c: usize, v: bool) {
        let w = &mut self.data[r * self.words + c / 64];
        let bit = 1u64 << (c % 64);
        if v {
            *w |= bit;
        } else {
            *w &= !bit;
        }
    }

    fn row(&self, r: usize) -> &[u64] {
        &self.data[r * self.words..(r + 1) * self.words]
    }

    /// Row `dst` += row `src`.
    pub fn add_row(&mut self, dst: usize, src: usize) {
        let w = self.words;
        for i in 0..w {
            let s = self.data[src * w + i];
            self.data[dst * w + i] ^= s;
        }
    }

    /// Swaps columns `a` and `b`.
    pub fn swap_cols(&mut self, a: usize, b: usize) {
        if a == b {
            return;
        }
        for r in 0..self.rows {
            let (x, y) = (self.get(r, a), self.get(r, b));
            self.set(r, a, y);
            self.set(r, b, x);
        }
    }

    /// Swaps rows `a` and `b`.
    pub fn swap_rows(&mut self, a: usize, b: usize) {
        let w = self.words;
        for i in 0..w {
            self.data.swap(a * w + i, b * w + i);
        }
    }

    /// Moves row `r` to position `to` (> `r`), shifting the rows between
    /// up by one.
    pub fn rotate_row_down(&mut self, r: usize, to: usize) {
        let w = self.words;
        self.data[r * w..(to + 1) * w].rotate_left(w);
    }

    /// The submatrix of rows `r0..r0 + rows`, columns `c0..c0 + cols`.
    pub fn sub(&self, r0: usize, c0: usize, rows: usize, cols: usize) -> Self {
        let mut m = Self::zeros(rows, cols);
        for r in 0..rows {
            for c in 0..cols {
                if self.get(r0 + r, c0 + c) {
                    m.set(r, c, true);
                }
            }
        }
        m
    }

    /// `self · x` for a bit vector `x` (one bit a byte, 0 or 1).
    pub fn mul_vec(&self, x: &[u8]) -> Vec<u8> {
        let packed = pack(x, self.words);
        (0..self.rows)
            .map(|r| parity(self.row(r), &packed))
            .collect()
    }

    /// The dot product of row `r`'s columns `c0..` with `x`.
    pub fn row_dot_from(&self, r: usize, c0: usize, x: &[u8]) -> u8 {
        let mut acc = 0u8;
        for (i, &b) in x.iter().enumerate() {
            acc ^= (self.get(r, c0 + i) as u8) & b;
        }
        acc
    }

    /// `self · other`.
    pub fn mul(&self, other: &Self) -> Self {
        assert_eq!(self.cols, other.rows);
        let mut out = Self::zeros(self.rows, other.cols);
        for r in 0..self.rows {
            for k in 0..self.cols {
                if self.get(r, k) {
                    let w = out.words;
                    for i in 0..w {
                        out.data[r * w + i] ^= other.data[k * w + i];
                    }
                }
            }
        }
        out
    }

    /// `self + other`.
    pub fn add(&self, other: &Self) -> Self {
        let mut out = self.clone();
        for (o, &b) in out.data.iter_mut().zip(&other.data) {
            *o ^= b;
        }
        out
    }

    /// The inverse of a square matrix, `None` when singular.
    pub fn inverse(&self) -> Option<Self> {
        let n = self.rows;
        if n != self.cols {
            return None;
        }
        let mut a = self.clone();
        let mut inv = Self::identity(n);
        for col in 0..n {
            let pivot = (col..n).find(|&r| a.get(r, col))?;
            a.swap_rows(col, pivot);
            inv.swap_rows(col, pivot);
            for r in 0..n {
                if r != col && a.get(r, col) {
                    a.add_row(r, col);
                    inv.add_row(r, col);
                }
            }
        }
        Some(inv)
    }
}

fn pack(x: &[u8], words: usize) -> Vec<u64> {
    let mut p = vec![0u64; words.max(x.len().div_ceil(64))];
    for (i, &b) in x.iter().enumerate() {
        if b & 1 == 1 {
            p[i / 64] |= 1 << (i % 64);
        }
    }
    p
}

fn parity(row: &[u64], x: &[u64]) -> u8 {
    let ones: u32 = row.iter().zip(x).map(|(a, b)| (a & b).count_ones()).sum();
    (ones & 1) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_times_matrix_is_identity() {
        let mut m = BitMatrix::zeros(3, 3);
        for (r, c) in [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 0), (2, 1)] {
            m.set(r, c, true);
        }
        let inv = m.inverse().unwrap();
        assert_eq!(m.mul(&inv), BitMatrix::identity(3));
        assert_eq!(m.mul_vec(&[1, 0, 1]), vec![1, 1, 0]);
        let mut r = m.clone();
        r.rotate_row_down(0, 2);
        assert!(r.get(2, 0) && r.get(2, 1) && !r.get(2, 2));
    }
}
