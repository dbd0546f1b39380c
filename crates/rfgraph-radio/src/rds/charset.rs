//! RDS characters: the basic code table of IEC 62106 / EN 50067 Annex E
//! (table G0, bytes 0x20–0x7E), both ways.
//!
//! The basic table is ASCII except at four places: 0x24 is `¤` (not `$`),
//! 0x5E `―` (not `^`), 0x60 `‖` (not `` ` ``) and 0x7E `¯` (not `~`).
//! RadioText may end with a carriage return (0x0D) and contain line feeds
//! (0x0A). Bytes 0x80–0xFF (the accented letters of the extended table)
//! and other control codes decode as U+FFFD, the replacement character;
//! the encoder accepts only what decodes back to itself.

/// The RadioText terminator.
pub const CARRIAGE_RETURN: u8 = 0x0D;

/// The character of RDS code `code`.
pub fn decode_char(code: u8) -> char {
    match code {
        0x0A => '\n',
        0x24 => '¤',
        0x5E => '―',
        0x60 => '‖',
        0x7E => '¯',
        0x20..=0x7D => code as char,
        _ => char::REPLACEMENT_CHARACTER,
    }
}

/// The RDS code of `c`, if the basic table has it (or `\n`).
pub fn encode_char(c: char) -> Option<u8> {
    match c {
        '\n' => Some(0x0A),
        '¤' => Some(0x24),
        '―' => Some(0x5E),
        '‖' => Some(0x60),
        '¯' => Some(0x7E),
        '$' | '^' | '`' | '~' => None,
        ' '..='}' => Some(c as u8),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_encodable_character_decodes_to_itself() {
        let mut count = 0;
        for code in 0..=255u8 {
            let c = decode_char(code);
            if c != char::REPLACEMENT_CHARACTER {
                assert_eq!(encode_char(c), Some(code), "{code:#x} {c:?}");
                count += 1;
            }
        }
        // 0x20..=0x7E and the line feed.
        assert_eq!(count, 0x7F - 0x20 + 1);
        assert_eq!(encode_char('$'), None);
        assert_eq!(encode_char('é'), None);
        assert_eq!(decode_char(b'A'), 'A');
    }
}
