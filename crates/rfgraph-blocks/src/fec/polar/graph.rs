//! The decoding graph of GNU Radio's polar decoders
//! (`polar_decoder_common` and VOLK's `volk_32f_8u_polarbutterfly_32f`):
//! `log2 N + 1` stages of `N` LLRs, stage `log2 N` the channel's, stage 0
//! the bits'. A row in the upper half of its stage section is the
//! min-sum of the two rows it joins one stage up, one in the lower half
//! their sum or difference as the partial sum of its upper partner says.
//! Rows are computed on demand, bit by bit, in GNU Radio's order and
//! `f32` arithmetic, so each LLR is GNU Radio's to the bit; the partial
//! sums (GNU Radio recomputes them from the decided bits each time) are
//! kept per stage and brought up to date after each bit.

/// GNU Radio's `D_LLR_FACTOR`: a soft value `x` (positive for a 1) is the
/// LLR `x · −2.19722458`.
const LLR_FACTOR: f32 = -2.197_224_6;

/// The LLRs and partial sums of one decoding path.
#[derive(Clone, Debug)]
pub(crate) struct Graph {
    n: usize,
    power: usize,
    /// `llr[s·N + r]`: stage `s`, row `r`.
    pub(crate) llr: Vec<f32>,
    /// `sums[s·N + r]`: the partial sum at stage `s`, row `r`; stage 0
    /// holds the decided bits.
    pub(crate) sums: Vec<u8>,
}

/// GNU Radio's `llr_odd`: the signs' product times the smaller magnitude.
#[inline]
fn llr_odd(la: f32, lb: f32) -> f32 {
    let (a, b) = (la.abs(), lb.abs());
    1f32.copysign(la) * 1f32.copysign(lb) * if a > b { b } else { a }
}

/// GNU Radio's `llr_even`.
#[inline]
fn llr_even(la: f32, lb: f32, f: u8) -> f32 {
    if f == 0 { lb + la } else { lb - la }
}

impl Graph {
    /// The graph of a block of `n` (a power of two) bits.
    pub(crate) fn new(n: usize) -> Self {
        let power = n.trailing_zeros() as usize;
        Self {
            n,
            power,
            llr: vec![0.0; n * (power + 1)],
            sums: vec![0; n * (power + 1)],
        }
    }

    /// Loads a block of `n` soft values (GNU Radio's
    /// `initialize_decoder`).
    pub(crate) fn load(&mut self, input: &[f32]) {
        let base = self.power * self.n;
        for (l, &x) in self.llr[base..base + self.n].iter_mut().zip(input) {
            *l = x * LLR_FACTOR;
        }
        self.sums[..self.n * self.power].fill(0);
    }

    /// The LLR of bit `bit`, computed from the channel and the bits
    /// decided before it.
    pub(crate) fn bit_llr(&mut self, bit: usize) -> f32 {
        self.compute(0, bit);
        self.llr[bit]
    }

    fn compute(&mut self, stage: usize, row: usize) {
        if stage >= self.power {
            return;
        }
        let n = self.n;
        let half = 1usize << stage;
        let size = half << 1;
        let section = row - row % size;
        let upper = row % size < half;
        let next_upper = section + (((row % half) << 1) % size);
        let next = (stage + 1) * n;
        let here = stage * n + row;
        if upper {
            if self.power > stage + 1 {
                self.compute(stage + 1, next_upper);
                self.compute(stage + 1, next_upper + 1);
            }
            self.llr[here] = llr_odd(self.llr[next + next_upper], self.llr[next + next_upper + 1]);
        } else {
            let f = self.sums[here - half];
            self.llr[here] = llr_even(
                self.llr[next + next_upper],
                self.llr[next + next_upper + 1],
                f,
            );
        }
    }

    /// The bit decided at `bit`.
    pub(crate) fn bit(&self, bit: usize) -> u8 {
        self.sums[bit]
    }

    /// Sets bit `bit` (before [`propagate`](Self::propagate)).
    pub(crate) fn set_bit(&mut self, bit: usize, value: u8) {
        self.sums[bit] = value;
    }

    /// Brings the partial sums up to date with bit `bit`.
    pub(crate) fn propagate(&mut self, bit: usize) {
        self.propagate_from(0, bit);
    }

    fn propagate_from(&mut self, stage: usize, row: usize) {
        if stage + 1 >= self.power {
            return;
        }
        let half = 1usize << stage;
        let size = half << 1;
        let off = row % size;
        if off < half {
            return;
        }
        let section = row - off;
        let j = off - half;
        let (here, next) = (stage * self.n, (stage + 1) * self.n);
        let up = self.sums[here + section + j];
        let low = self.sums[here + row];
        let a = section + 2 * j;
        self.sums[next + a] = up ^ low;
        self.sums[next + a + 1] = low;
        self.propagate_from(stage + 1, a);
        self.propagate_from(stage + 1, a + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_sum_and_sums() {
        assert_eq!(llr_odd(-2.0, 3.0), -2.0);
        assert_eq!(llr_odd(-4.0, -3.0), 3.0);
        assert_eq!(llr_even(1.0, 2.0, 0), 3.0);
        assert_eq!(llr_even(1.0, 2.0, 1), 1.0);
    }
}
