//! Edge buffers: the memory between one writer and its readers.
//!
//! This module owns the *contract* every buffer kind fulfils ([`EdgeBuffer`]):
//! absolute write/read positions, the finished/detached flags that drive
//! termination, and tags. The runtime only ever talks to edges through this
//! trait, so a device-memory kind (OpenCL, CUDA) plugs in by implementing
//! [`positions::PositionedBuffer`] (which is how a kind gets the trait) and
//! by providing port types whose [`MemoryDomain`] names the device.
//!
//! Safe code cannot make two writers share an edge: a port becomes an
//! edge's writer or one of its readers by creating a cursor
//! ([`positions::WriteCursor`], [`positions::ReadCursor`]), which claims
//! that place for good, and the runtime-only moves (publishing staged
//! positions, detaching a reader) are not part of the public contract.
//!
//! The host kind is [`circular::CircularBuffer`], a lock-free double-mapped
//! ring. Buffers never allocate, lock or make system calls on the hot path.

pub mod circular;
mod handle;
pub mod mirror;
pub mod positions;

pub(crate) use handle::{EdgeHandle, ReaderHandle};

/// Why a port could not take a place on an edge (see
/// [`positions::WriteCursor::new`] and [`positions::ReadCursor::new`]).
/// Each place is taken once: two writers on one edge would hand out
/// overlapping `&mut` slices, two readers with one id would move one
/// position twice.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ClaimError {
    /// The edge already has its writer.
    #[error("the edge already has a writer")]
    WriterTaken,
    /// The edge reuses another edge's memory in place: only the runtime's
    /// in-place output may write it.
    #[error("the edge reuses another edge's memory in place; only the runtime writes it")]
    InPlaceView,
    /// The reader's place is taken.
    #[error("reader {reader} of the edge is already attached")]
    ReaderTaken {
        /// The reader asked for.
        reader: usize,
    },
    /// The edge has fewer readers.
    #[error("the edge has no reader {reader} (it has {readers})")]
    NoSuchReader {
        /// The reader asked for.
        reader: usize,
        /// Readers of the edge.
        readers: usize,
    },
}

/// Keeps [`EdgeBuffer`] to the buffer kinds that implement
/// [`positions::PositionedBuffer`].
pub(crate) mod sealed {
    /// Implemented for every [`PositionedBuffer`](super::positions::PositionedBuffer).
    pub trait Sealed {}
}

use crate::signal::Signal;
use crate::tag::Tag;
use std::any::Any;
use std::sync::Arc;

/// Where the items of a port live.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MemoryDomain {
    /// Ordinary host memory.
    Host,
    /// Memory of an accelerator. Two ports share a buffer only if both
    /// `api` and `context` match (the SCA/OpenCL paper's locality detection).
    Device {
        /// The API, e.g. `"opencl"`.
        api: &'static str,
        /// An identifier of the device context, unique within the process.
        context: u64,
    },
}

impl std::fmt::Display for MemoryDomain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MemoryDomain::Host => f.write_str("host"),
            MemoryDomain::Device { api, context } => write!(f, "{api} context {context}"),
        }
    }
}

/// What the runtime knows when it creates an edge.
#[derive(Clone, Debug)]
pub struct EdgeSpec {
    /// Item size in bytes.
    pub item_size: usize,
    /// Minimum buffer size in bytes (rounded up by the buffer kind).
    pub min_bytes: usize,
    /// The writing block's signal (woken when a reader frees space).
    pub writer_signal: Arc<Signal>,
    /// One signal per reader (woken when items are written).
    pub reader_signals: Vec<Arc<Signal>>,
}

/// The shared state of one edge, as the runtime sees it. Positions are
/// absolute item counts since the start of the run. Ports *stage* position
/// changes during `work`; the runtime publishes them afterwards, once tags
/// have been propagated.
///
/// Item memory a kind hands to ports is always initialised (a fresh ring
/// reads as zeros): a writer may produce items it did not write (see
/// `NullSource::without_writing` in `rfgraph-blocks`), and its readers then
/// see earlier bytes, which are valid items because items are plain data.
///
/// Sealed: a kind gets it by implementing
/// [`PositionedBuffer`](positions::PositionedBuffer). Publishing staged
/// positions and detaching readers are the runtime's alone (on the
/// threads that staged them), so they are not part of this trait.
pub trait EdgeBuffer: Any + Send + Sync + sealed::Sealed {
    /// The edge's control words, for the runtime's per-call bookkeeping
    /// (static calls instead of one dynamic call per method). Every buffer
    /// kind gets this trait through [`positions::PositionedBuffer`].
    fn control_words(&self) -> &positions::EdgePositions;
    /// Items written so far.
    fn written(&self) -> u64;
    /// Items consumed so far by reader `reader`.
    fn read_by(&self, reader: usize) -> u64;
    /// Items written but not yet read by the slowest attached reader (0 when
    /// no reader is attached).
    fn unread(&self) -> u64;
    /// Capacity in items.
    fn capacity(&self) -> usize;
    /// Marks the writer finished and wakes the readers.
    fn finish_writer(&self);
    /// True once the writer finished (all its items are already published).
    fn writer_finished(&self) -> bool;
    /// Readers still attached.
    fn attached_readers(&self) -> usize;
    /// Declares that the writer and reader `reader` run on the same thread,
    /// whose scheduler runs each after the other moves: publishing then
    /// sends neither of them a signal.
    fn set_same_thread(&self, reader: usize, same: bool);
    /// For an edge reusing another edge's memory in place: declares that
    /// reader `reader` and that memory's first writer run on one thread,
    /// whose scheduler runs the writer after the reader moves.
    fn set_root_writer_same_thread(&self, _reader: usize, _same: bool) {}
    /// Caps the items a port sees per slice at `items` (at least 1), so a
    /// ring sized for slack still moves cache-sized chunks. Defaults to the
    /// capacity.
    fn limit_chunk(&self, _items: usize) {}
    /// Caps the items the writer may have ahead of the slowest reader at
    /// `items` (at least 1, at most the capacity), so that a latency
    /// budget bounds how long an item can queue on the edge however large
    /// the ring. Defaults to the capacity.
    fn limit_fill(&self, _items: usize) {}
    /// Adds a tag at an absolute index.
    fn add_tag(&self, tag: Tag);
    /// Reader `reader`'s consumption staged by its port but not yet published.
    fn staged_read(&self, reader: usize) -> u64;
    /// Calls `f` on every tag with index in `range`. Cheap when there are none.
    fn for_each_tag(&self, range: std::ops::Range<u64>, f: &mut dyn FnMut(&Tag));
}

/// Downcasts a type-erased edge to its concrete buffer kind.
pub fn downcast_edge<B: EdgeBuffer>(edge: Arc<dyn EdgeBuffer>) -> Option<Arc<B>> {
    let any: Arc<dyn Any + Send + Sync> = edge;
    any.downcast::<B>().ok()
}
