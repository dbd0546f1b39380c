//! The RDS group encoder: turns [`RdsContent`] into an endless stream of
//! groups (0A/0B for PI, PS and flags, 2A/2B for RadioText) and their
//! bits, check words included. The physical layer (differential coding,
//! biphase symbols, shaping, the 57 kHz subcarrier) is the signal
//! generator's job.
//!
//! # Group sequence
//!
//! Type 0 and type 2 groups alternate: `0 (segment 0), 2 (segment 0), 0
//! (segment 1), 2 (segment 1), …`, PS segments cycling through 0–3 and
//! RadioText segments through as many as the text needs; without
//! RadioText every group is type 0. A whole PS then takes 8 groups (0.7
//! s), a 64-character RadioText 32 (2.8 s). Version A type 0 groups carry
//! the alternative-frequency list in block 3 (method A: the count code
//! `224 + n`, then the codes, padded with the filler 205), or `224, 205`
//! ("no AF") when there is none.

use super::code::{GROUP_BITS, Offset, encode_block};
use super::content::{RdsContent, RdsContentError, Version};

/// One group as sent: four information words and the offset of block 3
/// (`C` for version A, `C'` for B).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodedGroup {
    /// Blocks 1–4's information words.
    pub info: [u16; 4],
    /// Block 3's offset.
    pub c_offset: Offset,
}

impl EncodedGroup {
    /// The group's 104 bits (MSB of block 1 first), check words included.
    pub fn bits(&self) -> [bool; GROUP_BITS] {
        let offsets = [Offset::A, Offset::B, self.c_offset, Offset::D];
        let mut out = [false; GROUP_BITS];
        for (b, (&info, &offset)) in self.info.iter().zip(&offsets).enumerate() {
            let block = encode_block(info, offset);
            for i in 0..26 {
                out[b * 26 + i] = block >> (25 - i) & 1 != 0;
            }
        }
        out
    }
}

/// Makes the groups of one station, endlessly.
///
/// ```
/// use rfgraph_radio::rds::{RdsContent, RdsEncoder};
///
/// let mut enc = RdsEncoder::new(&RdsContent::default()).unwrap();
/// let g = enc.next_group();
/// assert_eq!(g.info[0], 0x1234); // the PI
/// assert_eq!(g.info[1] >> 12, 0); // type 0
/// ```
#[derive(Clone, Debug)]
pub struct RdsEncoder {
    content: RdsContent,
    ps: [u8; 8],
    radiotext: Vec<u8>,
    af_pairs: Vec<u16>,
    groups: u64,
    ps_segment: usize,
    rt_segment: usize,
    af_index: usize,
}

impl RdsEncoder {
    /// An encoder for `content`.
    ///
    /// Errors: content that cannot be encoded ([`RdsContent::validate`]).
    pub fn new(content: &RdsContent) -> Result<Self, RdsContentError> {
        content.validate()?;
        let afs = content.af_codes()?;
        let mut codes: Vec<u16> = vec![224 + afs.len() as u16];
        codes.extend(afs.iter().map(|&c| c as u16));
        if codes.len() % 2 == 1 {
            codes.push(205);
        }
        let af_pairs = codes.chunks(2).map(|p| (p[0] << 8) | p[1]).collect();
        Ok(Self {
            ps: content.ps_codes()?,
            radiotext: content.radiotext_codes()?,
            content: content.clone(),
            af_pairs,
            groups: 0,
            ps_segment: 0,
            rt_segment: 0,
            af_index: 0,
        })
    }

    /// The content being sent.
    pub fn content(&self) -> &RdsContent {
        &self.content
    }

    /// Block 2's common part: group type, version, TP, PTY.
    fn block_b(&self, group_type: u16, version: Version) -> u16 {
        (group_type << 12)
            | (u16::from(version == Version::B) << 11)
            | (u16::from(self.content.tp) << 10)
            | (u16::from(self.content.pty) << 5)
    }

