//! A flowgraph document: variables, blocks, connections, scheduler
//! settings and exposed ports, whatever file it came from (rfgraph's TOML
//! flowgraph files or GNU Radio Companion's `.grc` files), with the source
//! location of every item so that every later error can say where.
//!
//! The readers (`toml`, `grc`) fill a [`Document`]; the builder checks it
//! against the registry and turns it into a running `Flowgraph`. This
//! module owns the shapes and the error type they share, nothing else.

mod document;
mod error;
mod location;
mod value;
mod widget;

pub use document::{
    BlockInstance, BlockOptions, Connection, ConnectionKind, Document, Endpoint, ExposedPort, Host,
    LinkConfig, ParamValue, PortDirection, SchedulerConfig, Variable, VariableProbe,
};
pub use error::FileError;
pub use location::Location;
pub use value::Value;
pub use widget::{GuiHint, Orient, VariableWidget, WidgetKind, value_text};
