//! The PLCP preamble (IEEE 802.11-2016 17.3.3): the short training
//! field (STF: 12 subcarriers, ten 16-sample repetitions, 160 samples)
//! and the long training field (LTF: 52 subcarriers, a 32-sample guard
//! GI2 and two 64-sample symbols, 160 samples), in frequency (FFT bin
//! order) and in time, at the level of [`crate::ofdm`] (mean power 1).
//!
//! Time-domain fields are computed once and cached.

use crate::ofdm::{FFT_LEN, USED_CARRIERS, bin};
use num_complex::Complex32;
use rustfft::FftPlanner;
use std::sync::OnceLock;

/// STF samples.
pub const STF_LEN: usize = 160;
/// LTF samples (GI2 + two symbols).
pub const LTF_LEN: usize = 160;
/// The LTF's guard interval.
pub const GI2_LEN: usize = 32;
/// STF + LTF.
pub const PREAMBLE_LEN: usize = STF_LEN + LTF_LEN;

/// S_{-26…26} without the √(13/6) factor, every fourth subcarrier
/// from -24: the sign of (1 + j) (Equation 17-6).
const STF_SIGNS: [(i32, f32); 12] = [
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

/// L_{-26…26} (Equation 17-8), DC (0) included.
const LTF_VALUES: [i8; 53] = [
    1, 1, -1, -1, 1, 1, -1, 1, -1, 1, 1, 1, 1, 1, 1, -1, -1, 1, 1, -1, 1, -1, 1, 1, 1, 1, 0, 1, -1,
    -1, 1, 1, -1, 1, -1, 1, -1, -1, -1, -1, -1, 1, 1, -1, -1, 1, -1, 1, -1, 1, 1, 1, 1,
];

/// The STF per FFT bin: √(13/6)(±1 ± j) on the 12 used bins.
pub fn stf_bins() -> [Complex32; FFT_LEN] {
    let a = (13.0f32 / 6.0).sqrt();
    let mut out = [Complex32::default(); FFT_LEN];
    for &(k, s) in &STF_SIGNS {
        out[bin(k)] = Complex32::new(s * a, s * a);
    }
    out
}

/// The LTF per FFT bin: ±1 on the 52 used bins, 0 elsewhere (the
/// reference for the channel estimate).
pub fn ltf_bins() -> [f32; FFT_LEN] {
    let mut out = [0f32; FFT_LEN];
    for (i, &v) in LTF_VALUES.iter().enumerate() {
        out[bin(i as i32 - 26)] = v as f32;
    }
    out
}

struct Fields {
    stf: [Complex32; STF_LEN],
    ltf: [Complex32; LTF_LEN],
    ltf_symbol: [Complex32; FFT_LEN],
}

fn ifft_scaled(bins: &[Complex32; FFT_LEN]) -> [Complex32; FFT_LEN] {
    let mut buf = *bins;
    FftPlanner::new()
        .plan_fft_inverse(FFT_LEN)
        .process(&mut buf);
    let g = 1.0 / (USED_CARRIERS as f32).sqrt();
    buf.map(|c| c * g)
}

fn fields() -> &'static Fields {
    static FIELDS: OnceLock<Fields> = OnceLock::new();
    FIELDS.get_or_init(|| {
        let s = ifft_scaled(&stf_bins());
        let stf = std::array::from_fn(|n| s[n % FFT_LEN]);
        let l_bins = ltf_bins().map(|v| Complex32::new(v, 0.0));
        let ltf_symbol = ifft_scaled(&l_bins);
        let ltf = std::array::from_fn(|n| ltf_symbol[(n + FFT_LEN - GI2_LEN) % FFT_LEN]);
        Fields {
            stf,
            ltf,
            ltf_symbol,
        }
    })
}

/// The STF in time, 160 samples.
pub fn stf() -> &'static [Complex32; STF_LEN] {
    &fields().stf
}

/// The LTF in time, 160 samples: GI2 (the symbol's last 32 samples)
/// then the long symbol twice.
pub fn ltf() -> &'static [Complex32; LTF_LEN] {
    &fields().ltf
}

/// One long training symbol in time (64 samples), for the
/// synchroniser's cross-correlation.
pub fn ltf_symbol() -> [Complex32; FFT_LEN] {
    fields().ltf_symbol
}

/// Appends STF then LTF (320 samples) to `out`.
pub fn extend_preamble(out: &mut Vec<Complex32>) {
    out.extend_from_slice(stf());
    out.extend_from_slice(ltf());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annex_i;

    #[test]
    fn annex_i_preamble_samples() {
        // G.2/G.5 frequency domain.
        let s = stf_bins();
        assert!((s[bin(-24)] - Complex32::new(1.472, 1.472)).norm() < 1e-3);
        assert!((s[bin(4)] - Complex32::new(-1.472, -1.472)).norm() < 1e-3);
        let l = ltf_bins();
        assert_eq!(
            (l[0], l[1], l[2], l[26], l[27], l[38], l[63]),
            (0.0, 1.0, -1.0, 1.0, 0.0, 1.0, 1.0)
        );
        assert_eq!(l.iter().filter(|&&v| v != 0.0).count(), 52);
        // G.3/G.4: every STF period; G.6: the long symbol, and GI2.
        let period = annex_i::samples(&annex_i::STF_PERIOD);
        for r in 0..10 {
            annex_i::assert_close(&stf()[16 * r..16 * r + 16], &period, "STF");
        }
        let long = annex_i::samples(&annex_i::LTF_SYMBOL);
        annex_i::assert_close(&ltf_symbol(), &long, "LTF symbol");
        annex_i::assert_close(&ltf()[32..96], &long, "LTF 1");
        annex_i::assert_close(&ltf()[96..], &long, "LTF 2");
        annex_i::assert_close(&ltf()[..32], &long[32..], "GI2");
    }

    #[test]
    fn fields_have_unit_power() {
        for (name, f) in [("STF", &stf()[..]), ("LTF", &ltf()[..])] {
            let p = f.iter().map(|c| c.norm_sqr()).sum::<f32>() / f.len() as f32;
            assert!((p - 1.0).abs() < 0.02, "{name}: {p}");
        }
    }
}
