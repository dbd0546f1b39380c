//! Constellation mapping (IEEE 802.11-2016 17.3.5.8): Gray-coded BPSK,
//! QPSK, 16-QAM and 64-QAM, normalised by K_MOD to unit mean power.
//!
//! Each axis is a pulse-amplitude level chosen by that axis's bits: the
//! first half of a subcarrier's N_BPSC bits picks I, the second half Q
//! (BPSK uses I only). [`axis_levels`] is the table both the mapper and
//! the decoder's soft demapper read.

use crate::rate::Modulation;
use num_complex::Complex32;

/// K_MOD (Table 17-11): 1, 1/√2, 1/√10, 1/√42.
pub fn k_mod(m: Modulation) -> f32 {
    match m {
        Modulation::Bpsk => 1.0,
        Modulation::Qpsk => std::f32::consts::FRAC_1_SQRT_2,
        Modulation::Qam16 => 1.0 / 10f32.sqrt(),
        Modulation::Qam64 => 1.0 / 42f32.sqrt(),
    }
}

/// Bits per axis: 1 (BPSK, I only), 1, 2, 3.
pub const fn bits_per_axis(m: Modulation) -> usize {
    match m {
        Modulation::Bpsk | Modulation::Qpsk => 1,
        Modulation::Qam16 => 2,
        Modulation::Qam64 => 3,
    }
}

/// Unnormalised axis level for the axis's bits read as a number, first
/// bit most significant (Tables 17-12 … 17-15): e.g. 16-QAM b0 b1 = 01
/// is index 1, level -1.
pub const fn axis_levels_raw(m: Modulation) -> &'static [f32] {
    match m {
        Modulation::Bpsk | Modulation::Qpsk => &[-1.0, 1.0],
        Modulation::Qam16 => &[-3.0, -1.0, 3.0, 1.0],
        Modulation::Qam64 => &[-7.0, -5.0, -1.0, -3.0, 7.0, 5.0, 1.0, 3.0],
    }
}

/// Normalised levels (`axis_levels_raw` × K_MOD) for each axis-bit
/// index.
pub fn axis_levels(m: Modulation) -> Vec<f32> {
    axis_levels_raw(m).iter().map(|&l| l * k_mod(m)).collect()
}

/// A mapper for one modulation with its normalised axis table.
#[derive(Clone, Debug)]
pub struct Mapper {
    modulation: Modulation,
    levels: [f32; 8],
}

impl Mapper {
    pub fn new(modulation: Modulation) -> Self {
        let mut levels = [0f32; 8];
        for (l, &r) in levels.iter_mut().zip(axis_levels_raw(modulation)) {
            *l = r * k_mod(modulation);
        }
        Self { modulation, levels }
    }

    /// Maps `out.len()` points from `bits` (N_BPSC bits per point).
    pub fn map(&self, bits: &[u8], out: &mut [Complex32]) {
        let nb = self.modulation.bits();
        let half = bits_per_axis(self.modulation);
        let bits = &bits[..nb * out.len()];
        for (o, b) in out.iter_mut().zip(bits.chunks_exact(nb)) {
            let idx = |s: &[u8]| s.iter().fold(0usize, |a, &x| (a << 1) | (x & 1) as usize);
            *o = if self.modulation == Modulation::Bpsk {
                Complex32::new(self.levels[idx(b)], 0.0)
            } else {
                Complex32::new(self.levels[idx(&b[..half])], self.levels[idx(&b[half..])])
            };
        }
    }
}

/// Maps bits to `out.len()` points of `modulation`.
pub fn map(modulation: Modulation, bits: &[u8], out: &mut [Complex32]) {
    Mapper::new(modulation).map(bits, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annex_i;
    use crate::ofdm::DATA_BINS;

    #[test]
    fn annex_i_first_data_symbol_points() {
        // G.21 interleaved bits → G.22 subcarrier values (16-QAM).
        let bits = annex_i::bits(&annex_i::INTERLEAVED_FIRST_SYMBOL);
        let mut pts = [Complex32::default(); 48];
        map(Modulation::Qam16, &bits, &mut pts);
        for (i, (&p, &b)) in pts.iter().zip(&DATA_BINS).enumerate() {
            let (re, im) = annex_i::FIRST_SYMBOL_BINS[b];
            assert!(
                (p.re - re).abs() < 1e-3 && (p.im - im).abs() < 1e-3,
                "d_{i}: {p}"
            );
        }
    }

    #[test]
    fn gray_tables_and_unit_power() {
        // 64-QAM Table 17-15: b0b1b2 = 000 → -7, 011 → -3, 100 → 7, 110 → 1.
        let l = axis_levels_raw(Modulation::Qam64);
        assert_eq!(
            (l[0b000], l[0b011], l[0b100], l[0b110]),
            (-7.0, -3.0, 7.0, 1.0)
        );
        for m in [
            Modulation::Bpsk,
            Modulation::Qpsk,
            Modulation::Qam16,
            Modulation::Qam64,
        ] {
            let nb = m.bits();
            let n = 1usize << nb;
            // Every bit pattern once: mean power 1; neighbours differ in one bit.
            let bits: Vec<u8> = (0..n)
                .flat_map(|v| (0..nb).rev().map(move |i| ((v >> i) & 1) as u8))
                .collect();
            let mut pts = vec![Complex32::default(); n];
            map(m, &bits, &mut pts);
            let p: f32 = pts.iter().map(|c| c.norm_sqr()).sum::<f32>() / n as f32;
            assert!((p - 1.0).abs() < 1e-5, "{m:?} power {p}");
            let raw = axis_levels_raw(m);
            for a in 0..raw.len() {
                for b in 0..raw.len() {
                    if (raw[a] - raw[b]).abs() == 2.0 {
                        assert_eq!((a ^ b).count_ones(), 1, "{m:?} levels {a} {b} not Gray");
                    }
                }
            }
        }
        // QPSK: b0 → I, b1 → Q.
        let mut p = [Complex32::default(); 1];
        map(Modulation::Qpsk, &[1, 0], &mut p);
        assert!(p[0].re > 0.0 && p[0].im < 0.0);
    }
}
