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
//! The steps run on the widest kernel this CPU has: AVX-512
//! ([`viterbi_avx512`](super::viterbi_avx512)), AVX2 or SSE2
//! ([`viterbi_simd`](super::viterbi_simd), chosen at run time) on x86-64,
//! elsewhere the portable step here (whole-array operations the compiler
//! vectorises as it can: the average as `(a | b) − ((a ^ b) >> 1)`,
//! saturating adds, minima, compares). All give the same metrics and
//! decisions; the tests run every kernel this machine can against the
//! portable one. A step's 64 decisions are the bits of one `u64` (`1`
//! when the state was reached from the upper half), bit
//! [`decision_index`] for each state.

/// Trellis states.
pub const STATES: usize = 64;
const HALF: usize = 32;
/// State 0's metric above which the kernel renormalises.
pub(crate) const RENORMALIZE: u8 = 210;

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

    /// The two rows of expected bits.
    pub(crate) fn rows(&self) -> &[[u8; HALF]; 2] {
        &self.0
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
pub fn decision_index(state: usize) -> usize {
    (state >> 1) + HALF * (state & 1)
}

/// One step's decisions: bit [`decision_index`] for each state.
pub(crate) type Decisions = u64;

/// The decisions of one step kept as bytes (the portable steps), packed
/// into their bits.
#[inline]
fn pack(dec: &[u8; STATES]) -> Decisions {
    dec.iter()
        .enumerate()
        .fold(0, |acc, (i, &d)| acc | ((d as u64 & 1) << i))
}

/// VOLK's generic butterfly step (a frame's odd last step).
fn generic_step(
    branch: &Branch,
    old: &Metrics,
    new: &mut Metrics,
    s0: u8,
    s1: u8,
    dec: &mut [u8; STATES],
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
    dec: &mut [u8; STATES],
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

/// The kernels that run a frame's paired steps (public as
/// [`K7Kernel`](super::K7Kernel)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// The portable step (on x86-64 only the tests run it).
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    Portable,
    /// SSE2 (x86-64).
    #[cfg(target_arch = "x86_64")]
    Sse2,
    /// AVX2 (x86-64, detected at run time).
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// AVX-512 F, BW and VBMI (x86-64, detected at run time).
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Kernel {
    /// The fastest kernel this CPU runs.
    pub fn best() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if super::viterbi_avx512::has_avx512() {
                Kernel::Avx512
            } else if super::viterbi_simd::has_avx2() {
                Kernel::Avx2
            } else {
                Kernel::Sse2
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        Kernel::Portable
    }

    /// Every kernel this CPU runs.
    pub fn available() -> Vec<Self> {
        #[allow(unused_mut)]
        let mut all = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            all.push(Kernel::Sse2);
            if super::viterbi_simd::has_avx2() {
                all.push(Kernel::Avx2);
            }
            if super::viterbi_avx512::has_avx512() {
                all.push(Kernel::Avx512);
            }
        }
        all
    }

    /// Runs `decisions.len()` steps (an even number) over the symbol
    /// pairs of `syms` from the metrics `m`.
    fn steps(self, branch: &Branch, m: &mut Metrics, syms: &[u8], decisions: &mut [Decisions]) {
        match self {
            Kernel::Portable => {
                let mut other = [0u8; STATES];
                let mut dec = [0u8; STATES];
                for (quad, d) in syms.chunks_exact(4).zip(decisions.chunks_exact_mut(2)) {
                    spiral_step(branch, m, &mut other, quad[0], quad[1], &mut dec);
                    d[0] = pack(&dec);
                    spiral_step(branch, &other, m, quad[2], quad[3], &mut dec);
                    d[1] = pack(&dec);
                }
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse2 => super::viterbi_simd::steps_sse2(branch, m, syms, decisions),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => {
                // SAFETY: `Avx2` is chosen (by `best`, `available`) only
                // when the CPU has AVX2.
                unsafe { super::viterbi_simd::steps_avx2(branch, m, syms, decisions) }
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => {
                // SAFETY: `Avx512` is chosen (by `best`, `available`)
                // only when the CPU has AVX-512 F, BW and VBMI.
                unsafe { super::viterbi_avx512::steps_avx512(branch, m, syms, decisions) }
            }
        }
    }
}

/// Runs `steps` trellis steps over the symbol pairs of `syms` from the
/// metrics `start` on `kernel`, one step's decisions each into
/// `decisions` (resized to `steps`); returns the final metrics.
pub(crate) fn trellis(
    kernel: Kernel,
    branch: &Branch,
    start: Metrics,
    syms: &[u8],
    steps: usize,
    decisions: &mut Vec<Decisions>,
) -> Metrics {
    decisions.resize(steps, 0);
    let mut a = start;
    let paired = 2 * (steps / 2);
    kernel.steps(
        branch,
        &mut a,
        &syms[..2 * paired],
        &mut decisions[..paired],
    );
    renormalize(&mut a);
    if steps % 2 == 1 {
        let at = 2 * (steps - 1);
        let mut b = [0u8; STATES];
        let mut dec = [0u8; STATES];
        generic_step(branch, &a, &mut b, syms[at], syms[at + 1], &mut dec);
        decisions[steps - 1] = pack(&dec);
        renormalize(&mut b);
        return b;
    }
    a
}

/// A K = 7, rate 1/2 convolutional code's trellis on the fastest
/// kernel this CPU runs (or a chosen one): the public face of this
/// module for decoders outside the crate (the WLAN decoder).
///
/// Polynomials follow GNU Radio's convention: bit `k` taps the input
/// `k` steps old (bit 0 the newest), so IEEE 802.11's generators 133
/// and 171 (octal, the newest tap the most significant of 7 bits) are
/// their 7-bit reversals, `0x6d` and `0x4f`. The state after a step is
/// `(state << 1 | bit) & 63`; soft symbols are bytes, 0 a sure 0 and
/// 255 a sure 1 (128 neutral).
#[derive(Clone, Debug)]
pub struct K7Trellis {
    branch: Branch,
    kernel: Kernel,
}

impl K7Trellis {
    /// The trellis of `polys` (bits 0..=6 used) on [`Kernel::best`].
    pub fn new(polys: [u32; 2]) -> Self {
        Self::with_kernel(polys, Kernel::best())
    }

    /// The trellis of `polys` on `kernel` (one of [`Kernel::available`]).
    pub fn with_kernel(polys: [u32; 2], kernel: Kernel) -> Self {
        let row = |poly: u32| -> [u8; HALF] {
            std::array::from_fn(|i| {
                if ((2 * i as u32) & poly).count_ones() & 1 == 1 {
                    255
                } else {
                    0
                }
            })
        };
        Self {
            branch: Branch::new([row(polys[0]), row(polys[1])]),
            kernel,
        }
    }

    /// The kernel the steps run on.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Runs `steps` steps over the symbol pairs of `syms` (at least
    /// `2 * steps` bytes) from the path metrics `start`, one `u64` of
    /// decisions a step into `decisions` (resized to `steps`): bit
    /// [`decision_index`]`(s)` is 1 when state `s` was reached from
    /// state `(s >> 1) | 32`, 0 from `s >> 1`. Returns the final path
    /// metrics (smaller is likelier). The metrics are GNU Radio's 8-bit
    /// ones (branch metrics 0..=63, saturating, renormalised); an odd
    /// `steps` ends, as in GNU Radio, with VOLK's generic step (metrics
    /// 0..=31, wrapping sums), so callers that want the kernel's
    /// arithmetic throughout run an even number.
    pub fn run(
        &self,
        start: [u8; STATES],
        syms: &[u8],
        steps: usize,
        decisions: &mut Vec<u64>,
    ) -> [u8; STATES] {
        assert!(syms.len() >= 2 * steps, "two symbols a step");
        trellis(self.kernel, &self.branch, start, syms, steps, decisions)
    }
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
    /// Every kernel gives the portable one's metrics and decisions, on
    /// random symbols, symbols at the extremes (saturation,
    /// renormalisation) and from every start.
    #[test]
    fn every_kernel_matches_the_portable_one() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for trial in 0..60 {
            let branch = Branch::new(std::array::from_fn(|_| {
                std::array::from_fn(|_| if next() & 1 == 1 { 255 } else { 0 })
            }));
            let steps = 2 + (next() % 300) as usize;
            let syms: Vec<u8> = (0..2 * steps)
                .map(|_| match trial % 3 {
                    0 => next() as u8,
                    1 => [0, 255][(next() & 1) as usize],
                    _ => [0, 1, 127, 128, 254, 255][(next() % 6) as usize],
                })
                .collect();
            let start: Metrics = std::array::from_fn(|_| (next() % 64) as u8);
            let mut want = Vec::new();
            let m = trellis(Kernel::Portable, &branch, start, &syms, steps, &mut want);
            for kernel in Kernel::available() {
                let mut got = Vec::new();
                let n = trellis(kernel, &branch, start, &syms, steps, &mut got);
                assert_eq!(n, m, "{kernel:?} metrics, trial {trial}");
                assert_eq!(got, want, "{kernel:?} decisions, trial {trial}");
            }
        }
    }

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
