//! Mode S parity: the CRC-24 of ICAO Annex 10 (generator 0x1FFF409), the
//! syndrome of a received frame, and single- and two-bit error
//! correction by syndrome table.
//!
//! This module owns the arithmetic only. Which downlink formats may be
//! corrected, and which recovered addresses are believed, is the
//! demodulator's policy (`demod::score`); this module never decides it.

use std::sync::OnceLock;

/// The generator polynomial without its x^24 term.
pub const GENERATOR: u32 = 0xFF_F409;

/// Bytes of a short (56-bit) frame.
pub const SHORT_BYTES: usize = 7;
/// Bytes of a long (112-bit) frame.
pub const LONG_BYTES: usize = 14;

fn table() -> &'static [u32; 256] {
    static TABLE: OnceLock<[u32; 256]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0u32; 256];
        for (i, e) in t.iter_mut().enumerate() {
            let mut c = (i as u32) << 16;
            for _ in 0..8 {
                c = if c & 0x80_0000 != 0 {
                    (c << 1) ^ GENERATOR
                } else {
                    c << 1
                };
            }
            *e = c & 0xFF_FFFF;
        }
        t
    })
}

/// The CRC-24 of `data` (no initial value, no final XOR): the parity a
/// transmitter appends to `data`.
pub fn crc24(data: &[u8]) -> u32 {
    let t = table();
    let mut c = 0u32;
    for &b in data {
        c = ((c << 8) ^ t[(((c >> 16) as u8) ^ b) as usize]) & 0xFF_FFFF;
    }
    c
}

/// The syndrome of a whole frame (7 or 14 bytes; any length of at least 3):
/// the CRC of its data bytes XOR its last 24 bits. Zero for an intact
/// frame with plain parity; the overlaid address (AP) or interrogator
/// code (PI) otherwise.
pub fn syndrome(frame: &[u8]) -> u32 {
    if frame.len() < 3 {
        return u32::MAX;
    }
    let n = frame.len() - 3;
    let parity =
        (u32::from(frame[n]) << 16) | (u32::from(frame[n + 1]) << 8) | u32::from(frame[n + 2]);
    crc24(&frame[..n]) ^ parity
}

/// The syndromes of every single-bit error of an `n`-bit frame, sorted,
/// each with its bit index (0 = the first bit sent).
fn single_bit_table(bits: usize) -> Vec<(u32, u8)> {
    let bytes = bits / 8;
    let mut v: Vec<(u32, u8)> = (0..bits)
        .map(|bit| {
            let mut f = vec![0u8; bytes];
            f[bit / 8] = 0x80 >> (bit % 8);
            (syndrome(&f), bit as u8)
        })
        .collect();
    v.sort_unstable();
    v
}

fn table_for(bits: usize) -> &'static [(u32, u8)] {
    static SHORT: OnceLock<Vec<(u32, u8)>> = OnceLock::new();
    static LONG: OnceLock<Vec<(u32, u8)>> = OnceLock::new();
    if bits == 56 {
        SHORT.get_or_init(|| single_bit_table(56))
    } else {
        LONG.get_or_init(|| single_bit_table(112))
    }
}

/// The bit (0 = first sent) whose flip turns a frame of `bits` (56 or 112)
/// bits with syndrome `syndrome` into an intact one, if a single flip does.
pub fn single_bit_error(syndrome: u32, bits: usize) -> Option<usize> {
    if bits != 56 && bits != 112 {
        return None;
    }
    let t = table_for(bits);
    t.binary_search_by_key(&syndrome, |&(s, _)| s)
        .ok()
        .map(|i| usize::from(t[i].1))
}

/// The syndromes of every two-bit error of a 112-bit frame that leaves
/// the first five bits (the DF field) alone, sorted, each with its two
/// bits; a syndrome two such pairs share, or a single bit shares, is left
/// out (repairing it would be a guess).
fn two_bit_table() -> &'static [(u32, u8, u8)] {
    static TABLE: OnceLock<Vec<(u32, u8, u8)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let single: Vec<u32> = table_for(112).iter().map(|&(s, _)| s).collect();
        // Syndromes are linear: the syndrome of two flips is the XOR of
        // each one's.
        let mut of_bit = [0u32; 112];
        for &(s, bit) in table_for(112) {
            of_bit[usize::from(bit)] = s;
        }
        let mut v = Vec::with_capacity(107 * 106 / 2);
        for a in 5..112u8 {
            for b in a + 1..112u8 {
                v.push((of_bit[usize::from(a)] ^ of_bit[usize::from(b)], a, b));
            }
        }
        v.sort_unstable();
        let mut unique = Vec::with_capacity(v.len());
        let mut i = 0;
        while i < v.len() {
            let mut j = i + 1;
            while j < v.len() && v[j].0 == v[i].0 {
                j += 1;
            }
            if j == i + 1 && single.binary_search(&v[i].0).is_err() && v[i].0 != 0 {
                unique.push(v[i]);
            }
            i = j;
        }
        unique
    })
}

