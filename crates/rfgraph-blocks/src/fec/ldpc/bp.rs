//! [`BeliefPropagation`]: GNU Radio 3.10's `awgn_bp`, the sum-product
//! decoder of `fec.ldpc_decoder.make`, in the likelihood-ratio domain:
//! the same operations in the same order in double precision, so its
//! decisions match GNU Radio's bit for bit.

use super::alist::Alist;
use super::cldpc::Cldpc;

/// The decoder of an alist code with noise deviation `sigma`.
#[derive(Clone, Debug)]
pub struct BeliefPropagation {
    code: Cldpc,
    sigma: f32,
    max_iter: usize,
    /// Per check: `(variable, edge)` in the row list's order.
    checks: Vec<Vec<(usize, usize)>>,
    /// Per variable: edges in the column list's order.
    vars: Vec<Vec<usize>>,
    q: Vec<f64>,
    r: Vec<f64>,
    rx_lr: Vec<f64>,
    lr: Vec<f64>,
    estimate: Vec<u8>,
}

impl BeliefPropagation {
    /// The decoder of `a`.
    pub fn new(a: &Alist, sigma: f32, max_iter: usize) -> Result<Self, String> {
        let code = Cldpc::new(a)?;
        let mut edge = std::collections::HashMap::new();
        let checks: Vec<Vec<(usize, usize)>> = a
            .rows
            .iter()
            .enumerate()
            .map(|(r, cs)| {
                cs.iter()
                    .map(|&c| {
                        let e = edge.len();
                        edge.insert((r, c), e);
                        (c, e)
                    })
                    .collect()
            })
            .collect();
        let vars = a
            .cols
            .iter()
            .enumerate()
            .map(|(c, rs)| rs.iter().map(|&r| edge[&(r, c)]).collect())
            .collect();
        let edges = edge.len();
        Ok(Self {
            sigma,
            max_iter,
            checks,
            vars,
            q: vec![0.0; edges],
            r: vec![0.0; edges],
            rx_lr: vec![0.0; a.n],
            lr: vec![0.0; a.n],
            estimate: vec![0; a.n],
            code,
        })
    }

    /// The code.
    pub fn code(&self) -> &Cldpc {
        &self.code
    }

    /// Decodes one codeword of soft values (positive for a 1, GNU
    /// Radio's sign) into its `k` information bits.
    pub fn decode(&mut self, soft: &[f32], out: &mut [u8]) {
        let n = self.code.n();
        // GNU Radio negates the input: `rx = -in`.
        let rx: Vec<f32> = soft[..n].iter().map(|&x| -x).collect();
        for (e, &y) in self.estimate.iter_mut().zip(&rx) {
            *e = (y < 0.0) as u8;
        }
        if !self.code.checks(&self.estimate) {
            let s2 = 2.0 * self.sigma * self.sigma;
            for (l, &y) in self.rx_lr.iter_mut().zip(&rx) {
                *l = ((-y / s2) as f64).exp();
            }
            for (var, edges) in self.vars.iter().enumerate() {
                for &e in edges {
                    self.q[e] = self.rx_lr[var];
                }
            }
            let mut iter = 0;
            while iter < self.max_iter {
                iter += 1;
                self.update_checks();
                self.update_vars();
                for (e, &l) in self.estimate.iter_mut().zip(&self.lr) {
                    *e = (l > 1.0) as u8;
                }
                if self.code.checks(&self.estimate) {
                    break;
                }
            }
        }
        self.code.systematic_bits(&self.estimate, out);
    }

    fn update_checks(&mut self) {
        for edges in &self.checks {
            let mut product = 1.0f64;
            for &(_, e) in edges {
                product *= 2.0 / (1.0 + self.q[e]) - 1.0;
            }
            for &(_, e) in edges {
                let p = product / (2.0 / (1.0 + self.q[e]) - 1.0);
                self.r[e] = (1.0 - p) / (1.0 + p);
            }
        }
    }

    fn update_vars(&mut self) {
        for (var, edges) in self.vars.iter().enumerate() {
            let mut sum = self.rx_lr[var];
            for &e in edges {
                sum *= self.r[e];
            }
            self.lr[var] = sum;
            for &e in edges {
                self.q[e] = sum / self.r[e];
            }
        }
    }
}
