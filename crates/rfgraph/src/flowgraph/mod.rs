//! The flowgraph builder: add blocks, connect ports, run on a scheduler.
//!
//! This module owns the graph description (blocks, stream and message
//! edges) and connect-time checks (names, item types, memory domains, one
//! writer per input). Whole-graph validation is in [`validate`], turning the
//! description into runnable parts in [`build`], and the running/finished
//! states in [`run`].

pub mod budget;
pub mod build;
pub(crate) mod in_place;
pub mod latency;
pub mod run;
pub(crate) mod stall;
pub mod topology;
pub(crate) mod transfers;
pub mod validate;

use crate::block::Block;
use crate::error::{Direction, GraphError, Mismatch, RunError};
use crate::scheduler::{GraphShape, Scheduler};
pub use run::{Finished, FlowgraphHandle, RunState, Running};

/// Default minimum size of a stream edge's ring buffer, in bytes.
pub const DEFAULT_BUFFER_BYTES: usize = 64 * 1024;

/// Identifies a block within its flowgraph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub usize);

pub(crate) struct BlockEntry {
    pub(crate) name: String,
    pub(crate) type_name: String,
    pub(crate) block: Box<dyn Block>,
    /// Inserted by the runtime to move items between memory domains.
    pub(crate) transfer: bool,
    /// Runs on a thread of its own whatever the block says
    /// ([`Flowgraph::set_blocking`]).
    pub(crate) force_blocking: bool,
}

impl BlockEntry {
    /// Whether the block gets a thread of its own.
    pub(crate) fn is_blocking(&self) -> bool {
        self.force_blocking || self.block.is_blocking()
    }
}

#[derive(Clone, Debug)]
pub(crate) struct StreamEdge {
    pub(crate) src: usize,
    pub(crate) src_port: usize,
    pub(crate) dst: usize,
    pub(crate) dst_port: usize,
    pub(crate) min_bytes: Option<usize>,
    /// The scheduler's choice when the user made none.
    pub(crate) planned_bytes: Option<usize>,
}

#[derive(Clone, Debug)]
pub(crate) struct MessageEdge {
    pub(crate) src: usize,
    pub(crate) src_port: usize,
    pub(crate) dst: usize,
    pub(crate) dst_port: usize,
}

/// A graph of blocks connected by stream and message edges.
///
/// ```
/// # use rfgraph::{Flowgraph, Block, BoxError, Ports, StreamOutput, StreamInput, WorkIo};
/// # use rfgraph::scheduler::Single;
/// # struct Src(StreamOutput<u8>);
/// # impl Block for Src {
/// #   fn ports(&mut self) -> Ports<'_> { Ports::new().output(&mut self.0) }
/// #   fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> { io.finish(); Ok(()) }
/// # }
/// # struct Snk(StreamInput<u8>);
/// # impl Block for Snk {
/// #   fn ports(&mut self) -> Ports<'_> { Ports::new().input(&mut self.0) }
/// # }
/// let mut fg = Flowgraph::new();
/// let src = fg.add(Src(StreamOutput::new("out")));
/// let snk = fg.add(Snk(StreamInput::new("in")));
/// fg.connect(src, "out", snk, "in")?;
/// fg.run(Single::new())?;
/// # Ok::<(), rfgraph::RunError>(())
/// ```
pub struct Flowgraph {
    pub(crate) blocks: Vec<BlockEntry>,
    pub(crate) streams: Vec<StreamEdge>,
    pub(crate) messages: Vec<MessageEdge>,
    pub(crate) buffer_bytes: usize,
    /// True once the user chose `buffer_bytes`; otherwise the scheduler may.
    pub(crate) buffer_bytes_set: bool,
    /// The scheduler's chunk size: no port sees more bytes at once.
    pub(crate) chunk_bytes: Option<usize>,
    /// The latency budget (see [`set_max_latency`](Self::set_max_latency)).
    pub(crate) max_latency: Option<std::time::Duration>,
}

