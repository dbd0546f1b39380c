//! GRC hierarchical blocks: a `.grc` file whose options say
//! `generate_options: hb` (or `hb_qt_gui`) is a block other flowgraphs
//! use by its `id`. Its `pad_source`/`pad_sink` blocks are its input and
//! output ports (stream and message), its `parameter` blocks its
//! parameters.
//!
//! This module owns the block's outside view, its [`Interface`] (the
//! ports as GNU Radio numbers and names them, the parameters), and
//! finding the file for an id ([`find`]): in the using flowgraph's
//! folder first, then where GNU Radio 3.10's GRC keeps hierarchical
//! blocks: the folders of `GRC_HIER_PATH` (default `~/.grc_gnuradio`,
//! where GRC writes `<id>.block.yml` naming its `grc_source`), then those
//! of `GRC_BLOCKS_PATH`.
//!
//! The importer turns the pads of a hierarchical file into the
//! document's exposed ports and a use of one into a block whose `kind`
//! is the file's path; the builder flattens it.

use super::file::{self, GrcFile, State};
use std::path::{Path, PathBuf};

/// The GRC ids of the pad blocks.
pub const PAD_SOURCE: &str = "pad_source";
/// See [`PAD_SOURCE`].
pub const PAD_SINK: &str = "pad_sink";

/// The most streams one pad gives (its `num_streams` is untrusted).
pub const MAX_STREAMS: usize = 1024;

/// True for `pad_source` and `pad_sink`.
pub fn is_pad(id: &str) -> bool {
    id == PAD_SOURCE || id == PAD_SINK
}

/// One port of a hierarchical block.
#[derive(Clone, Debug, PartialEq)]
pub struct Port {
    /// The exposed port's name in rfgraph: the pad's label (with the
    /// stream's number when the pad has several), made unique.
    pub name: String,
    /// How a GRC connection names it: the stream index among the stream
    /// ports of its side (pads ordered by name, as GRC orders them), or
    /// the pad's label for a message port.
    pub key: String,
    /// A message port.
    pub message: bool,
    /// The registry item type of a stream port (`None`: wildcard).
    pub ty: Option<&'static str>,
    /// The pad block's name.
    pub pad: String,
    /// The stream's index on the pad (`None` for a message pad).
    pub pad_port: Option<usize>,
    /// The pad says the port may stay unconnected.
    pub optional: bool,
}

/// One parameter of a hierarchical block (a `parameter` block).
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Its name (the `parameter` block's name).
    pub name: String,
    /// Its type is `str`: a value is GRC string text.
    pub string: bool,
}

/// The outside view of a hierarchical block file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Interface {
    /// Its inputs (from `pad_source` blocks).
    pub inputs: Vec<Port>,
    /// Its outputs (from `pad_sink` blocks).
    pub outputs: Vec<Port>,
    /// Its parameters.
    pub params: Vec<Param>,
}

/// True when the file is a hierarchical block (`generate_options`
/// `hb` or `hb_qt_gui`).
pub fn is_hier(grc: &GrcFile) -> bool {
    grc.options.text("generate_options").starts_with("hb")
}

/// GNU Radio's pad types → registry item types (`bit` is a byte).
fn pad_type(text: &str) -> Option<&'static str> {
    match text.trim() {
        "bit" => Some("u8"),
        t => super::mapping::item_type(t),
    }
}

