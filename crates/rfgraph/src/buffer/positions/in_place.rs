//! Memory reused in place: an edge whose writer is a reader of another
//! edge and transforms the items it reads where they lie. The first
//! writer of that memory may reuse space only once every reader down the
//! chain is done with it: [`EdgePositions::min_read`] walks the chain.
//!
//! The walk only reads; it must never return a position above one that
//! an attached reader down the chain still needs.

use super::EdgePositions;
use super::wake::WAKES_ROOT;
use crate::buffer::{EdgeBuffer, EdgeHandle, EdgeSpec};
use std::sync::Arc;
use std::sync::atomic::Ordering;

impl EdgePositions {
    /// Control words for an edge that reuses the memory of `base` in
    /// place: its writer is `base`'s reader `reader`, which transforms the
    /// items it reads where they lie. `base`'s writer then reuses space
    /// only after this edge's readers are done with it (see
    /// [`min_read`](Self::min_read)), and is woken when they free some.
    pub fn in_place_of(spec: &EdgeSpec, base: &EdgePositions) -> Self {
        let edge = Self {
            root_writer: Some(
                base.root_writer
                    .clone()
                    .unwrap_or_else(|| base.writer_signal.clone()),
            ),
            ..Self::new(spec, base.capacity())
        };
        for slot in edge.slots() {
            slot.wakes.fetch_or(WAKES_ROOT, Ordering::Relaxed);
        }
        edge
    }

    /// Links reader `reader` to `next`, the edge that reuses this memory
    /// after it (see [`in_place_of`](Self::in_place_of)). Once only.
    pub fn pass_to(&self, reader: usize, next: Arc<dyn EdgeBuffer>) {
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
