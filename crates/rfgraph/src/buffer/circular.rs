//! The host buffer kind: a lock-free single-writer, multi-reader ring on
//! double-mapped memory.
//!
//! Owns the shared positions (each on its own cache line), the typed writer
//! and reader views handed to ports, and the wake-up of the peer.
//!
//! Positions move in two steps, like GNU Radio's buffer update after
//! `work`: `produce`/`consume` only *stage* the new position (a relaxed store
//! to a line no other thread reads); the runtime *publishes* it once per
//! `work` call, after it propagated tags, with one release store and one
//! wake-up of the peer. Tags therefore always arrive no later than their
//! items. Hot path: `slice` reads the remote position once; no locks,
//! allocation or system calls unless a tag is involved or a peer is parked.

use super::mirror::{MirroredMemory, page_size};
use super::{EdgeBuffer, EdgeSpec};
use crate::item::Item;
use crate::signal::Signal;
use crate::tag::{Tag, TagStore};
use crossbeam_utils::CachePadded;
use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

struct ReaderSlot {
    /// Published read position.
    read: AtomicU64,
    detached: AtomicBool,
    /// Writer and this reader run on one thread (set before the run).
    same_thread: AtomicBool,
}

/// The shared state of one host edge.
pub struct CircularBuffer {
    mem: MirroredMemory,
    item_size: usize,
    capacity: usize,
    /// Published write position.
    write: CachePadded<AtomicU64>,
    /// Staged write position (touched by the writer's thread only).
    staged_write: CachePadded<AtomicU64>,
    readers: Box<[CachePadded<ReaderSlot>]>,
    /// Staged read positions (each touched by its reader's thread only).
    staged_reads: Box<[CachePadded<AtomicU64>]>,
    writer_done: AtomicBool,
    attached: AtomicUsize,
    writer_signal: Arc<Signal>,
    reader_signals: Box<[Arc<Signal>]>,
    tags: TagStore,
    /// Item offset of absolute position 0 inside the ring.
    skew: usize,
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
        let readers = (0..spec.reader_signals.len())
            .map(|_| {
                CachePadded::new(ReaderSlot {
                    read: AtomicU64::new(0),
                    same_thread: AtomicBool::new(false),
                    detached: AtomicBool::new(false),
                })
            })
            .collect();
        Ok(Arc::new(Self {
            mem,
            item_size: item,
            capacity: bytes / item,
            write: CachePadded::new(AtomicU64::new(0)),
            staged_write: CachePadded::new(AtomicU64::new(0)),
            staged_reads: (0..spec.reader_signals.len())
                .map(|_| CachePadded::new(AtomicU64::new(0)))
                .collect(),
            readers,
            writer_done: AtomicBool::new(false),
            attached: AtomicUsize::new(spec.reader_signals.len()),
            writer_signal: spec.writer_signal,
            reader_signals: spec.reader_signals.into_boxed_slice(),
            tags: TagStore::default(),
            skew: next_skew_bytes() / item % (bytes / item),
        }))
    }

    /// The lowest read position over attached readers, or `write` if none.
    #[inline]
    fn min_read(&self, write: u64) -> u64 {
        let mut min = write;
        for slot in self.readers.iter() {
            if !slot.detached.load(Ordering::Acquire) {
                min = min.min(slot.read.load(Ordering::Acquire));
            }
        }
        min
    }

    #[inline]
    fn ptr_at(&self, pos: u64) -> *mut u8 {
        let offset = ((pos + self.skew as u64) % self.capacity as u64) as usize * self.item_size;
        // SAFETY: offset < len, and the mapping is 2 * len long.
        unsafe { self.mem.as_ptr().add(offset) }
    }
}

