//! Channel estimation and equalisation (IEEE 802.11-2016 17.3.3 and
//! 17.3.5.9: the long training symbols and the pilots are what the
//! standard gives a receiver to do it with).
//!
//! - The least-squares channel estimate: the FFT of the two long
//!   training symbols, averaged, divided by the known LTF bins
//!   ([`preamble::ltf_bins`](crate::preamble::ltf_bins)); the FFT is scaled by √52 / 64 so an
//!   ideal channel reads H = 1.
//! - The SNR from the two symbols' difference (their noise is
//!   independent, their signal the same), given as a time-domain,
//!   per-sample ratio (signal on 52 of 64 bins against noise on all).
//! - Per OFDM symbol: the FFT (cached `rustfft` plan, no allocation),
//!   division by H, the common phase and the phase slope across
//!   subcarriers (a sampling offset's, smoothed over symbols) from the
//!   four pilots with the polarity sequence, undone on the 48 data
//!   points, which come out with their weights |H|² (normalised to mean
//!   1 over the data carriers) for the demapper.
//!
//! The FFT window starts [`EARLY`] samples into the cyclic prefix, so a
//! synchroniser that cuts a sample or two late still sees one symbol
//! only; the linear phase this leaves is folded into the inverse
//! channel.

use crate::burst::{FFT, LTF, SYMBOL};
use crate::ofdm::{
    DATA_BINS, DATA_SUBCARRIERS, PILOT_BINS, PILOT_SUBCARRIERS, PILOT_VALUES, USED_CARRIERS, bin,
    pilot_polarity,
};
use crate::preamble::ltf_bins;
use crate::rate::DATA_CARRIERS;
use num_complex::Complex32;
use rustfft::{Fft, FftPlanner};
use std::sync::Arc;

/// Samples of the cyclic prefix the data symbols' FFT window starts
/// before the prefix's end.
pub const EARLY: usize = 2;
/// Cyclic prefix samples.
const CP: usize = SYMBOL - FFT;
/// Smoothing of the phase slope from symbol to symbol (the weight of
/// the newest estimate).
const SLOPE_ALPHA: f32 = 0.5;
/// The SNR reported when the two long symbols are identical.
pub const MAX_SNR_DB: f32 = 100.0;

/// Smooths a least-squares estimate across neighbouring subcarriers,
/// `[1 2 1] / 4` along the band (fewer neighbours at its edges and next
/// to DC), after taking out the phase step from one carrier to the next
/// (the timing offset's linear phase, which would otherwise shrink the
/// average): where the channel is smooth, the estimate's noise drops to
/// 3/8, about 1 dB more SNR on what the demapper sees. `noise` is the
/// variance of the raw estimate per carrier; where the smoothing would
/// move a carrier by more than that noise explains (three standard
/// deviations of the move noise alone makes), the channel itself bends
/// there (strong multipath) and the raw estimate stays.
fn smooth(channel: &mut [Complex32; FFT], noise: f32) {
    let used = |k: i32| k != 0 && (-26..=26).contains(&k);
    let step: Complex32 = (-26i32..26)
        .filter(|&k| used(k) && used(k + 1))
        .map(|k| channel[bin(k + 1)] * channel[bin(k)].conj())
        .sum();
    if step.norm_sqr() == 0.0 || !step.norm_sqr().is_finite() || noise.is_nan() || noise <= 0.0 {
        return;
    }
    let turn = step / step.norm();
    let raw = *channel;
    for k in (-26i32..=26).filter(|&k| used(k)) {
        let mut sum = raw[bin(k)] * 2.0;
        let mut weight = 2.0f32;
        if used(k - 1) {
            sum += raw[bin(k - 1)] * turn;
            weight += 1.0;
        }
        if used(k + 1) {
            sum += raw[bin(k + 1)] * turn.conj();
            weight += 1.0;
        }
        let smoothed = sum / weight;
        // The move's variance from noise alone: the neighbours' share
        // of the average and the carrier's own lost share.
        let neighbours = weight - 2.0;
        let own = 1.0 - 2.0 / weight;
        let moved = noise * (neighbours / (weight * weight) + own * own);
        if (smoothed - raw[bin(k)]).norm_sqr() <= 9.0 * moved {
            channel[bin(k)] = smoothed;
        }
    }
}

