//! Memory reused in place: an edge whose writer is a reader of another
//! edge and transforms the items it reads where they lie. The first
//! writer of that memory may reuse space only once every reader down the
//! chain is done with it: [`EdgePositions::min_read`] walks the chain.
//!
//! Such an edge's writer's place is reserved for this crate's in-place
//! output (no public [`WriteCursor`] can take it), and only the
//! flowgraph's in-place pass links a reader to the edge it passes its
//! items to: both change which positions bound a writer's space.
//!
//! The walk only reads; it must never return a position above one that
//! an attached reader down the chain still needs.

use super::EdgePositions;
#[cfg(doc)]
use super::WriteCursor;
use super::wake::WAKES_ROOT;
use super::words::WRITER_RESERVED;
use crate::buffer::{EdgeBuffer, EdgeHandle, EdgeSpec};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

impl EdgePositions {
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

#[cfg(test)]
mod tests {
    use super::super::test_edges::{Bare, Edge};
    use super::super::wake::WAKES_WRITER;
    use super::super::{PositionedBuffer, ReadCursor, WriteCursor};
    use super::*;

    /// The in-place block `mid` reads `n` items of `base` and passes them
    /// on to `view`, which reuses their memory; both its positions are
    /// published, as its runner publishes them after `work`.
    fn pass_on(
        base: &Edge,
        mid_in: &mut ReadCursor<Bare>,
        view: &Edge,
        mid_out: &mut WriteCursor<Bare>,
        n: usize,
    ) {
        assert!(std::ptr::eq(mid_in.buffer().positions(), base.words()));
        assert!(std::ptr::eq(mid_out.buffer().positions(), view.words()));
        mid_in.refresh();
        mid_in.consume(n);
        mid_out.produce_in_place(n);
        base.words().publish_read(mid_in.id());
        view.words().publish_write();
    }

    /// The view shares its base's capacity and positions, and the base's
    /// reader knows which edge it passes its items to.
    #[test]
    fn a_view_is_linked_to_the_reader_that_writes_it() {
        let base = Edge::new(16, 1);
        let view = Edge::in_place_of(&base, 0, 2);
        assert_eq!(view.words().capacity(), 16);
        let next = base.words().passes_to(0).expect("reader 0 passes on");
        assert!(std::ptr::eq(next, view.words()));
        assert!(view.words().passes_to(0).is_none());
        assert!(base.words().passes_to(1).is_none(), "no such reader");
        assert_eq!(view.words().attached_readers(), 2);
    }

    /// The first writer reuses items only once every reader down the
    /// chain is done with them: not when the in-place block read them,
    /// but when the view's slowest reader did.
    #[test]
    fn the_first_writer_waits_for_the_readers_of_the_view() {
        let base = Edge::new(16, 1);
        let view = Edge::in_place_of(&base, 0, 2);
        let mut w = base.write_cursor();
        base.write(&mut w, 12);
        let mut mid_in = base.read_cursor(0);
        let mut mid_out = view.in_place_cursor();
        pass_on(&base, &mut mid_in, &view, &mut mid_out, 10);
        assert_eq!(base.words().read_by(0), 10);
        assert_eq!(
            base.words().min_read(12),
            0,
            "the view's readers read nothing"
        );
        assert_eq!(w.refresh(), 4);
        let (mut fast, mut slow) = (view.read_cursor(0), view.read_cursor(1));
        view.read(&mut fast, 7);
        view.read(&mut slow, 3);
        assert_eq!(base.words().min_read(12), 3);
        assert_eq!(base.words().unread(), 9);
        assert_eq!(w.refresh(), 16 - (12 - 3));
        assert_eq!(view.words().unread(), 7);
    }

    /// With every reader of the view detached, what the view's writer
    /// published is done with; the items the in-place block has not read
    /// yet still are not.
    #[test]
    fn without_readers_down_the_chain_the_views_writes_are_done_with() {
        let base = Edge::new(16, 1);
        let view = Edge::in_place_of(&base, 0, 1);
        let mut w = base.write_cursor();
        base.write(&mut w, 12);
        let mut mid_in = base.read_cursor(0);
        let mut mid_out = view.in_place_cursor();
        pass_on(&base, &mut mid_in, &view, &mut mid_out, 10);
        let mut last = view.read_cursor(0);
        view.read(&mut last, 4);
        assert_eq!(base.words().min_read(12), 4);
        view.words().detach_reader(0);
        assert_eq!(base.words().min_read(12), 10);
        assert_eq!(w.refresh(), 16 - 2);
    }

