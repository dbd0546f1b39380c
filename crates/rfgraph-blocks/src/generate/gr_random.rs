//! GNU Radio 3.10's `gr::random`, reproduced bit for bit: the
//! xoroshiro128+ generator seeded as `xoroshiro128p_seed` does (the seed,
//! one SplitMix64 step, one jump), `ran1` as libstdc++'s
//! `uniform_real_distribution<float>` makes it from one 64-bit word, and
//! `gasdev`'s Marsaglia polar method with its mix of `float` and `double`
//! steps, and its Laplacian and impulse draws. Owns nothing but that
//! generator; the blocks whose GNU Radio counterparts draw from
//! `gr::random` (the phase noise of `impairments`, the noise sources in
//! GNU Radio's streams: `gr_noise`) use it to give GNU Radio's very
//! values.

use crate::generate::rng::splitmix64;

/// `xoroshiro128p_jump`'s polynomial.
const JUMP: [u64; 2] = [0xbeac_0467_eba5_facb, 0xd86b_048b_86aa_9922];

/// GNU Radio's `gr::random` (its Gaussian and uniform draws). Public in
/// name only: the module is the crate's, and the noise item types' sealed
/// trait names it.
#[derive(Clone, Debug)]
pub struct GrRandom {
    s: [u64; 2],
    /// The second value of the last Gaussian pair, not yet returned.
    stored: Option<f32>,
}

impl GrRandom {
    /// The generator `gr::random(seed)` makes (seed 0 too: GNU Radio's
    /// constructor, unlike its `reseed`, does not replace 0 by the time).
    pub(crate) fn new(seed: u64) -> Self {
        let mut s0 = seed;
        let s1 = splitmix64(&mut s0);
        let mut rng = Self {
            s: [s0, s1],
            stored: None,
        };
        let mut jumped = [0u64; 2];
        for word in JUMP {
            for bit in 0..64 {
                if word & (1u64 << bit) != 0 {
                    jumped[0] ^= rng.s[0];
                    jumped[1] ^= rng.s[1];
                }
                rng.next_u64();
            }
        }
        rng.s = jumped;
        rng
    }

    /// xoroshiro128+'s next output (GNU Radio's `xoroshiro128p_next` on a
    /// state seeded as `xoroshiro128p_seed` seeds it).
    pub(crate) fn next_u64(&mut self) -> u64 {
        let [s0, mut s1] = self.s;
        let result = s0.wrapping_add(s1);
        s1 ^= s0;
        self.s = [s0.rotate_left(55) ^ s1 ^ (s1 << 14), s1.rotate_left(36)];
        result
    }

    /// `ran1`: uniform in `[0, 1)`, the word rounded to `f32` over 2^64
    /// (a word that rounds to 2^64 gives the largest `f32` below 1).
    pub(crate) fn ran1(&mut self) -> f32 {
        let r = self.next_u64() as f32 * (1.0 / 18_446_744_073_709_551_616.0);
        if r >= 1.0 {
            1.0 - f32::EPSILON / 2.0
        } else {
            r
        }
    }

    /// `gasdev`: a standard normal value, computed in pairs (Marsaglia's
    /// polar method), the second of a pair returned by the next call.
    pub(crate) fn gasdev(&mut self) -> f32 {
        if let Some(v) = self.stored.take() {
            return v;
        }
        let (x, y, s) = loop {
            let x = (2.0 * self.ran1() as f64 - 1.0) as f32;
            let y = (2.0 * self.ran1() as f64 - 1.0) as f32;
            let s = x * x + y * y;
            if s < 1.0 && s != 0.0 {
                break (x, y, s);
            }
        };
        let factor = ((-2.0 * s.ln() as f64 / s as f64) as f32).sqrt();
        self.stored = Some(x * factor);
        y * factor
    }

    /// `laplacian`: a Laplacian value of unit scale from one `ran1`.
    pub(crate) fn laplacian(&mut self) -> f32 {
        let z = self.ran1();
        if z > 0.5 {
            -(2.0 * (1.0 - z)).ln()
        } else {
            (2.0 * z).ln()
        }
    }

    /// `impulse(factor)`: `−√2·ln(ran1)` (the product in double
    /// precision: GNU Radio's `M_SQRT2` is a double) where its magnitude
    /// exceeds `factor`, else 0.
    pub(crate) fn impulse(&mut self, factor: f32) -> f32 {
        let z = (-std::f64::consts::SQRT_2 * f64::from(self.ran1().ln())) as f32;
        if z.abs() <= factor { 0.0 } else { z }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GNU Radio 3.10.5's `analog.noise_source_f(GR_GAUSSIAN, 1, 42)`.
    #[test]
    fn gaussian_values_are_gnu_radios() {
        let gnuradio = [
            0.266_528_040_170_669_56_f64,
            -0.220_288_559_794_425_96,
            -0.054_484_631_866_216_66,
            0.358_095_437_288_284_3,
            -0.330_759_406_089_782_7,
            -0.171_052_128_076_553_34,
        ];
        let mut rng = GrRandom::new(42);
        for want in gnuradio {
            assert_eq!(rng.gasdev(), want as f32);
        }
    }

    #[test]
    fn uniform_values_are_in_the_unit_interval() {
        let mut rng = GrRandom::new(1);
        let mean = (0..10_000).map(|_| rng.ran1() as f64).sum::<f64>() / 10_000.0;
        assert!((mean - 0.5).abs() < 0.02, "{mean}");
        let mut rng = GrRandom::new(0);
        assert!(
            (0..1000)
                .map(|_| rng.ran1())
                .all(|r| (0.0..1.0).contains(&r))
        );
    }
}