impl Default for Flowgraph {
    fn default() -> Self {
        Self::new()
    }
}

/// `a::b::Copy<c::f32>` → `Copy<f32>`.
pub(crate) fn short_type_name(full: &str) -> String {
    let mut out = String::new();
    let mut token = String::new();
    for ch in full.chars() {
        if ch.is_alphanumeric() || ch == '_' || ch == ':' {
            token.push(ch);
        } else {
            out.push_str(token.rsplit("::").next().unwrap_or(""));
            token.clear();
            out.push(ch);
        }
    }
    out.push_str(token.rsplit("::").next().unwrap_or(""));
    out
}

impl Flowgraph {
    /// An empty flowgraph.
    pub fn new() -> Self {
        Self {
            blocks: Vec::new(),
            streams: Vec::new(),
            messages: Vec::new(),
            buffer_bytes: DEFAULT_BUFFER_BYTES,
            buffer_bytes_set: false,
            chunk_bytes: None,
            max_latency: None,
        }
    }

    /// Sets the latency budget: how long an item may take from the clock
    /// that paces it (a device's burst, a throttle) to the end of the
    /// flowgraph. Every scheduler then caps how many items queue on each
    /// edge near a paced block ([`Block::paced_rate`]) and how many a port
    /// sees at once, so that a burst flows through in small pieces; the
    /// run reports where the budget could not hold ([`Finished::latency`]).
    /// Without one, a paced flowgraph gets [`budget::PACED_DEFAULT`]. See
    /// the [`budget`] module for how it is shared out.
    pub fn set_max_latency(&mut self, budget: std::time::Duration) {
        self.max_latency = Some(budget.max(std::time::Duration::from_nanos(1)));
    }

    /// Sets the minimum ring size of edges without their own size (see
    /// [`connect_with_buffer`](Self::connect_with_buffer)). Without it, the
    /// scheduler's preference applies, else [`DEFAULT_BUFFER_BYTES`].
    pub fn set_buffer_bytes(&mut self, bytes: usize) {
        self.buffer_bytes = bytes.max(1);
        self.buffer_bytes_set = true;
    }

    /// Adds a block named after its type and position, e.g. `Copy<f32>#3`.
    pub fn add<B: Block>(&mut self, block: B) -> BlockId {
        let short = short_type_name(std::any::type_name::<B>());
        let name = format!("{short}#{}", self.blocks.len());
        self.add_named(name, block)
    }

    /// Adds a block with an explicit instance name (used in errors and
    /// statistics, and by the handle to address the block).
    pub fn add_named<B: Block>(&mut self, name: impl Into<String>, block: B) -> BlockId {
        self.blocks.push(BlockEntry {
            name: name.into(),
            type_name: std::any::type_name::<B>().to_string(),
            block: Box::new(block),
            transfer: false,
            force_blocking: false,
        });
        BlockId(self.blocks.len() - 1)
    }

    /// Adds a block built at run time (by a [`Registry`](crate::registry::Registry)
    /// from a flowgraph file, say) under instance name `name`;
    /// `type_name` names its kind in statistics (the registered name).
    pub fn add_boxed(
        &mut self,
        name: impl Into<String>,
        type_name: impl Into<String>,
        block: Box<dyn Block>,
    ) -> BlockId {
        self.blocks.push(BlockEntry {
            name: name.into(),
            type_name: type_name.into(),
            block,
            transfer: false,
            force_blocking: false,
        });
        BlockId(self.blocks.len() - 1)
    }

    /// Gives block `id` a thread of its own under every scheduler, as if
    /// its [`Block::is_blocking`] said so (a block that calls something
    /// slow the runtime cannot see). A block that says it blocks always
    /// gets one.
    pub fn set_blocking(&mut self, id: BlockId) -> Result<(), GraphError> {
        self.entry(id)?;
        self.blocks[id.0].force_blocking = true;
        Ok(())
    }

    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    /// True when no block was added.
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The instance name of a block.
    pub fn name(&self, id: BlockId) -> Option<&str> {
        self.blocks.get(id.0).map(|b| b.name.as_str())
    }

