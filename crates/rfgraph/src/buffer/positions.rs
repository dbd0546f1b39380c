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

use super::{ClaimError, EdgeBuffer, EdgeHandle, EdgeSpec};
use crate::signal::Signal;
use crate::tag::{Tag, TagStore};
use crossbeam_utils::CachePadded;
use std::any::Any;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

mod cursor;
pub use cursor::{ReadCursor, WriteCursor};

/// [`ReaderSlot::wakes`]: the writer, which runs on another thread than
/// this reader, waits for the space the reader frees.
const WAKES_WRITER: u8 = 1;
/// [`ReaderSlot::wakes`]: the first writer of memory reused in place (see
/// `root_writer`) waits for this reader: the edge reuses memory in place,
/// this reader is a last one (it passes nothing on), and it runs on
/// another thread than that writer.
const WAKES_ROOT: u8 = 2;

/// One reader's control words, on a line of their own: its published
/// position (read by the writer), its staged position and its flags.
pub(crate) struct ReaderSlot {
    /// Published read position.
    read: AtomicU64,
    /// Staged read position (touched by the reader's thread only).
    staged: AtomicU64,
    detached: AtomicBool,
    /// Whom publishing this reader's position wakes: [`WAKES_WRITER`],
    /// [`WAKES_ROOT`], both or none (set before the run). One word, so
    /// that a publication that wakes no one tests one byte; kept here so
    /// that publishing reads only this line.
    wakes: AtomicU8,
    /// Set when this reader works in place and its output edge reuses this
    /// edge's memory: items stay live until that edge's readers are done.
    passes_to: OnceLock<EdgeHandle>,
    /// Taken by the first [`ReadCursor`] of this reader (see
    /// [`EdgePositions::claim_reader`]); read nowhere else.
    claimed: AtomicBool,
}

/// The writer's control words, on one line: what every `work` call of the
/// writer touches, and what readers poll. `repr(C)` keeps the words every
/// call reads (down to the tag horizon) in the first 64 bytes; the tags'
/// lock follows, touched only when tags are used.
#[repr(C)]
struct WriterWords {
    /// Published write position.
    write: AtomicU64,
    /// Staged write position (touched by the writer's thread only).
    staged: AtomicU64,
    /// Bit `r` set: reader `r` runs on another thread than the writer and
    /// needs a signal when items arrive. On an edge with more than 64
    /// readers, bit 63 stands for readers 63 and up and stays set: they
    /// always get signals, which is merely slower (see
    /// [`EdgePositions::reader_bit`]).
    remote_readers: AtomicU64,
    /// Readers not detached (written only when one detaches).
    attached: AtomicUsize,
    /// Most items a port sees at once (its slice), so that schedulers can
    /// keep chunks cache-sized on rings made larger for slack.
    chunk: AtomicUsize,
    /// Capacity in items (fixed).
    capacity: usize,
    done: AtomicBool,
    /// Readers of the edge (fixed). Here rather than beside the reader
    /// slots: a writer whose readers pass its items on in place follows
    /// the chain on every call (see `readers_floor`), and this line is one
    /// it touches anyway.
    reader_count: u32,
    tags: TagStore,
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
    writer: CachePadded<WriterWords>,
    /// Reader 0 (unused when the edge has no reader).
    first_reader: CachePadded<ReaderSlot>,
    /// Readers 1 and up.
    more_readers: Box<[CachePadded<ReaderSlot>]>,
    writer_signal: Arc<Signal>,
    reader_signals: Box<[Arc<Signal>]>,
    /// For an edge that reuses another edge's memory (in place): the
    /// signal of the block that writes that memory's free space, woken
    /// when readers here free some.
    root_writer: Option<Arc<Signal>>,
    /// Who may still take the writer's place: [`WRITER_FREE`],
    /// [`WRITER_RESERVED`] or [`WRITER_TAKEN`] (see
    /// [`claim_writer`](Self::claim_writer)). Off the hot lines.
    writer_claim: AtomicU8,
}

