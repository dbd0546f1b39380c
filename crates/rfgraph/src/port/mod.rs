//! Ports: how a block declares what it reads, writes, receives and sends.
//!
//! This module owns the type-erased port traits the flowgraph uses to
//! connect typed ports without knowing their item type ([`InputPort`],
//! [`OutputPort`]) and the [`Ports`] list a block returns from
//! [`Block::ports`](crate::Block::ports). The typed ports themselves live in
//! [`stream`] and [`message`].

pub mod message;
pub mod stream;

use crate::buffer::{EdgeBuffer, EdgeSpec, MemoryDomain};
use crate::error::GraphError;
use crate::item::ItemType;
use std::sync::Arc;

/// What every stream port tells the flowgraph.
pub trait StreamPort {
    /// The port's name, unique among the block's ports of its direction.
    fn name(&self) -> &str;
    /// The item type.
    fn item_type(&self) -> ItemType;
    /// Where the items live.
    fn domain(&self) -> MemoryDomain {
        MemoryDomain::Host
    }
    /// Optional ports may stay unconnected.
    fn is_optional(&self) -> bool {
        false
    }
    /// The fewest items the block needs at once on this port to make
    /// progress (a whole FFT frame, say). Rings are sized so that a writer
    /// and every reader can always reach their minimums together, however
    /// small the scheduler's cache-sized default is.
    fn min_items(&self) -> usize {
        1
    }
    /// For a port outside host memory: a new block that moves this port's
    /// items across the host boundary, which the flowgraph inserts where
    /// the port meets another domain. For an input, it reads host memory on
    /// `in` and writes this port's domain on `out`; for an output, it reads
    /// this port's domain on `in` and writes host memory on `out`. Host
    /// ports return `None`.
    fn transfer(&self) -> Option<Transfer> {
        None
    }
}

/// A block that moves items across the host boundary (see
/// [`StreamPort::transfer`]), with its type name for statistics.
pub struct Transfer {
    pub(crate) block: Box<dyn crate::Block>,
    pub(crate) type_name: &'static str,
}

impl Transfer {
    /// Wraps `block`.
    pub fn new<B: crate::Block>(block: B) -> Self {
        Self {
            block: Box::new(block),
            type_name: std::any::type_name::<B>(),
        }
    }
}

