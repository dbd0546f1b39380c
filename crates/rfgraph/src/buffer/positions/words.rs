//! The control words of one edge: the writer's line (positions, capacity,
//! finish flag, which readers are remote, chunk limit, tags), one line
//! per reader (positions, detach flag, whom it wakes, whether a cursor
//! claimed it) and the writer's claim, off the hot lines; and what
//! reading them tells.
//!
//! Here too are the claims that give an edge one writer and each reader
//! id one cursor: [`EdgePositions::claim_writer`] and
//! [`EdgePositions::claim_reader`], one atomic swap each when a port
//! attaches (see [`ClaimError`]), never looked at again on the hot path.
//!
//! Otherwise loads and plain stores only: publishing a position or a flag
//! that a peer must hear about is `wake`'s, and moving the staged
//! positions is the cursors'. Nothing here may lock or allocate unless a
//! tag is involved.

use super::wake::WAKES_WRITER;
#[cfg(doc)]
use super::{ReadCursor, WriteCursor};
#[cfg(doc)]
use crate::buffer::EdgeBuffer;
use crate::buffer::{ClaimError, EdgeHandle, EdgeSpec};
use crate::signal::Signal;
use crate::tag::{Tag, TagStore};
use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// One reader's control words, on a line of their own: its published
/// position (read by the writer), its staged position and its flags.
pub(crate) struct ReaderSlot {
    /// Published read position.
    pub(super) read: AtomicU64,
    /// Staged read position (touched by the reader's thread only).
    pub(super) staged: AtomicU64,
    pub(super) detached: AtomicBool,
    /// Whom publishing this reader's position wakes: [`WAKES_WRITER`],
    /// [`WAKES_ROOT`], both or none (set before the run). One word, so
    /// that a publication that wakes no one tests one byte; kept here so
    /// that publishing reads only this line.
    ///
    /// [`WAKES_ROOT`]: super::wake::WAKES_ROOT
    pub(super) wakes: AtomicU8,
    /// Set when this reader works in place and its output edge reuses this
    /// edge's memory: items stay live until that edge's readers are done.
    pub(super) passes_to: OnceLock<EdgeHandle>,
    /// Taken by the first [`ReadCursor`] of this reader (see
    /// [`EdgePositions::claim_reader`]); read nowhere else.
    claimed: AtomicBool,
}

/// The writer's control words, on one line: what every `work` call of the
/// writer touches, and what readers poll. `repr(C)` keeps the words every
/// call reads (down to the tag horizon) in the first 64 bytes; the tags'
/// lock follows, touched only when tags are used.
#[repr(C)]
pub(super) struct WriterWords {
    /// Published write position.
    pub(super) write: AtomicU64,
    /// Staged write position (touched by the writer's thread only).
    pub(super) staged: AtomicU64,
    /// Bit `r` set: reader `r` runs on another thread than the writer and
    /// needs a signal when items arrive. On an edge with more than 64
    /// readers, bit 63 stands for readers 63 and up and stays set: they
    /// always get signals, which is merely slower (see
    /// [`EdgePositions::reader_bit`]).
    pub(super) remote_readers: AtomicU64,
    /// Readers not detached (written only when one detaches).
    pub(super) attached: AtomicUsize,
    /// Most items a port sees at once (its slice), so that schedulers can
    /// keep chunks cache-sized on rings made larger for slack.
    pub(super) chunk: AtomicUsize,
    /// Most items the writer may have ahead of its slowest reader (the
    /// capacity unless a latency budget caps it: see
    /// [`EdgeBuffer::limit_fill`]).
    pub(super) fill: AtomicUsize,
    /// Capacity in items (fixed).
    pub(super) capacity: usize,
    pub(super) done: AtomicBool,
    /// The writer went idle short of room and asks readers on other
    /// threads to wake it when they free some (see
    /// [`EdgePositions::want_room`]).
    pub(super) wants_room: AtomicBool,
    /// The position up to which the writer saw room at its first look
    /// (its write cursor's refresh) since it last produced, or
    /// [`NOT_LOOKED`]; touched by the writer's thread only.
    pub(super) room_seen: AtomicU64,
    /// Readers of the edge (fixed). Here rather than beside the reader
    /// slots: a writer whose readers pass its items on in place follows
    /// the chain on every call (see `readers_floor`), and this line is one
    /// it touches anyway.
    pub(super) reader_count: u32,
    pub(super) tags: TagStore,
}

