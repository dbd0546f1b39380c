//! [`Siso`]: the soft-in soft-out decoder of one dimension of a turbo
//! product code, GNU Radio's `siso_decode_row` / `siso_decode_col` (from
//! the CML library) for one coded bit a step: a backward sweep of
//! normalised state metrics from the zero end state, then a forward
//! sweep giving each coded bit's log-likelihood ratio. As in GNU Radio
//! the information bits have no a-priori input, the unreached states
//! start at the float of the bytes `0xCC` (about −1.07·10⁸) and the
//! ratios at −10⁷; the arithmetic runs in GNU Radio's order. (GNU Radio also makes
//! the information bits' ratios, which nothing reads; they are left out.)

use super::maxstar::MaxStar;
use super::trellis::Rsc;

/// What GNU Radio's `memset(…, 0xCC, …)` makes of a float.
const UNREACHED: f32 = f32::from_bits(0xCCCC_CCCC);

/// GNU Radio's `-MAXLOG`.
const NONE: f32 = -1.0e7;

/// A SISO decoder of one dimension: `steps` coded values (information
/// bits and tail) in, as many coded log-likelihood ratios out.
#[derive(Clone, Debug)]
pub(crate) struct Siso {
    code: Rsc,
    steps: usize,
    /// `beta[k][state]`, `steps + 1` rows.
    beta: Vec<f32>,
    alpha_prime: Vec<f32>,
    alpha: Vec<f32>,
}

impl Siso {
    pub(crate) fn new(code: Rsc, info_bits: usize) -> Self {
        let steps = info_bits + code.memory();
        let states = code.states();
        Self {
            beta: vec![0.0; (steps + 1) * states],
            alpha_prime: vec![0.0; states],
            alpha: vec![0.0; states],
            code,
            steps,
        }
    }

    /// Decodes `input` (`steps` values, positive for a 1) into the coded
    /// bits' log-likelihood ratios `output`.
    pub(crate) fn decode(&mut self, star: MaxStar, input: &[f32], output: &mut [f32]) {
        let code = &self.code;
        let ns = code.states();
        let t = self.steps;
        // GNU Radio adds the information bits' a-priori input, always 0.
        let app_in = 0.0f32;
        let beta = &mut self.beta;
        beta[t * ns + 1..(t + 1) * ns].fill(UNREACHED);
        self.alpha_prime[1..].fill(UNREACHED);
        for k in (0..t).rev() {
            // The branch metric of output symbol 0 is 0, of 1 the value.
            let metric = [0.0f32, input[k]];
            let (now, later) = beta.split_at_mut((k + 1) * ns);
            let now = &mut now[k * ns..];
            for s in 0..ns {
                let d1 = later[code.next(0, s)] + metric[0];
                let d2 = later[code.next(1, s)] + metric[1] + app_in;
                now[s] = star.apply(d1, d2);
            }
            let first = now[0];
            for v in &mut now[1..] {
                *v -= first;
            }
            now[0] = 0.0;
        }
        for k in 1..=t {
            let mut num_c = NONE;
            let mut den_c = NONE;
            self.alpha.fill(UNREACHED);
            let metric = [0.0f32, input[k - 1]];
            for s in 0..ns {
                let (n0, n1) = (code.next(0, s), code.next(1, s));
                let d1 = self.alpha_prime[s] + metric[0];
                self.alpha[n0] = star.apply(d1, self.alpha[n0]);
                let d1 = self.alpha_prime[s] + metric[1] + app_in;
                self.alpha[n1] = star.apply(d1, self.alpha[n1]);
            }
            let b = &beta[k * ns..(k + 1) * ns];
            for s in 0..ns {
                let (n0, n1) = (code.next(0, s), code.next(1, s));
                let d1 = self.alpha_prime[s] + metric[0] + b[n0];
                den_c = star.apply(d1, den_c);
                let d1 = self.alpha_prime[s] + metric[1] + b[n1] + app_in;
                num_c = star.apply(d1, num_c);
                self.alpha_prime[s] = self.alpha[s] - self.alpha[0];
            }
            output[k - 1] = num_c - den_c;
        }
    }
}
