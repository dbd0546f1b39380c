//! The runtime's error types: graph construction errors, which a user fixes
//! by changing the graph, and run errors, which name the block that failed.

use thiserror::Error;

/// The boxed error type block methods return.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Which way a port points, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// A stream input.
    StreamInput,
    /// A stream output.
    StreamOutput,
    /// A message input.
    MessageInput,
    /// A message output.
    MessageOutput,
}

impl std::fmt::Display for Direction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Direction::StreamInput => "stream input",
            Direction::StreamOutput => "stream output",
            Direction::MessageInput => "message input",
            Direction::MessageOutput => "message output",
        })
    }
}

/// A block parameter that cannot work, rejected by the block's
/// constructor (a zero rate, a negative item rate).
#[derive(Debug, Clone, PartialEq, Error)]
#[error("{block}: `{param}` {reason}")]
pub struct ParamError {
    /// The block type.
    pub block: String,
    /// The parameter.
    pub param: String,
    /// What is wrong with its value.
    pub reason: String,
}

impl ParamError {
    /// `param` of `block` is invalid because `reason`.
    pub fn new(
        block: impl Into<String>,
        param: impl Into<String>,
        reason: impl Into<String>,
    ) -> Self {
        Self {
            block: block.into(),
            param: param.into(),
            reason: reason.into(),
        }
    }
}

/// The two ends of a stream connection that do not fit together.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// Producer block.
    pub src_block: String,
    /// Producer port.
    pub src_port: String,
    /// What the producer has (item type or memory domain).
    pub src: String,
    /// Consumer block.
    pub dst_block: String,
    /// Consumer port.
    pub dst_port: String,
    /// What the consumer has.
    pub dst: String,
}

/// An invalid flowgraph, rejected before anything runs.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum GraphError {
    /// A block id that this flowgraph did not hand out.
    #[error("no block with id {0} in this flowgraph")]
    UnknownBlock(usize),
    /// A port name the block does not have.
    #[error("block `{block}` has no {direction} named `{port}` (it has: {available})")]
    UnknownPort {
        /// Block instance name.
        block: String,
        /// The port asked for.
        port: String,
        /// Its direction.
        direction: Direction,
        /// The ports of that direction the block does have.
        available: String,
    },
    /// [`Flowgraph::chain`](crate::Flowgraph::chain) met a block without
    /// the `out` or `in` stream port it joins blocks through.
    #[error(
        "`chain` joins blocks through their ports `out` -> `in`, but block `{block}` has no {direction} named `{port}` (it has: {available}); connect it with `Flowgraph::connect` and its port names"
    )]
    ChainPort {
        /// Block instance name.
        block: String,
        /// `out` or `in`.
        port: String,
        /// Its direction.
        direction: Direction,
        /// The ports of that direction the block does have.
        available: String,
    },
    /// Item types differ between the two ends of a stream connection.
    #[error(
        "type mismatch: `{}`.{} produces {} but `{}`.{} consumes {}",
        .0.src_block, .0.src_port, .0.src, .0.dst_block, .0.dst_port, .0.dst
    )]
    TypeMismatch(Box<Mismatch>),
    /// The two ends live in memory domains that cannot be joined.
    #[error(
        "`{}`.{} writes {} memory but `{}`.{} reads {} memory, and no transfer between them is available",
        .0.src_block, .0.src_port, .0.src, .0.dst_block, .0.dst_port, .0.dst
    )]
    DomainMismatch(Box<Mismatch>),
    /// A stream input can have only one writer.
    #[error(
        "`{block}`.{port} is already connected to `{existing}`; a stream input takes exactly one writer (fan-in needs a block such as an adder)"
    )]
    InputAlreadyConnected {
        /// Consumer block.
        block: String,
        /// Consumer port.
        port: String,
        /// The writer it already has.
        existing: String,
    },
    /// A required port has no connection.
    #[error("{direction} `{port}` of block `{block}` is not connected")]
    Unconnected {
        /// Block instance name.
        block: String,
        /// Port name.
        port: String,
        /// Port direction.
        direction: Direction,
    },
    /// A block propagates tags at a rate with a zero term.
    #[error(
        "block `{block}` propagates tags at {interpolation}/{decimation}; both terms of a `TagPolicy::Propagate` rate must be positive"
    )]
    InvalidTagRate {
        /// Block instance name.
        block: String,
        /// Its interpolation.
        interpolation: u64,
        /// Its decimation.
        decimation: u64,
    },
    /// Stream edges form a cycle; stream graphs must be acyclic.
    #[error(
        "stream cycle: {0}; stream edges must not form a loop (feedback belongs on message ports)"
    )]
    StreamCycle(String),
    /// An output asks to work in place of an input it cannot have: one
    /// the block lacks, or one another output of the block already named
    /// (two outputs on one memory would overwrite each other's items).
    #[error("output `{output}` of block `{block}` cannot work in place: {cause}")]
    InvalidInPlace {
        /// Block instance name.
        block: String,
        /// The output port.
        output: String,
        /// What is wrong with its `in_place_of`.
        cause: String,
    },
    /// The ring buffer for an edge could not be created.
    #[error("cannot allocate the buffer of `{block}`.{port}: {cause}")]
    Buffer {
        /// Producer block.
        block: String,
        /// Producer port.
        port: String,
        /// The OS error.
        cause: String,
    },
    /// A port refused the edge it was connected to: another kind of
    /// memory, or a place on the edge that is taken (a second writer, a
    /// reader attached twice; see [`crate::buffer::ClaimError`]).
    #[error("cannot connect `{block}`.{port} to its edge: {cause}")]
    Attach {
        /// Block instance name.
        block: String,
        /// The port.
        port: String,
        /// What the port said.
        cause: String,
    },
}

