//! The registry of every rfgraph block, and the ways to build flowgraphs
//! from files: rfgraph's own TOML flowgraph files and GNU Radio
//! Companion's `.grc` files.
//!
//! - [`standard`]: the registry of every library block, collected from the
//!   block crates, which describe each block next to its code
//!   (`rfgraph::registry::BlockSpec`).
//! - [`expr`]: the expression language of variables and parameters (the
//!   subset of Python that GRC flowgraphs use).
//! - [`model`]: a flowgraph document (variables, blocks, connections,
//!   scheduler, exposed ports), whatever file it came from, with the source
//!   location of every item.
//! - [`toml`]: flowgraph files (`format = 1`).
//! - `grc`: GNU Radio Companion import.
//!
//! The CLI, the control port and the Python bindings build blocks only
//! through this crate. How the crates fit together: `docs/architecture.md`
//! in the repository.

#![warn(missing_docs)]

pub mod build;
pub mod expr;
pub mod grc;
pub mod model;
pub mod standard;
pub mod toml;
