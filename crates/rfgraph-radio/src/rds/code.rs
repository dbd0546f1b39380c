//! The RDS block code: the (26,16) shortened cyclic code with generator
//! `g(x) = x¹⁰ + x⁸ + x⁷ + x⁵ + x⁴ + x³ + 1`, the five offset words that
//! mark a block's place in its group, check words, syndromes, and the
//! burst-error correction table.
//!
//! A block is 26 bits, sent most significant first: 16 information bits
//! `m` then the check word `c = (m(x)·x¹⁰ mod g(x)) ⊕ offset`. Here the
//! syndrome of a received block `y` is `y(x) mod g(x)`: zero for a
//! codeword, so exactly the offset word for an undamaged block. (The
//! standard writes syndromes through its parity-check matrix, which maps
//! the same kernel to other numbers; the tests check both.) This module
//! owns the arithmetic only: which offset to expect is the synchroniser's
//! business.

/// The generator polynomial `x¹⁰ + x⁸ + x⁷ + x⁵ + x⁴ + x³ + 1`, bit `i`
/// the coefficient of `xⁱ`.
pub const GENERATOR: u32 = 0b101_1011_1001;

/// Bits in a block.
pub const BLOCK_BITS: usize = 26;

/// Bits in a group (four blocks).
pub const GROUP_BITS: usize = 4 * BLOCK_BITS;

/// A block's place in its group, named by its offset word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Offset {
    /// Block 1 (PI).
    A,
    /// Block 2 (group type, flags).
    B,
    /// Block 3 of a version A group.
    C,
    /// Block 3 of a version B group (a second PI).
    CPrime,
    /// Block 4.
    D,
}

impl Offset {
    /// All five, in the standard's order.
    pub const ALL: [Offset; 5] = [Offset::A, Offset::B, Offset::C, Offset::CPrime, Offset::D];

    /// The 10-bit offset word (IEC 62106 / EN 50067, Annex A).
    pub const fn word(self) -> u16 {
        match self {
            Offset::A => 0b00_1111_1100,
            Offset::B => 0b01_1001_1000,
            Offset::C => 0b01_0110_1000,
            Offset::CPrime => 0b11_0101_0000,
            Offset::D => 0b01_1011_0100,
        }
    }

    /// The offset whose word is `word`, if any.
    pub fn from_word(word: u16) -> Option<Offset> {
        Offset::ALL.into_iter().find(|o| o.word() == word)
    }

    /// The block's index in its group (C and C' are both 2).
    pub const fn index(self) -> usize {
        match self {
            Offset::A => 0,
            Offset::B => 1,
            Offset::C | Offset::CPrime => 2,
            Offset::D => 3,
        }
    }

    /// The name the standard uses: `A`, `B`, `C`, `C'`, `D`.
    pub const fn name(self) -> &'static str {
        match self {
            Offset::A => "A",
            Offset::B => "B",
            Offset::C => "C",
            Offset::CPrime => "C'",
            Offset::D => "D",
        }
    }
}

/// `word(x) mod g(x)` for a word of up to 32 bits.
const fn remainder(mut word: u32) -> u16 {
    let mut bit = 31;
    while bit >= 10 {
        if word & (1 << bit) != 0 {
            word ^= GENERATOR << (bit - 10);
        }
        bit -= 1;
    }
    word as u16
}

/// The 10-bit check word of information word `info` in place `offset`.
pub const fn check_word(info: u16, offset: Offset) -> u16 {
    remainder((info as u32) << 10) ^ offset.word()
}

/// The 26-bit block (information then check bits) of `info` at `offset`.
pub const fn encode_block(info: u16, offset: Offset) -> u32 {
    ((info as u32) << 10) | check_word(info, offset) as u32
}

/// The syndrome `y(x) mod g(x)` of a 26-bit block (higher bits ignored):
/// the offset word of an undamaged block.
pub const fn syndrome(block: u32) -> u16 {
    remainder(block & ((1 << BLOCK_BITS) - 1))
}

/// The corrections a decoder may make: every error burst of up to
/// `max_burst` bits (a burst of length `b` flips its first and last bit
/// and any in between), indexed by its syndrome. Bursts that share a
/// syndrome with another correctable burst are left out, so a correction
/// is never a guess between two patterns.
#[derive(Clone, Debug)]
pub struct BurstTable {
    /// Error pattern by syndrome (0: not correctable).
    patterns: Vec<u32>,
    max_burst: usize,
}

impl BurstTable {
    /// The table for bursts of up to `max_burst` bits (0 turns
    /// correction off; more than 10 is clamped to 10, the longest the
    /// code can even detect).
    pub fn new(max_burst: usize) -> Self {
        let max_burst = max_burst.min(10);
        let mut patterns = vec![0u32; 1 << 10];
        let mut ambiguous = vec![false; 1 << 10];
        for len in 1..=max_burst {
            // Bursts of exactly `len` bits: first and last set.
            let inner = if len >= 2 { 1u32 << (len - 2) } else { 1 };
            for middle in 0..inner {
                let shape = if len == 1 {
                    1
                } else {
                    (1 << (len - 1)) | (middle << 1) | 1
                };
                for shift in 0..=(BLOCK_BITS - len) {
                    let e = shape << shift;
                    let s = syndrome(e) as usize;
                    if patterns[s] != 0 && patterns[s] != e {
                        ambiguous[s] = true;
                    }
                    patterns[s] = e;
                }
            }
        }
        for (p, a) in patterns.iter_mut().zip(&ambiguous) {
            if *a {
                *p = 0;
            }
        }
        Self {
            patterns,
            max_burst,
        }
    }

