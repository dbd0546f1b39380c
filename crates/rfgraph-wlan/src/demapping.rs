//! Soft demapping (IEEE 802.11-2016 17.3.5.8, undone): the max-log
//! likelihood ratio of each coded bit from an equalised subcarrier
//! point, weighted by the subcarrier's channel power |H|² (after
//! equalisation a faded carrier's noise is larger by 1/|H|², so its
//! bits count less), as the soft bytes [`viterbi`](crate::viterbi)
//! takes (0 a sure 0, 255 a sure 1, 128 nothing known).
//!
//! The constellations are Gray-coded per axis
//! ([`mapping::axis_levels_raw`](crate::mapping::axis_levels_raw) is the
//! table), so each bit's max-log ratio is a one-axis one: `LLR = min
//! over levels with the bit 0 of (y − l)² − min over levels with the
//! bit 1 of (y − l)²`, with `y` the point in unnormalised level units
//! (divided by K_MOD); positive means 1. Per modulation that is a
//! piecewise-linear function of `y`, computed here in closed form
//! (branch-free, so the loops vectorise); the tests check it against
//! the definition.

use crate::mapping::k_mod;
use crate::rate::{DATA_CARRIERS, Modulation};
use num_complex::Complex32;

/// Soft-byte steps per unit of weighted LLR in level units: a point on
/// a level next to a decision boundary (LLR 4 at weight 1) gives
/// 128 ± 64, and the clamp at ±127 is reached at twice that certainty.
pub const SCALE: f32 = 16.0;

/// A soft demapper for one modulation.
#[derive(Clone, Debug)]
pub struct Demapper {
    modulation: Modulation,
    /// 1 / K_MOD: normalised points to level units.
    unscale: f32,
}

impl Demapper {
    /// The demapper of `modulation`.
    pub fn new(modulation: Modulation) -> Self {
        Self {
            modulation,
            unscale: 1.0 / k_mod(modulation),
        }
    }

    /// The modulation.
    pub fn modulation(&self) -> Modulation {
        self.modulation
    }

    /// Writes the soft bits of `points` (equalised, unit mean power)
    /// with their `weights` (|H|², best normalised to mean 1) to `out`:
    /// N_BPSC bytes a point, in the order the mapper read the bits.
    pub fn demap(&self, points: &[Complex32], weights: &[f32], out: &mut [u8]) {
        let nb = self.modulation.bits();
        let out = &mut out[..nb * points.len()];
        let u = self.unscale;
        let pw = points.iter().zip(weights);
        match self.modulation {
            Modulation::Bpsk => {
                for ((p, &w), o) in pw.zip(out.iter_mut()) {
                    *o = soft_byte(w * SCALE * 4.0 * p.re * u);
                }
            }
            Modulation::Qpsk => {
                for ((p, &w), o) in pw.zip(out.chunks_exact_mut(2)) {
                    let w = w * SCALE * 4.0 * u;
                    o[0] = soft_byte(w * p.re);
                    o[1] = soft_byte(w * p.im);
                }
            }
            Modulation::Qam16 => {
                for ((p, &w), o) in pw.zip(out.chunks_exact_mut(4)) {
                    let w = w * SCALE;
                    let (i, q) = o.split_at_mut(2);
                    axis16(p.re * u, w, i);
                    axis16(p.im * u, w, q);
                }
            }
            Modulation::Qam64 => {
                for ((p, &w), o) in pw.zip(out.chunks_exact_mut(6)) {
                    let w = w * SCALE;
                    let (i, q) = o.split_at_mut(3);
                    axis64(p.re * u, w, i);
                    axis64(p.im * u, w, q);
                }
            }
        }
    }
}

impl Demapper {
    /// [`demap`](Self::demap) for one OFDM symbol's 48 points, written
    /// bit plane by bit plane: bit `b` of point `c` at `out[48 b + c]`
    /// (`out` holds 48 × N_BPSC). Each plane is one straight loop over
    /// the carriers, which the compiler vectorises; the decoder folds
    /// the order into its deinterleaving table.
    pub fn demap_planes(
        &self,
        points: &[Complex32; DATA_CARRIERS],
        weights: &[f32; DATA_CARRIERS],
        out: &mut [u8],
    ) {
        let nb = self.modulation.bits();
        let out = &mut out[..nb * DATA_CARRIERS];
        let mut re = [0f32; DATA_CARRIERS];
        let mut im = [0f32; DATA_CARRIERS];
        let mut w = [0f32; DATA_CARRIERS];
        for c in 0..DATA_CARRIERS {
            re[c] = points[c].re * self.unscale;
            im[c] = points[c].im * self.unscale;
            w[c] = weights[c] * SCALE;
        }
        let mut planes = out.chunks_exact_mut(DATA_CARRIERS);
        let mut next = || planes.next().expect("N_BPSC planes");
        match self.modulation {
            Modulation::Bpsk => plane(&re, &w, |y| 4.0 * y, next()),
            Modulation::Qpsk => {
                plane(&re, &w, |y| 4.0 * y, next());
                plane(&im, &w, |y| 4.0 * y, next());
            }
            Modulation::Qam16 => {
                for ys in [&re, &im] {
                    plane(ys, &w, llr16_b0, next());
                    plane(ys, &w, llr16_b1, next());
                }
            }
            Modulation::Qam64 => {
                for ys in [&re, &im] {
                    plane(ys, &w, llr64_b0, next());
                    plane(ys, &w, llr64_b1, next());
                    plane(ys, &w, llr64_b2, next());
                }
            }
        }
    }
}

