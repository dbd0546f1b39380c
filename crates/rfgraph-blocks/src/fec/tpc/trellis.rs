//! [`Rsc`]: the recursive systematic convolutional code of one dimension
//! of a turbo product code, as GNU Radio's `tpc_common` builds it: the
//! constraint length from the first polynomial (`⌈ln g / ln 2⌉`, in
//! doubles), the state transitions and the tail that drives each state
//! back to zero.

/// One dimension's code: one polynomial, so each step's output is its
/// systematic bit.
#[derive(Clone, Debug)]
pub(crate) struct Rsc {
    /// Constraint length K.
    k: usize,
    /// `next[input][state]`.
    next: [Vec<u32>; 2],
    /// The tail input of each state.
    tail: Vec<u8>,
}

/// Parity of the low `bits` bits of `x` (GNU Radio's `parity_counter`).
fn parity(x: u32, bits: usize) -> u32 {
    let mask = if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    };
    (x & mask).count_ones() & 1
}

impl Rsc {
    /// The code of polynomials `polys`, or why it is refused.
    pub(crate) fn from_polys(polys: &[i64]) -> Result<Self, String> {
        let &[g] = polys else {
            return Err(format!(
                "must hold one polynomial, not {}: GNU Radio's TPC coders lay out one coded bit a step (more overrun its encoder's output and its decoder's input)",
                polys.len()
            ));
        };
        if !(2..=super::params::MAX_TPC_POLY).contains(&g) {
            return Err(format!(
                "{g} is no polynomial of constraint length 1 to 16 (2 to {})",
                super::params::MAX_TPC_POLY
            ));
        }
        // GNU Radio: ceil(log(g) / log(2)), in doubles.
        let k = ((g as f64).ln() / 2f64.ln()).ceil() as usize;
        let m = k - 1;
        let states = 1usize << m;
        let g = g as u32;
        let mut next = [vec![0; states], vec![0; states]];
        for (input, row) in next.iter_mut().enumerate() {
            for (state, n) in row.iter_mut().enumerate() {
                let s = state as u32;
                let feedback = input as u32 ^ parity(g & s, k);
                *n = ((feedback << m) ^ s) >> 1;
            }
        }
        let tail = (0..states).map(|s| parity(g & s as u32, m) as u8).collect();
        Ok(Self { k, next, tail })
    }

    /// Encoder memory, `K − 1`: the tail bits a row or column gains.
    pub(crate) fn memory(&self) -> usize {
        self.k - 1
    }

    /// Trellis states, `2^(K − 1)`.
    pub(crate) fn states(&self) -> usize {
        self.next[0].len()
    }

    /// The state after `input` from `state`.
    #[inline]
    pub(crate) fn next(&self, input: usize, state: usize) -> usize {
        self.next[input][state] as usize
    }

    /// The tail bits (the code's systematic outputs of its termination)
    /// after encoding `bits` (lowest bit of each) from state 0.
    pub(crate) fn tail_of(&self, bits: impl Iterator<Item = u8>, out: &mut Vec<u8>) {
        let mut state = 0;
        for b in bits {
            state = self.next((b & 1) as usize, state);
        }
        for _ in 0..self.memory() {
            let t = self.tail[state];
            out.push(t);
            state = self.next(t as usize, state);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_returns_to_zero() {
        for g in [3, 5, 7, 11, 13, 43, 91, 0x1f] {
            let c = Rsc::from_polys(&[g]).unwrap();
            let mut tail = Vec::new();
            c.tail_of([1, 0, 1, 1, 0, 1].into_iter(), &mut tail);
            let mut state = 0;
            for b in [1, 0, 1, 1, 0, 1].into_iter().chain(tail.iter().copied()) {
                state = c.next(b as usize, state);
            }
            assert_eq!(state, 0, "g = {g}");
        }
        assert_eq!(Rsc::from_polys(&[43]).unwrap().memory(), 5);
        assert_eq!(Rsc::from_polys(&[3]).unwrap().memory(), 1);
        assert!(Rsc::from_polys(&[1]).is_err());
        assert!(Rsc::from_polys(&[3, 5]).is_err());
        assert!(Rsc::from_polys(&[]).is_err());
    }
}