/// Positions, flags, signals and tags of one edge of `capacity` items.
///
/// Hot words are packed by owner, one cache line each: the writer's
/// (positions, capacity, finish flag, which readers are local, whether
/// there are tags) and one per reader, the first of them inline. A `work`
/// call of a 1-in/1-out block thus touches two lines per edge and follows
/// no pointer to them, which matters when a core cycles through dozens of
/// blocks per chunk.
pub struct EdgePositions {
    pub(super) writer: CachePadded<WriterWords>,
    /// Reader 0 (unused when the edge has no reader).
    pub(super) first_reader: CachePadded<ReaderSlot>,
    /// Readers 1 and up.
    pub(super) more_readers: Box<[CachePadded<ReaderSlot>]>,
    pub(super) writer_signal: Arc<Signal>,
    pub(super) reader_signals: Box<[Arc<Signal>]>,
    /// For an edge that reuses another edge's memory (in place): the
    /// signal of the block that writes that memory's free space, woken
    /// when readers here free some.
    pub(super) root_writer: Option<Arc<Signal>>,
    /// Who may still take the writer's place: [`WRITER_FREE`],
    /// [`WRITER_RESERVED`] or [`WRITER_TAKEN`] (see
    /// [`claim_writer`](Self::claim_writer)). Off the hot lines.
    pub(super) writer_claim: AtomicU8,
}

/// [`WriterWords::room_seen`] when the writer has not looked at its room
/// since it last produced.
pub(super) const NOT_LOOKED: u64 = u64::MAX;

/// [`EdgePositions::writer_claim`]: the first [`WriteCursor`] takes it.
pub(super) const WRITER_FREE: u8 = 0;
/// [`EdgePositions::writer_claim`]: an edge reusing another edge's memory
/// in place, whose writer only this crate's in-place output may become.
pub(super) const WRITER_RESERVED: u8 = 1;
/// [`EdgePositions::writer_claim`]: the edge has its writer.
pub(super) const WRITER_TAKEN: u8 = 2;

impl ReaderSlot {
    /// The reader's staged position (see the module doc), read by the
    /// thread running the reader.
    #[inline]
    pub(crate) fn staged(&self) -> u64 {
        self.staged.load(Ordering::Relaxed)
    }

    fn new() -> CachePadded<Self> {
        CachePadded::new(ReaderSlot {
            read: AtomicU64::new(0),
            staged: AtomicU64::new(0),
            detached: AtomicBool::new(false),
            wakes: AtomicU8::new(WAKES_WRITER),
            passes_to: OnceLock::new(),
            claimed: AtomicBool::new(false),
        })
    }
}

impl EdgePositions {
    /// Control words for an edge of `capacity` items with the signals of
    /// `spec`.
    pub fn new(spec: &EdgeSpec, capacity: usize) -> Self {
        let readers = spec.reader_signals.len();
        Self {
            writer: CachePadded::new(WriterWords {
                write: AtomicU64::new(0),
                staged: AtomicU64::new(0),
                remote_readers: AtomicU64::new(if readers >= 64 {
                    u64::MAX
                } else {
                    (1u64 << readers) - 1
                }),
                attached: AtomicUsize::new(readers),
                chunk: AtomicUsize::new(capacity),
                fill: AtomicUsize::new(capacity),
                capacity,
                done: AtomicBool::new(false),
                wants_room: AtomicBool::new(false),
                room_seen: AtomicU64::new(NOT_LOOKED),
                reader_count: u32::try_from(readers).expect("fewer than 2^32 readers"),
                tags: TagStore::default(),
            }),
            first_reader: ReaderSlot::new(),
            more_readers: (1..readers).map(|_| ReaderSlot::new()).collect(),
            writer_signal: spec.writer_signal.clone(),
            reader_signals: spec.reader_signals.clone().into_boxed_slice(),
            root_writer: None,
            writer_claim: AtomicU8::new(WRITER_FREE),
        }
    }

