//! Typed host stream ports: [`StreamInput`] and [`StreamOutput`].
//!
//! A block keeps these as fields and reads/writes slices in `work`. They wrap
//! the circular buffer views; before the flowgraph connects them they show
//! empty slices. This module must stay free of scheduling logic.

use super::{InputPort, OutputPort, StreamPort};
use crate::Pmt;
use crate::buffer::circular::{CircularBuffer, CircularReader, CircularWriter};
use crate::buffer::{EdgeBuffer, EdgeSpec, downcast_edge};
use crate::error::GraphError;
use crate::item::{Item, ItemType};
use crate::tag::Tag;
use std::sync::Arc;

/// A typed stream input on host memory.
pub struct StreamInput<T: Item> {
    name: &'static str,
    optional: bool,
    min_items: usize,
    /// Granted by the flowgraph: see [`slice_in_place`](Self::slice_in_place).
    in_place: bool,
    reader: Option<CircularReader<T>>,
}

impl<T: Item> StreamInput<T> {
    /// A required input named `name`.
    pub fn new(name: &'static str) -> Self {
        Self {
            name,
            optional: false,
            min_items: 1,
            in_place: false,
            reader: None,
        }
    }

    /// An input that may stay unconnected (it then reads nothing).
    pub fn optional(name: &'static str) -> Self {
        Self {
            optional: true,
            ..Self::new(name)
        }
    }

    /// Declares that `work` needs at least `n` readable items at once to
    /// make progress; the ring is sized to allow it (see
    /// `StreamPort::min_items`).
    pub fn with_min_items(mut self, n: usize) -> Self {
        self.min_items = n.max(1);
        self
    }

    /// Everything readable now, contiguous.
    #[inline]
    pub fn slice(&mut self) -> &[T] {
        match &mut self.reader {
            Some(r) => r.slice(),
            None => &[],
        }
    }

    /// How many items [`slice`](Self::slice) would offer now, without
    /// forming the slice: for a block that consumes items it does not
    /// read (a sink that only counts).
    #[inline]
    pub fn available(&mut self) -> usize {
        match &mut self.reader {
            Some(r) => r.available(),
            None => 0,
        }
    }

    /// Everything readable now, writable, when the flowgraph let this
    /// block work in place (an output declared
    /// [`in_place_of`](StreamOutput::in_place_of) this input, and this is
    /// the edge's only reader); `None` otherwise. The block overwrites
    /// items with its results, then calls [`consume`](Self::consume) and
    /// the output's [`produce_in_place`](StreamOutput::produce_in_place)
    /// with the same count.
    #[inline]
    pub fn slice_in_place(&mut self) -> Option<&mut [T]> {
        if !self.in_place {
            return None;
        }
        let reader = self.reader.as_mut()?;
        // SAFETY: `in_place` is set only by the flowgraph (`grant_in_place`)
        // after it checked that this is the edge's only reader and made the
        // paired output's edge with `CircularBuffer::in_place_of` for it.
        Some(unsafe { reader.slice_mut() })
    }

    /// Marks the first `n` items of the last [`slice`](Self::slice) consumed.
    #[inline(always)]
    pub fn consume(&mut self, n: usize) {
        if let Some(r) = &mut self.reader {
            r.consume(n);
        } else {
            assert_eq!(n, 0, "consume on an unconnected input");
        }
    }

    /// Absolute index of the first item of the next slice.
    pub fn position(&self) -> u64 {
        self.reader.as_ref().map_or(0, |r| r.position())
    }

    /// Tags on the items of the last slice (absolute indices).
    pub fn tags(&self) -> Vec<Tag> {
        self.reader.as_ref().map_or_else(Vec::new, |r| r.tags())
    }

    /// True when the writer finished and every item was consumed.
    pub fn is_finished(&self) -> bool {
        self.reader.as_ref().is_none_or(|r| r.is_finished())
    }
}

impl<T: Item> StreamPort for StreamInput<T> {
    fn name(&self) -> &str {
        self.name
    }
    fn item_type(&self) -> ItemType {
        ItemType::of::<T>()
    }
    fn is_optional(&self) -> bool {
        self.optional
    }
    fn min_items(&self) -> usize {
        self.min_items
    }
}

impl<T: Item> InputPort for StreamInput<T> {
    fn attach(&mut self, edge: Arc<dyn EdgeBuffer>, reader: usize) -> Result<(), String> {
        let buf = downcast_edge::<CircularBuffer>(edge)
            .ok_or_else(|| format!("input `{}` reads host memory only", self.name))?;
        self.reader = Some(CircularReader::new(buf, reader));
        Ok(())
    }
    fn supports_in_place(&self) -> bool {
        true
    }
    fn grant_in_place(&mut self) {
        self.in_place = true;
    }
}

