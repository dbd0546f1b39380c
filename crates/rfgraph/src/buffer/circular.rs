//! The host buffer kind: a lock-free single-writer, multi-reader ring on
//! double-mapped memory.
//!
//! Owns the ring memory and the typed writer and reader views handed to
//! ports; positions, flags, wake-ups and tags are the shared
//! [`EdgePositions`] protocol. Hot path: `slice` reads the remote position
//! once; no locks, allocation or system calls unless a tag is involved or
//! a peer is parked.
//!
//! Safe code gets `&mut` item slices from a writer view only: one per edge
//! (its cursor claims the edge's writer slot), over space no reader sees.
//! An edge reusing another ring in place has no public writer: the
//! runtime's in-place output passes on items its block transformed
//! through the reader's `slice_mut`, and only as many as that reader
//! consumed.

use super::mirror::{MirroredMemory, page_size};
use super::positions::{EdgePositions, PositionedBuffer, ReadCursor, WriteCursor};
use super::{ClaimError, EdgeBuffer, EdgeSpec};
use crate::item::Item;
use crate::tag::Tag;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Weak};

/// The shared state of one host edge.
pub struct CircularBuffer {
    /// Shared with edges that reuse this memory in place.
    mem: Arc<MirroredMemory>,
    item_size: usize,
    positions: EdgePositions,
    /// Item offset of absolute position 0 inside the ring.
    skew: usize,
    /// For an edge reusing another ring in place: that ring, whose only
    /// reader writes this edge (weak: that ring holds this edge).
    in_place_of: Option<Weak<CircularBuffer>>,
}

/// Buffers created so far, to give each a different skew.
static CREATED: AtomicUsize = AtomicUsize::new(0);