    /// Takes the writer's place, which must be `from` ([`WRITER_FREE`] for
    /// a public cursor, [`WRITER_RESERVED`] for the in-place output of
    /// this crate). Once per edge: the place is never given back.
    pub(crate) fn claim_writer(&self, from: u8) -> Result<(), ClaimError> {
        match self.writer_claim.compare_exchange(
            from,
            WRITER_TAKEN,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => Ok(()),
            Err(WRITER_RESERVED) => Err(ClaimError::InPlaceView),
            Err(_) => Err(ClaimError::WriterTaken),
        }
    }

    /// Takes reader `reader`'s place. Once per reader and edge.
    pub(crate) fn claim_reader(&self, reader: usize) -> Result<(), ClaimError> {
        let readers = self.reader_count();
        if reader >= readers {
            return Err(ClaimError::NoSuchReader { reader, readers });
        }
        if self.slot(reader).claimed.swap(true, Ordering::AcqRel) {
            return Err(ClaimError::ReaderTaken { reader });
        }
        Ok(())
    }

    /// Readers of the edge.
    #[inline(always)]
    pub(crate) fn reader_count(&self) -> usize {
        self.writer.reader_count as usize
    }

    /// Reader `reader`'s control words.
    #[inline(always)]
    pub(crate) fn slot(&self, reader: usize) -> &ReaderSlot {
        debug_assert!(reader < self.reader_count(), "reader {reader}");
        if reader == 0 {
            &self.first_reader
        } else {
            &self.more_readers[reader - 1]
        }
    }

    /// Every reader's control words, in reader order.
    pub(super) fn slots(&self) -> impl Iterator<Item = &ReaderSlot> {
        let first = (self.reader_count() > 0).then_some(&*self.first_reader);
        first
            .into_iter()
            .chain(self.more_readers.iter().map(|s| &**s))
    }

    /// Most items a port sees at once (see [`EdgeBuffer::limit_chunk`]).
    #[inline]
    pub(crate) fn chunk_items(&self) -> usize {
        self.writer.chunk.load(Ordering::Relaxed)
    }

    /// Most items the writer may have ahead of its slowest reader (see
    /// [`EdgeBuffer::limit_fill`]).
    #[inline]
    pub fn fill_items(&self) -> usize {
        self.writer.fill.load(Ordering::Relaxed)
    }

