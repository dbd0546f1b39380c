//! rfgraph's control port: running flowgraphs over HTTP and JSON, for
//! scripts, dashboards and the web UI (see `docs/architecture.md`).
//!
//! A [`ControlPort`] listens (on `127.0.0.1:1337` by default; a token
//! guards any other address) and serves any number of running graphs,
//! each a [`ServedGraph`]: a [`rfgraph::FlowgraphHandle`] and, for a graph
//! built from a file, the controller of its settable variables. Through
//! it a client reads the graph's shape, its blocks' counters and edges'
//! fill, reads and sets parameters, reads readings, sends messages to
//! any message input (awaiting the reply or not), sets variables and
//! stops the graph. The routes are listed in [`routes`]; values travel
//! as [`pmt_json`] describes.
//!
//! The runtime crate knows nothing of HTTP: everything here goes through
//! the handle's public API.
//!
//! ```no_run
//! use rfgraph::{Flowgraph, scheduler::Tpb};
//! use rfgraph_control::{ControlOptions, ControlPort, ServedGraph};
//!
//! let fg = Flowgraph::new();
//! // ... add and connect blocks ...
//! let running = fg.start(Tpb::new())?;
//! let port = ControlPort::start(ControlOptions::default())?;
//! port.serve(ServedGraph::new("radio", running.handle()));
//! println!("http://{}/api/flowgraphs/radio", port.local_addr());
//! running.wait()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Or in one call, [`RunWithControl::run_with_control`]:
//! `fg.run_with_control(Chain::new(), ControlOptions::default(), "radio")?`.

mod error;
mod graph;
pub mod live;
pub mod openapi;
pub mod pmt_json;
pub mod routes;
mod run;
mod server;
pub mod ui;

pub use error::ApiError;
pub use graph::ServedGraph;
pub use run::{ControlRunError, RunWithControl};
pub use server::{ControlOptions, ControlPort, DEFAULT_ADDR, MAX_BODY, StartError};
