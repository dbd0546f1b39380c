//! Each port's side of the protocol: [`WriteCursor`] (the writer's
//! position and the free space it saw last) and [`ReadCursor`] (a
//! reader's position and the items it saw last). Typed views over any
//! memory (host rings, device rings) add the memory and build on these,
//! so the rules that make their slices disjoint live here once.
//!
//! A cursor holds its edge (an `Arc` of the buffer kind), so it only ever
//! moves the edge it claimed: creating it takes the edge's writer slot or
//! one reader slot for good (see [`ClaimError`]), and every later call
//! works on that edge's words.
//!
//! Cursors only *stage* positions (a relaxed store to their own line):
//! staging must never publish or wake anyone; the runtime publishes after
//! `work` (see `wake`). A cursor's `publish` is for code driving an edge
//! by hand (a test, a benchmark), on the cursor's own thread.
//!
//! The hot path is what it was with the edge passed in: the `Arc`'s
//! pointer is the one load a view made anyway, and the buffer kind is a
//! type parameter, so reaching the control words is a field offset.

use super::words::{NOT_LOOKED, WRITER_FREE, WRITER_RESERVED, WRITER_TAKEN};
use super::{EdgePositions, PositionedBuffer};
use crate::buffer::{ClaimError, EdgeBuffer};
use crate::tag::Tag;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// The writer's side of the protocol over a buffer of kind `B`: its
/// position and the free space it saw last. A typed view adds the memory.
///
/// At most one exists per edge, ever: [`new`](Self::new) claims the
/// edge's writer slot and fails if it was taken.
pub struct WriteCursor<B: PositionedBuffer> {
    buf: Arc<B>,
    pos: u64,
    /// Free items as of the last `refresh`; `produce` never reads remote state.
    free: usize,
}

impl<B: PositionedBuffer> std::fmt::Debug for WriteCursor<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WriteCursor")
            .field("pos", &self.pos)
            .field("free", &self.free)
            .finish()
    }
}

impl<B: PositionedBuffer> WriteCursor<B> {
    /// The writer of `buf`, at its current write position.
    ///
    /// # Errors
    /// [`ClaimError::WriterTaken`] if the edge already has its writer,
    /// [`ClaimError::InPlaceView`] if it reuses another edge's memory in
    /// place (only the runtime writes such an edge).
    pub fn new(buf: Arc<B>) -> Result<Self, ClaimError> {
        buf.positions().claim_writer(WRITER_FREE)?;
        Ok(Self::claimed(buf))
    }

    /// The writer of `buf`, an edge made by [`EdgePositions::in_place_of`]
    /// whose writer slot is still reserved for the runtime's in-place
    /// output.
    pub(crate) fn new_in_place(buf: Arc<B>) -> Result<Self, ClaimError> {
        buf.positions().claim_writer(WRITER_RESERVED)?;
        Ok(Self::claimed(buf))
    }

    fn claimed(buf: Arc<B>) -> Self {
        debug_assert_eq!(
            buf.positions().writer_claim.load(Ordering::Relaxed),
            WRITER_TAKEN
        );
        let pos = buf.positions().published_write();
        Self { buf, pos, free: 0 }
    }

    /// The buffer this cursor writes.
    #[inline(always)]
    pub fn buffer(&self) -> &Arc<B> {
        &self.buf
    }

    #[inline(always)]
    fn edge(&self) -> &EdgePositions {
        self.buf.positions()
    }

    /// Re-reads the readers' positions; returns the free items from
    /// `position`, at most the edge's chunk limit.
    #[inline]
    pub fn refresh(&mut self) -> usize {
        let edge = self.buf.positions();
        let min = edge.min_read(self.pos);
        let fill = edge.writer.fill.load(Ordering::Relaxed);
        let free = fill.saturating_sub((self.pos - min) as usize);
        // The first look since the writer last produced is the room it
        // decides on (a block may look again and still act on the first),
        // for its request for room when it idles.
        let seen = &edge.writer.room_seen;
        if seen.load(Ordering::Relaxed) == NOT_LOOKED {
            seen.store(min + fill as u64, Ordering::Relaxed);
        }
        self.free = free.min(edge.writer.chunk.load(Ordering::Relaxed));
        self.free
    }

