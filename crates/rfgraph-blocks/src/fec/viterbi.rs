//! The trellis arithmetic of GNU Radio's K = 7, rate 1/2 Viterbi decoder:
//! VOLK's `volk_8u_x4_conv_k7_r2_8u` kernel as GNU Radio runs it on x86
//! and ARM (`spiral`, `neonspiral`), value for value.
//!
//! Per step the kernel computes one branch metric per butterfly `i`
//! (0…31), `t = avg(s0 ^ b0[i], s1 ^ b1[i]) / 4` (0…63; `b` the expected
//! coded bits as 0 or 255), adds `t` and `63 − t` to the path metrics of
//! states `i` and `i + 32` with unsigned saturation, keeps the smaller of
//! each pair for the new states `2i` and `2i + 1` (the one from the upper
//! half on a tie, whose decision bit is then 1), and once state 0's metric
//! passes 210 subtracts the minimum from all. A frame of an odd number of
//! steps ends, after an unconditional renormalisation, with one step of
//! VOLK's generic butterfly (metrics 0…31, wrapping sums, the lower half
//! on a tie) and another renormalisation, as the kernel does.
//!
//! The steps are whole-array operations the compiler keeps in vector
//! registers (the average as `(a | b) − ((a ^ b) >> 1)`, saturating adds,
//! minima, compares). Decisions are kept as bytes, 64 per step (`1` when
//! the state was reached from the upper half), in the order
//! [`decision_index`] gives: packing them into bits cost a quarter of the
//! speed.

/// Trellis states.
pub(crate) const STATES: usize = 64;
const HALF: usize = 32;
/// State 0's metric above which the kernel renormalises.
const RENORMALIZE: u8 = 210;

/// The 64 path metrics.
pub(crate) type Metrics = [u8; STATES];

/// GNU Radio's `Branchtab`: the expected coded bit (0 or 255) per
/// polynomial and butterfly.
#[derive(Clone, Debug)]
pub(crate) struct Branch([[u8; HALF]; 2]);

impl Branch {
    pub(crate) fn new(table: [[u8; HALF]; 2]) -> Self {
        Self(table)
    }
}

/// Subtracts the smallest metric from all.
#[inline]
pub(crate) fn renormalize(m: &mut Metrics) {
    let min = *m.iter().min().unwrap_or(&0);
    for x in m.iter_mut() {
        *x -= min;
    }
}

/// Where a step's decision for `state` is: the decisions of the even
/// states first, then those of the odd ones.
#[inline]
pub(crate) fn decision_index(state: usize) -> usize {
    (state >> 1) + HALF * (state & 1)
}

/// One step's decisions.
pub(crate) type Decisions = [u8; STATES];

/// VOLK's generic butterfly step (a frame's odd last step).
fn generic_step(
    branch: &Branch,
    old: &Metrics,
    new: &mut Metrics,
    s0: u8,
    s1: u8,
    dec: &mut Decisions,
) {
    const MAX: u8 = 31;
    for i in 0..HALF {
        let metric = (((branch.0[0][i] ^ s0) >> 2) + ((branch.0[1][i] ^ s1) >> 2)) >> 2;
        let (lo, hi) = (old[i], old[i + HALF]);
        let m0 = lo.wrapping_add(metric);
        let m1 = hi.wrapping_add(MAX - metric);
        let m2 = lo.wrapping_add(MAX - metric);
        let m3 = hi.wrapping_add(metric);
        let d0 = m0 > m1;
        let d1 = m2 > m3;
        new[2 * i] = if d0 { m1 } else { m0 };
        new[2 * i + 1] = if d1 { m3 } else { m2 };
        dec[i] = d0 as u8;
        dec[i + HALF] = d1 as u8;
    }
}

/// One step of VOLK's SSE kernel from `old` into `new` for the symbol
/// pair `(s0, s1)`, its decisions into `dec`.
#[inline(always)]
fn spiral_step(
    branch: &Branch,
    old: &Metrics,
    new: &mut Metrics,
    s0: u8,
    s1: u8,
    dec: &mut Decisions,
) {
    let (lo, hi) = old.split_at(HALF);
    let mut even = [0u8; HALF];
    let mut odd = [0u8; HALF];
    for i in 0..HALF {
        let a = s0 ^ branch.0[0][i];
        let b = s1 ^ branch.0[1][i];
        // `pavgb`: (a + b + 1) / 2 without overflow.
        let t = ((a | b) - ((a ^ b) >> 1)) >> 2;
        let u = 63 - t;
        let m0 = lo[i].saturating_add(t);
        let m1 = hi[i].saturating_add(u);
        let m2 = lo[i].saturating_add(u);
        let m3 = hi[i].saturating_add(t);
        even[i] = m0.min(m1);
        odd[i] = m2.min(m3);
        dec[i] = (m1 <= m0) as u8;
        dec[i + HALF] = (m3 <= m2) as u8;
    }
    for i in 0..HALF {
        new[2 * i] = even[i];
        new[2 * i + 1] = odd[i];
    }
    if new[0] > RENORMALIZE {
        renormalize(new);
    }
}

/// Runs `steps` trellis steps over the symbol pairs of `syms` from the
/// metrics `start`, one step's decisions each into `decisions` (resized
/// to `steps`); returns the final metrics.
pub(crate) fn trellis(
    branch: &Branch,
    start: Metrics,
    syms: &[u8],
    steps: usize,
    decisions: &mut Vec<Decisions>,
) -> Metrics {
    decisions.resize(steps, [0; STATES]);
    let (mut a, mut b) = (start, [0u8; STATES]);
    let pairs = syms[..4 * (steps / 2)].chunks_exact(4);
    for (quad, dec) in pairs.zip(decisions.chunks_exact_mut(2)) {
        let (d0, d1) = dec.split_at_mut(1);
        spiral_step(branch, &a, &mut b, quad[0], quad[1], &mut d0[0]);
        spiral_step(branch, &b, &mut a, quad[2], quad[3], &mut d1[0]);
    }
    renormalize(&mut a);
    if steps % 2 == 1 {
        let at = 2 * (steps - 1);
        generic_step(
            branch,
            &a,
            &mut b,
            syms[at],
            syms[at + 1],
            &mut decisions[steps - 1],
        );
        renormalize(&mut b);
        return b;
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The average identity is `pavgb`'s rounding for every pair.
    #[test]
    fn averages_round_up_as_pavgb() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let want = ((a as u16 + b as u16 + 1) >> 1) as u8;
                assert_eq!((a | b) - ((a ^ b) >> 1), want);
            }
        }
    }

    /// Ties go to the upper half (decision 1) in the kernel's steps and to
    /// the lower half in the generic one.
    #[test]
    fn ties_go_where_volk_sends_them() {
        let branch = Branch::new([[0; HALF]; 2]);
        // Upper states one above the lower: with symbols 128 the SSE step
        // adds t = 32 below and 63 − 32 = 31 above, the generic one 16
        // and 31 − 16 = 15: the even states tie.
        let old: Metrics = std::array::from_fn(|s| (s >= HALF) as u8);
        let mut new = [0u8; STATES];
        let mut dec = [9u8; STATES];
        spiral_step(&branch, &old, &mut new, 128, 128, &mut dec);
        assert_eq!(dec[..HALF], [1; HALF]);
        assert_eq!(dec[HALF..], [0; HALF]);
        generic_step(&branch, &old, &mut new, 128, 128, &mut dec);
        assert_eq!(dec, [0; STATES]);
        assert_eq!(new[0], 16);
    }
}
