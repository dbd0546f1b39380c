//! Symbol timing and fine frequency from the long training field
//! (IEEE 802.11-2016 17.3.3, equation 17-11: a 32-sample guard interval
//! and two copies of the 64-sample long training symbol), and the phase
//! rotator that removes a carrier offset.
//!
//! Timing: the (coarsely frequency-corrected) samples are correlated
//! with the known long training symbol; the start of the first symbol is
//! where the two correlation peaks 64 samples apart hold the most energy
//! together. Fine offset: the angle of the lag-64 correlation of the two
//! received symbols (and of the guard interval with the first symbol's
//! second half), over 64.

use num_complex::{Complex, Complex32};

/// Samples of one long training symbol.
pub const LTF_SYMBOL: usize = 64;
/// Neighbouring offsets (a channel's taps) whose correlation energy
/// [`LtfFound::quality`] adds up.
pub const SPAN: usize = 8;
/// The least share of a window's energy the long training symbol must
/// explain (both peaks together, over [`SPAN`] offsets) to count as
/// found. Noise gives about SPAN/64 (0.2, below 0.3 in thousands of
/// tries). The short training field gives at most 64/(4 × 52) ≈ 0.31:
/// all 64 offsets of the periodic correlation explain 64/52 of any
/// signal in the long symbol's band (its sidelobes included), and the
/// short field's correlation repeats every 16 samples. A long training
/// field through a channel of up to SPAN taps gives about
/// SNR/(1 + SNR), however its energy is spread over them.
pub const MIN_QUALITY: f32 = 0.4;

/// Where [`LtfSearch::find`] put the long training field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LtfFound {
    /// Index of the first sample of the first long training symbol (after
    /// the field's guard interval).
    pub at: usize,
    /// The residual carrier offset, radians per sample.
    pub cfo: f32,
    /// The share of the two symbols' energy the reference explains over
    /// [`SPAN`] offsets, 0…64/52 (the symbol's correlation sidelobes
    /// count too).
    pub quality: f32,
}

/// The matched filter for the long training symbol. Keeps planar
/// (re, im) scratch so the correlations vectorise.
#[derive(Clone)]
pub struct LtfSearch {
    /// The reference symbol, conjugated, planar.
    ref_re: [f32; LTF_SYMBOL],
    ref_im: [f32; LTF_SYMBOL],
    energy: f32,
    re: Vec<f32>,
    im: Vec<f32>,
    peaks: Vec<f32>,
}

impl LtfSearch {
    /// A search for `ltf`, one long training symbol in the time domain
    /// (any scale).
    pub fn new(ltf: &[Complex32; LTF_SYMBOL]) -> Self {
        Self {
            ref_re: ltf.map(|x| x.re),
            ref_im: ltf.map(|x| -x.im),
            energy: ltf.iter().map(|x| x.norm_sqr()).sum(),
            re: Vec::new(),
            im: Vec::new(),
            peaks: Vec::new(),
        }
    }

    /// Finds the first long training symbol in `y` (frequency-corrected
    /// to well within ±π/64 rad per sample, the lag-64 estimate's range):
    /// the candidates are `0 ..= y.len() - 128`. `None` if `y` is too short
    /// or no candidate reaches [`MIN_QUALITY`].
    pub fn find(&mut self, y: &[Complex32]) -> Option<LtfFound> {
        let candidates = y.len().checked_sub(2 * LTF_SYMBOL)? + 1;
        self.re.clear();
        self.re.extend(y.iter().map(|x| x.re));
        self.im.clear();
        self.im.extend(y.iter().map(|x| x.im));
        // |correlation|^2 at every offset either peak can take.
        self.peaks.clear();
        for u in 0..candidates + LTF_SYMBOL {
            let re = self.re[u..u + LTF_SYMBOL].try_into().expect("64");
            let im = self.im[u..u + LTF_SYMBOL].try_into().expect("64");
            self.peaks.push(self.correlate(re, im).norm_sqr());
        }
        let (mut best, mut best_score) = (0, -1.0f32);
        for u in 0..candidates {
            let score = self.peaks[u] + self.peaks[u + LTF_SYMBOL];
            if score > best_score {
                (best, best_score) = (u, score);
            }
        }
        // A multipath channel spreads the correlation over its taps (the
        // strongest may hold a fifth of the energy): the quality counts
        // the [`SPAN`] neighbouring offsets around the best that hold the
        // most.
        let lo = best.saturating_sub(SPAN - 1);
        let hi = (best + SPAN).min(candidates);
        let score = |u: usize| self.peaks[u] + self.peaks[u + LTF_SYMBOL];
        let mut sum: f32 = (lo..(lo + SPAN).min(hi)).map(score).sum();
        let mut explained = sum;
        for u in lo + SPAN..hi {
            sum += score(u) - score(u - SPAN);
            explained = explained.max(sum);
        }
        let window = &y[best..best + 2 * LTF_SYMBOL];
        let energy: f32 = window.iter().map(|x| x.norm_sqr()).sum();
        let quality = explained / (self.energy * energy);
        if quality.is_nan() || quality < MIN_QUALITY {
            return None;
        }
        // The guard interval repeats the symbol's second half: 96 pairs
        // 64 apart when it is in `y`.
        let from = best.saturating_sub(LTF_SYMBOL / 2);
        let (first, second) = (&y[from..best + LTF_SYMBOL], &y[from + LTF_SYMBOL..]);
        let lag: Complex32 = second.iter().zip(first).map(|(b, a)| b * a.conj()).sum();
        if !(lag.re.is_finite() && lag.im.is_finite()) {
            // A NaN or infinity in the guard interval: no offset to trust.
            return None;
        }
        Some(LtfFound {
            at: best,
            cfo: lag.arg() / LTF_SYMBOL as f32,
            quality,
        })
    }

