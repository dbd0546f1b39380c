//! [`LdpcMatrix`]: GNU Radio's `fec.ldpc_H_matrix(file, gap)` and
//! `fec.ldpc_G_matrix(file)` with their encoders
//! (`ldpc_par_mtrx_encoder`: Richardson and Urbanke's, for a parity
//! check matrix of gap `g` in their approximate lower triangular form;
//! `ldpc_gen_mtrx_encoder`: `x = G'·s` for a systematic `G = [I P]`) and
//! the hard-decision bit flip decoder both share
//! (`ldpc_bit_flip_decoder`).

use super::alist::Alist;
use super::gf2::BitMatrix;

/// The parts of `H = [T A B; E C D]` the encoder uses, with `φ⁻¹`,
/// `φ = C + E·T⁻¹·A`.
#[derive(Clone, Debug)]
struct RuParts {
    t: BitMatrix,
    a: BitMatrix,
    b: BitMatrix,
    d: BitMatrix,
    e: BitMatrix,
    phi_inv: BitMatrix,
}

#[derive(Clone, Debug)]
enum Form {
    /// `H = [T A B; E C D]`: codewords `[p1 p2 s]`.
    H(Box<RuParts>),
    /// `G = [I P]`: codewords `[s p]`.
    G { g: BitMatrix },
}

/// A parity check matrix ready to encode, or a generator matrix, with
/// the parity check matrix the bit flip decoder checks against.
#[derive(Clone, Debug)]
pub struct LdpcMatrix {
    n: usize,
    k: usize,
    /// The parity check matrix.
    h: BitMatrix,
    form: Form,
}

impl LdpcMatrix {
    /// GNU Radio's `ldpc_H_matrix(file, gap)`.
    pub fn parity_check(a: &Alist, gap: usize) -> Result<Self, String> {
        let h = a.matrix();
        let (m, n) = (a.m, a.n);
        if m >= n {
            return Err(format!(
                "{m} rows and {n} columns leave no information bits"
            ));
        }
        if gap > m {
            return Err(format!("gap {gap} exceeds the {m} rows"));
        }
        let k = n - m;
        let t_len = m - gap;
        let t = h.sub(0, 0, t_len, t_len);
        let t_inv = t.inverse().ok_or_else(|| {
            format!(
                "T (the first {t_len} rows and columns) has no inverse: is the gap {gap} right?"
            )
        })?;
        let e = h.sub(t_len, 0, gap, t_len);
        let a_m = h.sub(0, t_len, t_len, gap);
        let c = h.sub(t_len, t_len, gap, gap);
        let phi = c.add(&e.mul(&t_inv).mul(&a_m));
        let phi_inv = if gap == 0 {
            BitMatrix::zeros(0, 0)
        } else {
            phi.inverse()
                .ok_or_else(|| format!("phi has no inverse: is the gap {gap} right?"))?
        };
        let b = h.sub(0, t_len + gap, t_len, n - gap - t_len);
        let d = h.sub(t_len, t_len + gap, gap, n - gap - t_len);
        Ok(Self {
            n,
            k,
            h,
            form: Form::H(Box::new(RuParts {
                t,
                a: a_m,
                b,
                d,
                e,
                phi_inv,
            })),
        })
    }

    /// GNU Radio's `ldpc_G_matrix(file)`.
    pub fn generator(a: &Alist) -> Result<Self, String> {
        let g = a.matrix();
        let (k, n) = (a.m, a.n);
        if k >= n {
            return Err(format!("{k} rows and {n} columns leave no parity bits"));
        }
        // GNU Radio checks that `I − G[.., ..k]` has no positive entry:
        // the diagonal is all ones.
        if (0..k).any(|i| !g.get(i, i)) {
            return Err(
                "not a generator matrix G = [I P]: its first columns are not the identity".into(),
            );
        }
        let mut h = BitMatrix::zeros(n - k, n);
        for r in 0..n - k {
            for c in 0..k {
                if g.get(c, k + r) {
                    h.set(r, c, true);
                }
            }
            h.set(r, k + r, true);
        }
        Ok(Self {
            n,
            k,
            h,
            form: Form::G { g },
        })
    }

