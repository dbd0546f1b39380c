//! Identification fields: the ADS-B callsign (six bits a character) and
//! the Mode A identity code (squawk) of DF5/21.

/// The callsign alphabet: `A`–`Z`, space, `0`–`9`; `#` for codes that
/// are not characters.
fn character(code: u8) -> char {
    match code {
        1..=26 => char::from(b'A' + code - 1),
        32 => ' ',
        48..=57 => char::from(code),
        _ => '#',
    }
}

/// The callsign in 48 bits (eight characters, first in the top six
/// bits), without leading or trailing spaces.
pub fn callsign(bits48: u64) -> String {
    let s: String = (0..8)
        .map(|i| character(((bits48 >> (42 - 6 * i)) & 0x3F) as u8))
        .collect();
    s.trim().to_string()
}

/// The 48 bits of a callsign of at most eight characters from the
/// alphabet (padded with spaces); `None` for anything else.
pub fn encode_callsign(s: &str) -> Option<u64> {
    if s.len() > 8 {
        return None;
    }
    let mut v = 0u64;
    for c in format!("{s:<8}").bytes() {
        let code = match c {
            b'A'..=b'Z' => c - b'A' + 1,
            b' ' | b'0'..=b'9' => c,
            _ => return None,
        };
        v = (v << 6) | u64::from(code);
    }
    Some(v)
}

/// The four octal digits of a 13-bit identity field
/// (C1 A1 C2 A2 C4 A4 X B1 D1 B2 D2 B4 D4).
pub fn squawk(id13: u32) -> String {
    let b = |pos: u32| (id13 >> (12 - pos)) & 1;
    let a = b(5) << 2 | b(3) << 1 | b(1);
    let bb = b(11) << 2 | b(9) << 1 | b(7);
    let c = b(4) << 2 | b(2) << 1 | b(0);
    let d = b(12) << 2 | b(10) << 1 | b(8);
    format!("{a}{bb}{c}{d}")
}

/// The 13-bit identity field of a squawk given as four octal digits.
pub fn encode_squawk(code: &str) -> Option<u32> {
    let d: Vec<u32> = code.chars().map(|c| c.to_digit(8)).collect::<Option<_>>()?;
    if d.len() != 4 {
        return None;
    }
    let (a, b, c, dd) = (d[0], d[1], d[2], d[3]);
    let bit = |v: u32, k: u32, pos: u32| ((v >> k) & 1) << (12 - pos);
    Some(
        bit(c, 0, 0)
            | bit(a, 0, 1)
            | bit(c, 1, 2)
            | bit(a, 1, 3)
            | bit(c, 2, 4)
            | bit(a, 2, 5)
            | bit(b, 0, 7)
            | bit(dd, 0, 8)
            | bit(b, 1, 9)
            | bit(dd, 1, 10)
            | bit(b, 2, 11)
            | bit(dd, 2, 12),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callsigns_and_squawks() {
        // "The 1090 MHz Riddle": 8D4840D6202CC371C32CE0576098 is KLM1023.
        assert_eq!(callsign(0x2CC371C32CE0), "KLM1023");
        assert_eq!(encode_callsign("KLM1023"), Some(0x2CC371C32CE0));
        assert_eq!(encode_callsign("klm"), None);
        assert_eq!(callsign(0), "########");
        for code in ["0000", "7700", "1200", "0112", "7654", "1234"] {
            assert_eq!(squawk(encode_squawk(code).unwrap()), code);
        }
        assert_eq!(encode_squawk("8000"), None);
        // DF5 of the real recording, 280010248c796b: ID field 0x1024.
        assert_eq!(squawk(0x1024 & 0x1FFF), "0112");
    }
}