/// An equaliser: the channel of one frame, and the FFT plan and
/// buffers kept between frames.
pub struct Equalizer {
    fft: Arc<dyn Fft<f32>>,
    scratch: Vec<Complex32>,
    buf: [Complex32; FFT],
    /// The channel estimate per bin (0 on unused bins).
    channel: [Complex32; FFT],
    /// 1 / H times the early window's phase ramp, per bin.
    inverse: [Complex32; FFT],
    /// |H|² per data carrier over its mean.
    weights: [f32; DATA_CARRIERS],
    /// |H|² per pilot.
    pilot_power: [f32; 4],
    /// The smoothed phase slope (radians per subcarrier).
    slope: f32,
}

impl Default for Equalizer {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Equalizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Equalizer")
            .field("channel", &self.channel)
            .finish_non_exhaustive()
    }
}

impl Equalizer {
    /// An equaliser with an ideal channel (H = 1).
    pub fn new() -> Self {
        let fft = FftPlanner::new().plan_fft_forward(FFT);
        let scratch = vec![Complex32::default(); fft.get_inplace_scratch_len()];
        let ltf = ltf_bins();
        let mut e = Self {
            fft,
            scratch,
            buf: [Complex32::default(); FFT],
            channel: std::array::from_fn(|b| Complex32::new(ltf[b].abs(), 0.0)),
            inverse: [Complex32::default(); FFT],
            weights: [1.0; DATA_CARRIERS],
            pilot_power: [1.0; 4],
            slope: 0.0,
        };
        e.prepare();
        e
    }

    /// The FFT of `samples[..64]` into `buf`, scaled so unit-power
    /// points read 1.
    fn transform(&mut self, samples: &[Complex32]) {
        let scale = (USED_CARRIERS as f32).sqrt() / FFT as f32;
        for (b, &s) in self.buf.iter_mut().zip(&samples[..FFT]) {
            *b = s * scale;
        }
        self.fft
            .process_with_scratch(&mut self.buf, &mut self.scratch);
    }

    /// Estimates the channel from the two long training symbols,
    /// `ltf[..128]` (from the first's first sample, after GI2); returns
    /// the SNR in dB.
    pub fn estimate(&mut self, ltf: &[Complex32]) -> f32 {
        assert!(ltf.len() >= LTF, "two long training symbols");
        let reference = ltf_bins();
        self.transform(&ltf[..FFT]);
        let first = self.buf;
        self.transform(&ltf[FFT..LTF]);
        let (mut signal, mut noise) = (0f32, 0f32);
        for (b, (&y1, &y2)) in first.iter().zip(&self.buf).enumerate() {
            let l = reference[b];
            if l == 0.0 {
                self.channel[b] = Complex32::default();
                continue;
            }
            let mean = (y1 + y2) * 0.5;
            self.channel[b] = mean * l; // l is ±1: dividing is multiplying
            signal += mean.norm_sqr();
            noise += (y1 - y2).norm_sqr();
        }
        // Per used bin: E|y1 − y2|² = 2σ², E|mean|² = |X|² + σ²/2.
        let n = USED_CARRIERS as f32;
        let sigma2 = noise / (2.0 * n);
        smooth(&mut self.channel, sigma2 / 2.0);
        self.prepare();
        let x2 = (signal / n - sigma2 / 2.0).max(0.0);
        // Signal on 52 bins, noise (white) on all 64.
        let ratio = x2 * n / (sigma2 * FFT as f32);
        if ratio.is_finite() && ratio > 0.0 {
            (10.0 * ratio.log10()).min(MAX_SNR_DB)
        } else if sigma2 == 0.0 && x2 > 0.0 {
            MAX_SNR_DB
        } else {
            -MAX_SNR_DB
        }
    }

    /// Uses `channel` (e.g. a [`Header`](crate::burst::Header)'s) as
    /// the estimate.
    pub fn set_channel(&mut self, channel: &[Complex32; FFT]) {
        self.channel = *channel;
        self.prepare();
    }

    /// The channel estimate per FFT bin.
    pub fn channel(&self) -> &[Complex32; FFT] {
        &self.channel
    }

    /// The data carriers' weights |H|² / mean |H|², d_0…d_47.
    pub fn weights(&self) -> &[f32; DATA_CARRIERS] {
        &self.weights
    }

