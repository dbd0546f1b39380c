//! Typed host stream ports: [`StreamInput`] and [`StreamOutput`].
//!
//! A block keeps these as fields and reads/writes slices in `work`. They wrap
//! the circular buffer views; before the flowgraph connects them they show
//! empty slices. This module must stay free of scheduling logic.

use super::{InPlaceGrant, InputPort, OutputPort, StreamPort};
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
    /// Granted by the flowgraph, and checked against the edge: see
    /// [`slice_in_place`](Self::slice_in_place).
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
        // SAFETY: `in_place` is set only by `grant_in_place`, with a grant
        // only the flowgraph makes, and only once `may_work_in_place` held
        // for this reader (the edge's only reader, whose items pass on
        // through an edge `CircularBuffer::in_place_of` made for it).
        // `attach` drops the grant with the reader it was checked for, and
        // nothing undoes the check's conditions on one edge.
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

    /// True once the flowgraph connected this input (an
    /// [`optional`](Self::optional) one may stay unconnected).
    pub fn is_connected(&self) -> bool {
        self.reader.is_some()
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
        let reader =
            CircularReader::new(buf, reader).map_err(|e| format!("input `{}`: {e}", self.name))?;
        // A grant was for the edge before: a new edge needs its own.
        self.in_place = false;
        self.reader = Some(reader);
        Ok(())
    }
    fn supports_in_place(&self) -> bool {
        true
    }
    /// Takes the grant if it names this input's edge and reader and the
    /// edge really is passed on in place from this, its only reader;
    /// ignores it otherwise (the input then never works in place).
    fn grant_in_place(&mut self, grant: InPlaceGrant) {
        if let Some(reader) = &self.reader
            && reader.may_work_in_place(&**grant.edge(), grant.reader())
        {
            self.in_place = true;
        }
    }
}

/// A typed stream output on host memory.
pub struct StreamOutput<T: Item> {
    name: &'static str,
    optional: bool,
    min_items: usize,
    /// The input whose memory this output may reuse.
    in_place_of: Option<usize>,
    /// This output's edge is a view of that input's ring: set at attach,
    /// from the edge itself (only the flowgraph makes such edges).
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