/// The flowgraph's leave for a port to work in place on one edge, handed
/// to [`InputPort::grant_in_place`] and [`OutputPort::grant_in_place`].
///
/// Only the flowgraph makes one (there is no public constructor), so code
/// outside this crate cannot call those methods: a block granting its own
/// input would get `&mut` items that other readers read on other threads.
/// A grant names its edge and reader; the crate's ports check both, so a
/// port that passes its grant on to another port grants nothing there.
///
/// The examples below differ from this one, which compiles, only in their
/// last line, so they fail for that line alone:
///
/// ```
/// # use rfgraph::StreamInput;
/// # use rfgraph::buffer::EdgeSpec;
/// # use rfgraph::buffer::circular::CircularBuffer;
/// # use rfgraph::port::{InPlaceGrant, InputPort};
/// # use rfgraph::signal::Signal;
/// # let spec = EdgeSpec {
/// #     item_size: 4,
/// #     min_bytes: 4096,
/// #     writer_signal: Signal::new(),
/// #     reader_signals: vec![Signal::new()],
/// # };
/// // A block's input, connected as the only reader of a ring.
/// let ring = CircularBuffer::new(spec).unwrap();
/// let mut input = StreamInput::<f32>::new("in");
/// input.attach(ring.clone(), 0).unwrap();
/// assert!(input.slice_in_place().is_none());
/// ```
///
/// A block cannot make a grant for its own input:
///
/// ```compile_fail
/// # use rfgraph::StreamInput;
/// # use rfgraph::buffer::EdgeSpec;
/// # use rfgraph::buffer::circular::CircularBuffer;
/// # use rfgraph::port::{InPlaceGrant, InputPort};
/// # use rfgraph::signal::Signal;
/// # let spec = EdgeSpec {
/// #     item_size: 4,
/// #     min_bytes: 4096,
/// #     writer_signal: Signal::new(),
/// #     reader_signals: vec![Signal::new()],
/// # };
/// // A block's input, connected as the only reader of a ring.
/// let ring = CircularBuffer::new(spec).unwrap();
/// let mut input = StreamInput::<f32>::new("in");
/// input.attach(ring.clone(), 0).unwrap();
/// input.grant_in_place(InPlaceGrant::new(ring, 0)); // private constructor
/// ```
///
/// ```compile_fail
/// # use rfgraph::StreamInput;
/// # use rfgraph::buffer::EdgeSpec;
/// # use rfgraph::buffer::circular::CircularBuffer;
/// # use rfgraph::port::{InPlaceGrant, InputPort};
/// # use rfgraph::signal::Signal;
/// # let spec = EdgeSpec {
/// #     item_size: 4,
/// #     min_bytes: 4096,
/// #     writer_signal: Signal::new(),
/// #     reader_signals: vec![Signal::new()],
/// # };
/// // A block's input, connected as the only reader of a ring.
/// let ring = CircularBuffer::new(spec).unwrap();
/// let mut input = StreamInput::<f32>::new("in");
/// input.attach(ring.clone(), 0).unwrap();
/// input.grant_in_place(InPlaceGrant { edge: ring, reader: 0 }); // private fields
/// ```
///
/// nor call the grant without one, as it could before grants existed:
///
/// ```compile_fail
/// # use rfgraph::StreamInput;
/// # use rfgraph::buffer::EdgeSpec;
/// # use rfgraph::buffer::circular::CircularBuffer;
/// # use rfgraph::port::{InPlaceGrant, InputPort};
/// # use rfgraph::signal::Signal;
/// # let spec = EdgeSpec {
/// #     item_size: 4,
/// #     min_bytes: 4096,
/// #     writer_signal: Signal::new(),
/// #     reader_signals: vec![Signal::new()],
/// # };
/// // A block's input, connected as the only reader of a ring.
/// let ring = CircularBuffer::new(spec).unwrap();
/// let mut input = StreamInput::<f32>::new("in");
/// input.attach(ring.clone(), 0).unwrap();
/// input.grant_in_place();
/// ```
pub struct InPlaceGrant {
    /// The edge the port may work in place on.
    edge: Arc<dyn EdgeBuffer>,
    /// For an input: its reader number on `edge`.
    reader: usize,
}

impl InPlaceGrant {
    /// The flowgraph's grant for reader `reader` of `edge` (an input), or
    /// for the writer of `edge` (an output, `reader` 0 unused).
    pub(crate) fn new(edge: Arc<dyn EdgeBuffer>, reader: usize) -> Self {
        Self { edge, reader }
    }

    /// The edge the grant is for.
    pub fn edge(&self) -> &Arc<dyn EdgeBuffer> {
        &self.edge
    }

    /// For an input's grant: its reader number on [`edge`](Self::edge).
    pub fn reader(&self) -> usize {
        self.reader
    }
}

impl std::fmt::Debug for InPlaceGrant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InPlaceGrant")
            .field("reader", &self.reader)
            .finish_non_exhaustive()
    }
}

/// A stream input, as the flowgraph sees it.
pub trait InputPort: StreamPort {
    /// Connects the port as reader number `reader` of `edge`.
    fn attach(&mut self, edge: Arc<dyn EdgeBuffer>, reader: usize) -> Result<(), String>;
    /// True for ports that can hand their block the readable items as a
    /// writable slice (see [`grant_in_place`](Self::grant_in_place)).
    fn supports_in_place(&self) -> bool {
        false
    }
    /// Called by the flowgraph once this port is the only reader of its
    /// edge and the block's output that asked for it
    /// ([`OutputPort::in_place_of`]) reuses this edge's memory: from now on
    /// the block transforms items where they lie. Only the flowgraph can
    /// call it: see [`InPlaceGrant`].
    fn grant_in_place(&mut self, _grant: InPlaceGrant) {}
}