    /// The inverse channel, the weights, a fresh phase slope.
    fn prepare(&mut self) {
        self.inverse = [Complex32::default(); FFT];
        for k in -26i32..=26 {
            let b = bin(k);
            let h = self.channel[b];
            let p = h.norm_sqr();
            if p > 0.0 && p.is_finite() {
                // The window starts EARLY samples early: bin k reads
                // X·e^{−j2πk·EARLY/64}.
                let ramp = Complex32::from_polar(
                    1.0,
                    std::f32::consts::TAU * (k * EARLY as i32) as f32 / FFT as f32,
                );
                self.inverse[b] = ramp * h.conj() / p;
            }
        }
        let mut total = 0f32;
        for (w, &b) in self.weights.iter_mut().zip(&DATA_BINS) {
            *w = if self.inverse[b] == Complex32::default() {
                0.0
            } else {
                self.channel[b].norm_sqr()
            };
            total += *w;
        }
        let mean = total / DATA_CARRIERS as f32;
        if mean > 0.0 && mean.is_finite() {
            for w in &mut self.weights {
                *w /= mean;
            }
        } else {
            self.weights = [0.0; DATA_CARRIERS];
        }
        for (p, &b) in self.pilot_power.iter_mut().zip(&PILOT_BINS) {
            *p = if self.inverse[b] == Complex32::default() {
                0.0
            } else {
                self.channel[b].norm_sqr()
            };
        }
        self.slope = 0.0;
    }