/// The two bits (0 = first sent, neither in the DF field) whose flips
/// turn a 112-bit frame with syndrome `syndrome` into an intact one, if
/// exactly one such pair does and no single flip does.
pub fn two_bit_error(syndrome: u32) -> Option<(usize, usize)> {
    let t = two_bit_table();
    t.binary_search_by_key(&syndrome, |&(s, _, _)| s)
        .ok()
        .map(|i| (usize::from(t[i].1), usize::from(t[i].2)))
}

/// Flips bit `bit` (0 = first sent) of `frame`.
pub fn flip_bit(frame: &mut [u8], bit: usize) {
    if let Some(b) = frame.get_mut(bit / 8) {
        *b ^= 0x80 >> (bit % 8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// Frames from "The 1090 MHz Riddle" and the real recording check to
    /// zero; their DF11/DF4 parity reveals the overlaid address.
    #[test]
    fn known_frames() {
        for f in [
            "8D4840D6202CC371C32CE0576098",
            "8D40621D58C382D690C8AC2863A7",
            "8D485020994409940838175B284F",
            "8f4d2023587f345e35837e2218b2",
        ] {
            assert_eq!(syndrome(&hex(f)), 0, "{f}");
        }
        // DF11 with interrogator code 0: plain parity.
        assert_eq!(syndrome(&hex("5d4d20237a55a6")), 0);
        // DF4 and DF5: the address is overlaid on the parity.
        assert_eq!(syndrome(&hex("20000f1f684a6c")), 0x4D2023);
        assert_eq!(syndrome(&hex("280010248c796b")), 0x4D2023);
        // Appending the CRC gives syndrome 0.
        let mut f = hex("8D4840D6202CC371C32CE0");
        let c = crc24(&f);
        f.extend_from_slice(&[(c >> 16) as u8, (c >> 8) as u8, c as u8]);
        assert_eq!(f, hex("8D4840D6202CC371C32CE0576098"));
    }

    /// Every single flipped bit of both lengths is found and repaired, and
    /// the syndromes of single-bit errors are distinct.
    #[test]
    fn single_bit_repair() {
        for f in ["8D4840D6202CC371C32CE0576098", "5d4d20237a55a6"] {
            let good = hex(f);
            let bits = good.len() * 8;
            for bit in 0..bits {
                let mut bad = good.clone();
                flip_bit(&mut bad, bit);
                let s = syndrome(&bad);
                assert_ne!(s, 0);
                assert_eq!(single_bit_error(s, bits), Some(bit));
                flip_bit(&mut bad, bit);
                assert_eq!(bad, good);
            }
            let t = table_for(bits);
            assert!(t.windows(2).all(|w| w[0].0 != w[1].0));
        }
        assert_eq!(
            single_bit_error(0x123456, 112).is_some(),
            table_for(112).iter().any(|e| e.0 == 0x123456)
        );
        assert_eq!(single_bit_error(1, 57), None);
    }

    /// Every pair of flipped bits outside the DF field of a long frame
    /// whose syndrome is unambiguous is found and repaired; ambiguous
    /// ones are refused rather than guessed.
    #[test]
    fn two_bit_repair() {
        let good = hex("8D4840D6202CC371C32CE0576098");
        let (mut repaired, mut refused) = (0, 0);
        for a in 5..112 {
            for b in a + 1..112 {
                let mut bad = good.clone();
                flip_bit(&mut bad, a);
                flip_bit(&mut bad, b);
                let s = syndrome(&bad);
                assert_eq!(single_bit_error(s, 112), None, "{a} {b}");
                match two_bit_error(s) {
                    Some(pair) => {
                        assert_eq!(pair, (a, b));
                        repaired += 1;
                    }
                    None => refused += 1,
                }
            }
        }
        // CRC-24 has distance 6 over 112 bits: every pair is distinct.
        assert_eq!((repaired, refused), (107 * 106 / 2, 0));
        assert_eq!(two_bit_error(0), None);
        for &(s, _) in table_for(112) {
            assert_eq!(two_bit_error(s), None);
        }
    }
}
