//! The OFDM symbol (IEEE 802.11-2016 17.3.5.10, "OFDM modulation"): which
//! of the 64 FFT bins carry data and pilots, the pilot values and their
//! 127-long polarity sequence, and one symbol's IFFT with its 16-sample
//! cyclic prefix.
//!
//! Bins are FFT indices: 0 is DC, subcarrier k < 0 is bin 64 + k. The
//! transmitted level is the crate's one convention: unit-power
//! constellation points on the 52 used subcarriers give a symbol of mean
//! sample power 1 (the standard's Annex I uses 1/64 instead; multiply its
//! samples by `64 / sqrt(52)` to compare).

use crate::rate::DATA_CARRIERS;
use num_complex::Complex32;
use rustfft::{Fft, FftPlanner};
use std::sync::Arc;

/// FFT size (64 bins at 20 MS/s, 312.5 kHz apart).
pub const FFT_LEN: usize = 64;
/// Cyclic prefix (guard interval) samples.
pub const CP_LEN: usize = 16;
/// Samples of one symbol with its cyclic prefix.
pub const SYMBOL_LEN: usize = FFT_LEN + CP_LEN;
/// Used subcarriers: 48 data and 4 pilots.
pub const USED_CARRIERS: usize = 52;

/// The subcarrier number of each data carrier, in the standard's order
/// (data symbol d_k goes to the k-th entry): -26…26 without the pilots
/// ±7, ±21 and DC.
pub const DATA_SUBCARRIERS: [i32; DATA_CARRIERS] = {
    let mut out = [0i32; DATA_CARRIERS];
    let mut k = -26;
    let mut i = 0;
    while k <= 26 {
        if k != 0 && k != 7 && k != -7 && k != 21 && k != -21 {
            out[i] = k;
            i += 1;
        }
        k += 1;
    }
    out
};

/// FFT bin of subcarrier `k` (-32 ≤ k < 32).
pub const fn bin(k: i32) -> usize {
    k.rem_euclid(FFT_LEN as i32) as usize
}

/// The FFT bin of each data carrier, in the standard's order
/// (see [`DATA_SUBCARRIERS`]).
pub const DATA_BINS: [usize; DATA_CARRIERS] = {
    let mut out = [0usize; DATA_CARRIERS];
    let mut i = 0;
    while i < DATA_CARRIERS {
        out[i] = bin(DATA_SUBCARRIERS[i]);
        i += 1;
    }
    out
};

/// The pilot subcarriers -21, -7, 7, 21.
pub const PILOT_SUBCARRIERS: [i32; 4] = [-21, -7, 7, 21];
/// The FFT bins of the pilots, in the order of [`PILOT_SUBCARRIERS`].
pub const PILOT_BINS: [usize; 4] = [bin(-21), bin(-7), bin(7), bin(21)];
/// The pilot values P_{-21}, P_{-7}, P_7, P_21 before polarity.
pub const PILOT_VALUES: [f32; 4] = [1.0, 1.0, 1.0, -1.0];

/// The polarity sequence p_0…p_126 as bits (1 ↦ -1, 0 ↦ +1), bit n at
/// position 126 - n: the scrambler's sequence from the all-ones state
/// (17.3.5.5), "00001110 11110010 11001001 00000010 00100110 00101110
/// 10110110 00001100 11010100 11100111 10110100 00101010 11111010
/// 01010001 10111000 1111111".
const POLARITY_BITS: u128 =
    0b0000111011110010110010010000001000100110001011101011011000001100110101001110011110110100001010101111101001010001101110001111111;

/// Pilot polarity p_n for OFDM symbol `symbol` (0 = SIGNAL, 1… = data),
/// cyclic with period 127.
#[inline]
pub fn pilot_polarity(symbol: usize) -> f32 {
    let n = symbol % 127;
    if (POLARITY_BITS >> (126 - n)) & 1 == 1 {
        -1.0
    } else {
        1.0
    }
}

/// Turns 48 data points into an 80-sample OFDM symbol. Keeps its FFT
/// plan and buffers; no allocation per symbol.
pub struct OfdmModulator {
    ifft: Arc<dyn Fft<f32>>,
    bins: [Complex32; FFT_LEN],
    scratch: Vec<Complex32>,
}

impl Default for OfdmModulator {
    fn default() -> Self {
        Self::new()
    }
}

impl OfdmModulator {
    pub fn new() -> Self {
        let ifft = FftPlanner::new().plan_fft_inverse(FFT_LEN);
        let scratch = vec![Complex32::default(); ifft.get_inplace_scratch_len()];
        Self {
            ifft,
            bins: [Complex32::default(); FFT_LEN],
            scratch,
        }
    }

    /// Writes symbol number `index` (pilot polarity p_index; 0 = SIGNAL)
    /// carrying `data` (d_0…d_47) into `out[..80]`: cyclic prefix, then
    /// the 64-sample IFFT, scaled so unit-power points give mean sample
    /// power 1.
    pub fn symbol(
        &mut self,
        data: &[Complex32; DATA_CARRIERS],
        index: usize,
        out: &mut [Complex32],
    ) {
        self.bins.fill(Complex32::default());
        for (&b, &d) in DATA_BINS.iter().zip(data) {
            self.bins[b] = d;
        }
        let p = pilot_polarity(index);
        for (&b, &v) in PILOT_BINS.iter().zip(&PILOT_VALUES) {
            self.bins[b] = Complex32::new(p * v, 0.0);
        }
        self.bins_to_time(out);
    }