    /// The correlation of 64 samples (planar) with the reference.
    fn correlate(&self, re: &[f32; LTF_SYMBOL], im: &[f32; LTF_SYMBOL]) -> Complex32 {
        // Eight lanes per part: the compiler keeps them in vector
        // registers.
        let mut acc_re = [0.0f32; 8];
        let mut acc_im = [0.0f32; 8];
        for c in 0..LTF_SYMBOL / 8 {
            for l in 0..8 {
                let k = 8 * c + l;
                acc_re[l] += re[k] * self.ref_re[k] - im[k] * self.ref_im[k];
                acc_im[l] += re[k] * self.ref_im[k] + im[k] * self.ref_re[k];
            }
        }
        Complex32::new(acc_re.iter().sum(), acc_im.iter().sum())
    }
}

/// Removes a carrier offset of `omega` radians per sample: the n-th
/// sample it passes (from 0) is multiplied by e^(-j omega n). A table of
/// 64 steps times one exact (f64) phase per 64 samples, so the phase
/// never drifts however long the frame.
#[derive(Clone)]
pub struct Derotator {
    steps: [Complex32; 64],
    omega: f64,
    n: u64,
}

impl Derotator {
    pub fn new(omega: f32) -> Self {
        let omega = omega as f64;
        Self {
            steps: std::array::from_fn(|i| {
                let p = Complex::<f64>::from_polar(1.0, -omega * i as f64);
                Complex32::new(p.re as f32, p.im as f32)
            }),
            omega,
            n: 0,
        }
    }

