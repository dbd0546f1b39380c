//! Publishing positions and flags, and whom each publication wakes: the
//! readers on other threads when items are published, every reader when
//! the writer finishes; the writer on another thread when a reader frees
//! space it asked for ([`EdgePositions::want_room`]) or detaches, and the
//! first writer of memory reused in place when a reader frees space.
//!
//! A writer is woken for room only when it asked: in a stream that keeps
//! up, a reader that frees space would otherwise wake a writer with
//! nothing to write, once per chunk and hop, a context switch and an
//! empty `work` call each (GNU Radio's thread-per-block model has the
//! same rule: a block blocked on output waits for room, any other waits
//! for input).
//!
//! Which peers run on the publisher's thread is set before the run
//! (`set_same_thread`): their scheduler runs them after the publisher
//! moves, so a published position sends them no signal (a finishing
//! writer still notifies every reader). A publication must never lock,
//! allocate or make a system call unless a peer on another thread is to
//! be woken.
//!
//! Publishing staged positions and detaching readers are the runtime's
//! alone (crate-private, not part of [`EdgeBuffer`]), each on the thread
//! that staged the position; a cursor's `publish`, for code driving an
//! edge by hand, forwards here on its own thread.

use super::{EdgePositions, ReaderSlot};
#[cfg(doc)]
use crate::buffer::EdgeBuffer;
use std::sync::atomic::Ordering;

/// [`ReaderSlot::wakes`]: the writer, which runs on another thread than
/// this reader, waits for the space the reader frees.
pub(super) const WAKES_WRITER: u8 = 1;
/// [`ReaderSlot::wakes`]: the first writer of memory reused in place (see
/// `root_writer`) waits for this reader: the edge reuses memory in place,
/// this reader is a last one (it passes nothing on), and it runs on
/// another thread than that writer.
pub(super) const WAKES_ROOT: u8 = 2;

impl ReaderSlot {
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
}

impl EdgePositions {
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