    /// Stages `n` items that a reader of the edge this one reuses (see
    /// [`EdgePositions::in_place_of`]) just consumed and transformed in
    /// place. Skips the free space check, which would walk every later
    /// edge of the chain: the caller (the in-place output of this crate)
    /// checked that they lie below that reader's staged position, hence
    /// below the first writer's, with this edge's readers behind them.
    #[inline]
    pub(crate) fn produce_in_place(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        self.free = self.free.saturating_sub(n);
        self.pos += n as u64;
        let pos = self.pos;
        self.edge().writer.staged.store(pos, Ordering::Relaxed);
    }

    /// Stages `n` items written at `position`.
    ///
    /// # Panics
    /// If `n` exceeds the free space seen by the last `refresh`.
    #[inline]
    pub fn produce(&mut self, n: usize) {
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
        let pos = self.pos;
        let writer = &self.edge().writer;
        writer.staged.store(pos, Ordering::Relaxed);
        writer.room_seen.store(NOT_LOOKED, Ordering::Relaxed);
    }

    /// Publishes the staged items to the readers now. The runtime does
    /// this after every `work` call; only code driving an edge by hand
    /// (a test, a benchmark) needs it. The cursor's owner calls it, on
    /// the writer's thread.
    pub fn publish(&self) -> u64 {
        self.edge().publish_write()
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

/// One reader's side of the protocol over a buffer of kind `B`: its
/// position and the writer position it saw last.
///
/// At most one exists per reader id and edge, ever: [`new`](Self::new)
/// claims the reader's slot and fails if it was taken.
pub struct ReadCursor<B: PositionedBuffer> {
    buf: Arc<B>,
    id: usize,
    pos: u64,
    /// Writer position as of the last `refresh`.
    seen: u64,
}

impl<B: PositionedBuffer> std::fmt::Debug for ReadCursor<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadCursor")
            .field("id", &self.id)
            .field("pos", &self.pos)
            .field("seen", &self.seen)
            .finish()
    }
}

impl<B: PositionedBuffer> ReadCursor<B> {
    /// Reader number `id` of `buf`, at its current read position.
    ///
    /// # Errors
    /// [`ClaimError::NoSuchReader`] if the edge has no reader `id`,
    /// [`ClaimError::ReaderTaken`] if that reader already has a cursor.
    pub fn new(buf: Arc<B>, id: usize) -> Result<Self, ClaimError> {
        let edge = buf.positions();
        edge.claim_reader(id)?;
        let pos = edge.slot(id).read.load(Ordering::Acquire);
        Ok(Self {
            buf,
            id,
            pos,
            seen: pos,
        })
    }

    /// The buffer this cursor reads.
    #[inline(always)]
    pub fn buffer(&self) -> &Arc<B> {
        &self.buf
    }

    #[inline(always)]
    fn edge(&self) -> &EdgePositions {
        self.buf.positions()
    }