/// One bit plane: `out[c] = soft_byte(w[c] · llr(y[c]))`.
#[inline(always)]
fn plane(
    ys: &[f32; DATA_CARRIERS],
    ws: &[f32; DATA_CARRIERS],
    llr: impl Fn(f32) -> f32,
    out: &mut [u8],
) {
    for ((o, &y), &w) in out.iter_mut().zip(ys).zip(ws) {
        *o = soft_byte(w * llr(y));
    }
}

// The max-log ratios of the Gray-coded axes in closed form (level
// units, `a = |y|`; derived from the levels of
// `mapping::axis_levels_raw`, checked against a brute-force search in
// the tests). 16-QAM: levels −3 (00), −1 (01), 1 (11), 3 (10).
// 64-QAM: −7 (000), −5 (001), −3 (011), −1 (010), 1 (110), 3 (111),
// 5 (101), 7 (100).

/// 16-QAM, first bit of an axis: sign · max(4a, 8a − 8).
#[inline(always)]
fn llr16_b0(y: f32) -> f32 {
    let a = y.abs();
    (4.0 * a).max(8.0 * a - 8.0).copysign(y)
}

/// 16-QAM, second bit: 8 − 4a.
#[inline(always)]
fn llr16_b1(y: f32) -> f32 {
    8.0 - 4.0 * y.abs()
}

/// 64-QAM, first bit: sign · max(4a, 8a − 8, 12a − 24, 16a − 48).
#[inline(always)]
fn llr64_b0(y: f32) -> f32 {
    let a = y.abs();
    (4.0 * a)
        .max(8.0 * a - 8.0)
        .max(12.0 * a - 24.0)
        .max(16.0 * a - 48.0)
        .copysign(y)
}

/// 64-QAM, second bit: 16 − 4a + 4·max(0, 2 − a) − 4·max(0, a − 6).
#[inline(always)]
fn llr64_b1(y: f32) -> f32 {
    let a = y.abs();
    16.0 - 4.0 * a + 4.0 * (2.0 - a).max(0.0) - 4.0 * (a - 6.0).max(0.0)
}

/// 64-QAM, third bit: min(4a − 8, 24 − 4a).
#[inline(always)]
fn llr64_b2(y: f32) -> f32 {
    let a = y.abs();
    (4.0 * a - 8.0).min(24.0 - 4.0 * a)
}

/// One 16-QAM axis value `y`, weight `w`, into two soft bits.
#[inline(always)]
fn axis16(y: f32, w: f32, out: &mut [u8]) {
    out[0] = soft_byte(w * llr16_b0(y));
    out[1] = soft_byte(w * llr16_b1(y));
}

/// One 64-QAM axis value `y`, weight `w`, into three soft bits.
#[inline(always)]
fn axis64(y: f32, w: f32, out: &mut [u8]) {
    out[0] = soft_byte(w * llr64_b0(y));
    out[1] = soft_byte(w * llr64_b1(y));
    out[2] = soft_byte(w * llr64_b2(y));
}

