//! Typed device stream ports: [`DeviceInput`] and [`DeviceOutput`].
//!
//! They report the context's memory domain, create device rings for their
//! edges, and name the transfer block the flowgraph inserts where they meet
//! host memory or another context. They hand spans (allocation, offset,
//! length) to kernel launches, never host slices.

use crate::context::OclContext;
use crate::item::DeviceItem;
use crate::ring::{DeviceRing, RingReader, RingWriter, Span};
use crate::transfer::{ToDevice, ToHost};
use rfgraph::buffer::{EdgeBuffer, EdgeSpec, downcast_edge};
use rfgraph::port::{InputPort, OutputPort, StreamPort, Transfer};
use rfgraph::{GraphError, ItemType, MemoryDomain};
use std::marker::PhantomData;
use std::sync::Arc;

fn attach_ring(
    edge: Arc<dyn EdgeBuffer>,
    context: &OclContext,
    name: &str,
) -> Result<Arc<DeviceRing>, String> {
    let ring = downcast_edge::<DeviceRing>(edge)
        .ok_or_else(|| format!("`{name}` reads and writes OpenCL device rings only"))?;
    if ring.context().domain() != context.domain() {
        return Err(format!(
            "`{name}` is on another OpenCL context than its edge"
        ));
    }
    Ok(ring)
}

/// A typed stream input in device memory.
pub struct DeviceInput<T: DeviceItem> {
    name: &'static str,
    context: OclContext,
    reader: Option<RingReader>,
    _item: PhantomData<T>,
}

impl<T: DeviceItem> DeviceInput<T> {
    /// An input named `name` on `context`.
    pub fn new(name: &'static str, context: &OclContext) -> Self {
        Self {
            name,
            context: context.clone(),
            reader: None,
            _item: PhantomData,
        }
    }

    /// The ring reader, once connected.
    ///
    /// # Panics
    /// Before the flowgraph connected the port (blocks only call this in
    /// `work`, after the flowgraph connected every required port).
    pub fn reader(&mut self) -> &mut RingReader {
        self.reader
            .as_mut()
            .expect("device input used before it was connected")
    }

    /// Refreshes and returns the readable items.
    pub fn refresh(&mut self) -> usize {
        self.reader().refresh()
    }

    /// Readable span starting `skip` items in (see [`RingReader::span`]).
    pub fn span(&mut self, skip: usize) -> Span {
        self.reader().span(skip)
    }

    /// Stages `n` items consumed.
    pub fn consume(&mut self, n: usize) {
        self.reader().consume(n);
    }

    /// The context.
    pub fn context(&self) -> &OclContext {
        &self.context
    }
}

impl<T: DeviceItem> StreamPort for DeviceInput<T> {
    fn name(&self) -> &str {
        self.name
    }
    fn item_type(&self) -> ItemType {
        ItemType::of::<T>()
    }
    fn domain(&self) -> MemoryDomain {
        self.context.domain()
    }
    fn transfer(&self) -> Option<Transfer> {
        Some(Transfer::new(ToDevice::<T>::new(&self.context)))
    }
}

impl<T: DeviceItem> InputPort for DeviceInput<T> {
    fn attach(&mut self, edge: Arc<dyn EdgeBuffer>, reader: usize) -> Result<(), String> {
        let ring = attach_ring(edge, &self.context, self.name)?;
        let reader = RingReader::new(ring, reader).map_err(|e| format!("`{}`: {e}", self.name))?;
        self.reader = Some(reader);
        Ok(())
    }
}

/// A typed stream output in device memory.
pub struct DeviceOutput<T: DeviceItem> {
    name: &'static str,
    context: OclContext,
    writer: Option<RingWriter>,
    _item: PhantomData<T>,
}

impl<T: DeviceItem> DeviceOutput<T> {
    /// An output named `name` on `context`.
    pub fn new(name: &'static str, context: &OclContext) -> Self {
        Self {
            name,
            context: context.clone(),
            writer: None,
            _item: PhantomData,
        }
    }

    /// The ring writer, once connected.
    ///
    /// # Panics
    /// Before the flowgraph connected the port.
    pub fn writer(&mut self) -> &mut RingWriter {
        self.writer
            .as_mut()
            .expect("device output used before it was connected")
    }

    /// Refreshes and returns the free items.
    pub fn refresh(&mut self) -> usize {
        self.writer().refresh()
    }

    /// Free span starting `skip` items in (see [`RingWriter::span`]).
    pub fn span(&mut self, skip: usize) -> Span {
        self.writer().span(skip)
    }

    /// Stages `n` items produced.
    pub fn produce(&mut self, n: usize) {
        self.writer().produce(n);
    }

    /// The context.
    pub fn context(&self) -> &OclContext {
        &self.context
    }
}

impl<T: DeviceItem> StreamPort for DeviceOutput<T> {
    fn name(&self) -> &str {
        self.name
    }
    fn item_type(&self) -> ItemType {
        ItemType::of::<T>()
    }
    fn domain(&self) -> MemoryDomain {
        self.context.domain()
    }
    fn transfer(&self) -> Option<Transfer> {
        Some(Transfer::new(ToHost::<T>::new(&self.context)))
    }
}

impl<T: DeviceItem> OutputPort for DeviceOutput<T> {
    fn create_edge(&self, spec: EdgeSpec) -> Result<Arc<dyn EdgeBuffer>, GraphError> {
        let ring = DeviceRing::new(&self.context, &spec).map_err(|e| GraphError::Buffer {
            block: String::new(),
            port: self.name.to_string(),
            cause: e.to_string(),
        })?;
        Ok(ring)
    }

    fn attach(&mut self, edge: Arc<dyn EdgeBuffer>) -> Result<(), String> {
        let ring = attach_ring(edge, &self.context, self.name)?;
        let writer = RingWriter::new(ring).map_err(|e| format!("`{}`: {e}", self.name))?;
        self.writer = Some(writer);
        Ok(())
    }
}
