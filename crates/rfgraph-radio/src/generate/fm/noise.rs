//! The generator's seeded Gaussian noise: xoshiro256++ seeded through
//! SplitMix64, Box–Muller pairs. One seed gives the same noise on every
//! machine; the stream is this module's and stays the same across
//! versions, so a recording is reproduced from its seed.

use num_complex::Complex32;
use std::f64::consts::TAU;

/// xoshiro256++ (Blackman and Vigna).
struct Xoshiro([u64; 4]);

impl Xoshiro {
    fn new(seed: u64) -> Self {
        let mut sm = seed;
        let mut next = || {
            sm = sm.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = sm;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let s = [next(), next(), next(), next()];
        Xoshiro(if s == [0; 4] { [1, 0, 0, 0] } else { s })
    }

    fn next_u64(&mut self) -> u64 {
        let s = &mut self.0;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform in (0, 1]: never 0, so its logarithm is finite.
    fn unit(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }
}

/// Circular complex Gaussian noise of total power `power` (`E|n|²`).
pub(super) struct ComplexNoise {
    rng: Xoshiro,
    sigma: f64,
}

impl ComplexNoise {
    /// Noise of total power `power`, seeded.
    pub(super) fn new(power: f64, seed: u64) -> Self {
        Self {
            rng: Xoshiro::new(seed),
            sigma: (power / 2.0).sqrt(),
        }
    }

    /// The next sample.
    pub(super) fn sample(&mut self) -> Complex32 {
        let r = self.sigma * (-2.0 * self.rng.unit().ln()).sqrt();
        let (s, c) = (TAU * self.rng.unit()).sin_cos();
        Complex32::new((r * c) as f32, (r * s) as f32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xoshiro_matches_the_reference_outputs() {
        // The reference implementation's first outputs for state {1, 2, 3, 4}.
        let mut x = Xoshiro([1, 2, 3, 4]);
        let want = [41943041u64, 58720359, 3588806011781223, 3591011842654386];
        for w in want {
            assert_eq!(x.next_u64(), w);
        }
    }

    #[test]
    fn noise_has_its_power_and_no_bias() {
        let mut n = ComplexNoise::new(0.5, 7);
        let k = 200_000;
        let (mut p, mut re, mut im, mut cross) = (0.0, 0.0, 0.0, 0.0);
        for _ in 0..k {
            let s = n.sample();
            p += s.norm_sqr() as f64;
            re += s.re as f64;
            im += s.im as f64;
            cross += (s.re * s.im) as f64;
        }
        let k = k as f64;
        assert!((p / k - 0.5).abs() < 0.01, "power {}", p / k);
        assert!((re / k).abs() < 0.005 && (im / k).abs() < 0.005);
        assert!((cross / k).abs() < 0.005);
    }
}