impl EdgeBuffer for CircularBuffer {
    fn written(&self) -> u64 {
        self.write.load(Ordering::Acquire)
    }
    fn read_by(&self, reader: usize) -> u64 {
        self.readers[reader].read.load(Ordering::Acquire)
    }
    fn unread(&self) -> u64 {
        let w = self.written();
        w - self.min_read(w)
    }
    fn capacity(&self) -> usize {
        self.capacity
    }
    fn finish_writer(&self) {
        self.writer_done.store(true, Ordering::Release);
        for s in self.reader_signals.iter() {
            s.notify();
        }
    }
    fn writer_finished(&self) -> bool {
        self.writer_done.load(Ordering::Acquire)
    }
    fn detach_reader(&self, reader: usize) {
        if !self.readers[reader].detached.swap(true, Ordering::AcqRel) {
            self.attached.fetch_sub(1, Ordering::AcqRel);
            self.writer_signal.notify();
        }
    }
    fn attached_readers(&self) -> usize {
        self.attached.load(Ordering::Acquire)
    }
    fn staged_read(&self, reader: usize) -> u64 {
        self.staged_reads[reader].load(Ordering::Relaxed)
    }
    fn publish_write(&self) -> u64 {
        let staged = self.staged_write.load(Ordering::Relaxed);
        if self.write.load(Ordering::Relaxed) != staged {
            self.write.store(staged, Ordering::Release);
            for (s, slot) in self.reader_signals.iter().zip(self.readers.iter()) {
                if slot.same_thread.load(Ordering::Relaxed) {
                    s.notify_same_thread();
                } else {
                    s.notify();
                }
            }
        }
        staged
    }
    fn publish_read(&self, reader: usize) -> u64 {
        let staged = self.staged_reads[reader].load(Ordering::Relaxed);
        let slot = &self.readers[reader];
        if slot.read.load(Ordering::Relaxed) != staged {
            slot.read.store(staged, Ordering::Release);
            if slot.same_thread.load(Ordering::Relaxed) {
                self.writer_signal.notify_same_thread();
            } else {
                self.writer_signal.notify();
            }
        }
        staged
    }
    fn set_same_thread(&self, reader: usize, same: bool) {
        self.readers[reader]
            .same_thread
            .store(same, Ordering::Relaxed);
    }
    fn add_tag(&self, tag: Tag) {
        // Published read positions trail tag propagation (see module doc),
        // so tags below every reader's published position are done with.
        let w = self.written();
        self.tags.add(tag, self.min_read(w));
    }
    fn for_each_tag(&self, range: std::ops::Range<u64>, f: &mut dyn FnMut(&Tag)) {
        self.tags.for_each_in(range, f);
    }
}

/// The writer's typed view of a [`CircularBuffer`].
pub struct CircularWriter<T> {
    buf: Arc<CircularBuffer>,
    pos: u64,
    /// Free items as of the last `slice`; `produce` never reads remote state.
    free: usize,
    _item: PhantomData<T>,
}

impl<T: Item> CircularWriter<T> {
    /// The writer of `buf`. The item size must match `T`.
    pub fn new(buf: Arc<CircularBuffer>) -> Self {
        assert_eq!(buf.item_size, std::mem::size_of::<T>().max(1));
        let pos = buf.written();
        Self {
            buf,
            pos,
            free: 0,
            _item: PhantomData,
        }
    }

    /// All free space, contiguous. Refreshes the readers' positions.
    #[inline]
    pub fn slice(&mut self) -> &mut [T] {
        let min = self.buf.min_read(self.pos);
        self.free = self.buf.capacity - (self.pos - min) as usize;
        // SAFETY: [pos, pos + free) is not readable by any attached reader
        // (they read below `pos`), so only this writer touches it; the double
        // mapping makes it contiguous; the memory holds zeros or earlier `T`
        // values, both valid for a `Pod` type; alignment: base is page-aligned
        // and offsets are multiples of size_of::<T>().
        unsafe { std::slice::from_raw_parts_mut(self.buf.ptr_at(self.pos).cast::<T>(), self.free) }
    }

    /// Stages `n` items written into the front of the last `slice`; they
    /// become visible to readers when published.
    ///
    /// # Panics
    /// If `n` exceeds the free space seen by the last `slice`.
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
        self.buf.staged_write.store(self.pos, Ordering::Relaxed);
    }

    /// Publishes staged items to the readers now. The runtime does this
    /// after every `work` call; only code driving a buffer by hand needs it.
    pub fn publish(&self) {
        self.buf.publish_write();
    }

    /// Absolute index of the next item to be written.
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// Attaches a tag to the item `offset` items after [`position`](Self::position).
    pub fn add_tag(&self, offset: usize, key: &str, value: crate::Pmt) {
        self.buf
            .add_tag(Tag::new(self.pos + offset as u64, key, value));
    }

    /// Readers still attached.
    pub fn attached_readers(&self) -> usize {
        self.buf.attached_readers()
    }
}

