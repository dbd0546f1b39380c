//! [`RawFrame`]: one demodulated Mode S frame whose parity checked, as it
//! travels on a stream edge from the demodulator to the decoder.
//!
//! This module owns the frame's layout and its plain accessors (downlink
//! format, length, hex, level in dBFS). It never checks parity (that is
//! `crc` and the demodulator) nor interprets fields (that is `decode`).

use bytemuck::{Pod, Zeroable};
use std::fmt::Write as _;

/// A Mode S frame that passed its parity check, with where and how strong
/// it was received. A plain-old-data stream item (32 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct RawFrame {
    /// Index, in the demodulator's input stream, of the sample where the
    /// preamble's first pulse begins.
    pub sample: u64,
    /// Mean power of the frame's pulses, linear, relative to full scale
    /// (a magnitude of 1.0 is 0 dBFS).
    pub power: f32,
    /// The 24-bit ICAO address: the AA field (DF11/17/18), or the address
    /// recovered from the parity (DF0/4/5/16/20/21).
    pub address: u32,
    /// The frame's bytes, first sent first; 7 or 14 of them are used.
    pub bytes: [u8; 14],
    /// Length in bits: 56 or 112.
    pub bits: u8,
    /// Bits the demodulator corrected (0, 1 or 2).
    pub corrected: u8,
}

impl RawFrame {
    /// The used bytes: 7 or 14.
    pub fn data(&self) -> &[u8] {
        let n = if self.bits == 112 { 14 } else { 7 };
        &self.bytes[..n]
    }

    /// The downlink format (the first five bits).
    pub fn df(&self) -> u8 {
        self.bytes[0] >> 3
    }

    /// The frame as lower-case hex, as dump1090's raw output prints it.
    pub fn hex(&self) -> String {
        let mut s = String::with_capacity(28);
        for b in self.data() {
            let _ = write!(s, "{b:02x}");
        }
        s
    }

    /// The pulse power in dBFS (−inf for silence).
    pub fn dbfs(&self) -> f64 {
        10.0 * f64::from(self.power).log10()
    }
}

/// Parses a frame's hex (14 or 28 digits, any case) into bytes.
pub fn parse_hex(hex: &str) -> Option<Vec<u8>> {
    let hex = hex.trim();
    if !(hex.len() == 14 || hex.len() == 28) || !hex.is_ascii() {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect()
}

/// Bits of a frame whose downlink format is `df`: 112 for DF16 and above,
/// 56 below.
pub fn frame_bits(df: u8) -> usize {
    if df >= 16 { 112 } else { 56 }
}

/// Bits `first..first + n` (1-based, as Annex 10 numbers them) of `bytes`,
/// most significant first; bits past the end read as zero.
pub fn bits(bytes: &[u8], first: usize, n: usize) -> u64 {
    let mut v = 0u64;
    for i in 0..n {
        let b = first - 1 + i;
        let bit = bytes.get(b / 8).map_or(0, |x| (x >> (7 - b % 8)) & 1);
        v = (v << 1) | u64::from(bit);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accessors() {
        let bytes = parse_hex("8D4840D6202CC371C32CE0576098").unwrap();
        let mut f = RawFrame::zeroed();
        f.bytes.copy_from_slice(&bytes);
        f.bits = 112;
        f.power = 0.01;
        assert_eq!(f.df(), 17);
        assert_eq!(f.hex(), "8d4840d6202cc371c32ce0576098");
        assert!((f.dbfs() + 20.0).abs() < 1e-6);
        assert_eq!(bits(&bytes, 9, 24), 0x4840D6);
        assert_eq!(bits(&bytes, 1, 5), 17);
        assert_eq!(frame_bits(11), 56);
        assert_eq!(frame_bits(20), 112);
        assert_eq!(parse_hex("8D4840"), None);
        assert_eq!(parse_hex("zz4840d6202cc3"), None);
        assert_eq!(std::mem::size_of::<RawFrame>(), 32);
    }
}