/// The ports of one side: `pads` are the enabled pad blocks of that
/// side, ordered by name.
fn side(pads: &[&super::file::GrcBlock]) -> Vec<Port> {
    let mut out: Vec<Port> = Vec::new();
    let mut offset = 0usize;
    for pad in pads {
        let label = pad.text("label");
        let label = label
            .strip_prefix(['\'', '"'])
            .and_then(|l| l.strip_suffix(['\'', '"']))
            .unwrap_or(label);
        let optional = pad.text("optional") == "True";
        let mut push = |mut name: String, key: String, message, ty, pad_port| {
            if name.is_empty() || out.iter().any(|p: &Port| p.name == name) {
                name = format!("{name}_{key}");
            }
            out.push(Port {
                name,
                key,
                message,
                ty,
                pad: pad.name.clone(),
                pad_port,
                optional,
            });
        };
        if pad.text("type") == "message" {
            push(label.to_string(), label.to_string(), true, None, None);
            continue;
        }
        let n: usize = pad
            .text("num_streams")
            .parse()
            .unwrap_or(1)
            .clamp(1, MAX_STREAMS);
        let ty = pad_type(pad.text("type"));
        for i in 0..n {
            let name = if n > 1 {
                format!("{label}{i}")
            } else {
                label.to_string()
            };
            push(name, (offset + i).to_string(), false, ty, Some(i));
        }
        offset += n;
    }
    out
}

/// The outside view of `grc` (empty for a file without pads or
/// parameters).
pub fn interface(grc: &GrcFile) -> Interface {
    let enabled = |id: &str| {
        let mut v: Vec<_> = grc
            .blocks
            .iter()
            .filter(|b| b.id == id && b.state == State::Enabled)
            .collect();
        v.sort_by(|a, b| a.name.cmp(&b.name));
        v
    };
    Interface {
        inputs: side(&enabled(PAD_SOURCE)),
        outputs: side(&enabled(PAD_SINK)),
        params: enabled("parameter")
            .iter()
            .map(|b| Param {
                name: b.name.clone(),
                string: b.text("type") == "str",
            })
            .collect(),
    }
}

/// A hierarchical block file found for an id.
#[derive(Clone, Debug)]
pub struct Found {
    /// Its path.
    pub path: PathBuf,
    /// The file, parsed.
    pub grc: GrcFile,
}

/// The folders GRC keeps hierarchical blocks in: `GRC_HIER_PATH`'s
/// (default `~/.grc_gnuradio`), then `GRC_BLOCKS_PATH`'s.
pub fn search_path() -> Vec<PathBuf> {
    let split = |v: std::ffi::OsString| -> Vec<PathBuf> {
        std::env::split_paths(&v)
            .filter(|p| !p.as_os_str().is_empty())
            .collect()
    };
    let mut dirs = match std::env::var_os("GRC_HIER_PATH") {
        Some(v) => split(v),
        None => std::env::var_os("HOME")
            .map(|h| vec![PathBuf::from(h).join(".grc_gnuradio")])
            .unwrap_or_default(),
    };
    if let Some(v) = std::env::var_os("GRC_BLOCKS_PATH") {
        dirs.extend(split(v));
    }
    dirs
}

/// The hierarchical block file at `path`, if it is one and its id is
/// `id`.
fn read_hier(path: &Path, id: &str) -> Option<GrcFile> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > file::MAX_FILE_BYTES as u64 {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    if !text.contains("generate_options: hb") {
        return None;
    }
    let grc = file::parse(&text, &path.display().to_string()).ok()?;
    (is_hier(&grc) && grc.options.text("id") == id).then_some(grc)
}

/// The `grc_source` a compiled hierarchical block's `<id>.block.yml`
/// names.
fn grc_source(yml: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(yml).ok()?;
    text.lines().find_map(|l| {
        let v = l.strip_prefix("grc_source:")?.trim();
        let v = v
            .strip_prefix(['\'', '"'])
            .and_then(|v| v.strip_suffix(['\'', '"']))
            .unwrap_or(v);
        (!v.is_empty()).then(|| PathBuf::from(v))
    })
}

/// The hierarchical block file with id `id` in `dir`: the `grc_source`
/// of `<id>.block.yml`, `<id>.grc`, or any `.grc` file there whose id
/// it is (in name order).
fn in_dir(dir: &Path, id: &str) -> Option<Found> {
    let found = |path: PathBuf| read_hier(&path, id).map(|grc| Found { path, grc });
    if let Some(f) = grc_source(&dir.join(format!("{id}.block.yml"))).and_then(found) {
        return Some(f);
    }
    if let Some(f) = found(dir.join(format!("{id}.grc"))) {
        return Some(f);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "grc"))
        .collect();
    files.sort();
    files.into_iter().find_map(found)
}

