//! Judging a candidate bit string: which downlink formats are wanted, its
//! parity, one- and two-bit correction of DF17/18, address recovery from the
//! parity of the others, and a score that ranks competing slicings of
//! the same burst (after dump1090's `scoreModesMessage`).
//!
//! Policy, in order of trust:
//! - DF17/18 with intact parity; DF11 with plain parity (interrogator
//!   code 0): their address is proven, and they teach it to the
//!   [`IcaoFilter`](crate::modes::IcaoFilter).
//! - DF17/18 with exactly one wrong bit (outside the DF field), when
//!   correction is on: repaired, reported with `corrected = 1`, never
//!   taught.
//! - DF17/18 with exactly two wrong bits (outside the DF field, the
//!   only pair with that syndrome), when correction is on and the
//!   repaired address is already in the filter: repaired, reported with
//!   `corrected = 2`, never taught. Without the filter's word a two-bit
//!   repair would turn about one noise candidate in 2,700 with a DF17
//!   header into a frame.
//! - DF11 with an interrogator code, and DF0/4/5/16/20/21 (address
//!   overlaid on the parity): only when the address they reveal is in the
//!   filter.
//!
//! Nothing else is ever reported: a frame this module rejects is dropped.

use crate::modes::crc::{flip_bit, single_bit_error, syndrome, two_bit_error};
use crate::modes::frame::{bits, frame_bits};

/// A candidate that passed, with what the demodulator needs to emit it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Judged {
    /// Higher is more trustworthy; only compared between slicings of one
    /// burst.
    pub score: i32,
    /// The ICAO address (AA field or recovered).
    pub address: u32,
    /// Bits repaired.
    pub corrected: u8,
    /// Nothing in the bits is in doubt: parity intact, or an address
    /// recovered whole. False for a repaired bit, and for a DF11 whose
    /// parity shows an interrogator code (a wrong bit among the last
    /// seven would show as one too), so that other slicings are still
    /// tried for a better one.
    pub certain: bool,
    /// Teach the address to the filter.
    pub learn: bool,
    /// 56 or 112.
    pub bits: u8,
}

/// True for the downlink formats the receiver reports.
#[inline]
pub(crate) fn wanted_df(df: u8) -> bool {
    matches!(df, 0 | 4 | 5 | 11 | 16 | 17 | 18 | 20 | 21)
}

/// Judges `frame` (14 bytes; a short frame uses the first 7), repairing it
/// in place when a single-bit correction applies. `known` says whether an
/// address is in the filter now.
pub(crate) fn judge(
    frame: &mut [u8; 14],
    known: impl Fn(u32) -> bool,
    fix: bool,
) -> Option<Judged> {
    let df = frame[0] >> 3;
    if !wanted_df(df) {
        return None;
    }
    let n = frame_bits(df);
    let data = &mut frame[..n / 8];
    let s = syndrome(data);
    let aa = |d: &[u8]| bits(d, 9, 24) as u32;
    let judged = |score, address, corrected, learn, certain| Judged {
        score,
        address,
        corrected,
        certain,
        learn,
        bits: n as u8,
    };
    match df {
        17 | 18 => {
            // DF18 with CF 0 carries an ICAO address; other CF values
            // carry non-ICAO or anonymous ones, never taught.
            let icao = df == 17 || (data[0] & 7) == 0;
            if s == 0 {
                let a = aa(data);
                let score = if known(a) { 1800 } else { 1400 };
                return Some(judged(score, a, 0, icao, true));
            }
            if fix
                && let Some(bit) = single_bit_error(s, n)
                && bit >= 5
            {
                flip_bit(data, bit);
                let a = aa(data);
                let score = if known(a) { 900 } else { 700 };
                return Some(judged(score, a, 1, false, false));
            }
            if fix
                && n == 112
                && let Some((b1, b2)) = two_bit_error(s)
            {
                let mut repaired = [0u8; 14];
                repaired.copy_from_slice(data);
                flip_bit(&mut repaired, b1);
                flip_bit(&mut repaired, b2);
                let a = aa(&repaired);
                if known(a) {
                    data.copy_from_slice(&repaired);
                    return Some(judged(500, a, 2, false, false));
                }
            }
            None
        }
        11 => {
            let a = aa(data);
            if s == 0 {
                let score = if known(a) { 1600 } else { 750 };
                Some(judged(score, a, 0, true, true))
            } else if s < 80 && known(a) {
                // Interrogator code overlaid on the parity: the low seven
                // bits hold CL (0–4) and IC.
                Some(judged(1000, a, 0, false, false))
            } else {
                None
            }
        }
        _ => known(s).then(|| judged(1000, s, 0, false, true)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modes::frame::parse_hex;

    fn frame(h: &str) -> [u8; 14] {
        let mut f = [0u8; 14];
        let b = parse_hex(h).unwrap();
        f[..b.len()].copy_from_slice(&b);
        f
    }

    #[test]
    fn policy() {
        let none = |_: u32| false;
        let ours = |a: u32| a == 0x4D2023;
        // DF17 intact: taught.
        let mut f = frame("8f4d2023587f345e35837e2218b2");
        let j = judge(&mut f, none, true).unwrap();
        assert_eq!(
            (j.address, j.corrected, j.learn, j.bits),
            (0x4D2023, 0, true, 112)
        );
        // One flipped bit: repaired when fixing, never taught.
        let mut bad = f;
        bad[6] ^= 0x10;
        assert_eq!(judge(&mut bad.clone(), none, false), None);
        let j = judge(&mut bad, none, true).unwrap();
        assert_eq!((j.corrected, j.learn), (1, false));
        assert_eq!(bad, f);
        // Two flipped bits: repaired only for a known address.
        let mut two = f;
        two[5] ^= 0x40;
        two[11] ^= 0x02;
        assert_eq!(judge(&mut two.clone(), none, true), None);
        assert_eq!(judge(&mut two.clone(), ours, false), None);
        let j = judge(&mut two, ours, true).unwrap();
        assert_eq!((j.corrected, j.learn, j.certain), (2, false, false));
        assert_eq!(two, f);
        // DF4 and DF5 need a known address.
        let mut df4 = frame("20000f1f684a6c");
        assert_eq!(judge(&mut df4, none, true), None);
        assert_eq!(judge(&mut df4, ours, true).unwrap().address, 0x4D2023);
        // DF11 with plain parity is proven; a flipped bit is not repaired.
        let mut df11 = frame("5d4d20237a55a6");
        assert!(judge(&mut df11, none, true).unwrap().learn);
        df11[3] ^= 1;
        assert_eq!(judge(&mut df11, ours, true), None);
        // Unwanted formats are dropped.
        let mut df24 = frame("c04d20237a55a6c04d20237a55a6");
        assert_eq!(judge(&mut df24, ours, true), None);
    }
}
