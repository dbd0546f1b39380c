//! [`FllBandEdge`]: band-edge frequency-locked loop, GNU Radio's
//! `fll_band_edge_cc`: two filters on the band edges of the expected
//! pulse; the difference of their output powers steers an NCO that
//! rotates the signal to zero frequency offset.

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
        if !(1..=65536).contains(&filter_size) {
            return Err(DspError::OutOfRange {
                name: "filter_size",
                value: filter_size as f64,
                expected: "must be in 1..=65536",
            });
        }
        if !(bandwidth.is_finite() && bandwidth >= 0.0) {
            return Err(DspError::OutOfRange {
                name: "bandwidth",
                value: bandwidth as f64,
                expected: "must be >= 0",
            });
        }
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
        let denom = 1.0 + 2.0 * damping * bandwidth + bandwidth * bandwidth;
        Ok(Self {
            lower,
            upper,
            buf: vec![Complex32::new(0.0, 0.0); 2 * filter_size],
            idx: 0,
            alpha: (4.0 * damping * bandwidth) / denom,
            beta: (4.0 * bandwidth * bandwidth) / denom,
            max_freq: TWO_PI * 2.0 / sps,
            phase: 0.0,
            freq: 0.0,
            lead: filter_size,
            filter_size,
        })
    }

    /// The frequency estimate in rad/sample.
    pub fn frequency(&self) -> f32 {
        self.freq
    }

    fn dot(taps: &[Complex32], x: &[Complex32]) -> Complex32 {
        let mut acc = Complex32::new(0.0, 0.0);
        for (t, s) in taps.iter().zip(x) {
            acc += t * s;
        }
        acc
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
            let out_upper = Self::dot(&self.lower, window);
            let out_lower = Self::dot(&self.upper, window);
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
