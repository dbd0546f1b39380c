//! GNU Radio Companion import: `.grc` files (GNU Radio 3.8 and later)
//! read into rfgraph's flowgraph [`Document`], with GNU Radio's block ids
//! mapped onto registry blocks.
//!
//! - [`yaml`]: the YAML tree with the line and column of every node.
//! - [`file`](mod@file): the shape of a GRC file (options, blocks, connections).
//! - [`mapping`]: GNU Radio block id → registry block, and how its
//!   parameters translate.
//! - `translate`, `variables`, `wiring`, `import`: one block's
//!   parameters; variables, GUI variables and imports; virtual, bypassed
//!   and disabled blocks; the whole document; `file_taps`: the taps
//!   loader variable (`variable_file_filter_taps`).
//! - [`hier`]: hierarchical blocks (`generate_options: hb` files): their
//!   pads and parameters, and finding one by its id.
//! - [`error`]: errors with file, line, column and key, and the one list
//!   of every unsupported block.
//!
//! ```
//! use rfgraph_flowfile::grc;
//! let text = "options:\n  parameters: {id: t, title: Tone}\nblocks: []\nconnections: []\n";
//! let doc = grc::from_str(text, "t.grc".as_ref(), &rfgraph::registry::Registry::new()).unwrap();
//! assert_eq!(doc.title.as_deref(), Some("Tone"));
//! ```

mod bus;
pub mod error;
pub mod file;
mod file_taps;
pub mod hier;
mod import;
pub mod mapping;
mod needed;
mod objects;
mod polar_objects;
mod tpc_objects;
mod translate;
mod variables;
mod wiring;
pub mod yaml;

pub use error::{GrcError, Unsupported};
pub use import::{LoadOptions, port_name};

use crate::model::Document;
use rfgraph::registry::Registry;
use std::path::Path;

/// Reads the GRC file at `path` into a [`Document`] of `registry`'s
/// blocks.
pub fn load(path: &Path, registry: &Registry) -> Result<Document, GrcError> {
    import::load_with(path, registry, &LoadOptions::default())
}

/// [`load`] with options (a bound on endless sources).
pub fn load_with(
    path: &Path,
    registry: &Registry,
    options: &LoadOptions,
) -> Result<Document, GrcError> {
    import::load_with(path, registry, options)
}

/// Reads GRC text into a [`Document`]; `path` names the file in errors.
pub fn from_str(text: &str, path: &Path, registry: &Registry) -> Result<Document, GrcError> {
    import::from_str_with(text, path, registry, &LoadOptions::default())
}

/// [`from_str`] with options.
pub fn from_str_with(
    text: &str,
    path: &Path,
    registry: &Registry,
    options: &LoadOptions,
) -> Result<Document, GrcError> {
    import::from_str_with(text, path, registry, options)
}

#[cfg(test)]
mod tests;