/// One reader's typed view of a [`CircularBuffer`].
pub struct CircularReader<T> {
    buf: Arc<CircularBuffer>,
    id: usize,
    pos: u64,
    /// Writer position as of the last `slice`.
    seen: u64,
    _item: PhantomData<T>,
}

impl<T: Item> CircularReader<T> {
    /// Reader number `id` of `buf`. The item size must match `T`.
    pub fn new(buf: Arc<CircularBuffer>, id: usize) -> Self {
        assert_eq!(buf.item_size, std::mem::size_of::<T>().max(1));
        let pos = buf.read_by(id);
        Self {
            buf,
            id,
            pos,
            seen: pos,
            _item: PhantomData,
        }
    }

    /// Everything readable, contiguous. Refreshes the writer's position.
    #[inline]
    pub fn slice(&mut self) -> &[T] {
        self.seen = self.buf.write.load(Ordering::Acquire);
        let n = (self.seen - self.pos) as usize;
        // SAFETY: [pos, seen) was published by the writer with a Release
        // store we acquired; the writer does not touch it until we advance
        // `read` past it; the double mapping makes it contiguous.
        unsafe { std::slice::from_raw_parts(self.buf.ptr_at(self.pos).cast::<T>(), n) }
    }

    /// Stages the first `n` items of the last `slice` as consumed.
    ///
    /// # Panics
    /// If `n` exceeds what the last `slice` showed.
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
        self.buf.staged_reads[self.id].store(self.pos, Ordering::Relaxed);
    }

    /// Publishes staged consumption to the writer now (see
    /// [`CircularWriter::publish`]).
    pub fn publish(&self) {
        self.buf.publish_read(self.id);
    }

    /// Absolute index of the next item to be read.
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// Tags on the items of the last `slice`, with absolute indices.
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
    use super::*;

    fn ring(min_bytes: usize, readers: usize) -> Arc<CircularBuffer> {
        CircularBuffer::new(EdgeSpec {
            item_size: 4,
            min_bytes,
            writer_signal: Signal::new(),
            reader_signals: (0..readers).map(|_| Signal::new()).collect(),
        })
        .unwrap()
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
        let buf = ring(4096, 2);
        let cap = buf.capacity();
        let mut w = CircularWriter::<u32>::new(buf.clone());
        let mut r0 = CircularReader::<u32>::new(buf.clone(), 0);
        let mut r1 = CircularReader::<u32>::new(buf.clone(), 1);
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
        let mut w = CircularWriter::<u32>::new(buf.clone());
        let n = w.slice().len();
        w.produce(n);
        w.publish();
        assert_eq!(w.slice().len(), 0);
        let mut r0 = CircularReader::<u32>::new(buf.clone(), 0);
        let k = r0.slice().len();
        r0.consume(k);
        r0.publish();
        assert_eq!(w.slice().len(), 0, "reader 1 still holds everything");
        buf.detach_reader(1);
        assert_eq!(w.slice().len(), n);
        assert_eq!(buf.attached_readers(), 1);
    }

    #[test]
    #[should_panic(expected = "exceeds")]
    fn overproduce_panics() {
        let buf = ring(4096, 1);
        let mut w = CircularWriter::<u32>::new(buf);
        let n = w.slice().len();
        w.produce(n + 1);
    }

    #[test]
    fn tags_are_seen_in_the_readable_window() {
        let buf = ring(4096, 1);
        let mut w = CircularWriter::<u32>::new(buf.clone());
        w.slice();
        w.add_tag(3, "k", crate::Pmt::U64(9));
        w.produce(10);
        w.publish();
        let mut r = CircularReader::<u32>::new(buf.clone(), 0);
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
            let mut w = CircularWriter::<u32>::new(wbuf);
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
        let mut r = CircularReader::<u32>::new(buf.clone(), 0);
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
        w.buf.finish_writer();
    }
}
