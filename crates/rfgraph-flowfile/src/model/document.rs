//! The document's parts: [`Document`] and what it holds.

use super::location::Location;
use super::value::Value;
use super::widget::VariableWidget;
use std::path::PathBuf;
use std::sync::Arc;

/// A flowgraph as read from a file, before evaluation and building.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The file it came from.
    pub path: Arc<PathBuf>,
    /// The flowgraph's title, if the file gives one.
    pub title: Option<String>,
    /// Variables, in file order (later ones may refer to earlier ones;
    /// the builder orders them by dependency and reports cycles).
    pub variables: Vec<Variable>,
    /// Block instances, in file order.
    pub blocks: Vec<BlockInstance>,
    /// Stream and message connections.
    pub connections: Vec<Connection>,
    /// Scheduler settings.
    pub scheduler: SchedulerConfig,
    /// Ports exposed when this document is used as a hierarchical block.
    pub ports: Vec<ExposedPort>,
    /// The hosts a flowgraph that spans hosts runs on (`[hosts.NAME]`);
    /// empty for a flowgraph on one host.
    pub hosts: Vec<Host>,
    /// How the edges between hosts behave (`[links]`).
    pub links: LinkConfig,
    /// One-line notices for the user (a GUI sink replaced by a null sink).
    pub notices: Vec<String>,
}

impl Document {
    /// An empty document for `path`.
    pub fn new(path: Arc<PathBuf>) -> Self {
        Self {
            scheduler: SchedulerConfig::new(Location::file(path.clone())),
            path,
            title: None,
            variables: Vec::new(),
            blocks: Vec::new(),
            connections: Vec::new(),
            ports: Vec::new(),
            hosts: Vec::new(),
            links: LinkConfig::default(),
            notices: Vec::new(),
        }
    }

    /// The block instance called `name`.
    pub fn block(&self, name: &str) -> Option<&BlockInstance> {
        self.blocks.iter().find(|b| b.name == name)
    }

    /// The variable called `name`.
    pub fn variable(&self, name: &str) -> Option<&Variable> {
        self.variables.iter().find(|v| v.name == name)
    }
}

/// A named value other values and parameters refer to.
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    /// Its name (an identifier).
    pub name: String,
    /// Its value as written.
    pub value: Value,
    /// Where it is defined.
    pub at: Location,
    /// Whether it can change while the graph runs (GUI variables, TOML
    /// variables marked settable); the parameters it reaches then change
    /// through their blocks' settings.
    pub settable: bool,
    /// A label for a user interface.
    pub label: Option<String>,
    /// How a user interface sets it, if it is a GUI variable.
    pub widget: Option<VariableWidget>,
    /// What sets it while the graph runs, if a probe does (GRC's
    /// `variable_function_probe`).
    pub probe: Option<VariableProbe>,
}

/// A variable that polls a value while the graph runs: a block's reading
/// or parameter, or another variable, `rate` times a second (GRC's
/// `variable_function_probe`, which calls `block.function(args)`).
#[derive(Clone, Debug, PartialEq)]
pub struct VariableProbe {
    /// The block polled; empty for the flowgraph itself, whose
    /// `get_NAME` reads variable `NAME`.
    pub block: String,
    /// What is read: a reading's name (`level`), or `get_NAME` for
    /// parameter `NAME` (or reading `NAME`).
    pub function: String,
    /// The arguments GNU Radio would pass, as written (a channel; the
    /// runtime's readings take none).
    pub args: String,
    /// Polls per second, as written.
    pub rate: Value,
    /// Where the probe is defined.
    pub at: Location,
    /// A probe of something the graph lacks fails the file (`true`, an
    /// rfgraph file), or leaves the variable at its value with a notice
    /// (`false`: GNU Radio's probe thread dies with a traceback and the
    /// flowgraph runs on, so a GRC file still runs).
    pub strict: bool,
}

/// One parameter of a block instance.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamValue {
    /// The registry parameter's name.
    pub name: String,
    /// Its value as written.
    pub value: Value,
    /// Where it is set.
    pub at: Location,
}

