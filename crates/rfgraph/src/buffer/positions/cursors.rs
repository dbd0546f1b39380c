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

#[cfg(test)]
mod tests {
    use super::super::test_edges::Edge;
    use super::*;

    /// The writer stages items; readers see them once published, and
    /// their own consumption is staged until their runner publishes it.
    #[test]
    fn readers_see_only_published_items() {
        let edge = Edge::new(16, 2);
        let words = edge.words();
        let mut w = WriteCursor::new(words);
        assert_eq!(w.free(), 0, "no room known before the first refresh");
        assert_eq!(w.refresh(words), 16);
        w.produce(words, 5);
        assert_eq!((w.position(), w.free()), (5, 11));
        assert_eq!(words.staged_write(), 5);
        let mut r = ReadCursor::new(words, 1);
        assert_eq!(r.refresh(words), 0, "staged, not published");
        assert_eq!(words.publish_write(), 5);
        assert_eq!(r.refresh(words), 5);
        r.consume(words, 2);
        assert_eq!((r.id(), r.position(), r.available()), (1, 2, 3));
        assert_eq!((words.staged_read(1), words.read_by(1)), (2, 0));
        assert_eq!(words.publish_read(1), 2);
        assert_eq!(words.read_by(1), 2);
        assert_eq!(words.read_by(0), 0, "the other reader did not move");
    }

    /// Cursors made mid-run start at the published positions.
    #[test]
    fn cursors_start_at_the_published_positions() {
        let edge = Edge::new(16, 1);
        let words = edge.words();
        let mut w = WriteCursor::new(words);
        edge.write(&mut w, 6);
        let mut r = ReadCursor::new(words, 0);
        edge.read(&mut r, 4);
        let w2 = WriteCursor::new(words);
        assert_eq!((w2.position(), w2.free()), (6, 0));
        let mut r2 = ReadCursor::new(words, 0);
        assert_eq!((r2.position(), r2.available()), (4, 0));
        assert_eq!(r2.refresh(words), 2);
    }

    /// The writer's room is the ring less what the slowest attached
    /// reader has not published as read.
    #[test]
    fn free_space_follows_the_slowest_reader() {
        let edge = Edge::new(16, 3);
        let words = edge.words();
        let mut w = WriteCursor::new(words);
        edge.write(&mut w, 12);
        let mut readers: Vec<ReadCursor> = (0..3).map(|id| ReadCursor::new(words, id)).collect();
        for (r, n) in readers.iter_mut().zip([12, 4, 9]) {
            edge.read(r, n);
        }
        assert_eq!(w.refresh(words), 16 - (12 - 4));
        edge.read(&mut readers[1], 8);
        assert_eq!(
            w.refresh(words),
            16 - (12 - 9),
            "reader 2 is the slowest now"
        );
        // Consumed but not published: the writer cannot know yet.
        readers[2].refresh(words);
        readers[2].consume(words, 3);
        assert_eq!(w.refresh(words), 13);
        words.publish_read(2);
        assert_eq!(w.refresh(words), 16);
    }

    /// Positions count items since the start of the run: they run on past
    /// the capacity lap after lap, while the writer's room and the
    /// readers' windows stay within one ring (checked against a model of
    /// the rules at every step, with readers of different speeds).
    #[test]
    fn positions_run_on_across_laps() {
        let cap = 8;
        let edge = Edge::new(cap, 2);
        let words = edge.words();
        let mut w = WriteCursor::new(words);
        let mut fast = ReadCursor::new(words, 0);
        let mut slow = ReadCursor::new(words, 1);
        let (mut written, mut fast_at, mut slow_at) = (0u64, 0u64, 0u64);
        for step in 0..1000u64 {
            let room = cap - (written - fast_at.min(slow_at)) as usize;
            assert_eq!(w.refresh(words), room, "step {step}");
            let n = room.min(1 + (step % 7) as usize);
            w.produce(words, n);
            words.publish_write();
            written += n as u64;
            assert_eq!(w.position(), written);
            let visible = (written - fast_at) as usize;
            assert_eq!(fast.refresh(words), visible);
            edge.read(&mut fast, visible);
            fast_at = written;
            let visible = (written - slow_at) as usize;
            assert_eq!(slow.refresh(words), visible);
            let k = visible.min(3);
            edge.read(&mut slow, k);
            slow_at += k as u64;
            assert_eq!((fast.position(), slow.position()), (fast_at, slow_at));
            assert!(written - slow_at <= cap as u64);
        }
        assert!(written > 200 * cap as u64, "{written} items: many laps");
        assert_eq!(words.written(), written);
        assert_eq!(words.unread(), written - slow_at);
    }