    /// Writes the 80 samples (cyclic prefix + IFFT) of arbitrary
    /// frequency-domain `bins` (FFT order) into `out[..80]`, with the
    /// crate's scaling (for fields other than data symbols, and tests).
    pub fn time_from_bins(&mut self, bins: &[Complex32; FFT_LEN], out: &mut [Complex32]) {
        self.bins = *bins;
        self.bins_to_time(out);
    }

    fn bins_to_time(&mut self, out: &mut [Complex32]) {
        let out = &mut out[..SYMBOL_LEN];
        self.ifft
            .process_with_scratch(&mut self.bins, &mut self.scratch);
        let scale = 1.0 / (USED_CARRIERS as f32).sqrt();
        let (cp, body) = out.split_at_mut(CP_LEN);
        for (o, &s) in body.iter_mut().zip(&self.bins) {
            *o = s * scale;
        }
        cp.copy_from_slice(&body[FFT_LEN - CP_LEN..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_bins_follow_the_standard_order() {
        // d_0 on -26 (bin 38), d_5 on -20 after pilot -21, d_23 on -1,
        // d_24 on 1, d_47 on 26.
        assert_eq!(DATA_BINS[0], 38);
        assert_eq!(DATA_BINS[4], 42);
        assert_eq!(DATA_BINS[5], 44);
        assert_eq!(DATA_BINS[23], 63);
        assert_eq!(DATA_BINS[24], 1);
        assert_eq!(DATA_BINS[47], 26);
        assert_eq!(PILOT_BINS, [43, 57, 7, 21]);
        let mut used: Vec<usize> = DATA_BINS.iter().chain(&PILOT_BINS).copied().collect();
        used.sort_unstable();
        used.dedup();
        assert_eq!(used.len(), 52);
        assert!(!used.contains(&0));
        assert!(used.iter().all(|&b| b <= 26 || b >= 38));
    }

    #[test]
    fn polarity_matches_the_standards_listing() {
        // 17.3.5.10 lists p_0…p_126; its first 16 and last 13 values.
        let first = [1, 1, 1, 1, -1, -1, -1, 1, -1, -1, -1, -1, 1, 1, -1, 1];
        for (n, &p) in first.iter().enumerate() {
            assert_eq!(pilot_polarity(n), p as f32, "p_{n}");
        }
        // Listed p_111…p_126 per the standard: … -1,-1,-1,1,1,1,-1,-1,-1,-1,-1,-1,-1.
        let tail = [-1, -1, -1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1];
        for (i, &p) in tail.iter().enumerate() {
            assert_eq!(pilot_polarity(114 + i), p as f32, "p_{}", 114 + i);
        }
        // Period 127, and balanced as an m-sequence: 64 ones (-1), 63 zeros.
        assert_eq!(pilot_polarity(127), pilot_polarity(0));
        let minus = (0..127).filter(|&n| pilot_polarity(n) < 0.0).count();
        assert_eq!(minus, 64);
    }

    #[test]
    fn symbol_has_unit_power_cyclic_prefix_and_inverts_by_fft() {
        let mut m = OfdmModulator::new();
        let mut data = [Complex32::default(); DATA_CARRIERS];
        for (i, d) in data.iter_mut().enumerate() {
            // QPSK-like unit points, varied.
            let s = std::f32::consts::FRAC_1_SQRT_2;
            *d = Complex32::new(
                if i % 3 == 0 { s } else { -s },
                if i % 5 < 2 { s } else { -s },
            );
        }
        let mut out = [Complex32::default(); SYMBOL_LEN];
        m.symbol(&data, 3, &mut out);
        assert_eq!(&out[..CP_LEN], &out[FFT_LEN..]);
        let power: f32 = out[CP_LEN..].iter().map(|c| c.norm_sqr()).sum::<f32>() / 64.0;
        assert!((power - 1.0).abs() < 1e-4, "power {power}");
        // A forward FFT recovers the data and the pilots (p_3 = +1).
        let mut fwd: Vec<Complex32> = out[CP_LEN..].to_vec();
        FftPlanner::new().plan_fft_forward(64).process(&mut fwd);
        let g = (52f32).sqrt() / 64.0;
        for (i, &b) in DATA_BINS.iter().enumerate() {
            assert!((fwd[b] * g - data[i]).norm() < 1e-4, "data {i}");
        }
        for (i, &b) in PILOT_BINS.iter().enumerate() {
            assert!((fwd[b] * g - Complex32::new(PILOT_VALUES[i], 0.0)).norm() < 1e-4);
        }
        assert!(fwd[0].norm() < 1e-4);
        // Symbol 4 has polarity p_4 = -1: pilots flip.
        m.symbol(&data, 4, &mut out);
        let mut fwd: Vec<Complex32> = out[CP_LEN..].to_vec();
        FftPlanner::new().plan_fft_forward(64).process(&mut fwd);
        assert!((fwd[PILOT_BINS[3]] * g - Complex32::new(1.0, 0.0)).norm() < 1e-4);
    }
}
