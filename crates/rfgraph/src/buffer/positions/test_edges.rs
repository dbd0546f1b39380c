//! Fixtures for the position protocol's unit tests: edges made of bare
//! control words (the protocol never touches item memory) between blocks
//! whose signals count the wake-ups their scheduler is asked for.
//!
//! Test-only: nothing here may be used by the runtime itself.

use super::{EdgePositions, PositionedBuffer, ReadCursor, WriteCursor};
use crate::buffer::{EdgeBuffer, EdgeSpec};
use crate::signal::{Signal, Wake};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A scheduler's wake hook that counts its calls.
#[derive(Default)]
struct CountWakes(AtomicUsize);

impl Wake for CountWakes {
    fn wake(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// One block as the protocol sees it: its signal, with a counting waker
/// installed as a scheduler installs its own.
#[derive(Clone)]
pub(super) struct Peer {
    pub(super) signal: Arc<Signal>,
    wakes: Arc<CountWakes>,
}

impl Peer {
    fn new() -> Self {
        let signal = Signal::new();
        let wakes = Arc::new(CountWakes::default());
        signal.set_waker(wakes.clone());
        Self { signal, wakes }
    }

    /// Times the block's scheduler was asked to wake it.
    pub(super) fn wakes(&self) -> usize {
        self.wakes.0.load(Ordering::SeqCst)
    }

    /// The block looks at its edges, as its runner does before each call;
    /// finding nothing to do, it idles (its thread may park). The next
    /// notification wakes it.
    pub(super) fn park(&self) {
        self.signal.begin_look();
    }

    /// Whether a notification arrived since the block last looked.
    pub(super) fn notified(&self) -> bool {
        self.signal.is_pending()
    }
}

/// Control words standing in for a buffer kind, without memory.
pub(super) struct Bare(pub(super) EdgePositions);

// SAFETY: the control words are this value's own field, the same on
// every call, and no other buffer hands them out.
unsafe impl PositionedBuffer for Bare {
    fn positions(&self) -> &EdgePositions {
        &self.0
    }
}

/// One edge between a writer block and its reader blocks.
pub(super) struct Edge {
    pub(super) writer: Peer,
    pub(super) readers: Vec<Peer>,
    buffer: Arc<Bare>,
}

impl Edge {
    /// An edge of `capacity` items read by `readers` blocks.
    pub(super) fn new(capacity: usize, readers: usize) -> Self {
        let writer = Peer::new();
        let readers: Vec<Peer> = (0..readers).map(|_| Peer::new()).collect();
        let words = EdgePositions::new(&spec(&writer, &readers), capacity);
        Self {
            writer,
            readers,
            buffer: Arc::new(Bare(words)),
        }
    }

    /// An edge over the memory of `base`, written in place by `base`'s
    /// reader `reader`, read by `readers` blocks: built as
    /// `CircularBuffer::in_place_of` builds one.
    pub(super) fn in_place_of(base: &Edge, reader: usize, readers: usize) -> Self {
        let writer = base.readers[reader].clone();
        let readers: Vec<Peer> = (0..readers).map(|_| Peer::new()).collect();
        let words = EdgePositions::in_place_of(&spec(&writer, &readers), base.words());
        let buffer = Arc::new(Bare(words));
        let next: Arc<dyn EdgeBuffer> = buffer.clone();
        base.words().pass_to(reader, next);
        Self {
            writer,
            readers,
            buffer,
        }
    }

    /// The edge's control words.
    pub(super) fn words(&self) -> &EdgePositions {
        &self.buffer.0
    }

    /// The edge's writer, as a port attaching to it gets one: it claims
    /// the writer's place for good.
    pub(super) fn write_cursor(&self) -> WriteCursor<Bare> {
        WriteCursor::new(self.buffer.clone()).expect("the writer's place is free")
    }

    /// The writer of an edge made by [`in_place_of`](Self::in_place_of),
    /// as the runtime's in-place output gets one: it takes the place
    /// reserved for it.
    pub(super) fn in_place_cursor(&self) -> WriteCursor<Bare> {
        WriteCursor::new_in_place(self.buffer.clone()).expect("the in-place writer's place is free")
    }

    /// Reader `reader` of the edge, as a port attaching to it gets it: it
    /// claims that reader's place for good.
    pub(super) fn read_cursor(&self, reader: usize) -> ReadCursor<Bare> {
        ReadCursor::new(self.buffer.clone(), reader).expect("the reader's place is free")
    }

    /// The writer stages `n` items through `cursor`, this edge's writer,
    /// and its runner publishes them.
    pub(super) fn write(&self, cursor: &mut WriteCursor<Bare>, n: usize) {
        assert!(std::ptr::eq(cursor.buffer().positions(), self.words()));
        cursor.refresh();
        cursor.produce(n);
        self.words().publish_write();
    }

    /// The reader of `cursor`, one of this edge's, consumes `n` items, and
    /// its runner publishes its position.
    pub(super) fn read(&self, cursor: &mut ReadCursor<Bare>, n: usize) {
        assert!(std::ptr::eq(cursor.buffer().positions(), self.words()));
        cursor.refresh();
        cursor.consume(n);
        self.words().publish_read(cursor.id());
    }
}

fn spec(writer: &Peer, readers: &[Peer]) -> EdgeSpec {
    EdgeSpec {
        item_size: 4,
        min_bytes: 0,
        writer_signal: writer.signal.clone(),
        reader_signals: readers.iter().map(|r| r.signal.clone()).collect(),
    }
}