    /// Publishes `pos`, the writer's staged position, which moved past
    /// its published one (its runner knows both), and signals the readers
    /// on other threads (those on this thread are run by the scheduler
    /// without a signal: see `set_same_thread`).
    #[inline]
    pub(crate) fn publish_write_at(&self, pos: u64) {
        self.writer.write.store(pos, Ordering::Release);
        self.notify_remote_readers();
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
        if wakes & WAKES_WRITER != 0 && self.writer_asked_for_room() {
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

    /// Whether the writer asked for room since it was last woken for it
    /// (taking the request), after this reader published its position.
    /// An edge that reuses memory in place always wakes its writer: its
    /// room is another edge's.
    #[inline]
    fn writer_asked_for_room(&self) -> bool {
        if self.root_writer.is_some() {
            return true;
        }
        // Pairs with the fence in `want_room`: either the writer sees the
        // position just published, or this sees its request.
        std::sync::atomic::fence(Ordering::SeqCst);
        let asked = &self.writer.wants_room;
        asked.load(Ordering::Relaxed) && asked.swap(false, Ordering::AcqRel)
    }

    /// The writer, going idle, needs `room` free items on this edge to
    /// move: if it saw less at its first look since it last produced,
    /// asks the readers on other threads to wake it when they free some.
    /// Returns true when there is more room now than it saw (a reader
    /// published before it saw the request, or after the writer's look):
    /// the writer should then run again instead of waiting. A writer that
    /// did not look is not waiting for room. Not for an edge that reuses
    /// memory in place, whose readers always wake its writer.
    pub(crate) fn want_room(&self, room: u64) -> bool {
        if self.root_writer.is_some() {
            return false;
        }
        let w = &self.writer;
        let pos = w.staged.load(Ordering::Relaxed);
        let seen = w.room_seen.load(Ordering::Relaxed);
        if seen.saturating_sub(pos) >= room {
            return false;
        }
        w.wants_room.store(true, Ordering::Relaxed);
        // Pairs with the fence in `writer_asked_for_room`.
        std::sync::atomic::fence(Ordering::SeqCst);
        let now = self.min_read(pos) + self.fill_items() as u64;
        if now > seen {
            // It runs again and looks afresh.
            w.room_seen
                .store(super::words::NOT_LOOKED, Ordering::Relaxed);
            return true;
        }
        false
    }

    /// See [`EdgeBuffer::finish_writer`].
    pub fn finish_writer(&self) {
        self.writer.done.store(true, Ordering::Release);
        for s in self.reader_signals.iter() {
            s.notify();
        }
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

    /// The bit of reader `reader` in `remote_readers`, if it may be
    /// cleared: readers 63 and up share bit 63 on an edge with more than
    /// 64 readers, and it stays set.
    fn reader_bit(&self, reader: usize) -> Option<u64> {
        (reader < 63 || self.reader_count() == 64).then(|| 1 << reader)
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
}

#[cfg(test)]
mod tests {
    use super::super::test_edges::{Bare, Edge};
    use super::super::{PositionedBuffer, ReadCursor, WriteCursor};
    use super::*;
    use crate::buffer::EdgeSpec;
    use crate::scheduler::thread::ThreadWaker;
    use crate::signal::Signal;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    fn remote_bits(words: &EdgePositions) -> u64 {
        words.writer.remote_readers.load(Ordering::Relaxed)
    }

    /// A reader that frees space wakes its writer, parked on another
    /// thread after asking for room; through the runner's slot as through
    /// `publish_read`. Reads wake no reader, and a writer that did not
    /// ask (it waits for input) hears nothing of them.
    #[test]
    fn a_parked_writer_is_woken_when_a_reader_frees_space_it_asked_for() {
        let edge = Edge::new(16, 1);
        let words = edge.words();
        let mut w = edge.write_cursor();
        edge.write(&mut w, 16);
        assert_eq!(w.refresh(), 0);
        edge.writer.park();
        assert!(!words.want_room(1), "no room came while asking");
        assert!(!edge.writer.notified());
        let mut r = edge.read_cursor(0);
        edge.read(&mut r, 4);
        assert!(edge.writer.notified());
        assert_eq!(edge.writer.wakes(), 1);
        // Woken, it fills the ring again, looks, and asks again.
        edge.write(&mut w, 4);
        assert_eq!(w.refresh(), 0);
        edge.writer.park();
        assert!(!words.want_room(1));
        r.refresh();
        r.consume(12);
        words.slot(0).publish(words, r.position());
        assert_eq!(edge.writer.wakes(), 2, "the runner's way of publishing");
        assert_eq!(
            edge.readers[0].wakes(),
            1,
            "only the writes woke the reader"
        );
        // It writes, then sees half the ring free: it waits for input,
        // not for room, and reads do not wake it.
        edge.write(&mut w, 4);
        assert_eq!(w.refresh(), 8);
        edge.writer.park();
        assert!(!words.want_room(8), "room enough: nothing asked");
        edge.read(&mut r, 4);
        assert!(!edge.writer.notified(), "a read nobody asked for");
        assert_eq!(edge.writer.wakes(), 2);
    }

    /// A writer asks only when its first look since it produced showed
    /// too little room, and a read wakes it only after it asked. Room
    /// freed after that look is reported instead (it runs again rather
    /// than wait for a wake-up that may have gone by), once.
    #[test]
    fn a_writer_asks_for_room_only_while_it_saw_too_little() {
        let edge = Edge::new(16, 1);
        let words = edge.words();
        let mut w = edge.write_cursor();
        edge.write(&mut w, 16);
        assert!(!words.want_room(1), "produced, not looked: asks nothing");
        assert_eq!(w.refresh(), 0);
        assert!(!words.want_room(1), "looked at a full ring: asks");
        let mut r = edge.read_cursor(0);
        edge.read(&mut r, 16);
        assert!(edge.writer.notified());
        edge.writer.park();
        assert!(words.want_room(1), "16 came since it looked: run again");
        assert!(!words.want_room(1), "not looked since: nothing to ask");
        edge.read(&mut r, 0);
        assert_eq!(edge.writer.wakes(), 1);
        edge.write(&mut w, 16);
        assert_eq!(w.refresh(), 0);
        assert!(!words.want_room(1));
        edge.read(&mut r, 8);
        assert_eq!(edge.writer.wakes(), 2, "asked, then freed: woken");
    }

    /// A block may look at its room twice in one call and act on the
    /// first look: room that only the second look saw still makes it run
    /// again (a two-output block whose reader freed room between its
    /// looks once waited for ever, its readers drained).
    #[test]
    fn room_seen_only_by_a_second_look_still_runs_the_writer_again() {
        let edge = Edge::new(16, 1);
        let words = edge.words();
        let mut w = edge.write_cursor();
        edge.write(&mut w, 16);
        assert_eq!(w.refresh(), 0, "the look it acts on");
        let mut r = edge.read_cursor(0);
        edge.read(&mut r, 16);
        assert_eq!(w.refresh(), 16, "a second look");
        assert!(words.want_room(1));
    }

    /// Published items wake every reader parked on another thread;
    /// staging them wakes no one, and the writer hears nothing of its own
    /// publication.
    #[test]
    fn a_parked_reader_is_woken_when_items_are_published() {
        let edge = Edge::new(16, 2);
        let words = edge.words();
        for reader in &edge.readers {
            reader.park();
        }
        let mut w = edge.write_cursor();
        w.refresh();
        w.produce(5);
        assert!(edge.readers.iter().all(|r| !r.notified() && r.wakes() == 0));
        words.publish_write();
        assert!(edge.readers.iter().all(|r| r.notified() && r.wakes() == 1));
        assert_eq!(edge.writer.wakes(), 0);
        assert!(!edge.writer.notified());
    }

    /// Nobody is woken when nothing moved, nor a block that has not
    /// looked since its last notification (it is due to run, not
    /// parked): a wake-up costs the scheduler once per look at most.
    #[test]
    fn no_wake_when_nobody_is_parked() {
        let edge = Edge::new(16, 1);
        let words = edge.words();
        let reader = &edge.readers[0];
        let mut w = edge.write_cursor();
        edge.write(&mut w, 3);
        assert_eq!(reader.wakes(), 1);
        reader.park();
        assert_eq!(words.publish_write(), 3, "nothing new");
        assert!(!reader.notified(), "publishing nothing notifies no one");
        edge.write(&mut w, 2);
        assert_eq!(reader.wakes(), 2);
        edge.write(&mut w, 2);
        assert!(reader.notified());
        assert_eq!(reader.wakes(), 2, "not parked: already due to run");
        edge.writer.park();
        assert_eq!(words.publish_read(0), 0, "nothing consumed");
        assert!(!edge.writer.notified());
        assert_eq!(edge.writer.wakes(), 0);
    }

    /// Peers on the writer's thread get no signal: their scheduler runs
    /// them after the block moves. The mark can be taken back.
    #[test]
    fn peers_on_the_same_thread_are_not_signalled() {
        let edge = Edge::new(16, 3);
        let words = edge.words();
        words.set_same_thread(1, true);
        assert_eq!(remote_bits(words), 0b101);
        assert_eq!(words.slot(1).wakes.load(Ordering::Relaxed), 0);
        let mut w = edge.write_cursor();
        edge.write(&mut w, 4);
        let wakes = |edge: &Edge| edge.readers.iter().map(|r| r.wakes()).collect::<Vec<_>>();
        assert_eq!(wakes(&edge), [1, 0, 1]);
        assert!(!edge.readers[1].notified());
        let mut local = edge.read_cursor(1);
        edge.read(&mut local, 4);
        assert_eq!(edge.writer.wakes(), 0, "a local reader's read");
        assert_eq!(w.refresh(), 12);
        assert!(!words.want_room(16));
        let mut remote = edge.read_cursor(0);
        edge.read(&mut remote, 4);
        assert_eq!(edge.writer.wakes(), 1, "a remote reader's read");
        words.set_same_thread(1, false);
        assert_eq!(remote_bits(words), 0b111);
        assert_eq!(words.slot(1).wakes.load(Ordering::Relaxed), WAKES_WRITER);
        for r in 0..3 {
            words.set_same_thread(r, true);
        }
        assert_eq!(remote_bits(words), 0);
        for reader in &edge.readers {
            reader.park();
        }
        edge.write(&mut w, 4);
        assert_eq!(wakes(&edge), [1, 0, 1], "all local: no signal at all");
    }

    /// On an edge with more than 64 readers, readers 63 and up share the
    /// last bit: they are signalled together, and stay signalled even on
    /// the writer's thread. With exactly 64, reader 63 has a bit of its
    /// own.
    #[test]
    fn readers_63_and_up_share_the_last_bit() {
        let edge = Edge::new(8, 70);
        let words = edge.words();
        assert_eq!(words.reader_bit(62), Some(1 << 62));
        assert_eq!(words.reader_bit(63), None);
        assert_eq!(words.reader_bit(69), None);
        for r in 0..70 {
            words.set_same_thread(r, true);
        }
        assert_eq!(remote_bits(words), 1 << 63);
        let mut w = edge.write_cursor();
        edge.write(&mut w, 1);
        let woken: Vec<usize> = (0..70).filter(|&r| edge.readers[r].wakes() == 1).collect();
        assert_eq!(woken, (63..70).collect::<Vec<_>>());
        let exact = Edge::new(8, 64);
        assert_eq!(exact.words().reader_bit(63), Some(1 << 63));
        exact.words().set_same_thread(63, true);
        assert_eq!(remote_bits(exact.words()), u64::MAX >> 1);
        let mut w = exact.write_cursor();
        exact.write(&mut w, 1);
        assert_eq!(exact.readers[63].wakes(), 0);
        assert_eq!(exact.readers[62].wakes(), 1);
    }

    /// A finishing writer wakes every reader, those on its own thread
    /// too: a runner looks for finished writers only after a
    /// notification.
    #[test]
    fn a_finishing_writer_wakes_every_reader() {
        let edge = Edge::new(16, 2);
        let words = edge.words();
        words.set_same_thread(0, true);
        for reader in &edge.readers {
            reader.park();
        }
        words.finish_writer();
        assert!(edge.readers.iter().all(|r| r.notified() && r.wakes() == 1));
        assert!(words.writer_finished());
    }

    /// A detaching reader wakes its writer once, whatever thread it runs
    /// on (the space it held is free), and the first writer of memory
    /// reused in place (which it may have been holding back).
    #[test]
    fn a_detaching_reader_wakes_its_writer_and_the_first_writer_once() {
        let plain = Edge::new(16, 1);
        plain.words().set_same_thread(0, true);
        plain.writer.park();
        plain.words().detach_reader(0);
        assert_eq!(plain.writer.wakes(), 1);
        let base = Edge::new(16, 1);
        let view = Edge::in_place_of(&base, 0, 2);
        base.writer.park();
        view.writer.park();
        view.words().detach_reader(1);
        assert_eq!((view.writer.wakes(), base.writer.wakes()), (1, 1));
        base.writer.park();
        view.writer.park();
        view.words().detach_reader(1);
        assert!(!view.writer.notified() && !base.writer.notified(), "once");
    }

    /// The last reader of memory reused in place wakes its first writer
    /// when it frees space there, unless the two share a thread; a
    /// reader that passes its items on never does.
    #[test]
    fn a_last_reader_of_reused_memory_wakes_the_first_writer() {
        let base = Edge::new(16, 1);
        let view = Edge::in_place_of(&base, 0, 1);
        let mut w = base.write_cursor();
        base.write(&mut w, 16);
        let mut mid_in = base.read_cursor(0);
        let mut mid_out = view.in_place_cursor();
        mid_in.refresh();
        mid_in.consume(16);
        mid_out.produce_in_place(16);
        base.words().publish_read(0);
        view.words().publish_write();
        let mut last = view.read_cursor(0);
        let mut read = |n| {
            base.writer.park();
            view.writer.park();
            view.read(&mut last, n);
            (base.writer.notified(), view.writer.notified())
        };
        assert_eq!(read(4), (true, true), "both writers on other threads");
        view.words().set_root_writer_same_thread(0, true);
        assert_eq!(read(4), (false, true), "the first writer runs here");
        view.words().set_root_writer_same_thread(0, false);
        view.words().set_same_thread(0, true);
        assert_eq!(read(4), (true, false), "the view's writer runs here");
        // The base's own writer is the first writer of its memory: its
        // readers have no other to wake.
        base.words().set_root_writer_same_thread(0, false);
        assert_eq!(
            base.words().slot(0).wakes.load(Ordering::Relaxed),
            WAKES_WRITER
        );
    }

    /// A writer completing ranges on several threads publishes only
    /// forward, and wakes readers only when the position moved.
    #[test]
    fn publishing_at_least_a_position_never_moves_back() {
        let edge = Edge::new(16, 1);
        let words = edge.words();
        let reader = &edge.readers[0];
        reader.park();
        assert_eq!(words.publish_write_at_least(5), 5);
        assert_eq!((words.written(), words.staged_write()), (5, 5));
        assert!(reader.notified());
        reader.park();
        assert_eq!(words.publish_write_at_least(3), 5);
        assert_eq!(words.publish_write_at_least(5), 5);
        assert_eq!((words.written(), words.staged_write()), (5, 5));
        assert!(!reader.notified(), "nothing new");
        assert_eq!(words.publish_write_at_least(9), 9);
        assert!(reader.notified());
        assert_eq!(reader.wakes(), 2);
    }

    /// End to end with a scheduler's own waker: a writer thread that
    /// found no room parks, and a read on this thread unparks it. Were
    /// the read not to wake it, it would sleep until the deadline and
    /// report so.
    #[test]
    fn a_writer_thread_parked_for_room_is_unparked_by_a_read() {
        let writer_signal = Signal::new();
        let spec = EdgeSpec {
            item_size: 4,
            min_bytes: 0,
            writer_signal: writer_signal.clone(),
            reader_signals: vec![Signal::new()],
        };
        let buf = Arc::new(Bare(EdgePositions::new(&spec, 4)));
        let (parked, ready) = std::sync::mpsc::channel();
        let writer = {
            let buf = buf.clone();
            std::thread::spawn(move || {
                writer_signal.set_waker(Arc::new(ThreadWaker(std::thread::current())));
                let mut w = WriteCursor::new(buf.clone()).unwrap();
                w.refresh();
                w.produce(4);
                buf.positions().publish_write();
                // The runner looks, finds no room, asks for it and idles;
                // the thread parks.
                writer_signal.begin_look();
                assert_eq!(w.refresh(), 0);
                assert!(!buf.positions().want_room(1));
                parked.send(()).unwrap();
                let deadline = Instant::now() + Duration::from_secs(20);
                while !writer_signal.is_pending() && Instant::now() < deadline {
                    std::thread::park_timeout(deadline - Instant::now());
                }
                let woken = Instant::now() < deadline;
                (woken, w.refresh())
            })
        };
        ready.recv().unwrap();
        let mut r = ReadCursor::new(buf.clone(), 0).unwrap();
        r.refresh();
        r.consume(3);
        buf.positions().publish_read(0);
        assert_eq!(writer.join().unwrap(), (true, 3));
    }
}