    /// The longest burst corrected.
    pub fn max_burst(&self) -> usize {
        self.max_burst
    }

    /// How many syndromes lead to a correction: of the 1023 non-zero
    /// syndromes a random damaged block may have, this many are
    /// "corrected" into some block, so a random block passes with
    /// probability `(1 + correctable()) / 1024`.
    pub fn correctable(&self) -> usize {
        self.patterns.iter().filter(|&&p| p != 0).count()
    }

    /// Checks `block` against `offset`: `Some((info, flipped bits))` when
    /// it is a codeword at that offset or one correctable burst away from
    /// one, `None` otherwise. The returned block always has a syndrome
    /// that checks.
    pub fn decode(&self, block: u32, offset: Offset) -> Option<(u16, u32)> {
        let block = block & ((1 << BLOCK_BITS) - 1);
        let s = syndrome(block) ^ offset.word();
        if s == 0 {
            return Some(((block >> 10) as u16, 0));
        }
        let e = self.patterns[s as usize];
        if e == 0 {
            return None;
        }
        let fixed = block ^ e;
        debug_assert_eq!(syndrome(fixed), offset.word());
        Some(((fixed >> 10) as u16, e.count_ones()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The standard's parity-check matrix (IEC 62106 / EN 50067, Annex
    /// B): row `i` belongs to the `i`-th bit sent.
    const H: [u16; 26] = [
        0x200, 0x100, 0x080, 0x040, 0x020, 0x010, 0x008, 0x004, 0x002, 0x001, 0x2DC, 0x16E, 0x0B7,
        0x287, 0x39F, 0x313, 0x355, 0x376, 0x1BB, 0x201, 0x3DC, 0x1EE, 0x0F7, 0x2A7, 0x38F, 0x31B,
    ];

    fn standard_syndrome(block: u32) -> u16 {
        (0..26)
            .filter(|k| block >> (25 - k) & 1 != 0)
            .fold(0, |s, k| s ^ H[k])
    }

    /// The offset words and their syndromes are the standard's (Annex A,
    /// table A.1; syndromes through its parity-check matrix).
    #[test]
    fn offset_words_and_syndromes_are_the_standards() {
        let table = [
            (Offset::A, 0b0011111100, 0b1111011000),
            (Offset::B, 0b0110011000, 0b1111010100),
            (Offset::C, 0b0101101000, 0b1001011100),
            (Offset::CPrime, 0b1101010000, 0b1111001100),
            (Offset::D, 0b0110110100, 0b1001011000),
        ];
        for (offset, word, standard) in table {
            assert_eq!(offset.word(), word, "{}", offset.name());
            // The offset word alone, as received on an all-zero block.
            assert_eq!(
                standard_syndrome(word as u32),
                standard,
                "{}",
                offset.name()
            );
            // Any encoded block gives the standard's syndrome for its offset.
            for info in [0u16, 1, 0x1234, 0xD393, 0xFFFF, 0x8000] {
                let b = encode_block(info, offset);
                assert_eq!(
                    standard_syndrome(b),
                    standard,
                    "{} {info:#x}",
                    offset.name()
                );
                assert_eq!(syndrome(b), word);
            }
        }
    }

    /// Every codeword of the plain code (no offset) has the standard's
    /// zero syndrome, and each of the 16 generator-matrix rows does:
    /// `remainder` is the standard's division by g(x).
    #[test]
    fn codewords_have_zero_syndrome_in_the_standards_matrix() {
        for i in 0..16 {
            let info = 1u16 << i;
            let word = ((info as u32) << 10) | remainder((info as u32) << 10) as u32;
            assert_eq!(standard_syndrome(word), 0, "row {i}");
        }
    }

    /// Every single-bit error and every burst up to the table's length is
    /// corrected back to the information sent, at every offset.
    #[test]
    fn bursts_up_to_the_limit_are_corrected() {
        for max in [1usize, 2, 5] {
            let table = BurstTable::new(max);
            for offset in Offset::ALL {
                let block = encode_block(0xBEEF, offset);
                for len in 1..=max {
                    let inner = if len >= 2 { 1u32 << (len - 2) } else { 1 };
                    for middle in 0..inner {
                        let shape = if len == 1 {
                            1
                        } else {
                            (1 << (len - 1)) | (middle << 1) | 1
                        };
                        for shift in 0..=(BLOCK_BITS - len) {
                            let e = shape << shift;
                            let (info, flips) = table.decode(block ^ e, offset).unwrap();
                            assert_eq!(info, 0xBEEF, "burst {e:026b} at {}", offset.name());
                            assert_eq!(flips, e.count_ones());
                        }
                    }
                }
            }
        }
    }

    /// The code corrects bursts of up to 5 bits without ambiguity, as the
    /// standard promises.
    #[test]
    fn bursts_of_five_have_distinct_syndromes() {
        let t = BurstTable::new(5);
        // 26 singles, and for each length b in 2..=5, 2^(b-2) shapes at
        // 27-b places.
        let expected: usize = 26 + (2..=5).map(|b| (1 << (b - 2)) * (27 - b)).sum::<usize>();
        assert_eq!(t.correctable(), expected);
    }

    #[test]
    fn a_wrong_offset_is_not_accepted_undamaged() {
        let t = BurstTable::new(0);
        for a in Offset::ALL {
            for b in Offset::ALL {
                let got = t.decode(encode_block(0x55AA, a), b);
                assert_eq!(got.is_some(), a == b, "{} as {}", a.name(), b.name());
            }
        }
    }
}
