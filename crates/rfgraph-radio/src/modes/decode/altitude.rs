//! Altitude codes: the 13-bit AC field of DF0/4/16/20 (25 ft with the Q
//! bit, Gillham 100 ft without), the 12-bit field of ADS-B airborne
//! positions, and Gillham (Gray) decoding.

/// Feet from a 13-bit AC field (C1 A1 C2 A2 C4 A4 M B1 Q B2 D2 B4 D4);
/// `None` for "unknown" (all zero), an invalid Gillham code, or the
/// metric encoding (M = 1), which no receiver in use reports.
pub fn ac13(ac: u32) -> Option<i32> {
    let ac = ac & 0x1FFF;
    if ac == 0 {
        return None;
    }
    let m = (ac >> 6) & 1;
    let q = (ac >> 4) & 1;
    match (m, q) {
        (0, 1) => {
            let n = ((ac >> 2) & 0x7E0) | ((ac >> 1) & 0x10) | (ac & 0xF);
            Some(n as i32 * 25 - 1000)
        }
        (0, 0) => gillham(ac),
        _ => None,
    }
}

/// Feet from the 12-bit altitude of an ADS-B airborne position (the AC
/// field without its M bit).
pub fn ac12(ac: u32) -> Option<i32> {
    let ac = ac & 0xFFF;
    ac13(((ac & 0xFC0) << 1) | (ac & 0x3F))
}

fn gray_to_binary(mut n: u32) -> u32 {
    n ^= n >> 8;
    n ^= n >> 4;
    n ^= n >> 2;
    n ^= n >> 1;
    n
}

/// Feet from a Gillham-coded 13-bit AC field (Q = 0).
fn gillham(ac: u32) -> Option<i32> {
    let b = |pos: u32| (ac >> (12 - pos)) & 1;
    let (c1, a1, c2, a2, c4, a4) = (b(0), b(1), b(2), b(3), b(4), b(5));
    let (b1, b2, d2, b4, d4) = (b(7), b(9), b(10), b(11), b(12));
    let g500 =
        (d2 << 7) | (d4 << 6) | (a1 << 5) | (a2 << 4) | (a4 << 3) | (b1 << 2) | (b2 << 1) | b4;
    let g100 = (c1 << 2) | (c2 << 1) | c4;
    let n500 = gray_to_binary(g500) as i32;
    let mut n100 = gray_to_binary(g100) as i32;
    if matches!(n100, 0 | 5 | 6) {
        return None;
    }
    if n100 == 7 {
        n100 = 5;
    }
    if n500 % 2 == 1 {
        n100 = 6 - n100;
    }
    Some(n500 * 500 + n100 * 100 - 1300)
}

/// The 13-bit AC field encoding `feet` with the Q bit (25 ft steps;
/// −1000 to 50175 ft), for the generator.
pub fn encode_ac13(feet: i32) -> Option<u32> {
    let n = (feet + 1000) / 25;
    if !(0..2048).contains(&n) || (feet + 1000) % 25 != 0 {
        return None;
    }
    let n = n as u32;
    // Insert M = 0 at bit 6 and Q = 1 at bit 4 (from the least
    // significant end).
    Some(((n & 0x7E0) << 2) | ((n & 0x10) << 1) | 0x10 | (n & 0xF))
}

/// The 12-bit altitude field of an airborne position encoding `feet`.
pub fn encode_ac12(feet: i32) -> Option<u32> {
    let ac = encode_ac13(feet)?;
    Some(((ac >> 1) & 0xFC0) | (ac & 0x3F))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn q_bit_and_gillham() {
        // "The 1090 MHz Riddle": 8D40621D58C382... carries 38000 ft.
        assert_eq!(ac12(0xC38), Some(38000));
        for ft in [-1000, 0, 25, 1000, 23375, 38000, 50175] {
            assert_eq!(ac13(encode_ac13(ft).unwrap()), Some(ft), "{ft}");
            assert_eq!(ac12(encode_ac12(ft).unwrap()), Some(ft), "{ft}");
        }
        assert_eq!(encode_ac13(10), None);
        assert_eq!(ac13(0), None);
        // Gillham: C1 A1 C2 A2 C4 A4 M B1 Q B2 D2 B4 D4. C2 alone is the
        // 100-ft Gray code 010 = 3 with n500 = 0: -1300 + 300 = -1000 ft.
        assert_eq!(ac13(0b0010000000000), Some(-1000));
        // C2 and B4 (n500 gray 1 → 1, odd, n100 = 6 - 3 = 3): -500 ft.
        assert_eq!(ac13(0b0010000000010), Some(-500));
        // Invalid 100-ft code (0).
        assert_eq!(ac13(0b0000000000010), None);
        // Metric.
        assert_eq!(ac13(0b0000001000000 | 1), None);
    }
}
