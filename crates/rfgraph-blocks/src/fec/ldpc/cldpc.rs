//! [`Cldpc`]: GNU Radio's `cldpc`, the code of `fec.ldpc_encoder_make`
//! and `fec.ldpc_decoder.make`: a parity check matrix brought to a
//! systematic generator by Gaussian elimination with column swaps
//! (`GF2Mat::get_G`), whose permutation decides where the information
//! bits sit in a codeword.

use super::alist::Alist;
use super::gf2::BitMatrix;

/// The code of an alist parity check matrix, as GNU Radio's `cldpc`.
#[derive(Clone, Debug)]
pub struct Cldpc {
    /// The parity check matrix as read.
    h: BitMatrix,
    /// The reduced matrix (`get_G`).
    g: BitMatrix,
    /// Column permutation: codeword position of reduced column `i`.
    permute: Vec<usize>,
    rank: usize,
}

impl Cldpc {
    /// The code of `a`; an error when it has no information bits.
    pub fn new(a: &Alist) -> Result<Self, String> {
        let h = a.matrix();
        let (m, n) = (a.m, a.n);
        let mut g = h.clone();
        let mut permute: Vec<usize> = (0..n).collect();
        let mut rank = 0;
        let mut diag = 0;
        let mut limit = m;
        while diag < limit {
            let pivot = if diag < n {
                (diag..n).find(|&c| g.get(diag, c))
            } else {
                None
            };
            if let Some(col) = pivot {
                rank += 1;
                g.swap_cols(diag, col);
                permute.swap(diag, col);
                for row in 0..m {
                    if row != diag && g.get(row, diag) {
                        g.add_row(row, diag);
                    }
                }
                diag += 1;
            } else {
                g.rotate_row_down(diag, limit - 1);
                limit -= 1;
            }
        }
        if rank >= n {
            return Err(format!(
                "the parity check matrix has full column rank {rank}: no information bits"
            ));
        }
        Ok(Self {
            h,
            g,
            permute,
            rank,
        })
    }

    /// Information bits of a codeword (GNU Radio's `dimension()`).
    pub fn k(&self) -> usize {
        self.permute.len() - self.rank
    }

    /// Bits of a codeword.
    pub fn n(&self) -> usize {
        self.permute.len()
    }

    /// Encodes `k` bits into `n`.
    pub fn encode(&self, data: &[u8], out: &mut [u8]) {
        let (n, k, rank) = (self.n(), self.k(), self.rank);
        let data: Vec<u8> = data[..k].iter().map(|b| b & 1).collect();
        let mut x = vec![0u8; n];
        x[rank..].copy_from_slice(&data);
        for (i, xi) in x.iter_mut().enumerate().take(rank) {
            *xi = self.g.row_dot_from(i, rank, &data);
        }
        for (i, &b) in x.iter().enumerate() {
            out[self.permute[i]] = b;
        }
    }

    /// The information bits of codeword `word` (`get_systematic_bits`).
    pub fn systematic_bits(&self, word: &[u8], out: &mut [u8]) {
        for (i, o) in out[..self.k()].iter_mut().enumerate() {
            *o = word[self.permute[i + self.rank]];
        }
    }

    /// The syndrome is zero on the first `n − k` rows of the matrix as
    /// read (GNU Radio's `awgn_bp::is_codeword`).
    pub fn checks(&self, word: &[u8]) -> bool {
        let rows = self.n() - self.k();
        self.h.mul_vec(word).iter().take(rows).all(|&s| s == 0)
    }
}