    /// Chains of in-place blocks are followed to their end, and every
    /// view of the chain wakes the same first writer.
    #[test]
    fn the_walk_follows_a_chain_of_views() {
        let base = Edge::new(16, 1);
        let first = Edge::in_place_of(&base, 0, 1);
        let second = Edge::in_place_of(&first, 0, 2);
        for view in [&first, &second] {
            let root = view.words().root_writer.as_ref().expect("a root writer");
            assert!(Arc::ptr_eq(root, &base.writer.signal));
        }
        let mut w = base.write_cursor();
        base.write(&mut w, 12);
        let mut a_in = base.read_cursor(0);
        let mut a_out = first.in_place_cursor();
        pass_on(&base, &mut a_in, &first, &mut a_out, 12);
        let mut b_in = first.read_cursor(0);
        let mut b_out = second.in_place_cursor();
        pass_on(&first, &mut b_in, &second, &mut b_out, 8);
        let (mut fast, mut slow) = (second.read_cursor(0), second.read_cursor(1));
        second.read(&mut fast, 5);
        second.read(&mut slow, 2);
        assert_eq!(base.words().min_read(12), 2);
        assert_eq!(first.words().min_read(12), 2);
        second.words().detach_reader(1);
        assert_eq!(base.words().min_read(12), 5);
        second.words().detach_reader(0);
        assert_eq!(base.words().min_read(12), 8, "the last view's writes");
    }

    /// An edge with several readers, one passing its items on in place
    /// (built by hand: the flowgraph reuses only edges with one reader),
    /// takes the general walk: the lowest need over every reader.
    #[test]
    fn the_walk_over_several_readers_takes_the_lowest_need() {
        let base = Edge::new(16, 2);
        let view = Edge::in_place_of(&base, 0, 1);
        let mut w = base.write_cursor();
        base.write(&mut w, 12);
        let mut mid_in = base.read_cursor(0);
        let mut mid_out = view.in_place_cursor();
        pass_on(&base, &mut mid_in, &view, &mut mid_out, 10);
        let mut last = view.read_cursor(0);
        view.read(&mut last, 6);
        let mut plain = base.read_cursor(1);
        base.read(&mut plain, 8);
        assert_eq!(base.words().min_read(12), 6, "the view's reader");
        view.read(&mut last, 3);
        assert_eq!(base.words().min_read(12), 8, "the plain reader");
        base.words().detach_reader(1);
        assert_eq!(base.words().min_read(12), 9);
        view.words().detach_reader(0);
        assert_eq!(base.words().min_read(12), 10, "the view's writes");
    }

    /// Items passed on in place need no room on the view: they lie below
    /// the first writer's position, so their writer stages them without
    /// a refresh.
    #[test]
    fn items_passed_on_in_place_need_no_room() {
        let base = Edge::new(16, 1);
        let view = Edge::in_place_of(&base, 0, 1);
        let mut w = base.write_cursor();
        base.write(&mut w, 16);
        let mut mid_in = base.read_cursor(0);
        let mut mid_out = view.in_place_cursor();
        assert_eq!(mid_out.free(), 0);
        pass_on(&base, &mut mid_in, &view, &mut mid_out, 16);
        assert_eq!((mid_out.position(), mid_out.free()), (16, 0));
        assert_eq!(view.words().written(), 16);
        mid_out.produce_in_place(0);
        assert_eq!(view.words().staged_write(), 16);
    }

    /// A view's readers are last readers of the memory, waking its first
    /// writer when they free space (unless it runs on their thread); a
    /// reader that passes its items on further is not, wherever that
    /// writer runs.
    #[test]
    fn only_the_last_readers_wake_the_first_writer() {
        let base = Edge::new(16, 1);
        let first = Edge::in_place_of(&base, 0, 2);
        let both = WAKES_WRITER | WAKES_ROOT;
        for r in 0..2 {
            assert_eq!(first.words().slot(r).wakes.load(Ordering::Relaxed), both);
        }
        assert_eq!(
            base.words().slot(0).wakes.load(Ordering::Relaxed),
            WAKES_WRITER,
            "the base has no first writer to wake"
        );
        // Reader 0 of `first` passes its items on: it is no last reader.
        let second = Edge::in_place_of(&first, 0, 1);
        let wakes = |edge: &Edge, r: usize| edge.words().slot(r).wakes.load(Ordering::Relaxed);
        assert_eq!(wakes(&first, 0), WAKES_WRITER);
        assert_eq!(wakes(&first, 1), both);
        assert_eq!(wakes(&second, 0), both);
        // Whatever thread the first writer runs on.
        first.words().set_root_writer_same_thread(0, false);
        assert_eq!(wakes(&first, 0), WAKES_WRITER);
        first.words().set_root_writer_same_thread(1, true);
        assert_eq!(wakes(&first, 1), WAKES_WRITER);
        first.words().set_root_writer_same_thread(1, false);
        assert_eq!(wakes(&first, 1), both);
    }
}
