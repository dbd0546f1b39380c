//! The data scrambler (IEEE 802.11-2016 17.3.5.5): the length-127
//! sequence of S(x) = x^7 + x^4 + 1, XORed onto SERVICE, PSDU, tail and
//! pad bits. The same operation descrambles.
//!
//! State convention: bit 6 is x7 and bit 0 is x1, so the standard's
//! seed "1011101" (x7…x1) is `0b1011101`. Each step outputs x7 ⊕ x4 and
//! shifts it in as the new x1.

/// Steps of the sequence before it repeats.
pub const PERIOD: usize = 127;

/// Per state: the next 8 output bits (first in bit 0) and the state
/// after them.
const BYTE_STEP: [(u8, u8); 128] = {
    let mut t = [(0u8, 0u8); 128];
    let mut s = 0;
    while s < 128 {
        let mut state = s as u8;
        let mut out = 0u8;
        let mut i = 0;
        while i < 8 {
            let fb = ((state >> 6) ^ (state >> 3)) & 1;
            out |= fb << i;
            state = ((state << 1) & 0x7e) | fb;
            i += 1;
        }
        t[s] = (out, state);
        s += 1;
    }
    t
};

/// A scrambler (or descrambler) at some state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scrambler {
    state: u8,
}

impl Scrambler {
    /// From a 7-bit nonzero seed (x7 in bit 6).
    pub fn new(seed: u8) -> Self {
        let state = seed & 0x7f;
        assert!(state != 0, "the all-zero scrambler seed is not allowed");
        Self { state }
    }

    /// The current state (x7 in bit 6).
    pub fn state(&self) -> u8 {
        self.state
    }

    /// The next bit of the sequence.
    #[inline]
    pub fn next_bit(&mut self) -> u8 {
        let fb = ((self.state >> 6) ^ (self.state >> 3)) & 1;
        self.state = ((self.state << 1) & 0x7e) | fb;
        fb
    }

    /// XORs the sequence onto bits (one 0/1 per item).
    pub fn scramble_bits(&mut self, bits: &mut [u8]) {
        for b in bits {
            *b ^= self.next_bit();
        }
    }

    /// XORs the sequence onto whole bytes, bits sent LSB first (as the
    /// PSDU's bytes go on air); 8 bits per table step.
    pub fn scramble_bytes(&mut self, bytes: &mut [u8]) {
        for b in bytes {
            let (seq, next) = BYTE_STEP[self.state as usize];
            *b ^= seq;
            self.state = next;
        }
    }
}

/// The seed that produced `first7`, the first 7 scrambled SERVICE bits
/// (zeros before scrambling, so they are the sequence itself). Returns
/// 0 if the bits are all zero (no valid seed gives that).
pub fn seed_from_first_bits(first7: &[u8]) -> u8 {
    // The sequence obeys o[k] = o[k-7] ⊕ o[k-4]; the seed x7…x1 is
    // o[-6]…o[0]. Run the recurrence backwards: o[k-7] = o[k] ⊕ o[k-4].
    // o[i + 6] holds o[i] for i = -6…7.
    let mut o = [0u8; 14];
    for (k, &b) in first7[..7].iter().enumerate() {
        o[k + 7] = b & 1;
    }
    for k in (1..=7).rev() {
        // o[k - 7] = o[k] ⊕ o[k - 4], each index shifted by 6.
        o[k - 1] = o[k + 6] ^ o[k + 2];
    }
    (0..7).fold(0u8, |seed, i| (seed << 1) | o[i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annex_i;

    #[test]
    fn annex_i_first_and_last_144_bits() {
        let mut bits = annex_i::bits(&annex_i::DATA_FIRST_144);
        let mut s = Scrambler::new(annex_i::SEED);
        s.scramble_bits(&mut bits);
        assert_eq!(bits, annex_i::bits(&annex_i::SCRAMBLED_FIRST_144));
        // The whole-byte path agrees, bits LSB first.
        let mut bytes: Vec<u8> = annex_i::DATA_FIRST_144
            .iter()
            .map(|b| b.reverse_bits())
            .collect();
        Scrambler::new(annex_i::SEED).scramble_bytes(&mut bytes);
        let want: Vec<u8> = annex_i::SCRAMBLED_FIRST_144
            .iter()
            .map(|b| b.reverse_bits())
            .collect();
        assert_eq!(bytes, want);
        assert_eq!(seed_from_first_bits(&bits[..7]), annex_i::SEED);
    }

    #[test]
    fn all_ones_seed_gives_the_standards_sequence_with_period_127() {
        // 17.3.5.5: "00001110 11110010 11001001 …" from the all-ones state.
        let mut s = Scrambler::new(0x7f);
        let first: Vec<u8> = (0..24).map(|_| s.next_bit()).collect();
        assert_eq!(first, annex_i::bits(&[0x0e, 0xf2, 0xc9]));
        let mut s = Scrambler::new(0x7f);
        let seq: Vec<u8> = (0..2 * PERIOD).map(|_| s.next_bit()).collect();
        assert_eq!(seq[..PERIOD], seq[PERIOD..]);
        // No shorter period, and as the pilot polarity it is p_n.
        for p in 1..PERIOD {
            assert_ne!(seq[..PERIOD - p], seq[p..PERIOD], "period {p}");
        }
        for (n, &b) in seq[..PERIOD].iter().enumerate() {
            let p = if b == 1 { -1.0 } else { 1.0 };
            assert_eq!(crate::ofdm::pilot_polarity(n), p, "p_{n}");
        }
    }

    #[test]
    fn seed_recovered_for_every_seed() {
        for seed in 1..128u8 {
            let mut s = Scrambler::new(seed);
            let first: Vec<u8> = (0..7).map(|_| s.next_bit()).collect();
            assert_eq!(seed_from_first_bits(&first), seed);
        }
    }
}
