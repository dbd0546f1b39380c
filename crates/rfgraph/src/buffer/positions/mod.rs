//! The control words every buffer kind shares: published and staged
//! positions, reader slots, finish/detach flags, peer signals and tags.
//!
//! A buffer kind owns its *memory* (a double-mapped host ring, a device
//! allocation) and embeds one [`EdgePositions`]; implementing
//! [`PositionedBuffer`] then gives it the whole [`EdgeBuffer`] contract.
//! [`WriteCursor`] and [`ReadCursor`] are the per-port halves of the
//! protocol (where the port is, how much it may touch, staging), so typed
//! views over any memory share one implementation of the rules.
//!
//! Each role is taken once: creating a cursor claims the edge's writer
//! slot or one reader slot for good, so no edge ever has two writers (two
//! overlapping `&mut` slices) or two readers with one id (see
//! [`ClaimError`]). The claim is one atomic swap when a port attaches;
//! the hot path does not look at it again.
//!
//! Positions move in two steps, like GNU Radio's buffer update after
//! `work`: `produce`/`consume` only *stage* the new position (a relaxed
//! store to a line no other thread reads); the runtime *publishes* it once
//! per `work` call, after it propagated tags, with one release store and
//! one wake-up of the peer. Tags therefore always arrive no later than
//! their items. No locks, allocation or system calls here unless a tag is
//! involved or a peer is parked.
//!
//! The parts:
//! - `words`: the control words, one cache line per owner, and what
//!   reading them tells (positions, flags, chunk limit, tags); the claims
//!   of the writer's and readers' places;
//! - `cursors`: [`WriteCursor`] and [`ReadCursor`], each port's side,
//!   owning the edge whose place it claimed;
//! - `in_place`: edges that reuse another edge's memory (their writer's
//!   place reserved for the runtime), and the walk that finds the lowest
//!   position any reader down such a chain still needs;
//! - `wake`: publishing positions and flags (the runtime's alone), and
//!   whom each publication wakes.

mod cursors;
mod in_place;
#[cfg(test)]
mod test_edges;
mod wake;
mod words;

pub use cursors::{ReadCursor, WriteCursor};
pub use words::EdgePositions;
pub(crate) use words::ReaderSlot;

#[cfg(doc)]
use super::ClaimError;
use super::EdgeBuffer;
use crate::tag::Tag;
use std::any::Any;

/// A buffer kind whose edge state is an [`EdgePositions`]; it gets
/// [`EdgeBuffer`] for free (the only way to get it).
///
/// # Safety
/// `positions` returns control words this buffer owns alone (a field of
/// it, say), the same ones on every call: the runtime publishes and
/// detaches through them on the writer's and readers' threads, and the
/// claims that keep an edge to one writer live in them. Handing out
/// another edge's words would let two edges' runtimes move one edge.
pub unsafe trait PositionedBuffer: Any + Send + Sync {
    /// The edge's control words.
    fn positions(&self) -> &EdgePositions;
}

impl<B: PositionedBuffer> super::sealed::Sealed for B {}

impl<B: PositionedBuffer> EdgeBuffer for B {
    fn control_words(&self) -> &EdgePositions {
        self.positions()
    }
    fn written(&self) -> u64 {
        self.positions().written()
    }
    fn read_by(&self, reader: usize) -> u64 {
        self.positions().read_by(reader)
    }
    fn unread(&self) -> u64 {
        self.positions().unread()
    }
    fn capacity(&self) -> usize {
        self.positions().capacity()
    }
    fn finish_writer(&self) {
        self.positions().finish_writer();
    }
    fn writer_finished(&self) -> bool {
        self.positions().writer_finished()
    }
    fn attached_readers(&self) -> usize {
        self.positions().attached_readers()
    }
    fn staged_read(&self, reader: usize) -> u64 {
        self.positions().staged_read(reader)
    }
    fn set_same_thread(&self, reader: usize, same: bool) {
        self.positions().set_same_thread(reader, same);
    }
    fn set_root_writer_same_thread(&self, reader: usize, same: bool) {
        self.positions().set_root_writer_same_thread(reader, same);
    }
    fn limit_chunk(&self, items: usize) {
        self.positions().limit_chunk(items);
    }
    fn limit_fill(&self, items: usize) {
        self.positions().limit_fill(items);
    }
    fn add_tag(&self, tag: Tag) {
        self.positions().add_tag(tag);
    }
    fn for_each_tag(&self, range: std::ops::Range<u64>, f: &mut dyn FnMut(&Tag)) {
        self.positions().for_each_tag(range, f);
    }
}
