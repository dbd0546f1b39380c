//! Block synchronisation: from soft bits (the demodulator's output) to
//! checked 16-bit blocks in their places in the group.
//!
//! - **Differential decoding**: a data bit is 1 when the sign changes
//!   from one soft bit to the next (so the carrier's 180° ambiguity does
//!   not matter).
//! - **Acquisition**: at every bit, the last 26 bits' syndrome is
//!   compared with the five offset words. Two exact matches a whole
//!   number of blocks apart (up to six), whose offsets follow each other
//!   in group order (A, B, C or C', D), give synchronisation.
//! - **Tracking**: every 26 bits, the block is checked against the offset
//!   its place expects (for the third, C or C' as block B's version bit
//!   says; when block B failed, either, but a correction that would fit
//!   both is refused as ambiguous) and, failing that,
//!   corrected if one burst of up to `max_burst` bits explains the
//!   syndrome ([`BurstTable`]). A block that neither checks nor corrects
//!   is an erasure: never passed on. Twelve erasures in a row lose
//!   synchronisation; so does a consistent pair of exact matches at
//!   another bit position while the current one fails (a bit slip).
//!
//! Corrections are made only in synchronisation, where the offset is
//! known: a random damaged block then passes with probability `(1 +
//! correctable) / 1024` (5 % with bursts of up to 2 bits), which is why
//! the group decoder confirms what it shows.

use super::code::{BLOCK_BITS, BurstTable, Offset, syndrome};
use std::collections::VecDeque;

/// Erasures in a row that lose synchronisation.
pub const LOSS_AFTER: u32 = 12;
/// The farthest apart (in blocks) two offset matches may be to sync.
const MAX_SYNC_DISTANCE: u64 = 6;

/// What the synchroniser found at a block boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockEvent {
    /// A block that checks (after `corrected` bit flips).
    Block {
        /// Its offset (its place in the group).
        offset: Offset,
        /// The 16 information bits.
        info: u16,
        /// Bits flipped by the correction (0: it checked as received).
        corrected: u32,
    },
    /// The block at place `index` (0..=3) of the group failed its check.
    Erasure {
        /// Its place in the group.
        index: usize,
    },
    /// Synchronisation was acquired.
    Synced,
    /// Synchronisation was lost.
    Lost,
}

/// Running totals of the synchroniser.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SyncCounts {
    /// Bits seen.
    pub bits: u64,
    /// Blocks that checked as received.
    pub blocks_ok: u64,
    /// Blocks that checked after a correction.
    pub blocks_corrected: u64,
    /// Blocks rejected while synchronised.
    pub blocks_failed: u64,
    /// Times synchronisation was acquired.
    pub syncs: u64,
    /// Times it was lost.
    pub sync_losses: u64,
}

/// The block synchroniser (see the module docs).
#[derive(Clone, Debug)]
pub struct BlockSync {
    table: BurstTable,
    register: u32,
    previous_sign: Option<bool>,
    bits: u64,
    /// Exact offset matches while searching: (bit count, offset).
    matches: VecDeque<(u64, Offset)>,
    /// In sync: the bit count at which the next block is complete, and
    /// its place in the group.
    next: Option<(u64, usize)>,
    erasures: u32,
    /// Block B of the group in hand, if it checked: its version bit says
    /// whether block 3 carries offset C or C'.
    block_b: Option<u16>,
    counts: SyncCounts,
}

impl BlockSync {
    /// A synchroniser correcting bursts of up to `max_burst` bits (0: no
    /// correction; 2 is the usual choice).
    pub fn new(max_burst: usize) -> Self {
        Self {
            table: BurstTable::new(max_burst),
            register: 0,
            previous_sign: None,
            bits: 0,
            matches: VecDeque::new(),
            next: None,
            erasures: 0,
            block_b: None,
            counts: SyncCounts::default(),
        }
    }

    /// The totals so far.
    pub fn counts(&self) -> SyncCounts {
        self.counts
    }

    /// True while synchronised.
    pub fn is_synced(&self) -> bool {
        self.next.is_some()
    }

    /// Takes one soft bit (before differential decoding); appends what it
    /// completes to `out`.
    pub fn push_soft(&mut self, soft: f32, out: &mut Vec<BlockEvent>) {
        let sign = soft >= 0.0;
        let Some(previous) = self.previous_sign.replace(sign) else {
            return;
        };
        self.push_bit(sign != previous, out);
    }

    /// Takes one data bit (after differential decoding).
    pub fn push_bit(&mut self, bit: bool, out: &mut Vec<BlockEvent>) {
        self.bits += 1;
        self.counts.bits = self.bits;
        self.register = ((self.register << 1) | u32::from(bit)) & ((1 << BLOCK_BITS) - 1);
        if self.bits < BLOCK_BITS as u64 {
            return;
        }
        let exact = Offset::from_word(syndrome(self.register));
        if let Some((at, index)) = self.next {
            if self.bits == at {
                self.check_block(index, out);
                return;
            }
            // Between block boundaries: a consistent pair of exact
            // matches elsewhere while this alignment fails is a slip.
            if let Some(offset) = exact
                && self.erasures >= 2
                && let Some(index) = self.search(offset)
            {
                self.counts.sync_losses += 1;
                out.push(BlockEvent::Lost);
                self.acquire(offset, index, out);
            }
            return;
        }
        if let Some(offset) = exact
            && let Some(index) = self.search(offset)
        {
            self.acquire(offset, index, out);
        }
    }