/// A stream output, as the flowgraph sees it. The output creates its edge,
/// so the producer decides the buffer kind.
pub trait OutputPort: StreamPort {
    /// Creates the buffer of this output's edge.
    fn create_edge(&self, spec: EdgeSpec) -> Result<Arc<dyn EdgeBuffer>, GraphError>;
    /// Connects the port as the writer of `edge`.
    fn attach(&mut self, edge: Arc<dyn EdgeBuffer>) -> Result<(), String>;
    /// The block's input (by index) whose memory this output may reuse:
    /// the block then writes its results over its input items, in place,
    /// and the flowgraph makes this output's edge a view of the input's
    /// ring when that is safe (host memory, a sole reader). `None`: never.
    fn in_place_of(&self) -> Option<usize> {
        None
    }
    /// Called by the flowgraph when it made this output's edge reuse the
    /// input's memory (see [`in_place_of`](Self::in_place_of)), after
    /// [`attach`](Self::attach). Only the flowgraph can call it: see
    /// [`InPlaceGrant`].
    fn grant_in_place(&mut self, _grant: InPlaceGrant) {}
}

/// The ports of one block, in declaration order.
#[derive(Default)]
pub struct Ports<'a> {
    pub(crate) inputs: Vec<&'a mut dyn InputPort>,
    pub(crate) outputs: Vec<&'a mut dyn OutputPort>,
    pub(crate) message_inputs: Vec<&'static str>,
    pub(crate) message_outputs: Vec<&'a mut message::MessageOutput>,
}

impl<'a> Ports<'a> {
    /// No ports.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a stream input.
    pub fn input(mut self, port: &'a mut dyn InputPort) -> Self {
        self.inputs.push(port);
        self
    }

    /// Adds a stream output.
    pub fn output(mut self, port: &'a mut dyn OutputPort) -> Self {
        self.outputs.push(port);
        self
    }

    /// Adds a message input; messages to it reach
    /// [`Block::handle_message`](crate::Block::handle_message) with this name.
    pub fn message_input(mut self, name: &'static str) -> Self {
        self.message_inputs.push(name);
        self
    }

    /// Adds a message output.
    pub fn message_output(mut self, port: &'a mut message::MessageOutput) -> Self {
        self.message_outputs.push(port);
        self
    }

    /// The stream inputs' names, in declaration order.
    pub fn input_names(&self) -> Vec<String> {
        self.inputs.iter().map(|p| p.name().to_string()).collect()
    }

    /// The stream outputs' names, in declaration order.
    pub fn output_names(&self) -> Vec<String> {
        self.outputs.iter().map(|p| p.name().to_string()).collect()
    }

    /// Whether each stream input may stay unconnected, in declaration
    /// order.
    pub fn input_optional(&self) -> Vec<bool> {
        self.inputs.iter().map(|p| p.is_optional()).collect()
    }

    /// Whether each stream output may stay unconnected, in declaration
    /// order.
    pub fn output_optional(&self) -> Vec<bool> {
        self.outputs.iter().map(|p| p.is_optional()).collect()
    }

    /// The stream inputs' item types, in declaration order.
    pub fn input_types(&self) -> Vec<ItemType> {
        self.inputs.iter().map(|p| p.item_type()).collect()
    }

    /// The stream outputs' item types, in declaration order.
    pub fn output_types(&self) -> Vec<ItemType> {
        self.outputs.iter().map(|p| p.item_type()).collect()
    }

    /// The message inputs' names, in declaration order.
    pub fn message_input_names(&self) -> Vec<&'static str> {
        self.message_inputs.clone()
    }

    /// The message outputs' names, in declaration order.
    pub fn message_output_names(&self) -> Vec<String> {
        self.message_outputs
            .iter()
            .map(|p| p.name().to_string())
            .collect()
    }
}