/// The soft byte of a scaled LLR (positive: 1), 1…255; a NaN (only
/// non-finite input samples make one) gives 1, and the FCS tells.
#[inline(always)]
// `clamp` would keep a NaN; `max` returns the other operand for one.
#[allow(clippy::manual_clamp)]
pub fn soft_byte(scaled: f32) -> u8 {
    // `v` is finite and in 1.5…255.5, NaN or not.
    let v = scaled.max(-127.0).min(127.0) + 128.5;
    // SAFETY: `v` is finite and within i32 (see above), which is all
    // `to_int_unchecked` asks; the tests run it on ±1e9, NaN and the
    // constellations. (The checked `as` conversion does not vectorise
    // and was 5× slower here.)
    unsafe { v.to_int_unchecked::<i32>() as u8 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapping::map;
    use crate::viterbi::tests::Rng;

    /// Brute-force max-log over the whole 2-D constellation (every bit
    /// pattern mapped by the transmitter's mapper), in normalised units.
    fn brute_llrs(m: Modulation, p: Complex32) -> Vec<f32> {
        let nb = m.bits();
        let pts: Vec<Complex32> = (0..1usize << nb)
            .map(|v| {
                let bits: Vec<u8> = (0..nb).map(|b| ((v >> (nb - 1 - b)) & 1) as u8).collect();
                let mut out = [Complex32::default()];
                map(m, &bits, &mut out);
                out[0]
            })
            .collect();
        (0..nb)
            .map(|b| {
                let mask = 1 << (nb - 1 - b);
                let best = |bit: usize| {
                    pts.iter()
                        .enumerate()
                        .filter(|(v, _)| (v & mask != 0) as usize == bit)
                        .map(|(_, q)| (p - q).norm_sqr())
                        .fold(f32::INFINITY, f32::min)
                };
                best(0) - best(1)
            })
            .collect()
    }

    /// Every modulation: the soft bytes are the brute-force 2-D max-log
    /// ratios (converted to level units, scaled, weighted), within one
    /// step of rounding, for random points and weights.
    #[test]
    fn matches_brute_force_max_log() {
        let mut rng = Rng(7);
        for m in [
            Modulation::Bpsk,
            Modulation::Qpsk,
            Modulation::Qam16,
            Modulation::Qam64,
        ] {
            let d = Demapper::new(m);
            let k2 = k_mod(m) * k_mod(m);
            for _ in 0..2000 {
                let p = Complex32::new(2.4 * rng.uniform() - 1.2, 2.4 * rng.uniform() - 1.2);
                let w = 2.0 * rng.uniform();
                let mut out = vec![0u8; m.bits()];
                d.demap(&[p], &[w], &mut out);
                for (b, (&o, llr)) in out.iter().zip(brute_llrs(m, p)).enumerate() {
                    let want = soft_byte(w * SCALE * llr / k2);
                    assert!(o.abs_diff(want) <= 1, "{m:?} {p} bit {b}: {o} vs {want}");
                }
            }
        }
    }

    /// The bit planes are `demap`'s bits, transposed.
    #[test]
    fn planes_are_demap_transposed() {
        let mut rng = Rng(31);
        for m in [
            Modulation::Bpsk,
            Modulation::Qpsk,
            Modulation::Qam16,
            Modulation::Qam64,
        ] {
            let nb = m.bits();
            let d = Demapper::new(m);
            let pts: [Complex32; 48] = std::array::from_fn(|_| {
                Complex32::new(2.4 * rng.uniform() - 1.2, 2.4 * rng.uniform() - 1.2)
            });
            let ws: [f32; 48] = std::array::from_fn(|_| 2.0 * rng.uniform());
            let mut flat = vec![0u8; 48 * nb];
            let mut planes = vec![0u8; 48 * nb];
            d.demap(&pts, &ws, &mut flat);
            d.demap_planes(&pts, &ws, &mut planes);
            for c in 0..48 {
                for b in 0..nb {
                    assert_eq!(
                        planes[48 * b + c],
                        flat[nb * c + b],
                        "{m:?} point {c} bit {b}"
                    );
                }
            }
        }
    }

    /// Clean constellation points give their own bits, surely; a zero
    /// weight (a dead carrier) gives erasures.
    #[test]
    fn clean_points_give_their_bits_and_zero_weight_erases() {
        let mut rng = Rng(99);
        for m in [
            Modulation::Bpsk,
            Modulation::Qpsk,
            Modulation::Qam16,
            Modulation::Qam64,
        ] {
            let nb = m.bits();
            let bits: Vec<u8> = (0..48 * nb).map(|_| (rng.next() & 1) as u8).collect();
            let mut pts = [Complex32::default(); 48];
            map(m, &bits, &mut pts);
            let d = Demapper::new(m);
            let mut out = vec![0u8; 48 * nb];
            d.demap(&pts, &[1.0; 48], &mut out);
            for (i, (&o, &b)) in out.iter().zip(&bits).enumerate() {
                assert!(
                    if b == 1 { o >= 128 + 32 } else { o <= 128 - 32 },
                    "{m:?} bit {i}: {o}"
                );
            }
            d.demap(&pts, &[0.0; 48], &mut out);
            assert!(out.iter().all(|&o| o == 128), "{m:?}");
        }
        assert_eq!(soft_byte(f32::NAN), 1);
        assert_eq!(soft_byte(f32::INFINITY), 255);
        assert_eq!(soft_byte(f32::NEG_INFINITY), 1);
        assert_eq!(soft_byte(0.0), 128);
        assert_eq!(soft_byte(1e9), 255);
        assert_eq!(soft_byte(-1e9), 1);
    }
}

#[cfg(test)]
mod speed {
    use super::*;

    /// Nanoseconds per 48-point symbol (run in release with
    /// `--ignored --nocapture`).
    #[test]
    #[ignore = "a measurement; run in release with --ignored --nocapture"]
    fn demap_speed() {
        let pts: [Complex32; 48] = std::array::from_fn(|i| {
            Complex32::new((i as f32 * 0.37).sin(), (i as f32 * 0.91).cos())
        });
        let ws = [1.0f32; 48];
        let mut out = vec![0u8; 288];
        for m in [Modulation::Bpsk, Modulation::Qam16, Modulation::Qam64] {
            let d = Demapper::new(m);
            let runs = 200_000;
            let t = std::time::Instant::now();
            for _ in 0..runs {
                d.demap_planes(std::hint::black_box(&pts), &ws, &mut out);
                std::hint::black_box(&mut out);
            }
            println!(
                "{m:?}: {:.0} ns a symbol",
                t.elapsed().as_secs_f64() / runs as f64 * 1e9
            );
        }
    }
}
