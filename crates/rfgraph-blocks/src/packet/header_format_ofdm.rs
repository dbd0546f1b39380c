//! What GNU Radio's `digital.header_format_ofdm` adds to
//! `header_format_crc`: its header length (one bit per occupied carrier
//! of its first `n_syms` OFDM symbols, of which the CRC header fills the
//! first 32), the scrambling mask its parser removes, and the payload
//! length in complex symbols and OFDM symbols it reads from a header.
//! [`HeaderFormatter`](super::HeaderFormatter) and
//! [`HeaderParser`](super::HeaderParser) apply them when the format is
//! `ofdm`.

use super::packet_header_ofdm::scramble_mask;
use crate::ofdm::CarrierSets;
use rfgraph::ParamError;

/// The header length in bits: the carriers of the first `n_syms` lists;
/// `None` when there are fewer lists.
pub(crate) fn header_nbits(carriers: &CarrierSets, n_syms: usize) -> Option<usize> {
    let lists = carriers.0.get(..n_syms)?;
    Some(lists.iter().map(Vec::len).sum())
}

/// Refuses what GNU Radio cannot run: more OFDM symbols than carrier
/// lists (it reads past its list), a header shorter than the 32 bits of
/// the CRC header (it writes past its buffer), and a first list without
/// carriers (it never finishes counting a frame's OFDM symbols).
pub(crate) fn check(carriers: &CarrierSets, n_syms: usize) -> Result<(), ParamError> {
    let bad = |param: &str, message: String| Err(ParamError::new("header format", param, message));
    match header_nbits(carriers, n_syms) {
        None => bad(
            "n_syms",
            format!(
                "{n_syms} OFDM symbols, but occupied_carriers has {} lists",
                carriers.0.len()
            ),
        ),
        Some(n) if n < 32 => bad(
            "occupied_carriers",
            format!(
                "the first {n_syms} lists hold {n} carriers: an OFDM header needs at least 32 bits"
            ),
        ),
        _ if carriers.0[0].is_empty() => bad(
            "occupied_carriers",
            "the first list holds no carrier".to_string(),
        ),
        _ => Ok(()),
    }
}

/// The bits GNU Radio's parser XORs onto the header's bits, one entry
/// per header bit: the first `header_nbits / 8` entries hold
/// `bits_per_header_sym` bits of its LFSR each (the same sequence as
/// `packet_header_ofdm`'s), the rest are 0. GNU Radio 3.10's formatter
/// does not scramble; its parser takes a bit as 1 when the input byte
/// XOR the entry is not 0.
pub(crate) fn parse_mask(nbits: usize, bits_per_header_sym: u8) -> Vec<u8> {
    let mut mask = scramble_mask(nbits / 8, bits_per_header_sym);
    mask.resize(nbits, 0);
    mask
}

/// The payload in complex symbols (`len` bytes of `bits_per_payload_sym`
/// bits, rounded up) and the OFDM symbols of its frame, as GNU Radio
/// counts them: whole turns through all the lists count one each, then
/// the rest in OFDM symbols of the first list's size.
pub(crate) fn payload(carriers: &CarrierSets, len: u32, bits_per_payload_sym: u16) -> (i64, i64) {
    let bits = i64::from(len) * 8;
    let bps = i64::from(bits_per_payload_sym.max(1));
    let symbols = bits / bps + i64::from(bits % bps != 0);
    let per_set: i64 = carriers.0.iter().map(|l| l.len() as i64).sum();
    let first = carriers.0.first().map_or(0, |l| l.len() as i64);
    if per_set == 0 || first == 0 {
        return (symbols, 0);
    }
    let turns = symbols / per_set;
    let rest = symbols - turns * per_set;
    (symbols, turns + (rest + first - 1) / first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_count_turns_then_first_lists() {
        let c = CarrierSets(vec![vec![1, 2, 3], vec![4]]);
        // 8 bits, 1 per symbol: 8 symbols = 2 turns (of 4) = 2 frames.
        assert_eq!(payload(&c, 1, 1), (8, 2));
        // 9 bits... 2 bytes, 3 bits per symbol: 6 symbols = 1 turn + 2 of 3.
        assert_eq!(payload(&c, 2, 3), (6, 2));
        assert_eq!(payload(&c, 0, 1), (0, 0));
        assert_eq!(payload(&c, 4095, 7), (4680, 1170));
        assert_eq!(header_nbits(&c, 2), Some(4));
        assert_eq!(header_nbits(&c, 3), None);
        assert!(check(&c, 2).is_err());
        assert!(check(&CarrierSets(vec![vec![0; 40]]), 1).is_ok());
        assert!(check(&CarrierSets(vec![vec![], vec![0; 40]]), 2).is_err());
        let mask = parse_mask(48, 1);
        assert_eq!(mask.len(), 48);
        assert!(mask[6..].iter().all(|&m| m == 0));
    }
}
