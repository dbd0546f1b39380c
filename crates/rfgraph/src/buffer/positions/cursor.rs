//! The per-port halves of the position protocol: [`WriteCursor`] and
//! [`ReadCursor`].
//!
//! A cursor holds its edge (an `Arc` of the buffer kind), so it only ever
//! moves the edge it claimed: creating it takes the edge's writer slot or
//! one reader slot for good (see [`ClaimError`]), and every later call
//! works on that edge's words. Typed views over any memory (host rings,
//! device rings) build on these, so the rules that make their slices
//! disjoint live here once.
//!
//! The hot path is what it was with the edge passed in: the `Arc`'s
//! pointer is the one load a view made anyway, and the buffer kind is a
//! type parameter, so reaching the control words is a field offset.

use super::{EdgePositions, PositionedBuffer, WRITER_RESERVED, WRITER_TAKEN};
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
        buf.positions().claim_writer(super::WRITER_FREE)?;
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
        let free = edge.capacity() - (self.pos - min) as usize;
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
        self.edge().writer.staged.store(pos, Ordering::Relaxed);
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
    use crate::buffer::circular::{CircularBuffer, CircularReader, CircularWriter};
    use crate::buffer::positions::{ReadCursor, WriteCursor};
    use crate::buffer::{ClaimError, EdgeSpec};
    use crate::signal::Signal;
    use std::sync::Arc;

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