    /// Records an exact match; returns its place in the group when an
    /// earlier match confirms it.
    fn search(&mut self, offset: Offset) -> Option<usize> {
        let now = self.bits;
        while self
            .matches
            .front()
            .is_some_and(|&(b, _)| now - b > MAX_SYNC_DISTANCE * BLOCK_BITS as u64)
        {
            self.matches.pop_front();
        }
        let confirmed = self.matches.iter().any(|&(b, o)| {
            let d = now - b;
            d.is_multiple_of(BLOCK_BITS as u64)
                && (o.index() + (d / BLOCK_BITS as u64) as usize) % 4 == offset.index()
        });
        self.matches.push_back((now, offset));
        confirmed.then_some(offset.index())
    }

    /// Enters synchronisation on a block that checked exactly.
    fn acquire(&mut self, offset: Offset, index: usize, out: &mut Vec<BlockEvent>) {
        self.matches.clear();
        self.erasures = 0;
        self.counts.syncs += 1;
        self.block_b = (index == 1).then_some((self.register >> 10) as u16);
        out.push(BlockEvent::Synced);
        self.counts.blocks_ok += 1;
        out.push(BlockEvent::Block {
            offset,
            info: (self.register >> 10) as u16,
            corrected: 0,
        });
        self.next = Some((self.bits + BLOCK_BITS as u64, (index + 1) % 4));
    }

    /// Checks the block completed at a boundary of the group at `index`.
    fn check_block(&mut self, index: usize, out: &mut Vec<BlockEvent>) {
        self.next = Some((self.bits + BLOCK_BITS as u64, (index + 1) % 4));
        let candidates: &[Offset] = match (index, self.block_b) {
            (0, _) => &[Offset::A],
            (1, _) => &[Offset::B],
            (2, Some(b)) if b >> 11 & 1 == 1 => &[Offset::CPrime],
            (2, Some(_)) => &[Offset::C],
            (2, None) => &[Offset::C, Offset::CPrime],
            _ => &[Offset::D],
        };
        let found: Vec<(Offset, u16, u32)> = candidates
            .iter()
            .filter_map(|&o| self.table.decode(self.register, o).map(|(i, c)| (o, i, c)))
            .collect();
        // An exact match wins; corrections under both C and C' (block B
        // unknown) are ambiguous, so neither is taken.
        let best = match found.as_slice() {
            [one] => Some(*one),
            several => several.iter().copied().find(|&(_, _, c)| c == 0),
        };
        if index == 1 {
            self.block_b = best.map(|(_, info, _)| info);
        } else if index == 3 {
            self.block_b = None;
        }
        match best {
            Some((offset, info, corrected)) => {
                self.erasures = 0;
                if corrected == 0 {
                    self.counts.blocks_ok += 1;
                } else {
                    self.counts.blocks_corrected += 1;
                }
                out.push(BlockEvent::Block {
                    offset,
                    info,
                    corrected,
                });
            }
            None => {
                self.counts.blocks_failed += 1;
                self.erasures += 1;
                out.push(BlockEvent::Erasure { index });
                if self.erasures >= LOSS_AFTER {
                    self.next = None;
                    self.erasures = 0;
                    self.matches.clear();
                    self.counts.sync_losses += 1;
                    out.push(BlockEvent::Lost);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rds::{RdsContent, RdsEncoder};

    fn blocks(sync: &mut BlockSync, bits: &[bool]) -> Vec<BlockEvent> {
        let mut out = Vec::new();
        for &b in bits {
            sync.push_bit(b, &mut out);
        }
        out
    }

    #[test]
    fn syncs_on_the_second_block_and_then_reads_every_block() {
        let mut enc = RdsEncoder::new(&RdsContent::default()).unwrap();
        // Start in the middle of a block, as a receiver does.
        let bits = enc.bits(104 * 20);
        let mut sync = BlockSync::new(2);
        let events = blocks(&mut sync, &bits[13..]);
        assert_eq!(events[0], BlockEvent::Synced);
        let infos: Vec<(Offset, u16)> = events
            .iter()
            .filter_map(|e| match *e {
                BlockEvent::Block {
                    offset,
                    info,
                    corrected: 0,
                } => Some((offset, info)),
                _ => None,
            })
            .collect();
        // Synced on block 2 (B) at the second exact match: the first whole
        // block after the cut is block B of group 0, the match confirming
        // it is group 0's C.
        assert_eq!(infos[0].0, Offset::C);
        assert!(infos.len() >= 20 * 4 - 3);
        assert!(
            events
                .iter()
                .all(|e| !matches!(e, BlockEvent::Erasure { .. }))
        );
        assert_eq!(sync.counts().syncs, 1);
    }

    #[test]
    fn a_bit_slip_is_found_again() {
        let mut enc = RdsEncoder::new(&RdsContent::default()).unwrap();
        let mut bits = enc.bits(104 * 40);
        bits.remove(104 * 10 + 7); // a lost bit
        let mut sync = BlockSync::new(2);
        let events = blocks(&mut sync, &bits);
        let lost = events.iter().position(|e| *e == BlockEvent::Lost).unwrap();
        let again = events[lost..]
            .iter()
            .position(|e| *e == BlockEvent::Synced)
            .unwrap();
        let erasures = events
            .iter()
            .filter(|e| matches!(e, BlockEvent::Erasure { .. }))
            .count();
        assert!(erasures <= 8, "{erasures} erasures before resync");
        assert!(again > 0);
        // After the resync every block checks again.
        assert!(
            events[lost + again..]
                .iter()
                .all(|e| !matches!(e, BlockEvent::Erasure { .. }))
        );
    }
}