/// [`EdgePositions::writer_claim`]: the first [`WriteCursor`] takes it.
const WRITER_FREE: u8 = 0;
/// [`EdgePositions::writer_claim`]: an edge reusing another edge's memory
/// in place, whose writer only this crate's in-place output may become.
const WRITER_RESERVED: u8 = 1;
/// [`EdgePositions::writer_claim`]: the edge has its writer.
const WRITER_TAKEN: u8 = 2;

impl ReaderSlot {
    /// The reader's staged position (see the module doc), read by the
    /// thread running the reader.
    #[inline]
    pub(crate) fn staged(&self) -> u64 {
        self.staged.load(Ordering::Relaxed)
    }

    /// Publishes `pos`, this reader's staged position, which moved past
    /// its published one (its runner knows both), and wakes whom that
    /// concerns (see [`ReaderSlot::wakes`]); `edge` holds this slot.
    #[inline]
    pub(crate) fn publish(&self, edge: &EdgePositions, pos: u64) {
        self.read.store(pos, Ordering::Release);
        let wakes = self.wakes.load(Ordering::Relaxed);
        if wakes != 0 {
            edge.wake_after_read(wakes);
        }
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
                capacity,
                done: AtomicBool::new(false),
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
    fn slots(&self) -> impl Iterator<Item = &ReaderSlot> {
        let first = (self.reader_count() > 0).then_some(&*self.first_reader);
        first
            .into_iter()
            .chain(self.more_readers.iter().map(|s| &**s))
    }

    /// Control words for an edge that reuses the memory of `base` in
    /// place: its writer is `base`'s reader `reader`, which transforms the
    /// items it reads where they lie. `base`'s writer then reuses space
    /// only after this edge's readers are done with it (see
    /// [`min_read`](Self::min_read)), and is woken when they free some.
    /// Its writer's place is reserved for the runtime's in-place output:
    /// no public [`WriteCursor`] can take it.
    pub fn in_place_of(spec: &EdgeSpec, base: &EdgePositions) -> Self {
        let edge = Self {
            root_writer: Some(
                base.root_writer
                    .clone()
                    .unwrap_or_else(|| base.writer_signal.clone()),
            ),
            writer_claim: AtomicU8::new(WRITER_RESERVED),
            ..Self::new(spec, base.capacity())
        };
        for slot in edge.slots() {
            slot.wakes.fetch_or(WAKES_ROOT, Ordering::Relaxed);
        }
        edge
    }

    /// Links reader `reader` to `next`, the edge that reuses this memory
    /// after it (see [`in_place_of`](Self::in_place_of)). Once only.
    /// Crate-private: it changes which positions bound the writer's
    /// space, so only the flowgraph's in-place pass may call it.
    pub(crate) fn pass_to(&self, reader: usize, next: Arc<dyn EdgeBuffer>) {
        let slot = self.slot(reader);
        let _ = slot.passes_to.set(EdgeHandle::new(next));
        slot.wakes.fetch_and(!WAKES_ROOT, Ordering::Relaxed);
    }

    /// The control words of the edge that reader `reader` passes its items
    /// to in place (see [`pass_to`](Self::pass_to)), if any.
    pub(crate) fn passes_to(&self, reader: usize) -> Option<&EdgePositions> {
        if reader >= self.reader_count() {
            return None;
        }
        self.slot(reader).passes_to.get().map(|next| next.words())
    }

    /// Most items a port sees at once (see [`EdgeBuffer::limit_chunk`]).
    #[inline]
    pub(crate) fn chunk_items(&self) -> usize {
        self.writer.chunk.load(Ordering::Relaxed)
    }

    /// Publishes write position `pos` unless a later one was published,
    /// and signals readers on other threads; for writers that complete
    /// ranges on several threads at once (see `scheduler::segment`), which
    /// stage nothing. Returns the published position.
    pub(crate) fn publish_write_at_least(&self, pos: u64) -> u64 {
        let w = &self.writer;
        w.staged.fetch_max(pos, Ordering::Relaxed);
        let before = w.write.fetch_max(pos, Ordering::AcqRel);
        if before < pos {
            self.notify_remote_readers();
        }
        before.max(pos)
    }

    /// Signals the readers that run on another thread than the writer.
    #[inline(always)]
    fn notify_remote_readers(&self) {
        let w = &self.writer;
        let remote = w.remote_readers.load(Ordering::Relaxed);
        // Readers polled on the writer's thread need no signal: the usual
        // case in a `chain` partition costs one load and a branch.
        if remote != 0 {
            self.signal_readers(remote);
        }
    }

    /// The signalling half of [`notify_remote_readers`](Self::notify_remote_readers).
    #[inline(never)]
    fn signal_readers(&self, mut remote: u64) {
        while remote != 0 {
            let bit = remote.trailing_zeros() as usize;
            if bit == 63 {
                for s in &self.reader_signals[63..] {
                    s.notify();
                }
            } else {
                self.reader_signals[bit].notify();
            }
            remote &= remote - 1;
        }
    }

    /// The bit of reader `reader` in `remote_readers`, if it may be
    /// cleared: readers 63 and up share bit 63 on an edge with more than
    /// 64 readers, and it stays set.
    fn reader_bit(&self, reader: usize) -> Option<u64> {
        (reader < 63 || self.reader_count() == 64).then(|| 1 << reader)
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

    /// The lowest published read position over attached readers, or
    /// `write` if none is attached.
    #[inline]
    pub fn min_read(&self, write: u64) -> u64 {
        self.readers_floor().unwrap_or(write).min(write)
    }

    /// The lowest position an attached reader of this edge still needs,
    /// following items passed on in place; `None` if no reader is attached.
    ///
    /// Items a reader passed on in place are live until the next edge's
    /// readers consumed them. With none attached there, everything below
    /// the next edge's published write is done with. (Not `min` with that
    /// write: a data-parallel segment publishes only its last edge; readers
    /// never pass their writer anyway.)
    #[inline]
    fn readers_floor(&self) -> Option<u64> {
        // Chains of single readers, each passing its items on in place (a
        // run of 1:1 blocks), are followed in a loop: the writer at their
        // head asks on every call.
        let mut edge = self;
        loop {
            let floor = match edge.reader_count() {
                1 => match edge.first_reader.passes_to.get() {
                    Some(next) => {
                        edge = next.words();
                        continue;
                    }
                    None if edge.first_reader.detached.load(Ordering::Acquire) => None,
                    None => Some(edge.first_reader.read.load(Ordering::Acquire)),
                },
                _ => edge.floor_of_readers(),
            };
            // No reader left downstream: everything below the last edge's
            // published write is done with (nothing, on this edge itself).
            let passed_on = !std::ptr::eq(edge, self);
            return floor.or_else(|| passed_on.then(|| edge.published_write()));
        }
    }

    /// [`readers_floor`](Self::readers_floor) over any number of readers.
    #[inline(never)]
    fn floor_of_readers(&self) -> Option<u64> {
        let mut min: Option<u64> = None;
        for slot in self.slots() {
            let needed = if let Some(next) = slot.passes_to.get() {
                let next = next.words();
                Some(
                    next.readers_floor()
                        .unwrap_or_else(|| next.published_write()),
                )
            } else if !slot.detached.load(Ordering::Acquire) {
                Some(slot.read.load(Ordering::Acquire))
            } else {
                None
            };
            min = match (min, needed) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        min
    }
}

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

impl EdgePositions {
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

    /// See [`EdgeBuffer::finish_writer`].
    pub fn finish_writer(&self) {
        self.writer.done.store(true, Ordering::Release);
        for s in self.reader_signals.iter() {
            s.notify();
        }
    }

    /// See [`EdgeBuffer::writer_finished`].
    #[inline]
    pub fn writer_finished(&self) -> bool {
        self.writer.done.load(Ordering::Acquire)
    }

    /// Detaches reader `reader` (it will read no more) and wakes the
    /// writer. Runtime only: the writer then reuses the reader's items.
    pub(crate) fn detach_reader(&self, reader: usize) {
        if !self.slot(reader).detached.swap(true, Ordering::AcqRel) {
            self.writer.attached.fetch_sub(1, Ordering::AcqRel);
            self.writer_signal.notify();
            // A detaching reader of memory reused in place may have been
            // the one holding back the memory's first writer: wake it as
            // publishing a read would (else a writer blocked on an early
            // finisher's position, e.g. `Head` on one branch, waits for
            // ever).
            if let Some(root) = &self.root_writer {
                root.notify();
            }
        }
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

    /// Publishes the writer's staged items (wakes readers if any); returns
    /// the new written count. Only on the writer's thread (the staged
    /// position is a relaxed word): by the runtime after `work`, or by a
    /// view driving an edge by hand.
    #[inline]
    pub(crate) fn publish_write(&self) -> u64 {
        let staged = self.staged_write();
        if self.writer.write.load(Ordering::Relaxed) != staged {
            self.publish_write_at(staged);
        }
        staged
    }

    /// The writer's staged position (see the module doc), read by the
    /// thread running the writer.
    #[inline]
    pub(crate) fn staged_write(&self) -> u64 {
        self.writer.staged.load(Ordering::Relaxed)
    }

    /// Publishes `pos`, the writer's staged position, which moved past
    /// its published one (its runner knows both), and signals the readers
    /// on other threads (those on this thread are run by the scheduler
    /// without a signal: see `set_same_thread`).
    #[inline]
    pub(crate) fn publish_write_at(&self, pos: u64) {
        self.writer.write.store(pos, Ordering::Release);
        self.notify_remote_readers();
    }

    /// Publishes reader `reader`'s staged consumption (wakes the writer if
    /// any); returns the new read position. Only on that reader's thread,
    /// as for [`publish_write`](Self::publish_write).
    #[inline]
    pub(crate) fn publish_read(&self, reader: usize) -> u64 {
        let slot = self.slot(reader);
        let staged = slot.staged.load(Ordering::Relaxed);
        if slot.read.load(Ordering::Relaxed) != staged {
            slot.publish(self, staged);
        }
        staged
    }

    /// The waking half of [`ReaderSlot::publish`].
    #[inline(never)]
    fn wake_after_read(&self, wakes: u8) {
        if wakes & WAKES_WRITER != 0 {
            self.writer_signal.notify();
        }
        // A last reader of memory reused in place frees space of the
        // memory's first writer.
        if wakes & WAKES_ROOT != 0
            && let Some(root) = &self.root_writer
        {
            root.notify();
        }
    }

    /// See [`EdgeBuffer::set_same_thread`].
    pub fn set_same_thread(&self, reader: usize, same: bool) {
        let wakes = &self.slot(reader).wakes;
        if same {
            wakes.fetch_and(!WAKES_WRITER, Ordering::Relaxed);
        } else {
            wakes.fetch_or(WAKES_WRITER, Ordering::Relaxed);
        }
        if let Some(bit) = self.reader_bit(reader) {
            if same {
                self.writer
                    .remote_readers
                    .fetch_and(!bit, Ordering::Relaxed);
            } else {
                self.writer.remote_readers.fetch_or(bit, Ordering::Relaxed);
            }
        }
    }

    /// See [`EdgeBuffer::set_root_writer_same_thread`].
    pub fn set_root_writer_same_thread(&self, reader: usize, same: bool) {
        let slot = self.slot(reader);
        if self.root_writer.is_some() && slot.passes_to.get().is_none() && !same {
            slot.wakes.fetch_or(WAKES_ROOT, Ordering::Relaxed);
        } else {
            slot.wakes.fetch_and(!WAKES_ROOT, Ordering::Relaxed);
        }
    }

    /// See [`EdgeBuffer::limit_chunk`].
    pub fn limit_chunk(&self, items: usize) {
        self.writer
            .chunk
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
    fn add_tag(&self, tag: Tag) {
        self.positions().add_tag(tag);
    }
    fn for_each_tag(&self, range: std::ops::Range<u64>, f: &mut dyn FnMut(&Tag)) {
        self.positions().for_each_tag(range, f);
    }
}