    /// Capacity in items.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.writer.capacity
    }

    /// The published write position (acquire).
    #[inline]
    pub fn published_write(&self) -> u64 {
        self.writer.write.load(Ordering::Acquire)
    }

    /// See [`EdgeBuffer::written`].
    #[inline]
    pub fn written(&self) -> u64 {
        self.published_write()
    }

    /// See [`EdgeBuffer::read_by`].
    #[inline]
    pub fn read_by(&self, reader: usize) -> u64 {
        self.slot(reader).read.load(Ordering::Acquire)
    }

    /// See [`EdgeBuffer::unread`].
    #[inline]
    pub fn unread(&self) -> u64 {
        let w = self.published_write();
        w - self.min_read(w)
    }

    /// See [`EdgeBuffer::writer_finished`].
    #[inline]
    pub fn writer_finished(&self) -> bool {
        self.writer.done.load(Ordering::Acquire)
    }

    /// See [`EdgeBuffer::attached_readers`].
    #[inline]
    pub fn attached_readers(&self) -> usize {
        self.writer.attached.load(Ordering::Acquire)
    }

    /// See [`EdgeBuffer::staged_read`].
    #[inline]
    pub fn staged_read(&self, reader: usize) -> u64 {
        self.slot(reader).staged.load(Ordering::Relaxed)
    }

    /// The writer's staged position (see the module doc), read by the
    /// thread running the writer.
    #[inline]
    pub(crate) fn staged_write(&self) -> u64 {
        self.writer.staged.load(Ordering::Relaxed)
    }

    /// See [`EdgeBuffer::limit_chunk`].
    pub fn limit_chunk(&self, items: usize) {
        self.writer
            .chunk
            .store(items.clamp(1, self.capacity()), Ordering::Relaxed);
    }

    /// See [`EdgeBuffer::limit_fill`].
    pub fn limit_fill(&self, items: usize) {
        self.writer
            .fill
            .store(items.clamp(1, self.capacity()), Ordering::Relaxed);
    }

    /// See [`EdgeBuffer::add_tag`].
    pub fn add_tag(&self, tag: Tag) {
        // Published read positions trail tag propagation (see module doc),
        // so tags below every reader's published position are done with.
        let w = self.published_write();
        self.writer.tags.add(tag, self.min_read(w));
    }

    /// False when no tag can lie in `range` (one load; see
    /// [`for_each_tag`](Self::for_each_tag)).
    #[inline]
    pub(crate) fn may_have_tags(&self, range: std::ops::Range<u64>) -> bool {
        !range.is_empty() && self.writer.tags.may_have_from(range.start)
    }

    /// See [`EdgeBuffer::for_each_tag`].
    #[inline]
    pub fn for_each_tag(&self, range: std::ops::Range<u64>, f: &mut dyn FnMut(&Tag)) {
        self.writer.tags.for_each_in(range, f);
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_edges::Edge;
    use super::super::wake::WAKES_WRITER;
    use super::*;

    fn remote_bits(words: &EdgePositions) -> u64 {
        words.writer.remote_readers.load(Ordering::Relaxed)
    }

    /// A new edge: every position at zero, every reader attached, on
    /// another thread than the writer (its bit set in `remote_readers`,
    /// its slot waking the writer), the chunk as large as the ring, and
    /// no place claimed.
    #[test]
    fn a_new_edge_counts_every_reader_attached_and_remote() {
        let edge = Edge::new(16, 3);
        let words = edge.words();
        assert_eq!(remote_bits(words), 0b111);
        for r in 0..3 {
            let slot = words.slot(r);
            assert_eq!(slot.wakes.load(Ordering::Relaxed), WAKES_WRITER, "{r}");
            assert!(!slot.detached.load(Ordering::Relaxed));
            assert!(slot.passes_to.get().is_none());
            assert!(!slot.claimed.load(Ordering::Relaxed));
            assert_eq!((words.read_by(r), words.staged_read(r)), (0, 0));
        }
        assert_eq!(words.attached_readers(), 3);
        assert_eq!((words.capacity(), words.chunk_items()), (16, 16));
        assert_eq!((words.written(), words.staged_write()), (0, 0));
        assert_eq!(words.unread(), 0);
        assert!(!words.writer_finished());
        assert!(words.root_writer.is_none());
        assert_eq!(words.writer_claim.load(Ordering::Relaxed), WRITER_FREE);
    }

    /// One bit per reader up to 64 readers; beyond 64 the word is full
    /// (readers 63 and up share its last bit, see `wake`).
    #[test]
    fn remote_reader_bits_fill_one_word() {
        for (readers, bits) in [
            (0, 0),
            (1, 1),
            (5, 0b1_1111),
            (63, u64::MAX >> 1),
            (64, u64::MAX),
            (70, u64::MAX),
        ] {
            let edge = Edge::new(8, readers);
            assert_eq!(remote_bits(edge.words()), bits, "{readers} readers");
            assert_eq!(edge.words().attached_readers(), readers);
        }
    }

    /// Each reader has its own slot, the first inline and the others
    /// boxed, listed in reader order: one reader's positions never show
    /// in another's.
    #[test]
    fn each_reader_has_its_own_slot() {
        let edge = Edge::new(16, 3);
        let words = edge.words();
        assert!(std::ptr::eq(words.slot(0), &*words.first_reader));
        let listed: Vec<*const ReaderSlot> = words.slots().map(std::ptr::from_ref).collect();
        let by_index: Vec<*const ReaderSlot> =
            (0..3).map(|r| std::ptr::from_ref(words.slot(r))).collect();
        assert_eq!(listed, by_index);
        assert!(listed[0] != listed[1] && listed[1] != listed[2]);
        let mut w = edge.write_cursor();
        edge.write(&mut w, 10);
        let mut second = edge.read_cursor(1);
        second.refresh();
        second.consume(4);
        assert_eq!(
            (0..3).map(|r| words.staged_read(r)).collect::<Vec<_>>(),
            [0, 4, 0]
        );
        assert_eq!(words.read_by(1), 0, "staged, not yet published");
        words.publish_read(1);
        assert_eq!(
            (0..3).map(|r| words.read_by(r)).collect::<Vec<_>>(),
            [0, 4, 0]
        );
        assert_eq!(words.slot(1).staged(), 4);
    }

    /// An edge without readers: nothing is ever unread, and no slot is
    /// listed.
    #[test]
    fn an_edge_without_readers_holds_nothing() {
        let edge = Edge::new(16, 0);
        let words = edge.words();
        assert_eq!(words.slots().count(), 0);
        let mut w = edge.write_cursor();
        edge.write(&mut w, 16);
        assert_eq!(words.written(), 16);
        assert_eq!(words.min_read(16), 16);
        assert_eq!(words.unread(), 0);
        assert_eq!(w.refresh(), 16);
    }

    /// Items written but not read by the slowest attached reader.
    #[test]
    fn unread_counts_from_the_slowest_attached_reader() {
        let edge = Edge::new(16, 2);
        let words = edge.words();
        let mut w = edge.write_cursor();
        edge.write(&mut w, 10);
        let (mut fast, mut slow) = (edge.read_cursor(0), edge.read_cursor(1));
        edge.read(&mut fast, 7);
        edge.read(&mut slow, 3);
        assert_eq!(words.unread(), 7);
        words.detach_reader(1);
        assert_eq!(words.unread(), 3);
        words.detach_reader(0);
        assert_eq!(words.unread(), 0);
    }

    /// Each place is claimed once, for good: the writer's from the state
    /// the claim names (free for a port, reserved for the runtime's
    /// in-place output), each reader's once per id the edge has.
    #[test]
    fn each_place_is_claimed_once() {
        let edge = Edge::new(16, 2);
        let words = edge.words();
        assert_eq!(
            words.claim_writer(WRITER_RESERVED),
            Err(ClaimError::WriterTaken),
            "not reserved: the in-place output cannot take it"
        );
        assert_eq!(words.claim_writer(WRITER_FREE), Ok(()));
        assert_eq!(words.writer_claim.load(Ordering::Relaxed), WRITER_TAKEN);
        assert_eq!(
            words.claim_writer(WRITER_FREE),
            Err(ClaimError::WriterTaken)
        );
        assert_eq!(words.claim_reader(1), Ok(()));
        assert_eq!(
            words.claim_reader(1),
            Err(ClaimError::ReaderTaken { reader: 1 })
        );
        assert!(!words.slot(0).claimed.load(Ordering::Relaxed));
        assert_eq!(words.claim_reader(0), Ok(()));
        assert_eq!(
            words.claim_reader(2),
            Err(ClaimError::NoSuchReader {
                reader: 2,
                readers: 2
            })
        );
        let base = Edge::new(16, 1);
        let view = Edge::in_place_of(&base, 0, 1);
        let view = view.words();
        assert_eq!(view.writer_claim.load(Ordering::Relaxed), WRITER_RESERVED);
        assert_eq!(view.claim_writer(WRITER_FREE), Err(ClaimError::InPlaceView));
        assert_eq!(view.claim_writer(WRITER_RESERVED), Ok(()));
        assert_eq!(
            view.claim_writer(WRITER_RESERVED),
            Err(ClaimError::WriterTaken)
        );
    }

    /// Detaching lowers the attached count once per reader, however
    /// often it is called, and flags only that reader.
    #[test]
    fn a_reader_detaches_once() {
        let edge = Edge::new(16, 2);
        let words = edge.words();
        words.detach_reader(1);
        words.detach_reader(1);
        assert_eq!(words.attached_readers(), 1);
        assert!(words.slot(1).detached.load(Ordering::Relaxed));
        assert!(!words.slot(0).detached.load(Ordering::Relaxed));
        words.detach_reader(0);
        assert_eq!(words.attached_readers(), 0);
    }

    /// The finish flag is the writer's alone: it changes no position and
    /// detaches no reader.
    #[test]
    fn finishing_the_writer_only_sets_its_flag() {
        let edge = Edge::new(16, 1);
        let words = edge.words();
        let mut w = edge.write_cursor();
        edge.write(&mut w, 5);
        words.finish_writer();
        assert!(words.writer_finished());
        assert_eq!((words.written(), words.unread()), (5, 5));
        assert_eq!(words.attached_readers(), 1);
    }

    /// The chunk limit stays between one item and the capacity.
    #[test]
    fn the_chunk_limit_is_clamped_to_the_ring() {
        let edge = Edge::new(16, 1);
        let words = edge.words();
        words.limit_chunk(4);
        assert_eq!(words.chunk_items(), 4);
        words.limit_chunk(0);
        assert_eq!(words.chunk_items(), 1);
        words.limit_chunk(1000);
        assert_eq!(words.chunk_items(), 16);
        assert_eq!(words.capacity(), 16);
    }

    /// The tag pre-check is one load of the tag horizon (highest tagged
    /// index + 1): false for an empty range and for ranges past every
    /// tag, true otherwise (a range below the horizon may hold none).
    #[test]
    fn the_tag_precheck_stops_at_the_horizon() {
        let edge = Edge::new(16, 1);
        let words = edge.words();
        assert!(!words.may_have_tags(0..100), "no tag yet");
        words.add_tag(Tag::new(10, "k", 1u64));
        assert!(words.may_have_tags(10..11));
        assert!(words.may_have_tags(0..5), "a pre-check, not a search");
        assert!(!words.may_have_tags(11..100));
        assert!(!words.may_have_tags(5..5), "empty range");
        let mut seen = Vec::new();
        words.for_each_tag(0..10, &mut |t| seen.push(t.index));
        assert!(seen.is_empty(), "the range ends before the tag");
        words.for_each_tag(0..11, &mut |t| seen.push(t.index));
        assert_eq!(seen, [10]);
    }

    /// Adding a tag drops the tags every attached reader has published
    /// its position past, and keeps the ones a reader may still see.
    #[test]
    fn tags_below_every_published_read_are_dropped() {
        let edge = Edge::new(16, 2);
        let words = edge.words();
        words.add_tag(Tag::new(1, "a", 1u64));
        words.add_tag(Tag::new(5, "b", 2u64));
        let mut w = edge.write_cursor();
        edge.write(&mut w, 10);
        let (mut fast, mut slow) = (edge.read_cursor(0), edge.read_cursor(1));
        edge.read(&mut fast, 10);
        edge.read(&mut slow, 3);
        words.add_tag(Tag::new(8, "c", 3u64));
        let tags = |words: &EdgePositions| {
            let mut seen = Vec::new();
            words.for_each_tag(0..16, &mut |t| seen.push(t.index));
            seen
        };
        assert_eq!(tags(words), [5, 8], "the slow reader may still see 5");
        edge.read(&mut slow, 3);
        words.add_tag(Tag::new(9, "d", 4u64));
        assert_eq!(tags(words), [8, 9]);
    }
}
