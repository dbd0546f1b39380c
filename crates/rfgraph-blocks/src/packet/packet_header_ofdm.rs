//! What GNU Radio's `digital.packet_header_ofdm` adds to
//! `packet_header_default`: its header length (the carriers of its first
//! `n_syms` OFDM symbols), its header scrambling mask, and the payload
//! length in complex symbols and OFDM symbols it reads from a header.
//! [`PacketHeader`](super::PacketHeader) applies them when its
//! [`PacketHeaderKind`] is `ofdm`.

use crate::ofdm::CarrierSets;
use rfgraph::ParamChoice;

/// Which of GNU Radio's fixed-length packet header objects.
#[derive(ParamChoice, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PacketHeaderKind {
    /// `packet_header_default`: `header_len` bytes of `bits_per_byte`
    /// bits.
    #[default]
    Default,
    /// `packet_header_ofdm`: one header byte per occupied carrier of the
    /// first `n_syms` OFDM symbols, optionally scrambled; its parser
    /// gives the payload length in complex symbols and adds the frame
    /// length in OFDM symbols.
    Ofdm,
}

/// The header length of a `packet_header_ofdm`: the carriers of the
/// first `n_syms` lists; `None` when there are fewer lists.
pub(crate) fn header_len(carriers: &CarrierSets, n_syms: usize) -> Option<usize> {
    let lists = carriers.0.get(..n_syms)?;
    Some(lists.iter().map(Vec::len).sum())
}

/// The mask GNU Radio XORs onto each header byte when it scrambles the
/// header: `bits_per_byte` bits per byte, least significant first, of
/// its LFSR (mask `0x8A`, seed `0x6F`, length 7).
pub(crate) fn scramble_mask(header_len: usize, bits_per_byte: u8) -> Vec<u8> {
    let mut reg: u32 = 0x6F;
    let mut next = || {
        let out = (reg & 1) as u8;
        let new = (reg & 0x8A).count_ones() & 1;
        reg = (reg >> 1) | (new << 7);
        out
    };
    (0..header_len)
        .map(|_| (0..bits_per_byte).fold(0u8, |m, k| m ^ (next() << k)))
        .collect()
}

/// The payload's length in complex symbols: `nbytes` bytes of
/// `bits_per_sym` bits per symbol, rounded up. As GNU Radio computes it:
/// in 64 bits, wrapping, then cut to its 32-bit `int`.
pub(crate) fn payload_symbols(nbytes: i64, bits_per_sym: u8) -> i64 {
    let bits = nbytes.wrapping_mul(8);
    let b = i64::from(bits_per_sym.max(1));
    let symbols = bits / b + i64::from(bits % b != 0);
    i64::from(symbols as i32)
}

/// How many OFDM symbols carry `symbols` payload symbols, the carrier
/// lists used in turn from the first (GNU Radio counts from the first
/// list, not from the one after the header). 0 when no list has a
/// carrier, or for no symbols.
pub(crate) fn frame_len(carriers: &CarrierSets, symbols: i64) -> i64 {
    let sizes: Vec<i64> = carriers.0.iter().map(|l| l.len() as i64).collect();
    let cycle: i64 = sizes.iter().sum();
    if cycle == 0 || symbols <= 0 {
        return 0;
    }
    // Whole turns through the lists first, then list by list.
    let turns = (symbols - 1) / cycle;
    let mut frames = turns * sizes.len() as i64;
    let mut counted = turns * cycle;
    for size in &sizes {
        if counted >= symbols {
            break;
        }
        frames += 1;
        counted += size;
    }
    frames
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_hold_the_payload() {
        let c = CarrierSets(vec![vec![1, 2, 3], vec![4]]);
        assert_eq!(frame_len(&c, 0), 0);
        assert_eq!(frame_len(&c, 3), 1);
        assert_eq!(frame_len(&c, 4), 2);
        assert_eq!(frame_len(&c, 5), 3);
        assert_eq!(frame_len(&c, 8), 4);
        assert_eq!(frame_len(&c, 9), 5);
        assert_eq!(frame_len(&CarrierSets(vec![vec![], vec![1]]), 3), 6);
        assert_eq!(frame_len(&CarrierSets(vec![vec![]]), 5), 0);
        assert_eq!(payload_symbols(i64::MAX, 1), -8);
        assert_eq!(payload_symbols(3, 3), 8);
        assert_eq!(payload_symbols(3, 2), 12);
        assert_eq!(header_len(&c, 2), Some(4));
        assert_eq!(header_len(&c, 3), None);
    }
}
