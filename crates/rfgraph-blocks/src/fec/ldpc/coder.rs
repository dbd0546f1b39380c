//! [`LdpcEncoder`] and [`LdpcDecoder`]: the LDPC codes as the FEC
//! framework drives them, frames of whole codewords. `ldpc`: GNU Radio's
//! `ldpc_encoder` / `ldpc_decoder` (an alist parity check matrix, belief
//! propagation); `ldpc_h`: `ldpc_par_mtrx_encoder` of an `ldpc_H_matrix`;
//! `ldpc_g`: `ldpc_gen_mtrx_encoder` of an `ldpc_G_matrix`; both decoded
//! by `ldpc_bit_flip_decoder`.

use super::alist::Alist;
use super::bp::BeliefPropagation;
use super::cldpc::Cldpc;
use super::matrix::LdpcMatrix;
use crate::fec::params::{FecCode, FecCodeParams, MAX_FRAME_BITS};
use rfgraph::ParamError;

/// Reads the matrix of `p` and builds `make` of it, as an error of
/// `block`'s parameter `file`.
fn load<T>(
    p: &FecCodeParams,
    block: &str,
    make: impl FnOnce(&Alist) -> Result<T, String>,
) -> Result<T, ParamError> {
    let path = &p.ldpc.file;
    if path.is_empty() {
        return Err(ParamError::new(
            block,
            "file",
            "names no alist file".to_string(),
        ));
    }
    let a = Alist::read(path).map_err(|e| ParamError::new(block, "file", e))?;
    make(&a).map_err(|e| ParamError::new(block, "file", format!("{path}: {e}")))
}

#[derive(Clone, Debug)]
enum EncKind {
    Alist(Box<Cldpc>),
    Matrix(Box<LdpcMatrix>),
}

/// An LDPC encoder: frames of `k · codewords` bits into `n · codewords`.
#[derive(Clone, Debug)]
pub(crate) struct LdpcEncoder {
    kind: EncKind,
    words: usize,
}

impl LdpcEncoder {
    pub(crate) fn new(p: &FecCodeParams, block: &str) -> Result<Self, ParamError> {
        let kind = match p.code {
            FecCode::LdpcH => EncKind::Matrix(Box::new(load(p, block, |a| {
                LdpcMatrix::parity_check(a, p.ldpc.gap)
            })?)),
            FecCode::LdpcG => EncKind::Matrix(Box::new(load(p, block, LdpcMatrix::generator)?)),
            _ => EncKind::Alist(Box::new(load(p, block, Cldpc::new)?)),
        };
        Ok(Self { kind, words: 1 })
    }

    fn nk(&self) -> (usize, usize) {
        match &self.kind {
            EncKind::Alist(c) => (c.n(), c.k()),
            EncKind::Matrix(m) => (m.n(), m.k()),
        }
    }

    pub(crate) fn input_size(&self) -> usize {
        self.nk().1 * self.words
    }

    pub(crate) fn output_size(&self) -> usize {
        self.nk().0 * self.words
    }

    /// `n / k` (GNU Radio's `rate()` of its LDPC encoders).
    pub(crate) fn rate(&self) -> f64 {
        let (n, k) = self.nk();
        n as f64 / k as f64
    }

    /// Frames of whole codewords: `bits` a multiple of `k`; otherwise
    /// (GNU Radio throws) the whole codewords it holds, at least one,
    /// and false.
    pub(crate) fn set_frame_size(&mut self, bits: usize) -> bool {
        let k = self.nk().1;
        let most = (MAX_FRAME_BITS / k).max(1);
        self.words = (bits / k).clamp(1, most);
        bits.is_multiple_of(k) && bits / k == self.words
    }

    pub(crate) fn encode(&mut self, input: &[u8], output: &mut [u8]) {
        let (n, k) = self.nk();
        for w in 0..self.words {
            let (i, o) = (&input[w * k..(w + 1) * k], &mut output[w * n..(w + 1) * n]);
            match &self.kind {
                EncKind::Alist(c) => c.encode(i, o),
                EncKind::Matrix(m) => m.encode(i, o),
            }
        }
    }
}

#[derive(Clone, Debug)]
enum DecKind {
    Bp(Box<BeliefPropagation>),
    BitFlip(Box<LdpcMatrix>),
}

/// An LDPC decoder: frames of `n` soft values (positive for a 1) into
/// `k` bits; the `ldpc` decoder takes frames of several codewords.
#[derive(Clone, Debug)]
pub(crate) struct LdpcDecoder {
    kind: DecKind,
    max_iter: usize,
    words: usize,
}

impl LdpcDecoder {
    pub(crate) fn new(p: &FecCodeParams, block: &str) -> Result<Self, ParamError> {
        let max_iter = p.ldpc.max_iter;
        let kind = match p.code {
            FecCode::LdpcH => DecKind::BitFlip(Box::new(load(p, block, |a| {
                LdpcMatrix::parity_check(a, p.ldpc.gap)
            })?)),
            FecCode::LdpcG => DecKind::BitFlip(Box::new(load(p, block, LdpcMatrix::generator)?)),
            _ => {
                let sigma = p.ldpc.sigma as f32;
                DecKind::Bp(Box::new(load(p, block, |a| {
                    BeliefPropagation::new(a, sigma, max_iter)
                })?))
            }
        };
        Ok(Self {
            kind,
            max_iter,
            words: 1,
        })
    }

    fn nk(&self) -> (usize, usize) {
        match &self.kind {
            DecKind::Bp(b) => (b.code().n(), b.code().k()),
            DecKind::BitFlip(m) => (m.n(), m.k()),
        }
    }

    pub(crate) fn input_size(&self) -> usize {
        self.nk().0 * self.words
    }

    pub(crate) fn output_size(&self) -> usize {
        self.nk().1 * self.words
    }

    /// `k / n`.
    pub(crate) fn rate(&self) -> f64 {
        let (n, k) = self.nk();
        k as f64 / n as f64
    }

    /// `ldpc`: frames of whole codewords, as the encoder; the bit flip
    /// decoder decodes one codeword a frame (GNU Radio caps its frame at
    /// the constructed `k`).
    pub(crate) fn set_frame_size(&mut self, bits: usize) -> bool {
        let k = self.nk().1;
        match self.kind {
            DecKind::Bp(_) => {
                let most = (MAX_FRAME_BITS / k).max(1);
                self.words = (bits / k).clamp(1, most);
                bits.is_multiple_of(k) && bits / k == self.words
            }
            DecKind::BitFlip(_) => bits == k,
        }
    }

    pub(crate) fn decode(&mut self, input: &[f32], output: &mut [u8]) {
        let (n, k) = self.nk();
        for w in 0..self.words {
            let (i, o) = (&input[w * n..(w + 1) * n], &mut output[w * k..(w + 1) * k]);
            match &mut self.kind {
                DecKind::Bp(b) => b.decode(i, o),
                DecKind::BitFlip(m) => m.bit_flip_decode(i, self.max_iter, o),
            }
        }
    }
}
