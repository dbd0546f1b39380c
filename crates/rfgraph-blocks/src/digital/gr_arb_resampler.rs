//! GNU Radio's `pfb_arb_resampler_ccf` arithmetic, as its hierarchical
//! modulators use it: `N` polyphase arms cut from one prototype, each
//! paired with an arm of the prototype's first difference, the output
//! `arm_j + diff_j · acc` with GNU Radio's own `f32` accumulator, its
//! starting arm `(taps / 2) mod N` and its `taps_per_filter − 1` leading
//! zeros. (rfgraph's `pfb_arb_resampler` interpolates between arms
//! instead; this one reproduces GNU Radio's samples.)

use num_complex::Complex32;

/// The resampler: its arms, their input history and its position.
pub(crate) struct GrArbResampler {
    arms: Vec<Vec<f32>>,
    diff_arms: Vec<Vec<f32>>,
    n: usize,
    dec_rate: usize,
    flt_rate: f32,
    acc: f32,
    last_filter: usize,
    /// `taps_per_filter − 1` past samples, then the current call's input.
    buf: Vec<Complex32>,
}

impl GrArbResampler {
    /// Interpolates by `rate` (taken as at least 1: the modulators'
    /// samples per symbol) with `taps` split over `n` (`> 0`) arms.
    pub(crate) fn new(rate: f32, taps: &[f32], n: usize) -> Self {
        let rate = rate.max(1.0);
        let tpf = taps.len().div_ceil(n).max(1);
        let mut diff: Vec<f32> = taps.windows(2).map(|w| w[1] - w[0]).collect();
        diff.push(0.0);
        let split = |t: &[f32]| -> Vec<Vec<f32>> {
            (0..n)
                .map(|i| {
                    (0..tpf)
                        .map(|k| t.get(i + k * n).copied().unwrap_or(0.0))
                        .collect()
                })
                .collect()
        };
        let ratio = n as f32 / rate;
        let dec_rate = ratio.floor();
        Self {
            arms: split(taps),
            diff_arms: split(&diff),
            n,
            dec_rate: dec_rate as usize,
            flt_rate: ratio - dec_rate,
            acc: 0.0,
            last_filter: (taps.len() / 2) % n,
            buf: vec![Complex32::new(0.0, 0.0); tpf - 1],
        }
    }

    /// The most outputs one input sample can give.
    pub(crate) fn max_per_input(&self) -> usize {
        self.n / self.dec_rate.max(1) + 1
    }

    /// Resamples all of `input`, appending to `out`.
    pub(crate) fn process(&mut self, input: &[Complex32], out: &mut Vec<Complex32>) {
        let tpf = self.arms[0].len();
        self.buf.extend_from_slice(input);
        let dot = |taps: &[f32], w: &[Complex32]| -> Complex32 {
            // The newest sample meets tap 0.
            taps.iter()
                .zip(w.iter().rev())
                .fold(Complex32::new(0.0, 0.0), |s, (&t, &x)| s + x * t)
        };
        let mut j = self.last_filter;
        for i in 0..input.len() {
            let w = &self.buf[i..i + tpf];
            while j < self.n {
                let o0 = dot(&self.arms[j], w);
                let o1 = dot(&self.diff_arms[j], w);
                out.push(o0 + o1 * self.acc);
                self.acc += self.flt_rate;
                j += self.dec_rate + self.acc.floor() as usize;
                self.acc %= 1.0;
            }
            // GNU Radio advances `j / N` input samples: exactly one when
            // interpolating (each step is at most `N`, so `j < 2N`).
            debug_assert!(j < 2 * self.n);
            j -= self.n;
        }
        self.last_filter = j;
        let keep = self.buf.len() - (tpf - 1);
        self.buf.drain(..keep);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_rate_with_a_single_tap_per_arm_repeats_the_arms() {
        // 4 arms of one tap each, rate 2: arms 2 (start: 4/2 mod 4) and 0
        // then 2 again, with no fractional part.
        let mut r = GrArbResampler::new(2.0, &[1.0, 2.0, 3.0, 4.0], 4);
        let mut out = Vec::new();
        r.process(&[Complex32::new(1.0, 0.0); 3], &mut out);
        let re: Vec<f32> = out.iter().map(|c| c.re).collect();
        assert_eq!(re, vec![3.0, 1.0, 3.0, 1.0, 3.0]);
    }
}
