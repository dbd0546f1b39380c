//! GNU Radio Companion import: `.grc` files (GNU Radio 3.8 and later)
//! read into rfgraph's flowgraph document, with GNU Radio's block ids
//! mapped onto registry blocks.
//!
//! - [`yaml`]: the YAML tree with the line and column of every node.
//! - [`file`]: the shape of a GRC file (options, blocks, connections).
//! - [`error`]: errors with file, line, column and key, and the one list
//!   of every unsupported block.

pub mod error;
pub mod file;
pub mod yaml;

pub use error::{GrcError, Unsupported};
