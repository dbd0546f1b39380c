//! [`LdpcEncoder`] and [`LdpcDecoder`]: the LDPC codes as the FEC
//! framework drives them, frames of whole codewords sized as GNU Radio
//! 3.10's coders size them (which frame sizes they take, refuse or
//! ignore, and the coded and soft sizes they compute). `ldpc`: GNU
//! Radio's `ldpc_encoder` / `ldpc_decoder` (an alist parity check matrix,
//! belief propagation); `ldpc_h`: `ldpc_par_mtrx_encoder` of an
//! `ldpc_H_matrix`; `ldpc_g`: `ldpc_gen_mtrx_encoder` of an
//! `ldpc_G_matrix`; both decoded by `ldpc_bit_flip_decoder`.

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

/// GNU Radio's error for a frame of `bits` that is no whole number of
/// `k`-bit information words (its LDPC coders throw `cannot use frame
/// size`), or past rfgraph's largest frame.
fn frame_error(coder: &str, bits: usize, k: usize) -> Option<String> {
    if !bits.is_multiple_of(k) {
        return Some(format!(
            "{coder}: a frame of {bits} bits is no whole number of the code's {k}-bit information words (GNU Radio throws `cannot use frame size`)"
        ));
    }
    (bits > MAX_FRAME_BITS)
        .then(|| format!("{coder}: a frame of {bits} bits is more than {MAX_FRAME_BITS}"))
}

/// An LDPC encoder as GNU Radio 3.10 sizes its frames. `ldpc`
/// (`ldpc_encoder_make`, GNU Radio's `cldpc`) codes one codeword a frame
/// whatever frame size it is given (its `set_frame_size` changes nothing
/// and says so). `ldpc_h` (`ldpc_par_mtrx_encoder`) and `ldpc_g`
/// (`ldpc_gen_mtrx_encoder`) take frames of whole information words,
/// `bits / k` codewords into `trunc(n/k · bits)` (`ldpc_h`) or
/// `round(n/k · bits)` (`ldpc_g`) coded bits, as GNU Radio computes them.
#[derive(Clone, Debug)]
pub(crate) struct LdpcEncoder {
    kind: EncKind,
    /// Information words a frame.
    words: usize,
    /// Coded bits a frame, as GNU Radio computes them.
    coded: usize,
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
        let mut enc = Self {
            kind,
            words: 1,
            coded: 0,
        };
        // GNU Radio's constructors set a frame of one word.
        let k = enc.nk().1;
        enc.resize(k, p.code == FecCode::LdpcG);
        Ok(enc)
    }

    fn nk(&self) -> (usize, usize) {
        match &self.kind {
            EncKind::Alist(c) => (c.n(), c.k()),
            EncKind::Matrix(m) => (m.n(), m.k()),
        }
    }

    /// A frame of `bits` (whole words): `trunc` or (`round_coded`)
    /// `round` of `n/k · bits` coded bits.
    fn resize(&mut self, bits: usize, round_coded: bool) {
        let (n, k) = self.nk();
        let coded = n as f64 / k as f64 * bits as f64;
        self.words = bits / k;
        self.coded = if round_coded { coded.round() } else { coded } as usize;
    }

    fn name(&self) -> &'static str {
        match &self.kind {
            EncKind::Alist(_) => "ldpc_encoder",
            EncKind::Matrix(m) if m.is_generator() => "ldpc_gen_mtrx_encoder",
            EncKind::Matrix(_) => "ldpc_par_mtrx_encoder",
        }
    }

    pub(crate) fn input_size(&self) -> usize {
        self.nk().1 * self.words
    }

    pub(crate) fn output_size(&self) -> usize {
        self.coded
    }

    /// `n / k`.
    pub(crate) fn rate(&self) -> f64 {
        let (n, k) = self.nk();
        n as f64 / k as f64
    }

    /// GNU Radio's `set_frame_size(bits)`: `ldpc` keeps its one codeword
    /// and gives false; `ldpc_h` and `ldpc_g` take `bits` and give true,
    /// or, when `bits` is no whole number of words, keep their frame and
    /// give GNU Radio's error (it throws).
    pub(crate) fn set_frame_size(&mut self, bits: usize) -> Result<bool, String> {
        let k = self.nk().1;
        let generator = match &self.kind {
            EncKind::Alist(_) => return Ok(false),
            EncKind::Matrix(m) => m.is_generator(),
        };
        if let Some(e) = frame_error(self.name(), bits, k) {
            return Err(e);
        }
        self.resize(bits, generator);
        Ok(true)
    }

    /// Codes the frame's words of `input` into `output`, up to its
    /// length (GNU Radio's coded size may cut the last word).
    pub(crate) fn encode(&mut self, input: &[u8], output: &mut [u8]) {
        let (n, k) = self.nk();
        let code = |i: &[u8], o: &mut [u8]| match &self.kind {
            EncKind::Alist(c) => c.encode(i, o),
            EncKind::Matrix(m) => m.encode(i, o),
        };
        for w in 0..self.words {
            let i = &input[w * k..(w + 1) * k];
            let at = (w * n).min(output.len());
            if at + n <= output.len() {
                code(i, &mut output[at..at + n]);
            } else {
                let mut word = vec![0u8; n];
                code(i, &mut word);
                let rest = output.len() - at;
                output[at..].copy_from_slice(&word[..rest]);
            }
        }
    }
}