    /// [`slice`](Self::slice) as a raw slice pointer, formed without a
    /// `&mut`: for a block whose items are written after this call
    /// returns, by a device copy still in flight on a later call (a
    /// `&mut` over memory a device writes would be undefined behaviour).
    /// Only this output's block may write the space it points to, until
    /// it [`produce`](Self::produce)s the items; writing needs `unsafe`.
    #[inline]
    pub fn slice_raw(&mut self) -> *mut [T] {
        match &mut self.writer {
            Some(w) if !self.in_place => w.slice_raw(),
            _ => std::ptr::slice_from_raw_parts_mut(std::ptr::NonNull::<T>::dangling().as_ptr(), 0),
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
    ///
    /// # Panics
    /// If the input has not consumed these items yet: call its
    /// [`consume`](StreamInput::consume) first, with the same count.
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

    /// True once the flowgraph connected this output (an
    /// [`optional`](Self::optional) one may stay unconnected).
    pub fn is_connected(&self) -> bool {
        self.writer.is_some()
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
        let writer =
            CircularWriter::attach(buf).map_err(|e| format!("output `{}`: {e}", self.name))?;
        self.in_place = writer.is_in_place();
        self.writer = Some(writer);
        Ok(())
    }
    fn in_place_of(&self) -> Option<usize> {
        self.in_place_of
    }
    // `grant_in_place`: the default. Whether this output works in place
    // follows from its edge (see `attach`), which no grant can change.
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::EdgeSpec;
    use crate::signal::Signal;

    fn ring(readers: usize) -> Arc<CircularBuffer> {
        CircularBuffer::new(EdgeSpec {
            item_size: 4,
            min_bytes: 4096,
            writer_signal: Signal::new(),
            reader_signals: (0..readers).map(|_| Signal::new()).collect(),
        })
        .unwrap()
    }

    /// Writes `n` items into `ring` and publishes them.
    fn fill(ring: &Arc<CircularBuffer>, n: usize) {
        let mut w = CircularWriter::<f32>::new(ring.clone()).unwrap();
        w.slice()[..n].fill(1.0);
        w.produce(n);
        w.publish();
    }

    /// The flowgraph's grant works: the only reader of a ring whose next
    /// edge reuses it in place gets writable items.
    #[test]
    fn a_grant_for_the_inputs_own_edge_works() {
        let base = ring(1);
        let _view = CircularBuffer::in_place_of(
            &base,
            0,
            EdgeSpec {
                item_size: 4,
                min_bytes: 1,
                writer_signal: Signal::new(),
                reader_signals: vec![Signal::new()],
            },
        );
        fill(&base, 8);
        let mut input = StreamInput::<f32>::new("in");
        input.attach(base.clone(), 0).unwrap();
        assert!(input.slice_in_place().is_none(), "before the grant");
        input.grant_in_place(InPlaceGrant::new(base, 0));
        assert_eq!(input.slice_in_place().map(|s| s.len()), Some(8));
        // Attached anew (to an edge another reader shares), the input
        // does not keep the grant it had for its old edge.
        let shared = ring(2);
        fill(&shared, 8);
        input.attach(shared, 1).unwrap();
        assert!(input.slice_in_place().is_none(), "a grant survived attach");
        assert_eq!(input.slice().len(), 8);
    }

    /// A grant proves nothing for another edge or reader, nor for an edge
    /// with other readers or that nothing reuses in place: a port passing
    /// its grant on (or a flowgraph bug) cannot hand out `&mut` items that
    /// another reader reads.
    #[test]
    fn a_grant_for_anything_else_is_ignored() {
        // Two readers, no in-place view: reader 1 reads these items too.
        let shared = ring(2);
        fill(&shared, 8);
        let mut input = StreamInput::<f32>::new("in");
        input.attach(shared.clone(), 0).unwrap();
        input.grant_in_place(InPlaceGrant::new(shared.clone(), 0));
        assert!(input.slice_in_place().is_none(), "shared edge");
        // A real in-place pair elsewhere: its grant names another edge.
        let base = ring(1);
        let _view = CircularBuffer::in_place_of(
            &base,
            0,
            EdgeSpec {
                item_size: 4,
                min_bytes: 1,
                writer_signal: Signal::new(),
                reader_signals: vec![Signal::new()],
            },
        );
        input.grant_in_place(InPlaceGrant::new(base.clone(), 0));
        assert!(input.slice_in_place().is_none(), "another edge's grant");
        // The right edge, the wrong reader number.
        let mut other = StreamInput::<f32>::new("other");
        other.attach(base.clone(), 0).unwrap();
        other.grant_in_place(InPlaceGrant::new(base.clone(), 1));
        assert!(other.slice_in_place().is_none(), "another reader's grant");
        // A lone reader of an edge nothing reuses in place.
        let lone = ring(1);
        let mut alone = StreamInput::<f32>::new("alone");
        alone.attach(lone.clone(), 0).unwrap();
        alone.grant_in_place(InPlaceGrant::new(lone, 0));
        assert!(alone.slice_in_place().is_none(), "no in-place view");
        // An unconnected input ignores grants.
        let mut unconnected = StreamInput::<f32>::new("unconnected");
        unconnected.grant_in_place(InPlaceGrant::new(base, 0));
        assert!(unconnected.slice_in_place().is_none());
    }

    /// An output attached to an in-place edge works in place from the
    /// start (its free space is the input's items, so its `slice` is
    /// empty) whether or not a grant follows; a grant never makes an
    /// ordinary output skip its free-space check.
    #[test]
    fn an_output_works_in_place_exactly_on_in_place_edges() {
        let base = ring(1);
        let view = CircularBuffer::in_place_of(
            &base,
            0,
            EdgeSpec {
                item_size: 4,
                min_bytes: 1,
                writer_signal: Signal::new(),
                reader_signals: vec![Signal::new()],
            },
        );
        let mut out = StreamOutput::<f32>::new("out").in_place_of(0);
        out.attach(view.clone()).unwrap();
        assert!(out.slice().is_empty());
        assert_eq!(out.slice_raw().len(), 0);
        let mut plain = StreamOutput::<f32>::new("plain");
        let own = ring(1);
        plain.attach(own).unwrap();
        plain.grant_in_place(InPlaceGrant::new(view, 0));
        assert!(!plain.slice().is_empty());
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            plain.produce_in_place(1);
        }));
        assert!(result.is_err(), "produce_in_place on an ordinary output");
    }
}