    /// True for a generator matrix (`ldpc_G_matrix`), false for a parity
    /// check matrix (`ldpc_H_matrix`).
    pub fn is_generator(&self) -> bool {
        matches!(self.form, Form::G { .. })
    }

    /// Bits of a codeword.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Information bits of a codeword.
    pub fn k(&self) -> usize {
        self.k
    }

    /// Encodes `k` bits into `n`.
    pub fn encode(&self, s: &[u8], out: &mut [u8]) {
        let s: Vec<u8> = s[..self.k].iter().map(|b| b & 1).collect();
        match &self.form {
            Form::G { g } => {
                for (j, o) in out[..self.n].iter_mut().enumerate() {
                    let mut acc = 0;
                    for (i, &b) in s.iter().enumerate() {
                        acc ^= g.get(i, j) as u8 & b;
                    }
                    *o = acc;
                }
            }
            Form::H(parts) => {
                let RuParts {
                    t,
                    a,
                    b,
                    d,
                    e,
                    phi_inv,
                } = &**parts;
                let xor = |x: &[u8], y: &[u8]| -> Vec<u8> {
                    x.iter().zip(y).map(|(a, b)| a ^ b).collect()
                };
                let bs = b.mul_vec(&s);
                let t_bs = back_solve(t, &bs);
                let p2 = phi_inv.mul_vec(&xor(&d.mul_vec(&s), &e.mul_vec(&t_bs)));
                let p1 = back_solve(t, &xor(&a.mul_vec(&p2), &bs));
                let (l1, l2) = (p1.len(), p2.len());
                out[..l1].copy_from_slice(&p1);
                out[l1..l1 + l2].copy_from_slice(&p2);
                out[l1 + l2..l1 + l2 + self.k].copy_from_slice(&s);
            }
        }
    }

    /// The bit flip decoder (`fec_mtrx::decode`): hard decisions
    /// (`x > 0` a 1), then up to `max_iter` rounds flipping every bit in
    /// the most unsatisfied checks until the syndrome is zero; the
    /// information bits of the result.
    pub fn bit_flip_decode(&self, soft: &[f32], max_iter: usize, out: &mut [u8]) {
        let n = self.n;
        let mut x: Vec<u8> = soft[..n].iter().map(|&v| (v > 0.0) as u8).collect();
        let mut syndrome = self.h.mul_vec(&x);
        let mut count = 0;
        while count < max_iter && syndrome.iter().any(|&s| s != 0) {
            let mut counts = vec![0usize; n];
            for (r, _) in syndrome.iter().enumerate().filter(|(_, s)| **s != 0) {
                for (c, cnt) in counts.iter_mut().enumerate() {
                    if self.h.get(r, c) {
                        *cnt += 1;
                    }
                }
            }
            let max = counts.iter().copied().max().unwrap_or(0);
            for (b, &c) in x.iter_mut().zip(&counts) {
                if c == max {
                    *b ^= 1;
                }
            }
            syndrome = self.h.mul_vec(&x);
            if syndrome.iter().all(|&s| s == 0) {
                break;
            }
            count += 1;
        }
        let start = match self.form {
            Form::G { .. } => 0,
            Form::H(_) => n - self.k,
        };
        out[..self.k].copy_from_slice(&x[start..start + self.k]);
    }
}

/// `U x = y` by back substitution over GF(2) with `U` taken as upper
/// triangular, as GNU Radio's `back_solve_mod2` (it reads only the
/// entries right of the diagonal).
fn back_solve(u: &BitMatrix, y: &[u8]) -> Vec<u8> {
    let n = u.rows();
    let mut x = vec![0u8; n];
    for i in (0..n).rev() {
        let mut v = y[i];
        for (j, &xj) in x.iter().enumerate().skip(i + 1) {
            v ^= u.get(i, j) as u8 & xj;
        }
        x[i] = v;
    }
    x
}