    /// A detached reader holds no space: the room follows the readers
    /// still attached, and with none left the whole ring is free.
    #[test]
    fn a_detached_reader_frees_its_space() {
        let edge = Edge::new(16, 2);
        let words = edge.words();
        let mut w = WriteCursor::new(words);
        edge.write(&mut w, 10);
        let (mut fast, mut slow) = (ReadCursor::new(words, 0), ReadCursor::new(words, 1));
        edge.read(&mut fast, 10);
        edge.read(&mut slow, 2);
        assert_eq!(w.refresh(words), 8);
        words.detach_reader(1);
        assert_eq!(w.refresh(words), 16);
        edge.write(&mut w, 16);
        assert_eq!(w.refresh(words), 0);
        words.detach_reader(0);
        assert_eq!(w.refresh(words), 16, "no reader left");
    }

    /// A reader is finished once the writer finished and it consumed
    /// every published item, not before either.
    #[test]
    fn a_reader_finishes_after_the_writers_last_item() {
        let edge = Edge::new(16, 1);
        let words = edge.words();
        let mut w = WriteCursor::new(words);
        edge.write(&mut w, 4);
        let mut r = ReadCursor::new(words, 0);
        edge.read(&mut r, 3);
        assert!(!r.is_finished(edge.buffer()), "the writer still runs");
        words.finish_writer();
        assert!(!r.is_finished(edge.buffer()), "one item left");
        r.refresh(words);
        r.consume(words, 1);
        assert!(r.is_finished(edge.buffer()));
    }

    /// Both sides see at most one chunk at a time, and a reader's tags
    /// are those of its window, by absolute index.
    #[test]
    fn cursors_see_at_most_one_chunk() {
        let edge = Edge::new(16, 1);
        let words = edge.words();
        words.limit_chunk(4);
        let mut w = WriteCursor::new(words);
        assert_eq!(w.refresh(words), 4);
        w.produce(words, 4);
        assert_eq!(w.refresh(words), 4, "12 free, one chunk shown");
        w.produce(words, 4);
        words.publish_write();
        for index in [2, 5, 9] {
            words.add_tag(Tag::new(index, "k", index));
        }
        let mut r = ReadCursor::new(words, 0);
        assert_eq!(r.refresh(words), 4);
        let tags = |r: &ReadCursor| -> Vec<u64> {
            r.tags(edge.buffer()).iter().map(|t| t.index).collect()
        };
        assert_eq!(tags(&r), [2]);
        r.consume(words, 3);
        assert_eq!(tags(&r), Vec::<u64>::new(), "tag 2 was consumed");
        assert_eq!(r.refresh(words), 4, "from 3: items 3 to 6");
        assert_eq!(tags(&r), [5]);
    }

    #[test]
    #[should_panic(expected = "produce(17) exceeds the 16 free items")]
    fn producing_more_than_the_room_seen_panics() {
        let edge = Edge::new(16, 1);
        let mut w = WriteCursor::new(edge.words());
        w.refresh(edge.words());
        w.produce(edge.words(), 17);
    }

    /// Room is what the last refresh saw: a writer that never refreshed
    /// may not produce at all.
    #[test]
    #[should_panic(expected = "produce(1) exceeds the 0 free items")]
    fn producing_without_a_refresh_panics() {
        let edge = Edge::new(16, 1);
        let mut w = WriteCursor::new(edge.words());
        w.produce(edge.words(), 1);
    }

    #[test]
    #[should_panic(expected = "consume(4) exceeds the 3 readable items")]
    fn consuming_more_than_was_shown_panics() {
        let edge = Edge::new(16, 1);
        let words = edge.words();
        let mut w = WriteCursor::new(words);
        edge.write(&mut w, 3);
        let mut r = ReadCursor::new(words, 0);
        r.refresh(words);
        r.consume(words, 4);
    }
}
