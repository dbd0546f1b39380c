//! Each port's side of the protocol: [`WriteCursor`] (the writer's
//! position and the free space it saw last) and [`ReadCursor`] (a
//! reader's position and the items it saw last). Typed views add the
//! memory.
//!
//! Cursors only *stage* positions (a relaxed store to their own line):
//! they must never publish or wake anyone; the runtime publishes after
//! `work` (see `wake`).

use super::EdgePositions;
use crate::buffer::EdgeBuffer;
use crate::tag::Tag;
use std::sync::atomic::Ordering;

/// The writer's side of the protocol: its position and the free space it
/// saw last. A typed view adds the memory.
#[derive(Debug)]
pub struct WriteCursor {
    pos: u64,
    /// Free items as of the last `refresh`; `produce` never reads remote state.
    free: usize,
}

impl WriteCursor {
    /// A cursor at the edge's current write position.
    pub fn new(edge: &EdgePositions) -> Self {
        Self {
            pos: edge.published_write(),
            free: 0,
        }
    }

    /// Re-reads the readers' positions; returns the free items from
    /// `position`, at most the edge's chunk limit.
    #[inline]
    pub fn refresh(&mut self, edge: &EdgePositions) -> usize {
        let min = edge.min_read(self.pos);
        let free = edge.capacity() - (self.pos - min) as usize;
        self.free = free.min(edge.writer.chunk.load(Ordering::Relaxed));
        self.free
    }

    /// Stages `n` items that a reader of the edge this one reuses (see
    /// [`EdgePositions::in_place_of`]) just consumed and transformed in
    /// place. They fit by construction: they lie below the first writer's
    /// position, and this edge's readers are behind them. Skips the free
    /// space check, which would walk every later edge of the chain.
    #[inline]
    pub fn produce_in_place(&mut self, edge: &EdgePositions, n: usize) {
        if n == 0 {
            return;
        }
        self.free = self.free.saturating_sub(n);
        self.pos += n as u64;
        edge.writer.staged.store(self.pos, Ordering::Relaxed);
    }

    /// Stages `n` items written at `position`.
    ///
    /// # Panics
    /// If `n` exceeds the free space seen by the last `refresh`.
    #[inline]
    pub fn produce(&mut self, edge: &EdgePositions, n: usize) {
        assert!(
            n <= self.free,
            "produce({n}) exceeds the {} free items of the output",
            self.free
        );
        if n == 0 {
            return;
        }
        self.free -= n;
        self.pos += n as u64;
        edge.writer.staged.store(self.pos, Ordering::Relaxed);
    }

    /// Absolute index of the next item to be written.
    #[inline]
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// Free items as of the last refresh, less what was produced since.
    #[inline]
    pub fn free(&self) -> usize {
        self.free
    }
}

/// One reader's side of the protocol: its position and the writer position
/// it saw last.
#[derive(Debug)]
pub struct ReadCursor {
    id: usize,
    pos: u64,
    /// Writer position as of the last `refresh`.
    seen: u64,
}

impl ReadCursor {
    /// Reader number `id` of `edge`, at its current read position.
    pub fn new(edge: &EdgePositions, id: usize) -> Self {
        let pos = edge.slot(id).read.load(Ordering::Acquire);
        Self { id, pos, seen: pos }
    }

    /// Re-reads the writer's position; returns the readable items, at most
    /// the edge's chunk limit.
    #[inline]
    pub fn refresh(&mut self, edge: &EdgePositions) -> usize {
        // The window ends at the chunk limit, so that tags and `consume`
        // cover exactly the items the port shows (a writer more than a
        // chunk ahead once made tags past the window show up twice).
        let chunk = edge.writer.chunk.load(Ordering::Relaxed) as u64;
        self.seen = edge.published_write().min(self.pos + chunk);
        (self.seen - self.pos) as usize
    }

    /// Stages `n` items as consumed.
    ///
    /// # Panics
    /// If `n` exceeds what the last `refresh` showed.
    #[inline]
    pub fn consume(&mut self, edge: &EdgePositions, n: usize) {
        assert!(
            n as u64 <= self.seen - self.pos,
            "consume({n}) exceeds the {} readable items of the input",
            self.seen - self.pos
        );
        if n == 0 {
            return;
        }
        self.pos += n as u64;
        edge.slot(self.id).staged.store(self.pos, Ordering::Relaxed);
    }

    /// Reader number.
    #[inline]
    pub fn id(&self) -> usize {
        self.id
    }

    /// Absolute index of the next item to be read.
    #[inline]
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// Readable items as of the last refresh, less what was consumed since.
    #[inline]
    pub fn available(&self) -> usize {
        (self.seen - self.pos) as usize
    }

    /// Tags on `[position, seen)`, with absolute indices.
    pub fn tags(&self, edge: &dyn EdgeBuffer) -> Vec<Tag> {
        let mut out = Vec::new();
        edge.for_each_tag(self.pos..self.seen, &mut |t| out.push(t.clone()));
        out
    }

    /// True when the writer finished and every item it wrote was consumed.
    pub fn is_finished(&self, edge: &dyn EdgeBuffer) -> bool {
        edge.writer_finished() && edge.written() == self.pos
    }
}
