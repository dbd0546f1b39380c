//! Frame detection from the short training field (IEEE 802.11-2016
//! 17.3.3, "PHY preamble (SYNC)"; the STF of 17.3.3 repeats every 16
//! samples, 0.8 µs): the lag-16 autocorrelation of the input over a
//! 48-sample window, normalised by the power of both windows, must stay
//! above a threshold for a plateau of samples.
//!
//! The sums run in O(1) per sample (add the newest product, subtract the
//! one leaving the window). They are recomputed exactly from their rings
//! every 4096 samples and whenever the window power moves by more than
//! 30 dB from its last exact value, so rounding left over from a loud
//! frame can neither fake nor hide a plateau in the quiet that follows.
//! The metric is scale free: noise alone, at any level, stays near
//! 1/48 (squared) and never holds a plateau.

use num_complex::Complex32;

/// The short training field's period in samples.
pub const LAG: usize = 16;
/// Samples in the autocorrelation window.
pub const WINDOW: usize = 48;
/// Threshold on |c| / sqrt(P(n) P(n - 16)), squared.
const THRESHOLD_SQ: f32 = 0.56 * 0.56;
/// Consecutive samples above the threshold that make a detection.
pub const PLATEAU: u32 = 32;
/// Ring length: a power of two at least `WINDOW + LAG`.
const RING: usize = 64;
const MASK: usize = RING - 1;
/// Exact recomputation at least this often (a power of two).
const REFRESH: usize = 4096;
/// Window power change (both ways) that forces an exact recomputation.
const DRIFT_RANGE: f32 = 1e3;

/// A plateau found by [`StfDetector::feed`].
#[derive(Clone, Copy, Debug)]
pub struct Detection {
    /// Index, in the slice fed, of the sample that completed the plateau.
    pub at: usize,
    /// The coarse carrier offset in radians per sample: the angle of the
    /// lag-16 autocorrelation over the window, divided by 16.
    pub cfo: f32,
}

/// The streaming short-preamble detector. Keeps 64 samples of state;
/// chunking does not change its detections.
#[derive(Clone)]
pub struct StfDetector {
    /// x[k - 16 .. k), indexed by `k & 15`.
    raw: [Complex32; LAG],
    /// x[k] conj(x[k - 16]), indexed by `k & MASK`.
    prod: [Complex32; RING],
    /// |x[k]|^2, indexed by `k & MASK`.
    pow: [f32; RING],
    /// The window power after sample k, indexed by `k & MASK`.
    psum: [f32; RING],
    corr: Complex32,
    power: f32,
    low: f32,
    high: f32,
    run: u32,
    /// Samples fed since the last reset (wrapping; only its low bits are
    /// used).
    k: usize,
}

impl Default for StfDetector {
    fn default() -> Self {
        Self::new()
    }
}

impl StfDetector {
    /// A detector whose past is all zeros.
    pub fn new() -> Self {
        Self {
            raw: [Complex32::default(); LAG],
            prod: [Complex32::default(); RING],
            pow: [0.0; RING],
            psum: [0.0; RING],
            corr: Complex32::default(),
            power: 0.0,
            low: 0.0,
            high: 0.0,
            run: 0,
            k: 0,
        }
    }

    /// Forgets everything, as if the stream so far had been zeros.
    pub fn reset(&mut self) {
        *self = Self::new();
    }

    /// The last 16 samples fed, oldest first.
    pub fn history(&self) -> [Complex32; LAG] {
        std::array::from_fn(|i| self.raw[(self.k + i) & (LAG - 1)])
    }

    /// Feeds `xs` until a plateau completes; returns it, or `None` once
    /// all of `xs` is consumed. After a detection the samples after
    /// `at` are not consumed.
    pub fn feed(&mut self, xs: &[Complex32]) -> Option<Detection> {
        let mut corr = self.corr;
        let mut power = self.power;
        let mut run = self.run;
        let mut k = self.k;
        let mut found = None;
        for (i, &x) in xs.iter().enumerate() {
            let slot = k & MASK;
            let old = k.wrapping_sub(WINDOW) & MASK;
            let lagged = std::mem::replace(&mut self.raw[k & (LAG - 1)], x);
            let d = x * lagged.conj();
            let e = x.norm_sqr();
            corr += d - self.prod[old];
            power += e - self.pow[old];
            self.prod[slot] = d;
            self.pow[slot] = e;
            // Also when a NaN or infinity got in: the exact sums drop it
            // as soon as it leaves the window.
            if !(power >= self.low && power <= self.high) || k & (REFRESH - 1) == 0 {
                (corr, power) = self.exact(k);
            }
            self.psum[slot] = power;
            let before = self.psum[k.wrapping_sub(LAG) & MASK];
            k = k.wrapping_add(1);
            // In f64: loud input (amplitudes of 1e9 and more, unscaled
            // 32-bit recordings) would overflow f32 here.
            let hit = f64::from(corr.norm_sqr())
                > f64::from(THRESHOLD_SQ) * f64::from(power) * f64::from(before);
            run = if hit { run + 1 } else { 0 };
            if run >= PLATEAU {
                found = Some(Detection {
                    at: i,
                    cfo: corr.arg() / LAG as f32,
                });
                break;
            }
        }
        self.corr = corr;
        self.power = power;
        self.run = run;
        self.k = k;
        found
    }