/// Per-block run options.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockOptions {
    /// CPU cores the block may run on.
    pub affinity: Option<Vec<usize>>,
    /// Minimum output buffer size in items.
    pub buffer_size: Option<usize>,
    /// `true`: the block gets a thread of its own under every scheduler
    /// (it calls something slow the runtime cannot see). `false`, the
    /// default, leaves it to the block: one that blocks on I/O (files,
    /// devices) always gets a thread of its own.
    pub blocking: Option<bool>,
    /// The host the block runs on, in a flowgraph that spans hosts
    /// (`[hosts.NAME]`); the first host when not set.
    pub host: Option<String>,
}

/// A block in the graph: a registry block or a hierarchical block file.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockInstance {
    /// The instance name, unique in the document.
    pub name: String,
    /// The registry name (`low_pass_filter`), or the path of a
    /// hierarchical block file, `.toml` or a GRC hierarchical block's
    /// `.grc` (relative to the document's directory).
    pub kind: String,
    /// Where the block is defined.
    pub at: Location,
    /// Where its kind is named (for an unknown block).
    pub kind_at: Location,
    /// Its parameters, as written.
    pub params: Vec<ParamValue>,
    /// Run options.
    pub options: BlockOptions,
}

impl BlockInstance {
    /// The parameter called `name`.
    pub fn param(&self, name: &str) -> Option<&ParamValue> {
        self.params.iter().find(|p| p.name == name)
    }
}

/// Whether a connection carries a stream or messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectionKind {
    /// A sample stream.
    Stream,
    /// Messages.
    Message,
}

/// One end of a connection: `block.port`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Endpoint {
    /// The block instance.
    pub block: String,
    /// The port name.
    pub port: String,
}

impl Endpoint {
    /// `block.port`.
    pub fn new(block: impl Into<String>, port: impl Into<String>) -> Self {
        Self {
            block: block.into(),
            port: port.into(),
        }
    }
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.block, self.port)
    }
}

/// A connection from an output to an input.
#[derive(Clone, Debug, PartialEq)]
pub struct Connection {
    /// The output end.
    pub from: Endpoint,
    /// The input end.
    pub to: Endpoint,
    /// Stream or messages.
    pub kind: ConnectionKind,
    /// Where it is written.
    pub at: Location,
}

/// The `[scheduler]` section.
#[derive(Clone, Debug, PartialEq)]
pub struct SchedulerConfig {
    /// `tpb`, `single`, `pool` or `chain`; the default when absent.
    pub name: Option<String>,
    /// Worker threads.
    pub cores: Option<usize>,
    /// Default buffer size in items.
    pub buffer_size: Option<usize>,
    /// The latency budget (`max_latency = "2ms"`; see
    /// `rfgraph::Flowgraph::set_max_latency`).
    pub max_latency: Option<std::time::Duration>,
    /// Where the section is.
    pub at: Location,
}

impl SchedulerConfig {
    /// Defaults, located at `at`.
    pub fn new(at: Location) -> Self {
        Self {
            name: None,
            cores: None,
            buffer_size: None,
            max_latency: None,
            at,
        }
    }
}

/// Which way an exposed port points, seen from outside the subgraph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortDirection {
    /// Data flows in.
    Input,
    /// Data flows out.
    Output,
}

/// A port of a hierarchical block: its outside name and the inner port it
/// stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct ExposedPort {
    /// The name users of the subgraph connect to.
    pub name: String,
    /// Input or output.
    pub direction: PortDirection,
    /// Stream or messages.
    pub kind: ConnectionKind,
    /// The inner block port.
    pub inner: Endpoint,
    /// Where it is declared.
    pub at: Location,
}

/// One host of a flowgraph that spans hosts (`[hosts.NAME]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Host {
    /// Its name, as blocks' `host` option and `rfgraph run --host` give it.
    pub name: String,
    /// The address other hosts reach it at, and its links listen on.
    pub address: String,
    /// The first port of the links that leave it (each takes two).
    pub port: u16,
    /// Where it is declared.
    pub at: Location,
}

/// The `[links]` section: how the stream edges between hosts behave
/// (the host link blocks' parameters; each unset one keeps its default).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkConfig {
    /// `"stop"` or `"reconnect"`: what a lost peer host does.
    pub on_loss: Option<String>,
    /// How long a peer host may be silent before it counts as lost.
    pub peer_timeout: Option<std::time::Duration>,
    /// The most bytes a writer host runs ahead of its reader.
    pub window: Option<usize>,
}