    /// Re-reads the writer's position; returns the readable items, at most
    /// the edge's chunk limit.
    #[inline]
    pub fn refresh(&mut self) -> usize {
        let edge = self.buf.positions();
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
    pub fn consume(&mut self, n: usize) {
        assert!(
            n as u64 <= self.seen - self.pos,
            "consume({n}) exceeds the {} readable items of the input",
            self.seen - self.pos
        );
        if n == 0 {
            return;
        }
        self.pos += n as u64;
        let (id, pos) = (self.id, self.pos);
        self.edge().slot(id).staged.store(pos, Ordering::Relaxed);
    }

    /// Publishes the staged consumption to the writer now (see
    /// [`WriteCursor::publish`]), on this reader's thread.
    pub fn publish(&self) -> u64 {
        self.edge().publish_read(self.id)
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
    pub fn tags(&self) -> Vec<Tag> {
        let mut out = Vec::new();
        self.buf
            .for_each_tag(self.pos..self.seen, &mut |t| out.push(t.clone()));
        out
    }

    /// True when the writer finished and every item it wrote was consumed.
    pub fn is_finished(&self) -> bool {
        self.buf.writer_finished() && self.buf.written() == self.pos
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_edges::{Bare, Edge};
    use super::*;
    use crate::buffer::EdgeSpec;
    use crate::buffer::circular::{CircularBuffer, CircularReader, CircularWriter};
    use crate::signal::Signal;

    /// The writer stages items; readers see them once published, and
    /// their own consumption is staged until their runner publishes it.
    #[test]
    fn readers_see_only_published_items() {
        let edge = Edge::new(16, 2);
        let words = edge.words();
        let mut w = edge.write_cursor();
        assert_eq!(w.free(), 0, "no room known before the first refresh");
        assert_eq!(w.refresh(), 16);
        w.produce(5);
        assert_eq!((w.position(), w.free()), (5, 11));
        assert_eq!(words.staged_write(), 5);
        let mut r = edge.read_cursor(1);
        assert_eq!(r.refresh(), 0, "staged, not published");
        assert_eq!(words.publish_write(), 5);
        assert_eq!(r.refresh(), 5);
        r.consume(2);
        assert_eq!((r.id(), r.position(), r.available()), (1, 2, 3));
        assert_eq!((words.staged_read(1), words.read_by(1)), (2, 0));
        assert_eq!(words.publish_read(1), 2);
        assert_eq!(words.read_by(1), 2);
        assert_eq!(words.read_by(0), 0, "the other reader did not move");
    }

    /// A cursor's own `publish` (for code driving an edge by hand) is the
    /// runtime's publication of its side, and moves nothing else.
    #[test]
    fn a_cursor_publishes_its_own_side() {
        let edge = Edge::new(16, 2);
        let words = edge.words();
        let mut w = edge.write_cursor();
        w.refresh();
        w.produce(5);
        assert_eq!(words.written(), 0, "staged only");
        assert_eq!(w.publish(), 5);
        assert_eq!(words.written(), 5);
        let mut r = edge.read_cursor(1);
        r.refresh();
        r.consume(3);
        assert_eq!(words.read_by(1), 0, "staged only");
        assert_eq!(r.publish(), 3);
        assert_eq!((words.read_by(0), words.read_by(1)), (0, 3));
    }

    /// Cursors made mid-run start at the published positions, not at the
    /// staged ones. A place is claimed once, so the positions here are
    /// staged and published as an earlier port's and its runner's would
    /// have been, without a cursor.
    #[test]
    fn cursors_start_at_the_published_positions() {
        let edge = Edge::new(16, 1);
        let words = edge.words();
        words.writer.staged.store(6, Ordering::Relaxed);
        assert_eq!(words.publish_write(), 6);
        words.slot(0).staged.store(4, Ordering::Relaxed);
        assert_eq!(words.publish_read(0), 4);
        // Staged past the published positions: not where a cursor starts.
        words.writer.staged.store(7, Ordering::Relaxed);
        words.slot(0).staged.store(5, Ordering::Relaxed);
        let w2 = edge.write_cursor();
        assert_eq!((w2.position(), w2.free()), (6, 0));
        let mut r2 = edge.read_cursor(0);
        assert_eq!((r2.position(), r2.available()), (4, 0));
        assert_eq!(r2.refresh(), 2);
    }

    /// The writer's room is the ring less what the slowest attached
    /// reader has not published as read.
    #[test]
    fn free_space_follows_the_slowest_reader() {
        let edge = Edge::new(16, 3);
        let words = edge.words();
        let mut w = edge.write_cursor();
        edge.write(&mut w, 12);
        let mut readers: Vec<ReadCursor<Bare>> = (0..3).map(|id| edge.read_cursor(id)).collect();
        for (r, n) in readers.iter_mut().zip([12, 4, 9]) {
            edge.read(r, n);
        }
        assert_eq!(w.refresh(), 16 - (12 - 4));
        edge.read(&mut readers[1], 8);
        assert_eq!(w.refresh(), 16 - (12 - 9), "reader 2 is the slowest now");
        // Consumed but not published: the writer cannot know yet.
        readers[2].refresh();
        readers[2].consume(3);
        assert_eq!(w.refresh(), 13);
        words.publish_read(2);
        assert_eq!(w.refresh(), 16);
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
        let mut w = edge.write_cursor();
        let mut fast = edge.read_cursor(0);
        let mut slow = edge.read_cursor(1);
        let (mut written, mut fast_at, mut slow_at) = (0u64, 0u64, 0u64);
        for step in 0..1000u64 {
            let room = cap - (written - fast_at.min(slow_at)) as usize;
            assert_eq!(w.refresh(), room, "step {step}");
            let n = room.min(1 + (step % 7) as usize);
            w.produce(n);
            words.publish_write();
            written += n as u64;
            assert_eq!(w.position(), written);
            let visible = (written - fast_at) as usize;
            assert_eq!(fast.refresh(), visible);
            edge.read(&mut fast, visible);
            fast_at = written;
            let visible = (written - slow_at) as usize;
            assert_eq!(slow.refresh(), visible);
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
        let mut w = edge.write_cursor();
        edge.write(&mut w, 10);
        let (mut fast, mut slow) = (edge.read_cursor(0), edge.read_cursor(1));
        edge.read(&mut fast, 10);
        edge.read(&mut slow, 2);
        assert_eq!(w.refresh(), 8);
        words.detach_reader(1);
        assert_eq!(w.refresh(), 16);
        edge.write(&mut w, 16);
        assert_eq!(w.refresh(), 0);
        words.detach_reader(0);
        assert_eq!(w.refresh(), 16, "no reader left");
    }

    /// A reader is finished once the writer finished and it consumed
    /// every published item, not before either.
    #[test]
    fn a_reader_finishes_after_the_writers_last_item() {
        let edge = Edge::new(16, 1);
        let words = edge.words();
        let mut w = edge.write_cursor();
        edge.write(&mut w, 4);
        let mut r = edge.read_cursor(0);
        edge.read(&mut r, 3);
        assert!(!r.is_finished(), "the writer still runs");
        words.finish_writer();
        assert!(!r.is_finished(), "one item left");
        r.refresh();
        r.consume(1);
        assert!(r.is_finished());
    }

    /// Both sides see at most one chunk at a time, and a reader's tags
    /// are those of its window, by absolute index.
    #[test]
    fn cursors_see_at_most_one_chunk() {
        let edge = Edge::new(16, 1);
        let words = edge.words();
        words.limit_chunk(4);
        let mut w = edge.write_cursor();
        assert_eq!(w.refresh(), 4);
        w.produce(4);
        assert_eq!(w.refresh(), 4, "12 free, one chunk shown");
        w.produce(4);
        words.publish_write();
        for index in [2, 5, 9] {
            words.add_tag(Tag::new(index, "k", index));
        }
        let mut r = edge.read_cursor(0);
        assert_eq!(r.refresh(), 4);
        let tags =
            |r: &ReadCursor<Bare>| -> Vec<u64> { r.tags().iter().map(|t| t.index).collect() };
        assert_eq!(tags(&r), [2]);
        r.consume(3);
        assert_eq!(tags(&r), Vec::<u64>::new(), "tag 2 was consumed");
        assert_eq!(r.refresh(), 4, "from 3: items 3 to 6");
        assert_eq!(tags(&r), [5]);
    }

    #[test]
    #[should_panic(expected = "produce(17) exceeds the 16 free items")]
    fn producing_more_than_the_room_seen_panics() {
        let edge = Edge::new(16, 1);
        let mut w = edge.write_cursor();
        w.refresh();
        w.produce(17);
    }

    /// Room is what the last refresh saw: a writer that never refreshed
    /// may not produce at all.
    #[test]
    #[should_panic(expected = "produce(1) exceeds the 0 free items")]
    fn producing_without_a_refresh_panics() {
        let edge = Edge::new(16, 1);
        let mut w = edge.write_cursor();
        w.produce(1);
    }

    #[test]
    #[should_panic(expected = "consume(4) exceeds the 3 readable items")]
    fn consuming_more_than_was_shown_panics() {
        let edge = Edge::new(16, 1);
        let mut w = edge.write_cursor();
        edge.write(&mut w, 3);
        let mut r = edge.read_cursor(0);
        r.refresh();
        r.consume(4);
    }

    fn ring(readers: usize) -> Arc<CircularBuffer> {
        CircularBuffer::new(EdgeSpec {
            item_size: 4,
            min_bytes: 4096,
            writer_signal: Signal::new(),
            reader_signals: (0..readers).map(|_| Signal::new()).collect(),
        })
        .unwrap()
    }

    /// An edge gets one writer, however it is asked for: a second typed
    /// view or a bare cursor both fail, so no two `&mut` slices of one
    /// ring's free space can exist.
    #[test]
    fn an_edge_has_one_writer_for_good() {
        let edge = ring(1);
        let mut first = CircularWriter::<u32>::new(edge.clone()).unwrap();
        assert_eq!(
            CircularWriter::<u32>::new(edge.clone()).err(),
            Some(ClaimError::WriterTaken)
        );
        assert_eq!(
            WriteCursor::new(edge.clone()).err().map(|e| e.to_string()),
            Some("the edge already has a writer".to_string())
        );
        // Dropping the writer does not hand the place back: a writer that
        // comes later cannot overwrite what the first one produced.
        let n = first.slice().len();
        first.produce(n);
        drop(first);
        assert!(CircularWriter::<u32>::new(edge.clone()).is_err());
        // Another edge is unaffected.
        assert!(WriteCursor::new(ring(1)).is_ok());
    }

    /// Each reader id is taken once, and only ids the edge has.
    #[test]
    fn each_reader_is_taken_once() {
        let edge = ring(2);
        let _r0 = CircularReader::<u32>::new(edge.clone(), 0).unwrap();
        assert_eq!(
            CircularReader::<u32>::new(edge.clone(), 0).err(),
            Some(ClaimError::ReaderTaken { reader: 0 })
        );
        assert_eq!(
            ReadCursor::new(edge.clone(), 2).err(),
            Some(ClaimError::NoSuchReader {
                reader: 2,
                readers: 2
            })
        );
        let _r1 = ReadCursor::new(edge.clone(), 1).unwrap();
        assert_eq!(
            ReadCursor::new(edge.clone(), 1).err(),
            Some(ClaimError::ReaderTaken { reader: 1 })
        );
        // Readers and the writer are separate places.
        assert!(WriteCursor::new(edge).is_ok());
    }

    /// An edge reusing another ring in place has no public writer: its
    /// free space is the base ring's. The crate's in-place output takes
    /// the reserved place, once.
    #[test]
    fn an_in_place_edge_has_no_public_writer() {
        let base = ring(1);
        let view = CircularBuffer::in_place_of(
            &base,
            0,
            EdgeSpec {
                item_size: 4,
                min_bytes: 1,
                writer_signal: Signal::new(),
                reader_signals: vec![Signal::new()],
            },
        );
        assert_eq!(
            CircularWriter::<u32>::new(view.clone()).err(),
            Some(ClaimError::InPlaceView)
        );
        assert_eq!(
            WriteCursor::new(view.clone()).err(),
            Some(ClaimError::InPlaceView)
        );
        let writer = CircularWriter::<u32>::attach(view.clone()).unwrap();
        assert!(writer.is_in_place());
        assert_eq!(
            CircularWriter::<u32>::attach(view.clone()).err(),
            Some(ClaimError::WriterTaken)
        );
        assert_eq!(WriteCursor::new(view).err(), Some(ClaimError::WriterTaken));
        // The base ring's own writer is unaffected.
        assert!(!CircularWriter::<u32>::attach(base).unwrap().is_in_place());
    }
}
