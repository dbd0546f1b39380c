//! The device buffer kind: a ring of items in one device allocation, with
//! the runtime's shared position protocol.
//!
//! Owns the allocation and the untyped writer/reader views device ports
//! use. Unlike the host ring there is no double mapping: a span handed to
//! a kernel is contiguous up to the end of the allocation, and absolute
//! position `p` lives at item `p % capacity`. Kernels that read a window
//! across the end (an FIR's history) index modulo the capacity. The ring
//! never touches item memory from the host: positions move when commands
//! are *enqueued*, and the context's in-order queue orders the commands.
//!
//! Writer and reader views claim their places on the edge through the
//! runtime's cursors, so an edge never has two writers, nor one reader
//! twice (see [`rfgraph::buffer::ClaimError`]).

use crate::context::OclContext;
use crate::error::OclError;
use opencl3::command_queue::{enqueue_read_buffer, enqueue_write_buffer};
use opencl3::error_codes::ClError;
use opencl3::event::Event;
use opencl3::memory::{Buffer, ClMem};
use opencl3::types::{CL_BLOCKING, CL_NON_BLOCKING, cl_mem};
use rfgraph::Item;
use rfgraph::buffer::positions::{EdgePositions, PositionedBuffer, ReadCursor, WriteCursor};
use rfgraph::buffer::{ClaimError, EdgeSpec};
use std::sync::Arc;

/// The shared state of one device edge.
pub struct DeviceRing {
    mem: Buffer<u8>,
    item_size: usize,
    positions: EdgePositions,
    context: OclContext,
}

impl DeviceRing {
    /// A ring of at least `spec.min_bytes` on `context`.
    pub fn new(context: &OclContext, spec: &EdgeSpec) -> Result<Arc<Self>, OclError> {
        let item = spec.item_size.max(1);
        let capacity = spec.min_bytes.max(item).div_ceil(item);
        let mem = context.alloc::<u8>(capacity * item)?;
        Ok(Arc::new(Self {
            mem,
            item_size: item,
            positions: EdgePositions::new(spec, capacity),
            context: context.clone(),
        }))
    }

    /// The allocation.
    pub fn mem(&self) -> cl_mem {
        self.mem.get()
    }

    /// Bytes per item.
    pub fn item_size(&self) -> usize {
        self.item_size
    }

    /// Capacity in items.
    pub fn capacity(&self) -> usize {
        self.positions.capacity()
    }

    /// The context that owns the allocation.
    pub fn context(&self) -> &OclContext {
        &self.context
    }

    /// Item offset inside the allocation of absolute position `pos`.
    #[inline]
    pub fn offset_of(&self, pos: u64) -> usize {
        (pos % self.capacity() as u64) as usize
    }
}

/// Enqueues a non-blocking copy of `src` into `ring` at item `offset`.
///
/// # Safety
/// `src` must stay valid and unchanged until the returned event completes,
/// and `offset + src.len()` items must fit in the ring.
pub(crate) unsafe fn enqueue_write<T: Item>(
    ring: &DeviceRing,
    offset: usize,
    src: &[T],
) -> Result<Event, OclError> {
    debug_assert!(offset + src.len() <= ring.capacity());
    let queue = ring.context.queue().get();
    let bytes = std::mem::size_of_val(src);
    // SAFETY: the caller keeps `src` alive and unchanged until completion;
    // the byte range is inside the allocation.
    let event = unsafe {
        enqueue_write_buffer(
            queue,
            ring.mem(),
            CL_NON_BLOCKING,
            offset * std::mem::size_of::<T>(),
            bytes,
            src.as_ptr().cast(),
            0,
            std::ptr::null(),
        )
    }
    .map_err(|code| OclError::api("clEnqueueWriteBuffer")(ClError(code)))?;
    Ok(Event::new(event))
}

/// Enqueues a non-blocking copy of `len` items of `ring` from item
/// `offset` into host memory at `dst`.
///
/// A raw pointer, not a `&mut [T]`: the device writes `dst` after this
/// returns, and a Rust reference must not cover memory that something
/// else writes while it lives.
///
/// # Safety
/// `dst` must be valid for writes of `len` items, and nothing may read,
/// write or form a reference to them until the returned event completes;
/// `offset + len` items must fit in the ring.
pub(crate) unsafe fn enqueue_read<T: Item>(
    ring: &DeviceRing,
    offset: usize,
    dst: *mut T,
    len: usize,
) -> Result<Event, OclError> {
    debug_assert!(offset + len <= ring.capacity());
    let queue = ring.context.queue().get();
    let bytes = len * std::mem::size_of::<T>();
    // SAFETY: the caller keeps `dst` valid and untouched until completion;
    // the byte range is inside the allocation.
    let event = unsafe {
        enqueue_read_buffer(
            queue,
            ring.mem(),
            CL_NON_BLOCKING,
            offset * std::mem::size_of::<T>(),
            bytes,
            dst.cast(),
            0,
            std::ptr::null(),
        )
    }
    .map_err(|code| OclError::api("clEnqueueReadBuffer")(ClError(code)))?;
    Ok(Event::new(event))
}