    /// Equalises one OFDM symbol, `samples[..80]` (cyclic prefix
    /// first), number `index` in the frame (0 the SIGNAL symbol, for
    /// the pilot polarity), into its 48 data points d_0…d_47. Their
    /// weights are [`weights`](Self::weights).
    pub fn symbol(
        &mut self,
        samples: &[Complex32],
        index: usize,
        points: &mut [Complex32; DATA_CARRIERS],
    ) {
        let start = CP - EARLY;
        self.transform(&samples[start..start + FFT]);
        let polarity = pilot_polarity(index);
        // Pilots over their known values, weighted by their power.
        let mut pilots = [Complex32::default(); 4];
        let mut common = Complex32::default();
        for (i, &b) in PILOT_BINS.iter().enumerate() {
            pilots[i] = self.buf[b] * self.inverse[b] * (polarity * PILOT_VALUES[i]);
            common += pilots[i] * self.pilot_power[i];
        }
        // e^{−jφ} of the common phase φ, without trigonometry.
        let norm = common.norm_sqr().sqrt();
        let derotate = if norm > 0.0 && norm.is_finite() {
            common.conj() / norm
        } else {
            Complex32::new(1.0, 0.0)
        };
        // The slope: adjacent pilots are 14 subcarriers apart, so each
        // pair's product p_{i+1}·conj(p_i) turns by 14 × slope; pairs
        // weighted by their inverse noise, 1 / (1/|H_i|² + 1/|H_{i+1}|²).
        let mut turn = Complex32::default();
        for i in 0..3 {
            let (a, b) = (self.pilot_power[i], self.pilot_power[i + 1]);
            if a > 0.0 && b > 0.0 {
                turn += pilots[i + 1] * pilots[i].conj() * (a * b / (a + b));
            }
        }
        let spacing = (PILOT_SUBCARRIERS[1] - PILOT_SUBCARRIERS[0]) as f32;
        let slope = turn.arg() / spacing;
        // A symbol with a non-finite sample must not poison the slope
        // of every later one.
        let slope = if slope.is_finite() { slope } else { self.slope };
        self.slope = if index == 0 || !self.slope.is_finite() {
            slope
        } else {
            self.slope + SLOPE_ALPHA * (slope - self.slope)
        };
        // e^{−j(φ + slope·k)} for k = −26…26, by recurrence: two
        // chains (even and odd k) of step², half as long a chain of
        // dependent multiplications.
        let step = Complex32::from_polar(1.0, -self.slope);
        let step2 = step * step;
        let mut even = derotate * Complex32::from_polar(1.0, 26.0 * self.slope);
        let mut odd = even * step;
        let mut rotation = [Complex32::default(); 54];
        for pair in rotation.chunks_exact_mut(2) {
            pair[0] = even;
            pair[1] = odd;
            even *= step2;
            odd *= step2;
        }
        for ((p, &b), &k) in points.iter_mut().zip(&DATA_BINS).zip(&DATA_SUBCARRIERS) {
            *p = self.buf[b] * self.inverse[b] * rotation[(k + 26) as usize];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapping::map;
    use crate::ofdm::OfdmModulator;
    use crate::preamble::GI2_LEN;
    use crate::preamble::ltf;
    use crate::rate::Modulation;
    use crate::viterbi::tests::Rng;

    /// A frame's LTF (two symbols) and `n` 16-QAM data symbols through
    /// a multipath channel `taps`, with a phase `drift` per symbol and
    /// optional noise.
    fn through(
        taps: &[Complex32],
        n: usize,
        drift: f32,
        sigma: f32,
        rng: &mut Rng,
    ) -> (Vec<Complex32>, Vec<[Complex32; DATA_CARRIERS]>) {
        let mut tx: Vec<Complex32> = ltf().to_vec();
        let mut m = OfdmModulator::new();
        let mut sent = Vec::new();
        for s in 0..n {
            let bits: Vec<u8> = (0..4 * DATA_CARRIERS)
                .map(|_| (rng.next() & 1) as u8)
                .collect();
            let mut pts = [Complex32::default(); DATA_CARRIERS];
            map(Modulation::Qam16, &bits, &mut pts);
            let mut sym = [Complex32::default(); SYMBOL];
            m.symbol(&pts, s + 1, &mut sym);
            tx.extend_from_slice(&sym);
            sent.push(pts);
        }
        // Convolve (the channel's memory starts in the LTF's guard).
        let mut rx: Vec<Complex32> = (0..tx.len())
            .map(|i| {
                (0..taps.len())
                    .filter(|&t| t <= i)
                    .map(|t| tx[i - t] * taps[t])
                    .sum()
            })
            .collect();
        for (i, r) in rx.iter_mut().enumerate() {
            let sym = i.saturating_sub(GI2_LEN + LTF) / SYMBOL;
            let noise = Complex32::new(rng.gauss(), rng.gauss()) * (sigma / 2f32.sqrt());
            *r = *r * Complex32::from_polar(1.0, drift * sym as f32) + noise;
        }
        (rx[GI2_LEN..].to_vec(), sent)
    }

    /// An ideal channel reads H = 1 on the 52 used bins, 0 elsewhere,
    /// with the maximum SNR; the transmitter's symbols come back as
    /// sent.
    #[test]
    fn ideal_channel_is_one_and_symbols_come_back() {
        let mut rng = Rng(1);
        let (rx, sent) = through(&[Complex32::new(1.0, 0.0)], 3, 0.0, 0.0, &mut rng);
        let mut e = Equalizer::new();
        let snr = e.estimate(&rx);
        assert!(snr > 60.0, "{snr}");
        let ltf = ltf_bins();
        for (b, h) in e.channel().iter().enumerate() {
            let want = if ltf[b] == 0.0 { 0.0 } else { 1.0 };
            assert!(
                (h - Complex32::new(want, 0.0)).norm() < 1e-4,
                "bin {b}: {h}"
            );
        }
        let mut pts = [Complex32::default(); DATA_CARRIERS];
        for (s, want) in sent.iter().enumerate() {
            e.symbol(&rx[LTF + SYMBOL * s..], s + 1, &mut pts);
            for (p, w) in pts.iter().zip(want) {
                assert!((p - w).norm() < 1e-4, "symbol {s}: {p} vs {w}");
            }
        }
    }

    /// A three-tap channel and a common phase turning 0.1 rad per
    /// symbol: H is the taps' frequency response, the pilots undo the
    /// drift, the points come back; the weights are |H|² over their
    /// mean.
    #[test]
    fn multipath_and_phase_drift_are_undone() {
        let mut rng = Rng(2);
        let taps = [
            Complex32::new(0.9, 0.1),
            Complex32::new(0.0, 0.4),
            Complex32::new(-0.2, 0.1),
        ];
        let (rx, sent) = through(&taps, 20, 0.1, 0.0, &mut rng);
        let mut e = Equalizer::new();
        e.estimate(&rx);
        for k in -26i32..=26 {
            if k == 0 {
                continue;
            }
            let h: Complex32 = taps
                .iter()
                .enumerate()
                .map(|(t, &c)| {
                    c * Complex32::from_polar(
                        1.0,
                        -std::f32::consts::TAU * (k * t as i32) as f32 / 64.0,
                    )
                })
                .sum();
            assert!((e.channel()[bin(k)] - h).norm() < 1e-3, "k {k}");
        }
        let mean: f32 = DATA_BINS
            .iter()
            .map(|&b| e.channel()[b].norm_sqr())
            .sum::<f32>()
            / 48.0;
        for (w, &b) in e.weights().iter().zip(&DATA_BINS) {
            assert!((w - e.channel()[b].norm_sqr() / mean).abs() < 1e-4);
        }
        let mut pts = [Complex32::default(); DATA_CARRIERS];
        for (s, want) in sent.iter().enumerate() {
            e.symbol(&rx[LTF + SYMBOL * s..], s + 1, &mut pts);
            for (p, w) in pts.iter().zip(want) {
                assert!((p - w).norm() < 1e-3, "symbol {s}: {p} vs {w}");
            }
        }
    }

    /// On a flat channel with noise the smoothing takes the estimate's
    /// error well below a plain least-squares average's (3/8 of it in
    /// theory); with the noise gone, a strongly bent channel is left as
    /// it was (the test above).
    #[test]
    fn smoothing_lowers_the_estimates_noise_on_a_smooth_channel() {
        let mut rng = Rng(17);
        let sigma = 0.3f32;
        let (mut raw_err, mut err) = (0f32, 0f32);
        for _ in 0..50 {
            let (rx, _) = through(&[Complex32::new(1.0, 0.0)], 0, 0.0, sigma, &mut rng);
            let mut e = Equalizer::new();
            e.estimate(&rx);
            for k in (-26i32..=26).filter(|&k| k != 0) {
                err += (e.channel()[bin(k)] - Complex32::new(1.0, 0.0)).norm_sqr();
            }
            // The raw estimate's error variance: the per-bin noise (σ²
            // scaled by the FFT's √52/64 to 52/64 σ² per bin) halved by
            // the average of two symbols, on 52 bins.
            raw_err += 52.0 * sigma * sigma * 52.0 / 64.0 / 2.0;
        }
        assert!(err < 0.6 * raw_err, "error {err} against raw {raw_err}");
    }

    /// A sampling clock offset (the symbols drifting 0.02 samples
    /// later each, 12× a 20 ppm clock's) turns the phase slope across
    /// the subcarriers by 2π·0.02/64 a symbol: the pilots track it, and
    /// after 20 symbols (1.0 rad at the band edge untracked) the points
    /// still come back within 0.15.
    #[test]
    fn sampling_drift_slope_is_tracked() {
        let mut rng = Rng(5);
        let mut rx: Vec<Complex32> = ltf()[GI2_LEN..].to_vec();
        let mut m = OfdmModulator::new();
        let mut sent = Vec::new();
        for s in 0..=20usize {
            let bits: Vec<u8> = (0..4 * DATA_CARRIERS)
                .map(|_| (rng.next() & 1) as u8)
                .collect();
            let mut pts = [Complex32::default(); DATA_CARRIERS];
            map(Modulation::Qam16, &bits, &mut pts);
            // The symbol as the modulator makes it, then each bin
            // delayed by tau samples.
            let mut sym = [Complex32::default(); SYMBOL];
            m.symbol(&pts, s, &mut sym);
            let mut e = Equalizer::new();
            e.transform(&sym[CP..]);
            let tau = 0.02 * s as f32;
            let mut bins = e.buf;
            for (b, v) in bins.iter_mut().enumerate() {
                let k = if b < 32 { b as f32 } else { b as f32 - 64.0 };
                *v *= Complex32::from_polar(1.0, -std::f32::consts::TAU * k * tau / 64.0);
            }
            m.time_from_bins(&bins, &mut sym);
            rx.extend_from_slice(&sym);
            sent.push(pts);
        }
        let mut e = Equalizer::new();
        e.estimate(&rx);
        let mut pts = [Complex32::default(); DATA_CARRIERS];
        for (s, want) in sent.iter().enumerate() {
            e.symbol(&rx[LTF + SYMBOL * s..], s, &mut pts);
            let worst = pts
                .iter()
                .zip(want)
                .map(|(p, w)| (p - w).norm())
                .fold(0.0, f32::max);
            assert!(worst < 0.15, "symbol {s}: off by {worst}");
        }
    }

    /// The SNR estimate reads the noise added (per sample, against the
    /// LTF's unit power) within 1.5 dB at 5, 15 and 25 dB.
    #[test]
    fn snr_estimate_reads_the_noise() {
        let mut rng = Rng(3);
        for snr_db in [5.0f32, 15.0, 25.0] {
            let sigma = 10f32.powf(-snr_db / 20.0);
            let mut total = 0.0;
            for _ in 0..20 {
                let (rx, _) = through(&[Complex32::new(1.0, 0.0)], 0, 0.0, sigma, &mut rng);
                total += Equalizer::new().estimate(&rx);
            }
            let mean = total / 20.0;
            assert!((mean - snr_db).abs() < 1.5, "{snr_db} dB read {mean}");
        }
    }

    /// A dead channel (all zeros) gives zero weights and no NaNs.
    #[test]
    fn dead_channel_gives_zero_weights() {
        let mut e = Equalizer::new();
        let snr = e.estimate(&[Complex32::default(); LTF]);
        assert_eq!(snr, -MAX_SNR_DB);
        assert!(e.weights().iter().all(|&w| w == 0.0));
        let mut pts = [Complex32::new(1.0, 1.0); DATA_CARRIERS];
        e.symbol(&[Complex32::default(); SYMBOL], 1, &mut pts);
        assert!(pts.iter().all(|p| p.re.is_finite() && p.im.is_finite()));
    }
}
