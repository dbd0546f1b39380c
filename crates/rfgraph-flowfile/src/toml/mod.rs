//! rfgraph's flowgraph files: TOML with `format = 1`, read into a
//! [`Document`] with the line and column of every item.
//!
//! ```toml
//! format = 1
//! title = "FM receiver"
//! # Stream connections `->`, message connections `=>`; chains allowed;
//! # a port may be left out when the block has only one of that kind.
//! connections = [
//!     "src -> lpf -> demod -> snk",
//!     "strobe.strobe => dbg.print",
//! ]
//!
//! [variables]                    # strings are expressions
//! samp_rate = 2.4e6
//! decim = "int(samp_rate / 240e3)"
//! path = { text = "rec.sigmf-meta" }               # a literal string
//! gain = { value = 20, settable = true, label = "Gain (dB)" }
//! # set while running from a block's reading (or `read = "get_PARAM"`),
//! # `rate` times a second (see crate::var_probes)
//! level = { value = 0.0, probe = { block = "probe", read = "level", rate = 10 } }
//! # how a user interface draws a settable variable (see `widget`)
//! freq = { value = 1e3, settable = true, widget = "slider", range = [0, 1e4, 10], gui_hint = "0,0,1,2" }
//! mode = { value = 0, settable = true, widget = "radio", options = [0, 1], labels = ["AM", "FM"] }
//!
//! [blocks.src]
//! kind = "sigmf_source"          # a registry name, or a `.toml` file
//! path = "rec.sigmf-meta"        # text: literal for a string parameter,
//! cutoff = "samp_rate / 4"       # an expression for any other one
//! name = { expr = "path + '.x'" }  # an expression for a string parameter
//! options = { affinity = [1], buffer_size = 65536, blocking = false, host = "radio" }
//!
//! [hosts.radio]                  # a flowgraph over hosts (see crate::hosts)
//! address = "10.0.0.1"
//! port = 5600                    # its links' first port (the default)
//! [hosts.dsp]
//! address = "10.0.0.2"
//! [links]                        # the edges between hosts
//! on_loss = "stop"               # or "reconnect"
//! peer_timeout = "5s"
//! window = 4194304               # bytes a writer host may run ahead
//!
//! [scheduler]
//! name = "chain"                 # tpb, single, pool or chain
//! cores = 2
//! buffer_size = 16384
//! max_latency = "2ms"            # latency budget (see Flowgraph::set_max_latency)
//!
//! [inputs]                       # a hierarchical block's ports
//! in = "lpf.in"
//! [outputs]
//! out = "demod.out"
//! cmd = { port = "demod.freq", message = true }
//! ```
//!
//! Owns the syntax only; names, types and connections are checked by the
//! builder against the registry. Every rejection is a [`FileError`] at
//! the line and column of the culprit.

mod connections;
mod reader;
mod widget;

use crate::model::{Document, FileError, Location};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The format version this reader understands.
pub const FORMAT: i64 = 1;

/// The largest flowgraph file read, in bytes.
pub const MAX_FILE: u64 = 16 << 20;

/// Reads the flowgraph file at `path`.
///
/// Errors: an unreadable file (located at the file), or anything
/// [`parse`] rejects.
pub fn load(path: &Path) -> Result<Document, FileError> {
    let file = Arc::new(path.to_path_buf());
    let at = Location::file(file.clone());
    let meta = std::fs::metadata(path)
        .map_err(|e| FileError::new(at.clone(), "", format!("cannot read the file: {e}")))?;
    if meta.len() > MAX_FILE {
        return Err(FileError::new(
            at,
            "",
            format!(
                "file of {} bytes, more than the limit of {MAX_FILE}",
                meta.len()
            ),
        ));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| FileError::new(at.clone(), "", format!("cannot read the file: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        FileError::new(
            Location::at_offset(file.clone(), "", 0),
            "",
            format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        )
    })?;
    parse(&text, file)
}

/// Reads a flowgraph from `text`, the contents of `file`.
///
/// ```
/// use rfgraph_flowfile::toml::parse;
/// use std::{path::PathBuf, sync::Arc};
/// let text = "format = 1\nconnections = [\"a -> b.in\"]\n[blocks.a]\nkind = \"null_source\"\n";
/// let doc = parse(text, Arc::new(PathBuf::from("g.toml"))).unwrap();
/// assert_eq!(doc.blocks[0].kind, "null_source");
/// assert_eq!(doc.blocks[0].kind_at.to_string(), "g.toml:4:8");
/// assert_eq!(doc.connections[0].to.port, "in");
/// ```
pub fn parse(text: &str, file: Arc<PathBuf>) -> Result<Document, FileError> {
    reader::read(text, file)
}
