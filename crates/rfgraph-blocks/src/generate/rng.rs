//! The generators' pseudo-random numbers: xoshiro256++ (Blackman and
//! Vigna), seeded through SplitMix64 as its authors recommend. Owns the
//! bit stream only; turning bits into samples is `distributions`' job.
//!
//! Why our own and not `rand`: the stream must stay the same for a seed
//! across versions of this crate (a recorded test signal is reproduced by
//! its seed), which `rand` does not promise for its default generators;
//! and the generators draw whole blocks of words, which these twenty lines
//! do without any dependency.

/// One step of SplitMix64: advances `state` and returns the next output.
pub(crate) fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// xoshiro256++: 256 bits of state, period 2^256 − 1, passes BigCrush.
#[derive(Clone, Debug)]
pub struct Xoshiro256PlusPlus {
    s: [u64; 4],
}

impl Xoshiro256PlusPlus {
    /// The generator for `seed`: four SplitMix64 outputs as its state.
    pub(crate) fn from_seed(seed: u64) -> Self {
        let mut sm = seed;
        let s = [
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
        ];
        Self::from_state(s)
    }

    /// A generator with state `s` (all zeros, the one invalid state, is
    /// replaced by a fixed non-zero one).
    pub(crate) fn from_state(s: [u64; 4]) -> Self {
        if s == [0; 4] {
            return Self::from_state([1, 0, 0, 0]);
        }
        Self { s }
    }

    /// The next 64 random bits.
    #[inline(always)]
    pub(crate) fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
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

    /// Fills `words` with the next `words.len()` outputs.
    #[inline]
    pub(crate) fn fill(&mut self, words: &mut [u64]) {
        for w in words {
            *w = self.next_u64();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference implementation's output for state {1, 2, 3, 4}.
    #[test]
    fn xoshiro_matches_the_reference_implementation() {
        let mut rng = Xoshiro256PlusPlus::from_state([1, 2, 3, 4]);
        let expected: [u64; 10] = [
            41943041,
            58720359,
            3588806011781223,
            3591011842654386,
            9228616714210784205,
            9973669472204895162,
            14011001112246962877,
            12406186145184390807,
            15849039046786891736,
            10450023813501588000,
        ];
        for e in expected {
            assert_eq!(rng.next_u64(), e);
        }
    }

    /// SplitMix64 from state 0, as published with the algorithm.
    #[test]
    fn splitmix_matches_the_reference_implementation() {
        let mut s = 0u64;
        assert_eq!(splitmix64(&mut s), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(&mut s), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(splitmix64(&mut s), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn seeds_give_distinct_streams_and_the_zero_state_is_avoided() {
        let a: Vec<u64> = {
            let mut r = Xoshiro256PlusPlus::from_seed(1);
            (0..4).map(|_| r.next_u64()).collect()
        };
        let b: Vec<u64> = {
            let mut r = Xoshiro256PlusPlus::from_seed(2);
            (0..4).map(|_| r.next_u64()).collect()
        };
        assert_ne!(a, b);
        let mut zero = Xoshiro256PlusPlus::from_state([0; 4]);
        assert_ne!(zero.next_u64() | zero.next_u64(), 0);
        let mut words = [0u64; 4];
        Xoshiro256PlusPlus::from_seed(1).fill(&mut words);
        assert_eq!(words.to_vec(), a);
    }
}