    /// The next group of the sequence.
    pub fn next_group(&mut self) -> EncodedGroup {
        let rt_segments = self.radiotext.len() / (self.content.radiotext_capacity() / 16);
        let send_rt = rt_segments > 0 && self.groups % 2 == 1;
        self.groups += 1;
        let pi = self.content.pi;
        if send_rt {
            let s = self.rt_segment;
            self.rt_segment = (s + 1) % rt_segments;
            let v = self.content.rt_version;
            let b = self.block_b(2, v) | (u16::from(self.content.rt_ab) << 4) | s as u16;
            let pair =
                |i: usize| (u16::from(self.radiotext[i]) << 8) | u16::from(self.radiotext[i + 1]);
            return match v {
                Version::A => EncodedGroup {
                    info: [pi, b, pair(4 * s), pair(4 * s + 2)],
                    c_offset: Offset::C,
                },
                Version::B => EncodedGroup {
                    info: [pi, b, pi, pair(2 * s)],
                    c_offset: Offset::CPrime,
                },
            };
        }
        let s = self.ps_segment;
        self.ps_segment = (s + 1) % 4;
        let v = self.content.ps_version;
        let b = self.block_b(0, v)
            | (u16::from(self.content.ta) << 4)
            | (u16::from(self.content.music) << 3)
            | (u16::from(self.content.di.bit(s)) << 2)
            | s as u16;
        let d = (u16::from(self.ps[2 * s]) << 8) | u16::from(self.ps[2 * s + 1]);
        match v {
            Version::A => {
                let c = self.af_pairs[self.af_index];
                self.af_index = (self.af_index + 1) % self.af_pairs.len();
                EncodedGroup {
                    info: [pi, b, c, d],
                    c_offset: Offset::C,
                }
            }
            Version::B => EncodedGroup {
                info: [pi, b, pi, d],
                c_offset: Offset::CPrime,
            },
        }
    }

    /// The first `n` bits of the stream (whole groups, cut at `n`).
    pub fn bits(&mut self, n: usize) -> Vec<bool> {
        let mut out = Vec::with_capacity(n + GROUP_BITS);
        while out.len() < n {
            out.extend_from_slice(&self.next_group().bits());
        }
        out.truncate(n);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rds::code::syndrome;

    #[test]
    fn the_sequence_alternates_ps_and_radiotext_segments() {
        let content = RdsContent {
            pi: 0xABCD,
            ps: "ABCDEFGH".into(),
            radiotext: "0123456789".into(), // + CR, padded: 3 segments
            tp: true,
            ta: true,
            music: false,
            pty: 5,
            ..RdsContent::default()
        };
        let mut e = RdsEncoder::new(&content).unwrap();
        let groups: Vec<EncodedGroup> = (0..12).map(|_| e.next_group()).collect();
        for (i, g) in groups.iter().enumerate() {
            assert_eq!(g.info[0], 0xABCD);
            let ty = g.info[1] >> 12;
            assert_eq!(ty, if i % 2 == 0 { 0 } else { 2 });
            assert_eq!(g.info[1] >> 10 & 1, 1, "TP");
            assert_eq!(g.info[1] >> 5 & 31, 5, "PTY");
            if ty == 0 {
                let s = (i / 2) % 4;
                assert_eq!(g.info[1] & 3, s as u16);
                assert_eq!(g.info[1] >> 4 & 1, 1, "TA");
                assert_eq!(g.info[1] >> 3 & 1, 0, "MS");
                let want = &b"ABCDEFGH"[2 * s..2 * s + 2];
                assert_eq!(g.info[3].to_be_bytes(), [want[0], want[1]]);
                assert_eq!(g.info[2], 0xE0CD, "no AF");
            } else {
                let s = (i / 2) % 3;
                assert_eq!(g.info[1] & 15, s as u16);
                let text = b"0123456789\r ";
                assert_eq!(g.info[2].to_be_bytes(), [text[4 * s], text[4 * s + 1]]);
                assert_eq!(g.info[3].to_be_bytes(), [text[4 * s + 2], text[4 * s + 3]]);
            }
        }
    }

    #[test]
    fn bits_carry_each_blocks_offset() {
        let mut e = RdsEncoder::new(&RdsContent {
            ps_version: Version::B,
            ..RdsContent::default()
        })
        .unwrap();
        let bits = e.bits(4 * 104);
        for (b, chunk) in bits.chunks(26).enumerate() {
            let block = chunk.iter().fold(0u32, |a, &x| a << 1 | u32::from(x));
            let group = b / 4;
            let want = match b % 4 {
                0 => Offset::A,
                1 => Offset::B,
                // 0B groups (even) have C', 2A groups C.
                2 if group % 2 == 0 => Offset::CPrime,
                2 => Offset::C,
                _ => Offset::D,
            };
            assert_eq!(syndrome(block), want.word(), "block {b}");
        }
    }

    #[test]
    fn afs_cycle_through_block_three() {
        let mut e = RdsEncoder::new(&RdsContent {
            af: vec![87.6, 99.9, 107.9],
            radiotext: String::new(),
            ..RdsContent::default()
        })
        .unwrap();
        let cs: Vec<u16> = (0..3).map(|_| e.next_group().info[2]).collect();
        assert_eq!(cs, vec![(227 << 8) | 1, (124 << 8) | 204, (227 << 8) | 1]);
    }
}
