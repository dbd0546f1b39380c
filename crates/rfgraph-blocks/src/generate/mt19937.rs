//! The 32-bit Mersenne Twister (`std::mt19937`, which the C++ standard
//! fixes to the last bit, seeded as numpy's legacy `RandomState(seed)`
//! seeds it too) and libstdc++'s `uniform_real_distribution<double>` on
//! it (two words per value). GNU Radio 3.10's fading models draw their
//! phases and random walk from these, so with them the models give GNU
//! Radio's very values; the flowgraph files' expressions draw Python's
//! and numpy's random numbers from it.

/// State words.
const N: usize = 624;
/// The middle word's offset.
const M: usize = 397;

/// `std::mt19937`.
#[derive(Clone)]
pub struct Mt19937 {
    mt: Box<[u32; N]>,
    index: usize,
}

impl std::fmt::Debug for Mt19937 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mt19937")
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

impl Mt19937 {
    /// `std::mt19937(seed)`.
    pub fn new(seed: u32) -> Self {
        let mut mt = Box::new([0u32; N]);
        mt[0] = seed;
        for i in 1..N {
            let prev = mt[i - 1];
            mt[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        Self { mt, index: N }
    }

    /// Regenerates the state words.
    fn twist(&mut self) {
        for k in 0..N {
            let y = (self.mt[k] & 0x8000_0000) | (self.mt[(k + 1) % N] & 0x7fff_ffff);
            let mag = if y & 1 == 1 { 0x9908_b0df } else { 0 };
            self.mt[k] = self.mt[(k + M) % N] ^ (y >> 1) ^ mag;
        }
        self.index = 0;
    }

    /// The next 32-bit output.
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// libstdc++'s `generate_canonical<double, 53>`: two words, the first
    /// the low one, over 2^64 (the largest `f64` below 1 when that
    /// rounds to 1).
    pub(crate) fn canonical(&mut self) -> f64 {
        let low = self.next_u32() as f64;
        let high = self.next_u32() as f64;
        let r = (low + high * 4_294_967_296.0) / 18_446_744_073_709_551_616.0;
        if r >= 1.0 {
            1.0 - f64::EPSILON / 2.0
        } else {
            r
        }
    }

    /// `uniform_real_distribution<double>(a, b)`: `canonical · (b − a) + a`.
    pub(crate) fn uniform(&mut self, a: f64, b: f64) -> f64 {
        self.canonical() * (b - a) + a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The C++ standard's check: the 10000th output of a
    /// default-constructed `mt19937` (seed 5489) is 4123659995.
    #[test]
    fn the_ten_thousandth_output_is_the_standards() {
        let mut mt = Mt19937::new(5489);
        let mut last = 0;
        for _ in 0..10_000 {
            last = mt.next_u32();
        }
        assert_eq!(last, 4_123_659_995);
    }

    #[test]
    fn uniform_values_stay_in_their_range() {
        let mut mt = Mt19937::new(1);
        for _ in 0..10_000 {
            let v = mt.uniform(-std::f64::consts::PI, std::f64::consts::PI);
            assert!((-std::f64::consts::PI..std::f64::consts::PI).contains(&v));
        }
    }
}
