//! [`FllBandEdge`]: band-edge frequency-locked loop, GNU Radio's
//! `fll_band_edge_cc`: two filters on the band edges of the expected
//! pulse; the difference of their output powers steers an NCO that
//! rotates the signal to zero frequency offset.

use super::loop_math::{dot, loop_gains};
use crate::error::DspError;
use crate::kernel::{Kernel, Ratio};
use num_complex::Complex32;
use std::f32::consts::PI;

const TWO_PI: f32 = 2.0 * PI;

fn sinc(x: f32) -> f32 {
    if x == 0.0 {
        1.0
    } else {
        (PI * x).sin() / (PI * x)
    }
}

/// Band-edge FLL. Like GNU Radio's block, its output starts with
/// `filter_size` zeros (GNU Radio's history), then the derotated input.
#[derive(Clone, Debug)]
pub struct FllBandEdge {
    lower: Vec<Complex32>,
    upper: Vec<Complex32>,
    /// The last `filter_size` outputs, oldest first, twice over (so a
    /// window is one contiguous slice).
    buf: Vec<Complex32>,
    idx: usize,
    alpha: f32,
    beta: f32,
    max_freq: f32,
    phase: f32,
    freq: f32,
    lead: usize,
    filter_size: usize,
}

impl FllBandEdge {
    /// `sps` samples per symbol, `rolloff` of the pulse in `[0, 1]`,
    /// `filter_size` taps of the band-edge filters, loop `bandwidth` in
    /// rad/sample.
    pub fn new(
        sps: f32,
        rolloff: f32,
        filter_size: usize,
        bandwidth: f32,
    ) -> Result<Self, DspError> {
        if !(sps.is_finite() && sps > 0.0) {
            return Err(DspError::OutOfRange {
                name: "sps",
                value: sps as f64,
                expected: "must be > 0",
            });
        }
        if !(0.0..=1.0).contains(&rolloff) {
            return Err(DspError::OutOfRange {
                name: "rolloff",
                value: rolloff as f64,
                expected: "must be in [0, 1]",
            });
        }
        if !(1..=Self::MAX_FILTER_SIZE).contains(&filter_size) {
            return Err(DspError::OutOfRange {
                name: "filter_size",
                value: filter_size as f64,
                expected: "must be in 1..=65536",
            });
        }
        check_bandwidth(bandwidth)?;
        // Baseband filter: two sincs, normalised to unit sum.
        let m = (filter_size as f32 / sps).round();
        let bb: Vec<f32> = (0..filter_size)
            .map(|i| {
                let k = -m + i as f32 * 2.0 / sps;
                sinc(rolloff * k - 0.5) + sinc(rolloff * k + 0.5)
            })
            .collect();
        let power: f32 = bb.iter().sum();
        if power == 0.0 || !power.is_finite() {
            return Err(DspError::InvalidSpec(
                "the band-edge filter sums to zero".into(),
            ));
        }
        let n = ((filter_size as f32 - 1.0) / 2.0) as i64;
        let mut lower = vec![Complex32::new(0.0, 0.0); filter_size];
        let mut upper = lower.clone();
        for (i, b) in bb.iter().enumerate() {
            let tap = b / power;
            let k = (i as i64 - n) as f32 / (2.0 * sps);
            let w = TWO_PI * (1.0 + rolloff) * k;
            lower[filter_size - i - 1] = Complex32::from_polar(tap, -w);
            upper[filter_size - i - 1] = Complex32::from_polar(tap, w);
        }
        // Stored reversed: `taps[0]` weighs the newest sample, as GNU
        // Radio's filters apply them.
        lower.reverse();
        upper.reverse();
        let damping = std::f32::consts::SQRT_2 / 2.0;
        let (alpha, beta) = loop_gains(damping, bandwidth);
        Ok(Self {
            lower,
            upper,
            buf: vec![Complex32::new(0.0, 0.0); 2 * filter_size],
            idx: 0,
            alpha,
            beta,
            max_freq: TWO_PI * 2.0 / sps,
            phase: 0.0,
            freq: 0.0,
            lead: filter_size,
            filter_size,
        })
    }

    /// The longest band-edge filters.
    pub const MAX_FILTER_SIZE: usize = 65536;