/// A different multiple of 64 bytes (below 4 KiB) for each new buffer.
///
/// A copy block reads ring A and writes ring B at the same position; if
/// both rings put that position at the same offset modulo 4 KiB, every load
/// is falsely made to wait for the preceding stores ("4K aliasing"), which
/// costs an order of magnitude on small chunks. Skewing where position 0
/// lives in each ring keeps the offsets apart.
fn next_skew_bytes() -> usize {
    let n = CREATED.fetch_add(1, Ordering::Relaxed);
    (n * 23 % 63 + 1) * 64
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl CircularBuffer {
    /// Creates the ring for `spec`: at least `min_bytes`, and a whole number
    /// of both pages and items.
    pub fn new(spec: EdgeSpec) -> std::io::Result<Arc<Self>> {
        let item = spec.item_size.max(1);
        let page = page_size();
        let unit = page / gcd(page, item) * item; // lcm(page, item)
        let bytes = spec.min_bytes.max(1).div_ceil(unit) * unit;
        let mem = MirroredMemory::new(bytes)?;
        let capacity = bytes / item;
        Ok(Arc::new(Self {
            mem: Arc::new(mem),
            item_size: item,
            positions: EdgePositions::new(&spec, capacity),
            skew: next_skew_bytes() / item % capacity,
            in_place_of: None,
        }))
    }

    /// An edge over the memory of `base`, written in place by `base`'s
    /// reader `reader` (a 1:1 block that transforms the items where they
    /// lie): item `i` of the new edge is item `i` of `base`. `base`'s
    /// writer reuses a slot only once the new edge's readers consumed it.
    /// The caller (the flowgraph's in-place pass) guarantees that `reader`
    /// is `base`'s only reader, and that the block reading it writes the
    /// new edge (through [`CircularWriter::attach`]).
    pub(crate) fn in_place_of(
        base: &Arc<CircularBuffer>,
        reader: usize,
        spec: EdgeSpec,
    ) -> Arc<Self> {
        assert_eq!(base.item_size, spec.item_size.max(1), "in-place item size");
        let edge = Arc::new(Self {
            mem: base.mem.clone(),
            item_size: base.item_size,
            positions: EdgePositions::in_place_of(&spec, &base.positions),
            skew: base.skew,
            in_place_of: Some(Arc::downgrade(base)),
        });
        base.positions.pass_to(reader, edge.clone());
        edge
    }

    /// Address of the item at absolute position `pos`; the next
    /// `capacity` items follow it contiguously (double mapping). Which
    /// thread may touch them is the position protocol's business.
    pub(crate) fn item_ptr(&self, pos: u64) -> *mut u8 {
        let capacity = self.positions.capacity() as u64;
        let index = (pos + self.skew as u64) % capacity;
        // SAFETY: index < capacity, so the offset lies inside the first
        // of the ring's two mappings.
        unsafe { self.mem.as_ptr().add(index as usize * self.item_size) }
    }

    /// Size in bytes of one item.
    pub(crate) fn item_size(&self) -> usize {
        self.item_size
    }

    /// Where the ring's memory is and how positions map onto it.
    fn geometry(&self) -> RingGeometry {
        RingGeometry {
            base: self.mem.as_ptr(),
            capacity: self.positions.capacity() as u64,
            origin: 0,
            skew: self.skew as u64,
            item_size: self.item_size,
        }
    }
}

/// A copy of a ring's layout kept inside each typed view, so that finding
/// an item touches no shared line (the views sit in their block's state,
/// which `work` touches anyway).
#[derive(Clone, Copy)]
struct RingGeometry {
    /// Start of the first mapping; valid for `2 * capacity * item_size`
    /// bytes while the ring's `MirroredMemory` lives.
    base: *mut u8,
    capacity: u64,
    /// A skewed position that maps to the ring's first item, at most a lap
    /// below the last one looked up: views move forward by at most a lap
    /// per call, so finding an item takes a subtraction, not a division
    /// (rings reused in place are rarely a power of two items long, and a
    /// 64-bit division costs a block call tens of cycles per slice).
    origin: u64,
    skew: u64,
    item_size: usize,
}

// SAFETY: `RingGeometry` is plain address arithmetic; it is only
// dereferenced by the view that holds it, which also holds the
// `Arc<CircularBuffer>` owning the memory, and the protocol in
// `positions` decides which thread may touch which items.
unsafe impl Send for RingGeometry {}
// SAFETY: see the `Send` impl above.
unsafe impl Sync for RingGeometry {}

impl RingGeometry {
    #[inline]
    fn ptr_at(&mut self, pos: u64) -> *mut u8 {
        let pos = pos + self.skew;
        let mut index = pos.wrapping_sub(self.origin);
        if index >= self.capacity {
            index = if index < 2 * self.capacity {
                // The next lap: every call of a ring one chunk long.
                self.origin += self.capacity;
                index - self.capacity
            } else {
                self.rebase(pos)
            };
        }
        let offset = index as usize * self.item_size;
        // SAFETY: index < capacity, so offset < len, and the mapping is
        // 2 * len long.
        unsafe { self.base.add(offset) }
    }

    /// Moves `origin` to the lap of skewed position `pos` (a jump of more
    /// than a lap, or a step back); returns `pos`'s index in the ring.
    #[cold]
    fn rebase(&mut self, pos: u64) -> u64 {
        let index = pos % self.capacity;
        self.origin = pos - index;
        index
    }
}

// SAFETY: `positions` is a field of the ring, the same on every call, and
// no other buffer hands it out.
unsafe impl PositionedBuffer for CircularBuffer {
    fn positions(&self) -> &EdgePositions {
        &self.positions
    }
}

/// The writer's typed view of a [`CircularBuffer`].
pub struct CircularWriter<T> {
    ring: RingGeometry,
    cursor: WriteCursor<CircularBuffer>,
    /// For an edge reusing another ring in place: that ring, whose reader
    /// 0 (this writer's block) bounds what
    /// [`produce_in_place`](Self::produce_in_place) may pass on.
    base: Option<Arc<CircularBuffer>>,
    _item: PhantomData<T>,
}

impl<T: Item> CircularWriter<T> {
    /// The writer of `buf`. The item size must match `T`.
    ///
    /// # Errors
    /// If `buf` already has a writer, or reuses another ring's memory in
    /// place (only the runtime's in-place output writes such an edge): see
    /// [`ClaimError`].
    pub fn new(buf: Arc<CircularBuffer>) -> Result<Self, ClaimError> {
        assert_eq!(buf.item_size, std::mem::size_of::<T>().max(1));
        let cursor = WriteCursor::new(buf)?;
        Ok(Self::with_cursor(cursor, None))
    }

    /// The writer of `buf` for an output of this crate: as
    /// [`new`](Self::new), and also the in-place writer of an edge made by
    /// [`CircularBuffer::in_place_of`], which passes on only what the
    /// base ring's reader consumed ([`is_in_place`](Self::is_in_place)).
    pub(crate) fn attach(buf: Arc<CircularBuffer>) -> Result<Self, ClaimError> {
        let Some(base) = &buf.in_place_of else {
            return Self::new(buf);
        };
        assert_eq!(buf.item_size, std::mem::size_of::<T>().max(1));
        // The flowgraph holds every ring until the run's parts are built.
        let base = base.upgrade().ok_or(ClaimError::InPlaceView)?;
        let cursor = WriteCursor::new_in_place(buf)?;
        Ok(Self::with_cursor(cursor, Some(base)))
    }

    fn with_cursor(cursor: WriteCursor<CircularBuffer>, base: Option<Arc<CircularBuffer>>) -> Self {
        Self {
            ring: cursor.buffer().geometry(),
            cursor,
            base,
            _item: PhantomData,
        }
    }

    /// True for the writer of an edge that reuses another ring in place:
    /// its [`slice`](Self::slice) must not be used (that space is the
    /// base ring's), only [`produce_in_place`](Self::produce_in_place).
    pub(crate) fn is_in_place(&self) -> bool {
        self.base.is_some()
    }

    /// All free space, contiguous, as a raw slice pointer: for a writer
    /// whose items are filled after this call returns (a device copy in
    /// flight), which must not hold a `&mut` over memory the device
    /// writes. Refreshes the readers' positions. Only this writer touches
    /// that space until it produces it.
    #[inline]
    pub fn slice_raw(&mut self) -> *mut [T] {
        let free = self.cursor.refresh();
        let ptr = self.ring.ptr_at(self.cursor.position());
        std::ptr::slice_from_raw_parts_mut(ptr.cast::<T>(), free)
    }

    /// All free space, contiguous. Refreshes the readers' positions.
    #[inline]
    pub fn slice(&mut self) -> &mut [T] {
        debug_assert!(!self.is_in_place(), "slice of an in-place writer");
        let free = self.cursor.refresh();
        let ptr = self.ring.ptr_at(self.cursor.position());
        // SAFETY: [pos, pos + free) is not readable by any attached reader
        // (they read below `pos`), and this is the edge's only writer (its
        // cursor claimed the edge; in-place writers, whose free space is
        // another ring's, are the crate's and never call this), so only
        // this view touches it; the double mapping makes it contiguous;
        // the memory holds zeros or earlier `T` values, both valid for a
        // `Pod` type; alignment: base is page-aligned and offsets are
        // multiples of size_of::<T>().
        unsafe { std::slice::from_raw_parts_mut(ptr.cast::<T>(), free) }
    }

    /// Stages `n` items that were written in place through the reader of
    /// the edge this one reuses in place (an edge the flowgraph made).
    ///
    /// # Panics
    /// Unless this writer works in place and that reader consumed the
    /// items first: passing on more would show this edge's readers items
    /// the reader may still transform, or the base writer's free space.
    #[inline]
    pub fn produce_in_place(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        let consumed = self
            .base
            .as_ref()
            .map_or(0, |base| base.positions.staged_read(0));
        assert!(
            self.cursor.position() + n as u64 <= consumed,
            "produce_in_place({n}) passes on items its input has not consumed \
             (consumed up to {consumed}, produced up to {})",
            self.cursor.position()
        );
        self.cursor.produce_in_place(n);
    }

    /// The length [`slice`](Self::slice) would have now.
    #[inline]
    pub fn free(&mut self) -> usize {
        self.cursor.refresh()
    }

    /// Stages `n` items written into the front of the last `slice`; they
    /// become visible to readers when published.
    ///
    /// # Panics
    /// If `n` exceeds the free space seen by the last `slice`.
    #[inline]
    pub fn produce(&mut self, n: usize) {
        self.cursor.produce(n);
    }

    /// Publishes staged items to the readers now. The runtime does this
    /// after every `work` call; only code driving a buffer by hand needs it.
    pub fn publish(&self) {
        self.cursor.publish();
    }

    /// Absolute index of the next item to be written.
    pub fn position(&self) -> u64 {
        self.cursor.position()
    }

    /// Attaches a tag to the item `offset` items after [`position`](Self::position).
    pub fn add_tag(&self, offset: usize, key: &str, value: crate::Pmt) {
        self.cursor
            .buffer()
            .add_tag(Tag::new(self.position() + offset as u64, key, value));
    }

    /// Readers still attached.
    pub fn attached_readers(&self) -> usize {
        self.cursor.buffer().attached_readers()
    }
}

/// One reader's typed view of a [`CircularBuffer`].
pub struct CircularReader<T> {
    ring: RingGeometry,
    cursor: ReadCursor<CircularBuffer>,
    _item: PhantomData<T>,
}

impl<T: Item> CircularReader<T> {
    /// Reader number `id` of `buf`. The item size must match `T`.
    ///
    /// # Errors
    /// If `buf` has no reader `id` or that reader is attached already:
    /// see [`ClaimError`].
    pub fn new(buf: Arc<CircularBuffer>, id: usize) -> Result<Self, ClaimError> {
        assert_eq!(buf.item_size, std::mem::size_of::<T>().max(1));
        let cursor = ReadCursor::new(buf, id)?;
        Ok(Self {
            ring: cursor.buffer().geometry(),
            cursor,
            _item: PhantomData,
        })
    }

    /// True when this reader may transform its items in place (see
    /// [`slice_mut`](Self::slice_mut)): it is the only reader of its ring
    /// and the flowgraph made the ring's next edge reuse the ring for it
    /// ([`CircularBuffer::in_place_of`]). `edge` and `reader` name the
    /// edge and reader the flowgraph granted: a grant meant for another
    /// port proves nothing here.
    pub(crate) fn may_work_in_place(&self, edge: &dyn EdgeBuffer, reader: usize) -> bool {
        let words = self.cursor.buffer().control_words();
        std::ptr::eq(edge.control_words(), words)
            && reader == self.cursor.id()
            && words.reader_count() == 1
            && words.passes_to(reader).is_some()
    }

    /// Everything readable, contiguous. Refreshes the writer's position.
    #[inline]
    pub fn slice(&mut self) -> &[T] {
        let n = self.cursor.refresh();
        let ptr = self.ring.ptr_at(self.cursor.position());
        // SAFETY: [pos, pos + n) was published by the writer with a Release
        // store we acquired; the writer does not touch it until we advance
        // `read` past it; the double mapping makes it contiguous.
        unsafe { std::slice::from_raw_parts(ptr.cast::<T>(), n) }
    }

    /// Everything readable, contiguous and writable: for a reader that
    /// transforms items in place.
    ///
    /// # Safety
    /// [`may_work_in_place`](Self::may_work_in_place) must hold: then
    /// nobody else reads `[position, written)` (the writer writes above
    /// it, the next edge's readers read below it: its writer passes on
    /// only consumed items) until this reader consumes it.
    #[inline]
    pub(crate) unsafe fn slice_mut(&mut self) -> &mut [T] {
        let n = self.cursor.refresh();
        let ptr = self.ring.ptr_at(self.cursor.position());
        // SAFETY: as for `slice`, plus the caller's guarantee that no one
        // else reads or writes these items while this slice lives.
        unsafe { std::slice::from_raw_parts_mut(ptr.cast::<T>(), n) }
    }

    /// Stages the first `n` items of the last `slice` as consumed.
    ///
    /// # Panics
    /// If `n` exceeds what the last `slice` showed.
    #[inline(always)]
    pub fn consume(&mut self, n: usize) {
        self.cursor.consume(n);
    }

    /// The length [`slice`](Self::slice) would have now.
    #[inline]
    pub fn available(&mut self) -> usize {
        self.cursor.refresh()
    }

    /// Publishes staged consumption to the writer now (see
    /// [`CircularWriter::publish`]).
    pub fn publish(&self) {
        self.cursor.publish();
    }

    /// Absolute index of the next item to be read.
    pub fn position(&self) -> u64 {
        self.cursor.position()
    }

    /// Tags on the items of the last `slice`, with absolute indices.
    pub fn tags(&self) -> Vec<Tag> {
        self.cursor.tags()
    }

    /// True when the writer finished and every item it wrote was consumed.
    pub fn is_finished(&self) -> bool {
        self.cursor.is_finished()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signal::Signal;

    fn ring(min_bytes: usize, readers: usize) -> Arc<CircularBuffer> {
        CircularBuffer::new(EdgeSpec {
            item_size: 4,
            min_bytes,
            writer_signal: Signal::new(),
            reader_signals: (0..readers).map(|_| Signal::new()).collect(),
        })
        .unwrap()
    }

    /// Items are found by subtraction from a moving origin: forward steps
    /// within a lap, across laps, jumps of many laps and steps back all
    /// land where the division puts them.
    #[test]
    fn positions_map_onto_the_ring_like_a_division() {
        // Three pages of 4-byte items: never a power of two.
        let buf = ring(3 * page_size(), 1);
        let capacity = buf.positions.capacity() as u64;
        assert!(!capacity.is_power_of_two(), "{capacity}");
        let mut geometry = buf.geometry();
        let base = geometry.base as usize;
        let mut pos = 0u64;
        let lap = capacity;
        for step in [
            0,
            1,
            lap - 1,
            lap / 5,
            lap,
            lap - 1,
            1,
            3 * lap + 7,
            12,
            lap / 7,
        ] {
            pos += step;
            for p in [pos, pos.saturating_sub(capacity + 3), pos] {
                let want = (p + geometry.skew) % capacity * 4;
                assert_eq!(geometry.ptr_at(p) as usize - base, want as usize, "{p}");
            }
        }
    }

    /// Publishing wakes exactly the readers on other threads, also past
    /// the 64 that the writer's bit mask covers.
    #[test]
    fn publishing_signals_remote_readers_only() {
        let signals: Vec<_> = (0..70).map(|_| Signal::new()).collect();
        let edge = CircularBuffer::new(EdgeSpec {
            item_size: 4,
            min_bytes: 4096,
            writer_signal: Signal::new(),
            reader_signals: signals.clone(),
        })
        .unwrap();
        for r in (0..70).filter(|r| r % 3 == 0) {
            edge.set_same_thread(r, true);
        }
        edge.set_same_thread(3, false);
        let mut w = CircularWriter::<u32>::new(edge.clone()).unwrap();
        w.slice()[0] = 1;
        w.produce(1);
        w.publish();
        for (r, s) in signals.iter().enumerate() {
            // Readers 63 and up share the mask's last bit, which stays
            // set on an edge with more than 64 readers.
            let local = r % 3 == 0 && r != 3 && r < 63;
            assert_eq!(s.is_pending(), !local, "reader {r}");
        }
    }

    /// A ring written by the block owning `root_signal`, and an in-place
    /// view of it (written by the ring's only reader) with `readers`
    /// readers.
    fn ring_and_view(readers: usize) -> (Arc<Signal>, Arc<CircularBuffer>, Arc<CircularBuffer>) {
        let (root_signal, base, view, _) = ring_and_view_signals(readers);
        (root_signal, base, view)
    }

    /// [`ring_and_view`], and the signal of the view's writer.
    fn ring_and_view_signals(
        readers: usize,
    ) -> (
        Arc<Signal>,
        Arc<CircularBuffer>,
        Arc<CircularBuffer>,
        Arc<Signal>,
    ) {
        let view_signal = Signal::new();
        let root_signal = Signal::new();
        let base = CircularBuffer::new(EdgeSpec {
            item_size: 4,
            min_bytes: 4096,
            writer_signal: root_signal.clone(),
            reader_signals: vec![Signal::new()],
        })
        .unwrap();
        let view = CircularBuffer::in_place_of(
            &base,
            0,
            EdgeSpec {
                item_size: 4,
                min_bytes: 1,
                writer_signal: view_signal.clone(),
                reader_signals: (0..readers).map(|_| Signal::new()).collect(),
            },
        );
        (root_signal, base, view, view_signal)
    }

    /// Writer → in-place reader (doubles items) → reader of the view: the
    /// view shows the transformed items at the same positions, and the
    /// writer gets space back only when the view's reader consumed it, at
    /// which point the writer's signal fires.
    #[test]
    fn in_place_view_holds_space_until_its_reader_is_done() {
        let (root_signal, base, view) = ring_and_view(1);
        let cap = base.capacity();
        assert_eq!(view.capacity(), cap);
        let mut w = CircularWriter::<u32>::new(base.clone()).unwrap();
        let mut mid_in = CircularReader::<u32>::new(base.clone(), 0).unwrap();
        let mut mid_out = CircularWriter::<u32>::attach(view.clone()).unwrap();
        let mut last = CircularReader::<u32>::new(view.clone(), 0).unwrap();
        let mut next = 0u32;
        let mut expect = 0u32;
        for round in 0..40 {
            let s = w.slice();
            let n = s.len().min(cap / 2 + round);
            for x in &mut s[..n] {
                *x = next;
                next += 1;
            }
            w.produce(n);
            w.publish();
            // SAFETY: `mid_in` is the base's only reader and its output is
            // `view`, made by `in_place_of` for it.
            let data = unsafe { mid_in.slice_mut() };
            let m = data.len();
            data.iter_mut().for_each(|x| *x *= 2);
            mid_in.consume(m);
            mid_out.produce_in_place(m);
            mid_in.publish();
            mid_out.publish();
            // Consumed by the middle reader but not by the last one: the
            // writer still has no room for those items.
            assert!(w.slice().len() <= cap - m, "space came back too early");
            let r = last.slice();
            for &x in r {
                assert_eq!(x, expect * 2);
                expect += 1;
            }
            let k = r.len();
            root_signal.begin_look();
            last.consume(k);
            last.publish();
            if k > 0 {
                assert!(root_signal.is_pending(), "first writer not woken");
            }
            assert_eq!(w.slice().len(), cap, "all space back after the last read");
        }
        assert_eq!(expect, next);
        assert!(next as usize > 10 * cap);
    }

    /// The in-place reader `mid_in` of a [`ring_and_view`] passes every
    /// item it can read on to the view (`mid_out`) unchanged.
    fn pass_in_place(mid_in: &mut CircularReader<u32>, mid_out: &mut CircularWriter<u32>) {
        // SAFETY: `mid_in` is the base's only reader and its output is
        // the view, made by `in_place_of` for it.
        let m = unsafe { mid_in.slice_mut() }.len();
        mid_in.consume(m);
        mid_out.produce_in_place(m);
        mid_in.publish();
        mid_out.publish();
    }

    #[test]
    fn detaching_last_reader_wakes_the_first_writer() {
        // base (writer: root) → in place → view with two readers; the
        // slow one detaches (a finished `Head`): the root writer must hear
        // of the space, not only the view's writer.
        let (root_signal, base, view) = ring_and_view(2);
        let cap = base.capacity();
        let mut w = CircularWriter::<u32>::new(base.clone()).unwrap();
        let mut mid_in = CircularReader::<u32>::new(base.clone(), 0).unwrap();
        let mut mid_out = CircularWriter::<u32>::attach(view.clone()).unwrap();
        let mut fast = CircularReader::<u32>::new(view.clone(), 0).unwrap();
        let n = w.slice().len();
        w.produce(n);
        w.publish();
        pass_in_place(&mut mid_in, &mut mid_out);
        let k = fast.slice().len();
        fast.consume(k);
        fast.publish();
        // The slow reader (1) read nothing: still no room.
        assert_eq!(w.slice().len(), cap - n);
        root_signal.begin_look();
        view.positions.detach_reader(1);
        assert!(root_signal.is_pending(), "first writer not woken");
        assert_eq!(w.slice().len(), cap, "space of the detached reader is back");
    }

    /// A reader's publication wakes the ring's writer only when that
    /// writer runs on another thread, and the first writer of memory
    /// reused in place only from a last reader on another thread.
    #[test]
    fn a_read_wakes_only_the_writers_on_other_threads() {
        let (root_signal, base, view, view_writer) = ring_and_view_signals(1);
        let mut w = CircularWriter::<u32>::new(base.clone()).unwrap();
        let mut mid_in = CircularReader::<u32>::new(base.clone(), 0).unwrap();
        let mut mid_out = CircularWriter::<u32>::attach(view.clone()).unwrap();
        let mut last = CircularReader::<u32>::new(view.clone(), 0).unwrap();
        // Moves `n` items through and back; returns whether the view's
        // writer and the root writer heard of the last reader's read.
        let mut lap = |same_thread: bool, root_same_thread: bool| {
            view.set_same_thread(0, same_thread);
            view.set_root_writer_same_thread(0, root_same_thread);
            let n = w.free().min(8);
            w.produce(n);
            w.publish();
            pass_in_place(&mut mid_in, &mut mid_out);
            view_writer.begin_look();
            root_signal.begin_look();
            let k = last.available();
            assert_eq!(k, n);
            last.consume(k);
            last.publish();
            (view_writer.is_pending(), root_signal.is_pending())
        };
        assert_eq!(lap(false, false), (true, true));
        assert_eq!(lap(true, false), (false, true));
        assert_eq!(lap(false, true), (true, false));
        assert_eq!(lap(true, true), (false, false));
        assert_eq!(lap(false, false), (true, true));
    }

    /// `free` and `available` count what `slice` would show, and the
    /// counts drive `produce` and `consume` alike.
    #[test]
    fn counts_without_slices_match_the_slices() {
        let buf = ring(4096, 1);
        let mut w = CircularWriter::<u32>::new(buf.clone()).unwrap();
        let mut r = CircularReader::<u32>::new(buf.clone(), 0).unwrap();
        for step in [5usize, 700, 3, 1000, 1] {
            let free = w.free();
            assert_eq!(free, w.slice().len());
            let n = step.min(free);
            w.produce(n);
            w.publish();
            let available = r.available();
            assert_eq!(available, r.slice().len());
            assert_eq!(available, n);
            r.consume(available - 1);
            r.publish();
            assert_eq!(r.available(), 1);
            r.consume(1);
            r.publish();
        }
        assert_eq!(w.free(), buf.capacity());
    }

    #[test]
    fn tags_stop_at_the_chunk_limited_window() {
        let buf = ring(4096, 1);
        buf.limit_chunk(10);
        let mut w = CircularWriter::<u32>::new(buf.clone()).unwrap();
        w.slice();
        for i in [5, 15, 25] {
            w.add_tag(i, "k", crate::Pmt::U64(i as u64));
        }
        w.produce(10);
        w.slice();
        w.produce(10);
        w.slice();
        w.produce(10);
        w.publish();
        let mut r = CircularReader::<u32>::new(buf.clone(), 0).unwrap();
        let mut seen = Vec::new();
        while !r.slice().is_empty() {
            assert!(r.slice().len() <= 10);
            seen.extend(r.tags().iter().map(|t| t.index));
            let n = r.slice().len();
            r.consume(n);
            r.publish();
        }
        // Each tag once: none is shown with a window it is not in.
        assert_eq!(seen, vec![5, 15, 25]);
    }

    #[test]
    fn capacity_is_whole_pages_and_items() {
        let b = CircularBuffer::new(EdgeSpec {
            item_size: 12,
            min_bytes: 1,
            writer_signal: Signal::new(),
            reader_signals: vec![Signal::new()],
        })
        .unwrap();
        assert_eq!((b.capacity() * 12) % page_size(), 0);
    }

    #[test]
    fn wraps_contiguously_with_two_readers() {
        // One page, and three (never a power of two items long).
        for bytes in [4096, 3 * page_size()] {
            wraps_contiguously_with_two_readers_on(ring(bytes, 2));
        }
    }

    /// Whole laps at once: a reader's slice starts where the last one
    /// ended, lap after lap.
    #[test]
    fn a_reader_taking_whole_laps_stays_in_step() {
        let buf = ring(3 * page_size(), 1);
        let cap = buf.capacity();
        let mut w = CircularWriter::<u32>::new(buf.clone()).unwrap();
        let mut r = CircularReader::<u32>::new(buf.clone(), 0).unwrap();
        for lap in 0..5u32 {
            let s = w.slice();
            assert_eq!(s.len(), cap);
            for (i, x) in s.iter_mut().enumerate() {
                *x = lap * cap as u32 + i as u32;
            }
            w.produce(cap);
            w.publish();
            let s = r.slice();
            assert_eq!(s.len(), cap);
            assert!(
                s.iter()
                    .enumerate()
                    .all(|(i, &x)| x == lap * cap as u32 + i as u32)
            );
            r.consume(cap);
            r.publish();
        }
    }

    fn wraps_contiguously_with_two_readers_on(buf: Arc<CircularBuffer>) {
        let cap = buf.capacity();
        let mut w = CircularWriter::<u32>::new(buf.clone()).unwrap();
        let mut r0 = CircularReader::<u32>::new(buf.clone(), 0).unwrap();
        let mut r1 = CircularReader::<u32>::new(buf.clone(), 1).unwrap();
        let mut next = 0u32;
        let (mut got0, mut got1) = (0u32, 0u32);
        for round in 0..50 {
            let s = w.slice();
            let n = s.len().min(cap / 3 + round);
            for x in &mut s[..n] {
                *x = next;
                next += 1;
            }
            w.produce(n);
            w.publish();
            let s = r0.slice();
            for &x in s {
                assert_eq!(x, got0);
                got0 += 1;
            }
            let k = s.len();
            r0.consume(k);
            r0.publish();
            // Reader 1 lags: consumes half.
            let s = r1.slice();
            let k = (s.len() / 2 + 1).min(s.len());
            for &x in &s[..k] {
                assert_eq!(x, got1);
                got1 += 1;
            }
            r1.consume(k);
            r1.publish();
            assert!(w.slice().len() <= cap);
        }
        assert!(got0 > cap as u32 * 2, "test must wrap several times");
        assert_eq!(buf.unread(), (next - got1) as u64);
    }

    #[test]
    fn detached_reader_frees_the_writer() {
        let buf = ring(4096, 2);
        let mut w = CircularWriter::<u32>::new(buf.clone()).unwrap();
        let n = w.slice().len();
        w.produce(n);
        w.publish();
        assert_eq!(w.slice().len(), 0);
        let mut r0 = CircularReader::<u32>::new(buf.clone(), 0).unwrap();
        let k = r0.slice().len();
        r0.consume(k);
        r0.publish();
        assert_eq!(w.slice().len(), 0, "reader 1 still holds everything");
        buf.positions.detach_reader(1);
        assert_eq!(w.slice().len(), n);
        assert_eq!(buf.attached_readers(), 1);
    }

    #[test]
    #[should_panic(expected = "exceeds")]
    fn overproduce_panics() {
        let buf = ring(4096, 1);
        let mut w = CircularWriter::<u32>::new(buf).unwrap();
        let n = w.slice().len();
        w.produce(n + 1);
    }

    #[test]
    fn tags_are_seen_in_the_readable_window() {
        let buf = ring(4096, 1);
        let mut w = CircularWriter::<u32>::new(buf.clone()).unwrap();
        w.slice();
        w.add_tag(3, "k", crate::Pmt::U64(9));
        w.produce(10);
        w.publish();
        let mut r = CircularReader::<u32>::new(buf.clone(), 0).unwrap();
        r.slice();
        let tags = r.tags();
        assert_eq!(tags.len(), 1);
        assert_eq!(tags[0].index, 3);
        r.consume(4);
        r.publish();
        r.slice();
        assert!(r.tags().is_empty());
    }

    #[test]
    fn threads_transfer_a_sequence() {
        let buf = ring(4096, 1);
        let total = 1_000_000u32;
        let wbuf = buf.clone();
        let writer = std::thread::spawn(move || {
            let mut w = CircularWriter::<u32>::new(wbuf).unwrap();
            let mut next = 0u32;
            while next < total {
                let s = w.slice();
                let n = s.len().min((total - next) as usize).min(777);
                for x in &mut s[..n] {
                    *x = next;
                    next += 1;
                }
                w.produce(n);
                w.publish();
                if n == 0 {
                    std::thread::yield_now();
                }
            }
            buf_finish(&w);
        });
        let mut r = CircularReader::<u32>::new(buf.clone(), 0).unwrap();
        let mut expect = 0u32;
        while !r.is_finished() {
            let s = r.slice();
            for &x in s {
                assert_eq!(x, expect);
                expect += 1;
            }
            let n = s.len();
            r.consume(n);
            r.publish();
            if n == 0 {
                std::thread::yield_now();
            }
        }
        writer.join().unwrap();
        assert_eq!(expect, total);
    }

    fn buf_finish(w: &CircularWriter<u32>) {
        w.cursor.buffer().finish_writer();
    }
}

/// `produce_in_place` passes on only what the in-place reader consumed.
#[cfg(test)]
mod in_place_bounds {
    use super::*;
    use crate::signal::Signal;

    /// A ring with `n` items written and published, its in-place view, the
    /// ring's only reader and the view's writer.
    fn pair(n: usize) -> (CircularReader<u32>, CircularWriter<u32>) {
        let spec = |readers| EdgeSpec {
            item_size: 4,
            min_bytes: 4096,
            writer_signal: Signal::new(),
            reader_signals: (0..readers).map(|_| Signal::new()).collect(),
        };
        let base = CircularBuffer::new(spec(1)).unwrap();
        let view = CircularBuffer::in_place_of(&base, 0, spec(1));
        let mut w = CircularWriter::<u32>::new(base.clone()).unwrap();
        w.slice();
        w.produce(n);
        w.publish();
        let reader = CircularReader::new(base, 0).unwrap();
        (reader, CircularWriter::attach(view).unwrap())
    }

    #[test]
    fn consumed_items_pass_on() {
        let (mut input, mut output) = pair(100);
        assert_eq!(input.available(), 100);
        input.consume(60);
        output.produce_in_place(60);
        input.consume(40);
        output.produce_in_place(30);
        output.produce_in_place(10);
        assert_eq!(output.position(), 100);
    }

    /// Passing on unconsumed items would show the view's readers items
    /// the in-place reader may still hold as `&mut`, or the base writer's
    /// free space: it panics instead.
    #[test]
    #[should_panic(expected = "has not consumed")]
    fn unconsumed_items_do_not_pass_on() {
        let (mut input, mut output) = pair(100);
        input.available();
        input.consume(10);
        output.produce_in_place(11);
    }

    /// Before the input consumed anything, nothing passes on.
    #[test]
    #[should_panic(expected = "has not consumed")]
    fn producing_before_consuming_panics() {
        let (mut input, mut output) = pair(100);
        input.available();
        output.produce_in_place(1);
    }

    /// A writer of its own ring passes nothing on in place.
    #[test]
    #[should_panic(expected = "has not consumed")]
    fn an_ordinary_writer_passes_nothing_on() {
        let (_, _) = pair(1);
        let mut w = CircularWriter::<u32>::new(
            CircularBuffer::new(EdgeSpec {
                item_size: 4,
                min_bytes: 4096,
                writer_signal: Signal::new(),
                reader_signals: vec![Signal::new()],
            })
            .unwrap(),
        )
        .unwrap();
        w.produce_in_place(0);
        w.produce_in_place(1);
    }
}