#[derive(Clone, Debug)]
enum DecKind {
    Bp(Box<BeliefPropagation>),
    BitFlip(Box<LdpcMatrix>),
}

/// An LDPC decoder as GNU Radio 3.10 sizes its frames (`ldpc_decoder`,
/// `ldpc_bit_flip_decoder`): frames of whole information words, `bits`
/// decoded from `round(bits · n/k)` soft values (positive for a 1), one
/// codeword after another.
#[derive(Clone, Debug)]
pub(crate) struct LdpcDecoder {
    kind: DecKind,
    max_iter: usize,
    words: usize,
    /// Soft values a frame, as GNU Radio computes them.
    soft: usize,
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
        let mut dec = Self {
            kind,
            max_iter,
            words: 1,
            soft: 0,
        };
        let k = dec.nk().1;
        dec.resize(k);
        Ok(dec)
    }

    fn nk(&self) -> (usize, usize) {
        match &self.kind {
            DecKind::Bp(b) => (b.code().n(), b.code().k()),
            DecKind::BitFlip(m) => (m.n(), m.k()),
        }
    }

    fn resize(&mut self, bits: usize) {
        let (n, k) = self.nk();
        self.words = bits / k;
        self.soft = (bits as f64 / (k as f64 / n as f64)).round() as usize;
    }

    pub(crate) fn input_size(&self) -> usize {
        self.soft
    }

    pub(crate) fn output_size(&self) -> usize {
        self.nk().1 * self.words
    }

    /// `k / n`.
    pub(crate) fn rate(&self) -> f64 {
        let (n, k) = self.nk();
        k as f64 / n as f64
    }

    /// GNU Radio's `set_frame_size(bits)`: true, or, when `bits` is no
    /// whole number of words, the frame kept and GNU Radio's error (it
    /// throws).
    pub(crate) fn set_frame_size(&mut self, bits: usize) -> Result<bool, String> {
        let name = match self.kind {
            DecKind::Bp(_) => "ldpc_decoder",
            DecKind::BitFlip(_) => "ldpc_bit_flip_decoder",
        };
        if let Some(e) = frame_error(name, bits, self.nk().1) {
            return Err(e);
        }
        self.resize(bits);
        Ok(true)
    }

    /// Decodes the frame's codewords of `input` (zeros past its end,
    /// should GNU Radio's rounded size be short of whole codewords).
    pub(crate) fn decode(&mut self, input: &[f32], output: &mut [u8]) {
        let (n, k) = self.nk();
        for w in 0..self.words {
            let padded;
            let word = if (w + 1) * n <= input.len() {
                &input[w * n..(w + 1) * n]
            } else {
                let from = input.len().min(w * n);
                let mut v = input[from..].to_vec();
                v.resize(n, 0.0);
                padded = v;
                &padded[..]
            };
            let o = &mut output[w * k..(w + 1) * k];
            match &mut self.kind {
                DecKind::Bp(b) => b.decode(word, o),
                DecKind::BitFlip(m) => m.bit_flip_decode(word, self.max_iter, o),
            }
        }
    }
}