    /// Appends the next `xs.len()` samples, derotated, to `out`.
    pub fn extend(&mut self, mut xs: &[Complex32], out: &mut Vec<Complex32>) {
        out.reserve(xs.len());
        let mut turn = [Complex32::default(); 64];
        while !xs.is_empty() {
            let pos = (self.n % 64) as usize;
            let m = (64 - pos).min(xs.len());
            let b = Complex::<f64>::from_polar(1.0, -self.omega * (self.n - pos as u64) as f64);
            let base = Complex32::new(b.re as f32, b.im as f32);
            for (t, s) in turn[pos..pos + m].iter_mut().zip(&self.steps[pos..pos + m]) {
                *t = base * s;
            }
            let from = out.len();
            out.extend_from_slice(&xs[..m]);
            for (y, t) in out[from..].iter_mut().zip(&turn[pos..pos + m]) {
                *y *= t;
            }
            self.n += m as u64;
            xs = &xs[m..];
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::sync_detect::tests::Noise;
    use std::f32::consts::PI;

    /// One long training symbol from its definition (17.3.3, equation
    /// 17-8: L_{-26..26}), 64 samples, unit mean power.
    pub fn ltf_from_tones() -> [Complex32; 64] {
        const L: [i8; 53] = [
            1, 1, -1, -1, 1, 1, -1, 1, -1, 1, 1, 1, 1, 1, 1, -1, -1, 1, 1, -1, 1, -1, 1, 1, 1, 1,
            0, 1, -1, -1, 1, 1, -1, 1, -1, 1, -1, -1, -1, -1, -1, 1, 1, -1, -1, 1, -1, 1, -1, 1, 1,
            1, 1,
        ];
        let scale = 1.0 / 52f32.sqrt();
        std::array::from_fn(|n| {
            L.iter()
                .enumerate()
                .fold(Complex32::default(), |acc, (i, &l)| {
                    let k = i as f32 - 26.0;
                    acc + Complex32::from_polar(l as f32 * scale, 2.0 * PI * k * n as f32 / 64.0)
                })
        })
    }

    /// Guard interval and two long symbols (160 samples).
    pub fn ltf_field() -> Vec<Complex32> {
        let s = ltf_from_tones();
        s[32..].iter().chain(&s).chain(&s).copied().collect()
    }

    #[test]
    fn helpers_from_tones_match_the_transmitters_preamble() {
        // Two independent builds of the standard's fields must agree
        // (up to scale): the helpers here from equations 17-6 and 17-8,
        // `crate::preamble` from its own tables.
        let rho = |a: &[Complex32], b: &[Complex32]| {
            let dot: Complex32 = a.iter().zip(b).map(|(x, y)| x * y.conj()).sum();
            let ea: f32 = a.iter().map(|x| x.norm_sqr()).sum();
            let eb: f32 = b.iter().map(|x| x.norm_sqr()).sum();
            dot.norm() / (ea * eb).sqrt()
        };
        let ltf = crate::preamble::ltf_symbol();
        assert!(rho(&ltf_from_tones(), &ltf) > 0.9999);
        assert!(rho(&ltf_field(), crate::preamble::ltf()) > 0.9999);
        let stf = crate::sync_detect::tests::stf_from_tones();
        assert!(rho(&stf, crate::preamble::stf()) > 0.9999);
    }

    #[test]
    fn finds_both_symbols_and_the_residual_offset() {
        let mut noise = Noise::new(5);
        let stf = crate::sync_detect::tests::stf_from_tones();
        let mut search = LtfSearch::new(&ltf_from_tones());
        for (snr_db, cfo) in [(30.0f32, 0.0f32), (10.0, 0.02), (5.0, -0.03)] {
            let np = 10f32.powf(-snr_db / 10.0);
            // 37 samples of the STF, the LTF field, 80 samples of noise.
            let frame: Vec<Complex32> = stf[123..].iter().chain(&ltf_field()).copied().collect();
            let mut y: Vec<Complex32> = (0..400).map(|_| noise.complex_gaussian(np)).collect();
            for (n, s) in frame.iter().enumerate() {
                y[n] += s * Complex32::from_polar(1.0, cfo * n as f32);
            }
            let found = search.find(&y).expect("found");
            assert_eq!(found.at, 37 + 32, "{snr_db} dB");
            assert!((found.cfo - cfo).abs() < 0.002, "{snr_db} dB {found:?}");
            assert!(found.quality > 0.5, "{snr_db} dB {found:?}");
        }
    }

    /// Six equal taps: the strongest offset holds a sixth of the field's
    /// energy, the span all of it; found at one of the taps.
    #[test]
    fn finds_the_field_through_a_channel_of_spread_taps() {
        let mut noise = Noise::new(8);
        let mut search = LtfSearch::new(&ltf_from_tones());
        let stf = crate::sync_detect::tests::stf_from_tones();
        let frame: Vec<Complex32> = stf[123..].iter().chain(&ltf_field()).copied().collect();
        let taps: Vec<Complex32> = [0.0f32, 2.4, -1.1, 0.9, 3.0, -2.2]
            .iter()
            .map(|&p| Complex32::from_polar(6f32.sqrt().recip(), p))
            .collect();
        let mut y: Vec<Complex32> = (0..400).map(|_| noise.complex_gaussian(0.003)).collect();
        for (n, s) in crate::channel::convolve(&frame, &taps).iter().enumerate() {
            y[n] += s;
        }
        let found = search.find(&y).expect("found");
        assert!((37 + 32..37 + 32 + 6).contains(&found.at), "{found:?}");
        assert!(found.quality > 0.8, "{found:?}");
    }

    #[test]
    fn noise_and_the_short_field_alone_are_refused() {
        let mut noise = Noise::new(6);
        let mut search = LtfSearch::new(&ltf_from_tones());
        let y: Vec<Complex32> = (0..400).map(|_| noise.complex_gaussian(1.0)).collect();
        assert_eq!(search.find(&y), None);
        let stf = crate::sync_detect::tests::stf_from_tones();
        let y: Vec<Complex32> = stf.iter().cycle().take(400).copied().collect();
        assert_eq!(search.find(&y), None);
        assert_eq!(search.find(&y[..127]), None);
    }

    #[test]
    fn derotator_matches_direct_phases_in_any_pieces() {
        let omega = 0.0314f32;
        let xs: Vec<Complex32> = (0..100_000)
            .map(|n| Complex32::from_polar(1.0, omega * n as f32 + 0.5))
            .collect();
        let mut whole = Vec::new();
        Derotator::new(omega).extend(&xs, &mut whole);
        // All phase removed: what stays is the constant 0.5 rad (to the
        // precision of the f32 reference phases above).
        for (n, y) in whole.iter().enumerate() {
            let expect = (omega as f64 * n as f64 + 0.5) - (omega * n as f32 + 0.5) as f64;
            assert!(
                (y.arg() as f64 - 0.5 + expect).abs() < 2e-3,
                "n {n}: {}",
                y.arg()
            );
            assert!((y.norm() - 1.0).abs() < 1e-5);
        }
        let mut pieces = Vec::new();
        let mut rot = Derotator::new(omega);
        for piece in xs.chunks(37) {
            rot.extend(piece, &mut pieces);
        }
        assert_eq!(pieces, whole);
    }
}