/// Copies `src` into the start of `buffer` and waits for it (set-up only).
pub(crate) fn write_blocking<T: Item>(
    context: &OclContext,
    buffer: &Buffer<T>,
    src: &[T],
) -> Result<(), OclError> {
    assert!(std::mem::size_of_val(src) <= buffer.size().unwrap_or(usize::MAX));
    // SAFETY: a blocking write: `src` is read before the call returns; the
    // assertion keeps the range inside the allocation.
    unsafe {
        enqueue_write_buffer(
            context.queue().get(),
            buffer.get(),
            CL_BLOCKING,
            0,
            std::mem::size_of_val(src),
            src.as_ptr().cast(),
            0,
            std::ptr::null(),
        )
    }
    .map(|event| drop(Event::new(event)))
    .map_err(|code| OclError::api("clEnqueueWriteBuffer")(ClError(code)))
}

// SAFETY: `positions` is a field of the ring, the same on every call, and
// no other buffer hands it out.
unsafe impl PositionedBuffer for DeviceRing {
    fn positions(&self) -> &EdgePositions {
        &self.positions
    }
}

/// A run of items inside a device ring: `len` items from item `offset` of
/// the allocation `mem`, contiguous.
#[derive(Clone, Copy, Debug)]
pub struct Span {
    /// The allocation.
    pub mem: cl_mem,
    /// First item, counted from the start of the allocation.
    pub offset: usize,
    /// Items.
    pub len: usize,
}

/// The writer's view of a [`DeviceRing`].
pub struct RingWriter {
    cursor: WriteCursor<DeviceRing>,
}

impl RingWriter {
    /// The writer of `ring`.
    ///
    /// # Errors
    /// If `ring` already has a writer (see [`ClaimError`]).
    pub fn new(ring: Arc<DeviceRing>) -> Result<Self, ClaimError> {
        Ok(Self {
            cursor: WriteCursor::new(ring)?,
        })
    }

    /// Refreshes the readers' positions; returns all free items.
    pub fn refresh(&mut self) -> usize {
        self.cursor.refresh()
    }

    /// Free space starting `skip` items after the write position, contiguous
    /// in the allocation, as of the last refresh.
    pub fn span(&self, skip: usize) -> Span {
        let ring = self.ring();
        let free = self.cursor.free().saturating_sub(skip);
        let offset = ring.offset_of(self.cursor.position() + skip as u64);
        Span {
            mem: ring.mem(),
            offset,
            len: free.min(ring.capacity() - offset),
        }
    }

    /// Stages `n` items written (enqueued) at the write position.
    pub fn produce(&mut self, n: usize) {
        self.cursor.produce(n);
    }

    /// Absolute index of the next item to be written.
    pub fn position(&self) -> u64 {
        self.cursor.position()
    }

    /// The ring.
    pub fn ring(&self) -> &Arc<DeviceRing> {
        self.cursor.buffer()
    }
}

/// One reader's view of a [`DeviceRing`].
pub struct RingReader {
    cursor: ReadCursor<DeviceRing>,
}

impl RingReader {
    /// Reader `id` of `ring`.
    ///
    /// # Errors
    /// If `ring` has no reader `id`, or it is attached already (see
    /// [`ClaimError`]).
    pub fn new(ring: Arc<DeviceRing>, id: usize) -> Result<Self, ClaimError> {
        Ok(Self {
            cursor: ReadCursor::new(ring, id)?,
        })
    }

    /// Refreshes the writer's position; returns all readable items.
    pub fn refresh(&mut self) -> usize {
        self.cursor.refresh()
    }

    /// Readable items starting `skip` items after the read position,
    /// contiguous in the allocation, as of the last refresh.
    pub fn span(&self, skip: usize) -> Span {
        let ring = self.ring();
        let avail = self.cursor.available().saturating_sub(skip);
        let offset = ring.offset_of(self.cursor.position() + skip as u64);
        Span {
            mem: ring.mem(),
            offset,
            len: avail.min(ring.capacity() - offset),
        }
    }

    /// Readable items as of the last refresh.
    pub fn available(&self) -> usize {
        self.cursor.available()
    }

    /// Stages `n` items consumed.
    pub fn consume(&mut self, n: usize) {
        self.cursor.consume(n);
    }

    /// Absolute index of the next item to be read.
    pub fn position(&self) -> u64 {
        self.cursor.position()
    }

    /// True when the writer finished and every item was consumed.
    pub fn is_finished(&self) -> bool {
        self.cursor.is_finished()
    }

    /// The ring.
    pub fn ring(&self) -> &Arc<DeviceRing> {
        self.cursor.buffer()
    }
}
