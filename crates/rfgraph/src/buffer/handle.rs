//! [`EdgeHandle`]: how a block's runner holds one of its edges.
//!
//! The runner touches every edge of a block several times per `work` call
//! (finish flag, staged positions, publishing, attached readers). Through
//! `Arc<dyn EdgeBuffer>` each is a dynamic call that cannot be inlined; the
//! handle resolves the edge's [`EdgePositions`] once, so those become
//! static, inlined loads and stores on the edge's control words.

use super::EdgeBuffer;
use super::positions::{EdgePositions, ReaderSlot};
use std::ptr::NonNull;
use std::sync::Arc;

/// A shared edge plus a direct reference to its control words.
pub(crate) struct EdgeHandle {
    /// Keeps the allocation `words` points into alive.
    owner: Arc<dyn EdgeBuffer>,
    /// Points into `edge`'s allocation (see [`EdgeHandle::new`]).
    words: NonNull<EdgePositions>,
}

// SAFETY: an `EdgeHandle` is an `Arc<dyn EdgeBuffer>` (Send + Sync) plus
// what amounts to a `&EdgePositions` borrowed from it; `EdgePositions` is
// Sync (atomics, `Arc`s and a locked tag store), so sending or sharing
// that reference across threads is sound.
unsafe impl Send for EdgeHandle {}
// SAFETY: see the `Send` impl above.
unsafe impl Sync for EdgeHandle {}

impl EdgeHandle {
    /// Holds `edge` and resolves its control words.
    pub(crate) fn new(edge: Arc<dyn EdgeBuffer>) -> Self {
        let words = NonNull::from(edge.control_words());
        Self { owner: edge, words }
    }

    /// The edge itself.
    pub(crate) fn edge(&self) -> &Arc<dyn EdgeBuffer> {
        &self.owner
    }

    /// The edge's control words.
    #[inline]
    pub(crate) fn words(&self) -> &EdgePositions {
        // SAFETY: `words` came from `edge.control_words()`, a reference into
        // the `Arc`'s allocation, which `owner` keeps alive and which
        // never moves; the returned borrow cannot outlive `self`.
        unsafe { self.words.as_ref() }
    }
}

/// An input's edge plus its reader's control words, both resolved once:
/// the runner publishes that reader's position after every call that
/// consumed, and reaching its slot through [`EdgePositions`] would cost a
/// branch (the first reader's slot is inline) on every call.
pub(crate) struct ReaderHandle {
    edge: EdgeHandle,
    /// Points into `edge`'s allocation (see [`ReaderHandle::new`]).
    slot: NonNull<ReaderSlot>,
}

// SAFETY: as for `EdgeHandle`: an `Arc<dyn EdgeBuffer>` plus what amounts
// to a `&ReaderSlot` borrowed from it, and `ReaderSlot` is Sync (atomics
// and a `OnceLock` of an `EdgeHandle`).
unsafe impl Send for ReaderHandle {}
// SAFETY: see the `Send` impl above.
unsafe impl Sync for ReaderHandle {}

impl ReaderHandle {
    /// Holds `edge` and resolves the control words of its reader `reader`.
    pub(crate) fn new(edge: Arc<dyn EdgeBuffer>, reader: usize) -> Self {
        let edge = EdgeHandle::new(edge);
        let slot = NonNull::from(edge.words().slot(reader));
        Self { edge, slot }
    }

    /// The edge itself.
    pub(crate) fn edge(&self) -> &Arc<dyn EdgeBuffer> {
        self.edge.edge()
    }

    /// The edge's control words.
    #[inline]
    pub(crate) fn words(&self) -> &EdgePositions {
        self.edge.words()
    }

    /// The reader's control words.
    #[inline]
    pub(crate) fn slot(&self) -> &ReaderSlot {
        // SAFETY: `slot` came from the edge's `slot`, a reference
        // into the `Arc`'s allocation (an inline field or a boxed slice
        // that is never resized), which `edge` keeps alive; the borrow
        // cannot outlive `self`.
        unsafe { self.slot.as_ref() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::EdgeSpec;
    use crate::buffer::circular::CircularBuffer;
    use crate::signal::Signal;

    #[test]
    fn words_are_the_edges_own_control_words() {
        let spec = EdgeSpec {
            item_size: 4,
            min_bytes: 4096,
            writer_signal: Signal::new(),
            reader_signals: vec![Signal::new()],
        };
        let ring = CircularBuffer::new(spec).unwrap();
        let capacity = ring.capacity();
        let handle = EdgeHandle::new(ring.clone());
        assert!(std::ptr::eq(handle.words(), ring.control_words()));
        // The handle alone keeps the words valid, on any thread.
        drop(ring);
        let handle = std::thread::spawn(move || {
            handle.words().detach_reader(0);
            handle
        })
        .join()
        .unwrap();
        assert_eq!(handle.words().attached_readers(), 0);
        assert_eq!(handle.words().capacity(), capacity);
    }

    /// Each reader's handle reaches that reader's own slot (the first one
    /// inline, the others boxed), on any thread and after the edge's
    /// other owners are gone.
    #[test]
    fn reader_handles_reach_their_own_slots() {
        let spec = EdgeSpec {
            item_size: 4,
            min_bytes: 4096,
            writer_signal: Signal::new(),
            reader_signals: vec![Signal::new(), Signal::new(), Signal::new()],
        };
        let ring = CircularBuffer::new(spec).unwrap();
        let words = ring.control_words();
        for (reader, pos) in [(0, 5), (1, 7), (2, 9)] {
            let handle = ReaderHandle::new(ring.clone(), reader);
            assert!(std::ptr::eq(handle.words(), words));
            handle.slot().publish(handle.words(), pos);
            assert_eq!(words.read_by(reader), pos);
        }
        let handle = ReaderHandle::new(ring.clone(), 2);
        drop(ring);
        let handle = std::thread::spawn(move || {
            handle.slot().publish(handle.words(), 11);
            handle
        })
        .join()
        .unwrap();
        assert_eq!(handle.words().read_by(2), 11);
        assert_eq!(handle.words().read_by(1), 7);
    }
}
