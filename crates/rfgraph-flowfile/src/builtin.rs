//! Hierarchical flowgraphs shipped inside rfgraph: TOML flowgraph files
//! under `crates/rfgraph-flowfile/hier/`, compiled in, that a block names
//! by the reserved kind `builtin/<name>.toml` (for GNU Radio's Python
//! hier blocks: `builtin/digital_ofdm_tx.toml` is `digital.ofdm_tx`).
//! They are ordinary hierarchical blocks (`[inputs]`, `[outputs]`, their
//! parameters arriving as variables); only where the file comes from
//! differs: the builder's loader asks [`load`] before the disk, and a
//! `builtin/` kind is never joined to the including file's folder. Owns
//! the table of built-in files.

use crate::model::{Document, FileError};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The reserved folder of built-in kinds.
pub const PREFIX: &str = "builtin/";

/// `(kind, text)` of every built-in hierarchical flowgraph.
const FILES: &[(&str, &str)] = &[
    (
        "builtin/digital_ofdm_tx.toml",
        include_str!("../hier/digital_ofdm_tx.toml"),
    ),
    (
        "builtin/digital_ofdm_rx.toml",
        include_str!("../hier/digital_ofdm_rx.toml"),
    ),
    (
        "builtin/analog_wfm_rcv_pll.toml",
        include_str!("../hier/analog_wfm_rcv_pll.toml"),
    ),
];

/// The kinds of the built-in flowgraphs.
pub fn kinds() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|(k, _)| *k)
}

/// The path a block of kind `kind` loads: the kind itself for a
/// `builtin/` kind (relative to no folder), `None` for any other kind.
pub(crate) fn path(kind: &str) -> Option<PathBuf> {
    kind.starts_with(PREFIX).then(|| PathBuf::from(kind))
}

/// The built-in flowgraph at `path`, parsed; `None` when `path` is no
/// built-in kind (a `builtin/` kind that does not exist is an error).
pub fn load(path: &Path) -> Option<Result<Document, FileError>> {
    let kind = path.to_str()?;
    if !kind.starts_with(PREFIX) {
        return None;
    }
    let file = Arc::new(path.to_path_buf());
    Some(match FILES.iter().find(|(k, _)| *k == kind) {
        Some((_, text)) => crate::toml::parse(text, file),
        None => Err(FileError::new(
            crate::model::Location::file(file),
            "",
            format!(
                "no built-in hierarchical block `{kind}` (there are: {})",
                kinds().collect::<Vec<_>>().join(", ")
            ),
        )),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_built_in_file_parses() {
        for kind in super::kinds() {
            let doc = super::load(std::path::Path::new(kind)).unwrap();
            assert!(doc.is_ok(), "{kind}: {:?}", doc.err());
        }
        assert!(
            super::load(std::path::Path::new("builtin/none.toml"))
                .unwrap()
                .is_err()
        );
        assert!(super::load(std::path::Path::new("x/none.toml")).is_none());
    }
}