    /// The names of a block's readings (see
    /// [`Block::readings`]); empty for an unknown
    /// id.
    pub fn readings(&self, id: BlockId) -> &'static [&'static str] {
        self.blocks.get(id.0).map_or(&[], |b| b.block.readings())
    }

    fn entry(&mut self, id: BlockId) -> Result<&mut BlockEntry, GraphError> {
        self.blocks
            .get_mut(id.0)
            .ok_or(GraphError::UnknownBlock(id.0))
    }

    fn port_index(
        block: &str,
        names: Vec<String>,
        port: &str,
        direction: Direction,
    ) -> Result<usize, GraphError> {
        names
            .iter()
            .position(|n| n == port)
            .ok_or_else(|| GraphError::UnknownPort {
                block: block.to_string(),
                port: port.to_string(),
                direction,
                available: if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                },
            })
    }

    /// Connects stream output `src_port` of `src` to input `dst_port` of
    /// `dst`. Item types must match; an input takes one writer, an output
    /// any number of readers. Ports in different memory domains (host and a
    /// device, or two devices) may be connected: at start the flowgraph
    /// inserts the transfer that edge needs, and only there (see
    /// `StreamPort::transfer`).
    pub fn connect(
        &mut self,
        src: BlockId,
        src_port: &str,
        dst: BlockId,
        dst_port: &str,
    ) -> Result<(), GraphError> {
        self.connect_stream(src, src_port, dst, dst_port, None)
    }

    /// Like [`connect`](Self::connect) with a minimum ring size for this edge.
    pub fn connect_with_buffer(
        &mut self,
        src: BlockId,
        src_port: &str,
        dst: BlockId,
        dst_port: &str,
        min_bytes: usize,
    ) -> Result<(), GraphError> {
        self.connect_stream(src, src_port, dst, dst_port, Some(min_bytes))
    }

    fn connect_stream(
        &mut self,
        src: BlockId,
        src_port: &str,
        dst: BlockId,
        dst_port: &str,
        min_bytes: Option<usize>,
    ) -> Result<(), GraphError> {
        let src_entry = self.entry(src)?;
        let src_name = src_entry.name.clone();
        let ports = src_entry.block.ports();
        let si = Self::port_index(
            &src_name,
            ports.output_names(),
            src_port,
            Direction::StreamOutput,
        )?;
        let src_type = ports.outputs[si].item_type();
        drop(ports);
        let dst_entry = self.entry(dst)?;
        let dst_name = dst_entry.name.clone();
        let ports = dst_entry.block.ports();
        let di = Self::port_index(
            &dst_name,
            ports.input_names(),
            dst_port,
            Direction::StreamInput,
        )?;
        let dst_type = ports.inputs[di].item_type();
        drop(ports);
        let mismatch = |src: String, dst: String| {
            Box::new(Mismatch {
                src_block: src_name.clone(),
                src_port: src_port.to_string(),
                src,
                dst_block: dst_name.clone(),
                dst_port: dst_port.to_string(),
                dst,
            })
        };
        if src_type != dst_type {
            return Err(GraphError::TypeMismatch(mismatch(
                src_type.name().to_string(),
                dst_type.name().to_string(),
            )));
        }
        if let Some(existing) = self
            .streams
            .iter()
            .find(|e| e.dst == dst.0 && e.dst_port == di)
        {
            return Err(GraphError::InputAlreadyConnected {
                block: dst_name,
                port: dst_port.to_string(),
                existing: self.blocks[existing.src].name.clone(),
            });
        }
        self.streams.push(StreamEdge {
            src: src.0,
            src_port: si,
            dst: dst.0,
            dst_port: di,
            min_bytes,
            planned_bytes: None,
        });
        Ok(())
    }

    /// Connects blocks in a line through their ports `out` → `in`. A
    /// block without those ports is a [`GraphError::ChainPort`] naming it
    /// and the ports it has.
    pub fn chain(&mut self, blocks: &[BlockId]) -> Result<(), GraphError> {
        for pair in blocks.windows(2) {
            self.connect(pair[0], "out", pair[1], "in")
                .map_err(|e| match e {
                    GraphError::UnknownPort {
                        block,
                        port,
                        direction,
                        available,
                    } => GraphError::ChainPort {
                        block,
                        port,
                        direction,
                        available,
                    },
                    other => other,
                })?;
        }
        Ok(())
    }

    /// Connects message output `src_port` of `src` to message input
    /// `dst_port` of `dst`. Message graphs may fan in, fan out and loop.
    pub fn connect_message(
        &mut self,
        src: BlockId,
        src_port: &str,
        dst: BlockId,
        dst_port: &str,
    ) -> Result<(), GraphError> {
        let src_entry = self.entry(src)?;
        let src_name = src_entry.name.clone();
        let names = src_entry.block.ports().message_output_names();
        let si = Self::port_index(&src_name, names, src_port, Direction::MessageOutput)?;
        let dst_entry = self.entry(dst)?;
        let dst_name = dst_entry.name.clone();
        let names: Vec<String> = message_inputs(dst_entry.block.as_mut())
            .names
            .iter()
            .map(|s| s.to_string())
            .collect();
        let di = Self::port_index(&dst_name, names, dst_port, Direction::MessageInput)?;
        self.messages.push(MessageEdge {
            src: src.0,
            src_port: si,
            dst: dst.0,
            dst_port: di,
        });
        Ok(())
    }

    /// Validates, initialises every block and runs to completion.
    pub fn run(self, scheduler: impl Scheduler) -> Result<Finished, RunError> {
        self.start(scheduler)?.wait()
    }

    /// Validates, initialises every block and starts running in the
    /// background. Use the returned [`Running`] to post messages or wait.
    pub fn start(mut self, scheduler: impl Scheduler) -> Result<Running, RunError> {
        crate::cycles::anchor();
        transfers::insert(&mut self)?;
        validate::validate(&mut self)?;
        if !self.buffer_bytes_set {
            if let Some(bytes) = scheduler.default_buffer_bytes() {
                self.buffer_bytes = bytes.max(1);
                // Rings larger than this (slack across cores, memory
                // reused in place) still move chunks of this size.
                self.chunk_bytes = Some(bytes.max(1));
            }
            let shape = GraphShape {
                blocking: self.blocks.iter().map(BlockEntry::is_blocking).collect(),
                stateless: self
                    .blocks
                    .iter()
                    .map(|b| b.block.parallel_in_place().is_some())
                    .collect(),
                edges: self.streams.iter().map(|e| (e.src, e.dst)).collect(),
                paced: self.blocks.iter().any(|b| b.block.paced_rate().is_some()),
            };
            if let Some(plan) = scheduler.plan_buffer_bytes(&shape) {
                for (edge, bytes) in self.streams.iter_mut().zip(plan) {
                    edge.planned_bytes = Some(bytes.max(1));
                }
            }
        }
        let parts = build::build(self)?;
        run::start(parts, Box::new(scheduler))
    }
}

/// A block's message inputs: those its ports declare, then one for each
/// settable parameter and alias of its [`Block::params`].
pub(crate) struct MessageInputs {
    /// Every input's name, in port index order.
    pub(crate) names: Vec<&'static str>,
    /// For each input, the parameter it sets (`None`: the block's own
    /// `handle_message`).
    pub(crate) params: Vec<Option<&'static str>>,
}

/// The message inputs of `block` (see [`MessageInputs`]). A declared
/// input of a settable parameter's name stays the block's own.
pub(crate) fn message_inputs(block: &mut dyn Block) -> MessageInputs {
    let mut names = block.ports().message_inputs.clone();
    let mut params = vec![None; names.len()];
    if let Some(p) = block.params() {
        for (input, param) in crate::params::setting_inputs(p) {
            if !names.contains(&input) {
                names.push(input);
                params.push(Some(param));
            }
        }
    }
    MessageInputs { names, params }
}
