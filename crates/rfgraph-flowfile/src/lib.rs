//! Flowgraph files: rfgraph's own TOML flowgraph files and GNU Radio
//! Companion's `.grc` files, read into one document model and built into
//! running flowgraphs.
//!
//! - [`standard`]: the blocks a file may name, collected from the block
//!   crates, which declare each block next to its code
//!   (`rfgraph::registry::BlockSpec`; the registry types live in the
//!   runtime crate).
//! - [`expr`]: the expression language of variables and parameters (the
//!   subset of Python that GRC flowgraphs use).
//! - [`model`]: a flowgraph document (variables, blocks, connections,
//!   scheduler, exposed ports), whatever file it came from, with the source
//!   location of every item.
//! - [`toml`]: flowgraph files (`format = 1`).
//! - `grc`: GNU Radio Companion import.
//! - [`duration`]: durations such as `2ms`, in files and on the command
//!   line.
//! - [`python`]: Python blocks in files (TOML `kind = "python"`, GRC
//!   `epy_block` / `epy_module`), made by the Python package.
//! - [`builtin`]: hierarchical flowgraphs shipped inside rfgraph
//!   (`builtin/digital_ofdm_tx.toml`, GNU Radio's Python hier blocks).
//! - [`build`]: a document into a flowgraph, each block built from its
//!   declared parameters, with errors placed at the file's line.
//!
//! The CLI, the control port and the Python bindings build blocks only
//! through this crate. How the crates fit together: `docs/architecture.md`
//! in the repository.

#![warn(missing_docs)]

pub mod build;
pub mod builtin;
pub mod duration;
pub mod expr;
pub mod grc;
pub mod hosts;
pub mod lambda;
pub mod model;
pub mod python;
pub mod standard;
pub mod toml;
pub mod var_probes;
pub mod var_requests;
