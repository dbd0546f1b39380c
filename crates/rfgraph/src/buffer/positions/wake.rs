//! Publishing positions and flags, and whom each publication wakes: the
//! readers on other threads when items are published, every reader when
//! the writer finishes; the writer on another thread, and the first
//! writer of memory reused in place, when a reader frees space or
//! detaches.
//!
//! Which peers run on the publisher's thread is set before the run
//! (`set_same_thread`): their scheduler runs them after the publisher
//! moves, so a published position sends them no signal (a finishing
//! writer still notifies every reader). A publication must never lock,
//! allocate or make a system call unless a peer on another thread is to
//! be woken.

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
    /// See [`EdgeBuffer::publish_write`].
    #[inline]
    pub fn publish_write(&self) -> u64 {
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

    /// See [`EdgeBuffer::publish_read`].
    #[inline]
    pub fn publish_read(&self, reader: usize) -> u64 {
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

    /// See [`EdgeBuffer::finish_writer`].
    pub fn finish_writer(&self) {
        self.writer.done.store(true, Ordering::Release);
        for s in self.reader_signals.iter() {
            s.notify();
        }
    }

    /// See [`EdgeBuffer::detach_reader`].
    pub fn detach_reader(&self, reader: usize) {
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