/// The hierarchical block file for GRC block id `id`, used by a
/// flowgraph in folder `dir`: in `dir`, else in [`search_path`].
pub fn find(id: &str, dir: &Path) -> Option<Found> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    std::iter::once(dir.to_path_buf())
        .chain(search_path())
        .find_map(|d| in_dir(&d, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pad(name: &str, id: &str, label: &str, ty: &str, n: &str) -> String {
        format!(
            "- name: {name}\n  id: {id}\n  parameters:\n    label: {label}\n    type: {ty}\n    \
             num_streams: '{n}'\n    optional: 'False'\n  states:\n    state: enabled\n"
        )
    }

    #[test]
    fn ports_are_numbered_as_grc_numbers_them() {
        let text = format!(
            "options:\n  parameters:\n    id: h\n    generate_options: hb\nblocks:\n{}{}{}{}{}\
             - name: gain\n  id: parameter\n  parameters:\n    type: eng_float\n    value: '2'\n\
             \x20 states:\n    state: enabled\nconnections: []\nmetadata:\n  file_format: 1\n",
            pad("pad_sink_1", "pad_sink", "msgs", "message", "1"),
            pad("pad_sink_0", "pad_sink", "out", "complex", "1"),
            pad("pad_sink_2", "pad_sink", "more", "float", "2"),
            pad("pad_sink_3", "pad_sink", "out", "byte", "1"),
            pad("pad_source_0", "pad_source", "in", "bit", "1"),
        );
        let grc = file::parse(&text, "h.grc").unwrap();
        assert!(is_hier(&grc));
        let i = interface(&grc);
        let outs: Vec<(&str, &str, bool)> = i
            .outputs
            .iter()
            .map(|p| (p.name.as_str(), p.key.as_str(), p.message))
            .collect();
        assert_eq!(
            outs,
            [
                ("out", "0", false),
                ("msgs", "msgs", true),
                ("more0", "1", false),
                ("more1", "2", false),
                ("out_3", "3", false),
            ]
        );
        assert_eq!(i.outputs[0].ty, Some("c32"));
        assert_eq!(i.outputs[3].pad_port, Some(1));
        assert_eq!(i.inputs[0].ty, Some("u8"));
        assert_eq!(i.inputs[0].pad_port, Some(0));
        assert_eq!(
            i.params,
            [Param {
                name: "gain".into(),
                string: false
            }]
        );
    }

    #[test]
    fn a_compiled_block_yml_leads_to_its_grc_source() {
        let base = std::env::temp_dir().join(format!("rfgraph-hier-yml-{}", std::process::id()));
        let (lib, src) = (base.join("lib"), base.join("src"));
        std::fs::create_dir_all(&lib).unwrap();
        std::fs::create_dir_all(&src).unwrap();
        let hb = "options:\n  parameters:\n    id: deep\n    generate_options: hb\n\
                  blocks: []\nconnections: []\nmetadata:\n  file_format: 1\n";
        std::fs::write(src.join("elsewhere.grc"), hb).unwrap();
        std::fs::write(
            lib.join("deep.block.yml"),
            format!(
                "id: deep\ngrc_source: {}\nfile_format: 1\n",
                src.join("elsewhere.grc").display()
            ),
        )
        .unwrap();
        let found = in_dir(&lib, "deep").expect("found through grc_source");
        assert_eq!(found.path, src.join("elsewhere.grc"));
        // A file of another id, or not hierarchical, is not it.
        assert!(in_dir(&lib, "other").is_none());
        assert!(in_dir(&src, "deep").is_some());
        std::fs::write(src.join("elsewhere.grc"), hb.replace("hb", "no_gui")).unwrap();
        assert!(in_dir(&lib, "deep").is_none());
        let _ = std::fs::remove_dir_all(&base);
    }
}