/// A typed stream output on host memory.
pub struct StreamOutput<T: Item> {
    name: &'static str,
    optional: bool,
    min_items: usize,
    /// The input whose memory this output may reuse.
    in_place_of: Option<usize>,
    /// Granted by the flowgraph: this output's edge is a view of that
    /// input's ring.
    in_place: bool,
    writer: Option<CircularWriter<T>>,
}

impl<T: Item> StreamOutput<T> {
    /// A required output named `name`.
    pub fn new(name: &'static str) -> Self {
        Self {
            name,
            optional: false,
            min_items: 1,
            in_place_of: None,
            in_place: false,
            writer: None,
        }
    }

    /// An output that may stay unconnected (writes to it are discarded).
    pub fn optional(name: &'static str) -> Self {
        Self {
            optional: true,
            ..Self::new(name)
        }
    }

    /// Declares that `work` needs at least `n` free items at once to make
    /// progress; the ring is sized to allow it (see
    /// `StreamPort::min_items`).
    pub fn with_min_items(mut self, n: usize) -> Self {
        self.min_items = n.max(1);
        self
    }

    /// Lets this output reuse the memory of the block's input number
    /// `input` when the flowgraph finds that safe; the block must then
    /// work through [`StreamInput::slice_in_place`] whenever that returns
    /// `Some` (this output's [`slice`](Self::slice) is empty then). An
    /// input serves at most one output so: the flowgraph rejects a block
    /// whose outputs name one input twice, or an input it lacks
    /// ([`crate::GraphError::InvalidInPlace`]).
    pub fn in_place_of(mut self, input: usize) -> Self {
        self.in_place_of = Some(input);
        self
    }

    /// All free space now, contiguous. Empty while the output works in
    /// place: its free space is the input's unread items.
    #[inline(always)]
    pub fn slice(&mut self) -> &mut [T] {
        match &mut self.writer {
            Some(w) if !self.in_place => w.slice(),
            _ => &mut [],
        }
    }

    /// How many items [`slice`](Self::slice) would offer now, without
    /// forming the slice: for a block that produces items it does not
    /// write (a source of whatever the memory holds). Zero while the
    /// output works in place, as for `slice`.
    #[inline]
    pub fn free(&mut self) -> usize {
        match &mut self.writer {
            Some(w) if !self.in_place => w.free(),
            _ => 0,
        }
    }

    /// Publishes `n` items that the block transformed in place through
    /// [`StreamInput::slice_in_place`] (and consumed there).
    #[inline]
    pub fn produce_in_place(&mut self, n: usize) {
        match &mut self.writer {
            Some(w) if self.in_place => w.produce_in_place(n),
            _ => assert_eq!(n, 0, "produce_in_place on an output not working in place"),
        }
    }

    /// Publishes the first `n` items of the last [`slice`](Self::slice).
    #[inline]
    pub fn produce(&mut self, n: usize) {
        if let Some(w) = &mut self.writer {
            w.produce(n);
        } else {
            assert_eq!(n, 0, "produce on an unconnected output");
        }
    }

    /// Absolute index of the next item to be written.
    pub fn position(&self) -> u64 {
        self.writer.as_ref().map_or(0, |w| w.position())
    }

    /// Attaches a tag to the item `offset` items after [`position`](Self::position).
    pub fn add_tag(&self, offset: usize, key: &str, value: impl Into<Pmt>) {
        if let Some(w) = &self.writer {
            w.add_tag(offset, key, value.into());
        }
    }
}

impl<T: Item> StreamPort for StreamOutput<T> {
    fn name(&self) -> &str {
        self.name
    }
    fn item_type(&self) -> ItemType {
        ItemType::of::<T>()
    }
    fn is_optional(&self) -> bool {
        self.optional
    }
    fn min_items(&self) -> usize {
        self.min_items
    }
}

impl<T: Item> OutputPort for StreamOutput<T> {
    fn create_edge(&self, spec: EdgeSpec) -> Result<Arc<dyn EdgeBuffer>, GraphError> {
        let buf = CircularBuffer::new(spec).map_err(|e| GraphError::Buffer {
            block: String::new(),
            port: self.name.to_string(),
            cause: e.to_string(),
        })?;
        Ok(buf)
    }

    fn attach(&mut self, edge: Arc<dyn EdgeBuffer>) -> Result<(), String> {
        let buf = downcast_edge::<CircularBuffer>(edge)
            .ok_or_else(|| format!("output `{}` writes host memory only", self.name))?;
        self.writer = Some(CircularWriter::new(buf));
        Ok(())
    }
    fn in_place_of(&self) -> Option<usize> {
        self.in_place_of
    }
    fn grant_in_place(&mut self) {
        self.in_place = true;
    }
}