    /// The window sums after sample `k` added from the rings, and new
    /// drift bounds around them.
    #[cold]
    fn exact(&mut self, k: usize) -> (Complex32, f32) {
        let mut corr = Complex32::default();
        let mut power = 0.0f32;
        for back in 0..WINDOW {
            let j = k.wrapping_sub(back) & MASK;
            corr += self.prod[j];
            power += self.pow[j];
        }
        self.low = power / DRIFT_RANGE;
        self.high = power * DRIFT_RANGE;
        (corr, power)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::f32::consts::PI;

    /// The short training field from its definition (17.3.3, equation
    /// 17-6): tones at subcarriers ±4, ±8, …, ±24 with values
    /// sqrt(13/6) (±1 ± j), 160 samples (10 periods of 16).
    pub fn stf_from_tones() -> Vec<Complex32> {
        // S_{-26..26}: (k, sign of (1+j)) with S = sqrt(13/6) * s (1 + j).
        let tones: [(i32, f32); 12] = [
            (-24, 1.0),
            (-20, -1.0),
            (-16, 1.0),
            (-12, -1.0),
            (-8, -1.0),
            (-4, 1.0),
            (4, -1.0),
            (8, -1.0),
            (12, 1.0),
            (16, 1.0),
            (20, 1.0),
            (24, 1.0),
        ];
        let scale = (13.0f32 / 6.0).sqrt() / (52.0f32).sqrt();
        (0..160)
            .map(|n| {
                tones.iter().fold(Complex32::default(), |acc, &(k, s)| {
                    let phase = 2.0 * PI * k as f32 * n as f32 / 64.0;
                    acc + Complex32::new(s, s) * scale * Complex32::from_polar(1.0, phase)
                })
            })
            .collect()
    }

    /// The tests' noise: the channel model's seeded generator.
    pub use crate::channel::Pcg32 as Noise;

    /// Detections in `xs` fed in pieces of `chunk`, skipping 160 samples
    /// after each (as the synchroniser leaves the search for the frame).
    fn detections(xs: &[Complex32], chunk: usize) -> Vec<(usize, f32)> {
        let mut det = StfDetector::new();
        let mut out = Vec::new();
        let mut next = 0usize;
        for (c, piece) in xs.chunks(chunk).enumerate() {
            let base = c * chunk;
            let mut off = next.saturating_sub(base).min(piece.len());
            while let Some(d) = det.feed(&piece[off..]) {
                let at = base + off + d.at;
                out.push((at, d.cfo));
                det.reset();
                next = at + 160;
                off = next.saturating_sub(base).min(piece.len());
            }
        }
        out
    }

    #[test]
    fn stf_from_tones_has_period_16_and_unit_power() {
        let stf = stf_from_tones();
        for n in 16..160 {
            assert!((stf[n] - stf[n - 16]).norm() < 1e-4);
        }
        let p: f32 = stf.iter().map(|x| x.norm_sqr()).sum::<f32>() / 160.0;
        assert!((p - 1.0).abs() < 0.01, "{p}");
    }

    #[test]
    fn finds_the_stf_once_early_in_it_and_measures_its_offset() {
        let mut noise = Noise::new(1);
        let cfo = 2.0 * PI * 100e3 / 20e6;
        // The tolerance is about 3 standard deviations of the angle of a
        // 48-term correlation at that SNR, over 16.
        for (snr_db, chunk, tol) in [
            (30.0f32, 7usize, 0.001f32),
            (10.0, 1000, 0.01),
            (5.0, 64, 0.016),
        ] {
            let np = 10f32.powf(-snr_db / 10.0);
            let mut xs: Vec<Complex32> = (0..500).map(|_| noise.complex_gaussian(np)).collect();
            let stf = stf_from_tones();
            for (n, s) in stf.iter().enumerate() {
                xs[200 + n] += s * Complex32::from_polar(1.0, cfo * n as f32);
            }
            let found = detections(&xs, chunk);
            assert_eq!(found.len(), 1, "{snr_db} dB: {found:?}");
            let (at, est) = found[0];
            // The plateau needs 32 samples over the threshold after the
            // lagged window has filled, and must end inside the STF.
            assert!((200 + 40..200 + 160).contains(&at), "{snr_db} dB: at {at}");
            assert!((est - cfo).abs() < tol, "{snr_db} dB: {est} vs {cfo}");
        }
    }

    #[test]
    fn noise_of_any_level_and_silence_give_nothing() {
        let mut noise = Noise::new(2);
        for power in [1e-12f32, 1e-3, 1.0, 1e6, 1e12] {
            let xs: Vec<Complex32> = (0..200_000)
                .map(|_| noise.complex_gaussian(power))
                .collect();
            assert!(detections(&xs, 4096).is_empty(), "power {power}");
        }
        assert!(detections(&vec![Complex32::default(); 10_000], 100).is_empty());
    }

    #[test]
    fn quiet_after_a_loud_burst_is_not_a_plateau() {
        // Loud non-periodic samples, then exact zeros and faint noise:
        // without the exact recomputation the rounding left in the sums
        // stays constant over the zeros and reads as a plateau.
        let mut noise = Noise::new(3);
        let mut xs: Vec<Complex32> = (0..3000).map(|_| noise.complex_gaussian(1e8)).collect();
        xs.extend(std::iter::repeat_n(Complex32::default(), 3000));
        xs.extend((0..3000).map(|_| noise.complex_gaussian(1e-9)));
        assert!(detections(&xs, 1 << 20).is_empty());
    }

    #[test]
    fn chunking_does_not_change_detections() {
        let mut noise = Noise::new(4);
        let stf = stf_from_tones();
        let mut xs: Vec<Complex32> = (0..5000).map(|_| noise.complex_gaussian(0.01)).collect();
        for start in [100, 1500, 3210] {
            for (n, s) in stf.iter().enumerate() {
                xs[start + n] += s;
            }
        }
        let whole = detections(&xs, xs.len());
        assert_eq!(whole.len(), 3);
        for chunk in [1, 3, 16, 17, 999] {
            assert_eq!(detections(&xs, chunk), whole, "chunk {chunk}");
        }
    }
}