    /// Changes the loop bandwidth (rad/sample, ≥ 0), keeping the
    /// frequency and phase estimates (GNU Radio's `set_loop_bandwidth`).
    ///
    /// Errors: a negative or non-finite bandwidth (nothing changes).
    pub fn set_loop_bandwidth(&mut self, bandwidth: f32) -> Result<(), DspError> {
        check_bandwidth(bandwidth)?;
        (self.alpha, self.beta) = loop_gains(std::f32::consts::SQRT_2 / 2.0, bandwidth);
        Ok(())
    }

    /// The frequency estimate in rad/sample.
    pub fn frequency(&self) -> f32 {
        self.freq
    }
}

fn check_bandwidth(bandwidth: f32) -> Result<(), DspError> {
    if bandwidth.is_finite() && bandwidth >= 0.0 {
        Ok(())
    } else {
        Err(DspError::OutOfRange {
            name: "bandwidth",
            value: bandwidth as f64,
            expected: "must be >= 0",
        })
    }
}

impl Kernel for FllBandEdge {
    type Input = Complex32;
    type Output = Complex32;

    fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) -> (usize, usize) {
        let zeros = self.lead.min(output.len());
        output[..zeros].fill(Complex32::new(0.0, 0.0));
        self.lead -= zeros;
        let output = &mut output[zeros..];
        let n = input.len().min(output.len());
        let size = self.filter_size;
        for (o, &x) in output[..n].iter_mut().zip(&input[..n]) {
            let (s, c) = self.phase.sin_cos();
            let y = x * Complex32::new(c, s);
            *o = y;
            self.buf[self.idx] = y;
            self.buf[self.idx + size] = y;
            self.idx = (self.idx + 1) % size;
            let window = &self.buf[self.idx..self.idx + size];
            // GNU Radio's naming: the "upper" output comes from the lower
            // taps.
            let out_upper = dot(&self.lower, window);
            let out_lower = dot(&self.upper, window);
            let error = out_lower.norm_sqr() - out_upper.norm_sqr();
            let error = if error.is_finite() { error } else { 0.0 };
            self.freq += self.beta * error;
            self.phase += self.freq + self.alpha * error;
            while self.phase > TWO_PI {
                self.phase -= TWO_PI;
            }
            while self.phase < -TWO_PI {
                self.phase += TWO_PI;
            }
            if !self.phase.is_finite() {
                self.phase = 0.0;
            }
            self.freq = self.freq.clamp(-self.max_freq, self.max_freq);
        }
        (n, zeros + n)
    }

    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {
        self.buf.fill(Complex32::new(0.0, 0.0));
        self.idx = 0;
        self.phase = 0.0;
        self.freq = 0.0;
        self.lead = self.filter_size;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::firdes::root_raised_cosine;

    #[test]
    fn pulls_in_a_carrier_offset_whatever_the_split() {
        let sps = 4usize;
        let tx = root_raised_cosine(sps as f64, sps as f64, 1.0, 0.35, 45).unwrap();
        let mut x = vec![Complex32::new(0.0, 0.0); 3000 * sps + tx.len()];
        for i in 0..3000 {
            let s = Complex32::new(
                if (i * 7 + i / 3) % 2 == 0 { 1.0 } else { -1.0 },
                if (i * 5 + i / 7) % 2 == 0 { 1.0 } else { -1.0 },
            );
            for (j, t) in tx.iter().enumerate() {
                x[i * sps + j] += s * *t;
            }
        }
        let offset = 0.05f32;
        for (n, v) in x.iter_mut().enumerate() {
            *v *= Complex32::from_polar(1.0, offset * n as f32);
        }
        let run = |chunk: usize| {
            let mut k = FllBandEdge::new(sps as f32, 0.35, 44, 0.0628).unwrap();
            let mut out = Vec::new();
            let mut buf = [Complex32::new(0.0, 0.0); 100];
            for c in x.chunks(chunk) {
                let mut rest = c;
                loop {
                    let (n, m) = k.process(rest, &mut buf);
                    out.extend_from_slice(&buf[..m]);
                    rest = &rest[n..];
                    if rest.is_empty() && m < buf.len() {
                        break;
                    }
                }
            }
            (out, k.frequency())
        };
        let (whole, freq) = run(x.len());
        assert_eq!(whole.len(), x.len() + 44);
        assert!(whole[..44].iter().all(|v| v.norm() == 0.0));
        assert_eq!(run(33).0, whole);
        // The NCO runs against the offset.
        assert!((freq + offset).abs() < 0.01, "{freq}");
    }
}