/// Why a run failed.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum RunError {
    /// The graph was invalid; nothing ran.
    #[error("invalid flowgraph: {0}")]
    Graph(#[from] GraphError),
    /// A block's `init` failed; nothing ran.
    #[error("block `{block}` failed in init: {cause}")]
    Init {
        /// Block instance name.
        block: String,
        /// The error it returned.
        cause: String,
    },
    /// A block's `work` or message handler returned an error.
    #[error("block `{block}` failed: {cause}")]
    BlockFailed {
        /// Block instance name.
        block: String,
        /// The error it returned.
        cause: String,
    },
    /// A block panicked.
    #[error("block `{block}` panicked: {message}")]
    BlockPanicked {
        /// Block instance name.
        block: String,
        /// The panic message.
        message: String,
    },
    /// The scheduler thread died (a bug in rfgraph).
    #[error("scheduler failed: {0}")]
    Scheduler(String),
    /// Every unfinished block waited for stream items or room that only
    /// another waiting block could provide: the run was stopped.
    #[error("{0}")]
    Stalled(Box<Stall>),
    /// [`Running::wait_timeout`](crate::Running::wait_timeout) ran out.
    #[error(
        "the flowgraph did not finish within {timeout:?}; it was asked to stop{}; blocks not finished: {unfinished}",
        if *.stopped { " and stopped" } else { " but had not stopped after the grace period" }
    )]
    Timeout {
        /// The time allowed.
        timeout: std::time::Duration,
        /// Whether the run ended once asked to stop.
        stopped: bool,
        /// The blocks that had not finished when time ran out.
        unfinished: String,
    },
}

/// A stalled flowgraph: what each unfinished block waited for, and what
/// would let it move.
#[derive(Debug, Clone, PartialEq)]
pub struct Stall {
    /// Every unfinished block, in block order.
    pub blocks: Vec<StalledBlock>,
    /// Edges whose writer waited for room while a reader waited for input
    /// elsewhere: more buffer on any of them breaks the cycle.
    pub grow: Vec<String>,
}

/// One block of a [`Stall`] and the stream ports it waited on.
#[derive(Debug, Clone, PartialEq)]
pub struct StalledBlock {
    /// Block instance name.
    pub block: String,
    /// What it waited for.
    pub waits: Vec<StreamWait>,
}

/// What a stalled block waited for on one of its stream ports.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamWait {
    /// Fewer readable items than the port's `min_items`, from a writer
    /// that has not finished.
    Input {
        /// The input port.
        port: String,
        /// The block writing it.
        writer: String,
        /// Items readable.
        available: u64,
        /// Items the block needs at once (`min_items`).
        needed: u64,
    },
    /// Less free room than the port's `min_items`.
    Room {
        /// The output port.
        port: String,
        /// The blocks reading it.
        readers: Vec<String>,
        /// Free items.
        free: u64,
        /// Free items the block needs at once (`min_items`).
        needed: u64,
        /// The ring's size in items.
        capacity: u64,
    },
}

impl std::fmt::Display for StreamWait {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StreamWait::Input {
                port,
                writer,
                available,
                needed,
            } => write!(
                f,
                "input `{port}` has {available} of the {needed} item(s) it needs, from `{writer}`"
            ),
            StreamWait::Room {
                port,
                readers,
                free,
                needed,
                capacity,
            } => write!(
                f,
                "output `{port}` has {free} of the {needed} free item(s) it needs (ring of {capacity}, read by {})",
                readers
                    .iter()
                    .map(|r| format!("`{r}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

impl std::fmt::Display for Stall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the flowgraph stalled: every unfinished block waits for stream items or room that only another waiting block can provide"
        )?;
        for b in &self.blocks {
            let waits: Vec<String> = b.waits.iter().map(|w| w.to_string()).collect();
            write!(f, "; `{}`: {}", b.block, waits.join(", "))?;
        }
        if self.grow.is_empty() {
            write!(
                f,
                ". Give the edges above more buffer (`Flowgraph::connect_with_buffer`), or lower the `min_items` the waiting inputs ask for"
            )
        } else {
            write!(
                f,
                ". Give more buffer to {} (`Flowgraph::connect_with_buffer`), so that it can hold what the other branch needs before it moves; or lower the `min_items` the waiting inputs ask for",
                self.grow.join(" or ")
            )
        }
    }
}

/// Errors of the external [`FlowgraphHandle`](crate::FlowgraphHandle).
#[derive(Debug, Error, Clone, PartialEq)]
pub enum HandleError {
    /// No block with that name or id.
    #[error("no block `{0}` in this flowgraph")]
    UnknownBlock(String),
    /// The block has no such message input.
    #[error("block `{block}` has no message input `{port}` (it has: {available})")]
    UnknownPort {
        /// Block instance name.
        block: String,
        /// The port asked for.
        port: String,
        /// Its message inputs.
        available: String,
    },
    /// The block has finished and takes no more messages.
    #[error("block `{0}` has finished")]
    Finished(String),
    /// The handler returned an error.
    #[error("handler of `{block}` failed: {cause}")]
    Handler {
        /// Block instance name.
        block: String,
        /// The error.
        cause: String,
    },
    /// No reply within the timeout.
    #[error("no reply from `{0}` in time")]
    Timeout(String),
}
