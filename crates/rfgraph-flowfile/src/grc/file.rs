//! The structure of a GRC file (GNU Radio 3.8 and later): `options`,
//! `blocks` (each with `name`, `id`, `parameters`, `states.state` and
//! the bus flags `states.bus_source` / `bus_sink`),
//! `connections` (`[src, src_port, dst, dst_port]`) and
//! `metadata.file_format`, read from the located YAML tree.
//!
//! Parameter values stay the text GRC wrote (Python source, or raw text
//! for enumerations and strings), each with its place in the file; what
//! they mean is the catalogue's and the importer's business. This module
//! checks only the shape of the file.

use super::error::GrcError;
use super::yaml::{self, Node, Pos, Value};
use std::collections::BTreeMap;

/// The largest `.grc` file read (GNU Radio's own examples are under
/// 1 MB).
pub const MAX_FILE_BYTES: usize = 64 << 20;

/// The `file_format` versions understood (GRC 3.8 to 3.10 write 1).
pub const FILE_FORMATS: [u64; 2] = [1, 2];

/// The known top-level keys.
const TOP_KEYS: [&str; 4] = ["options", "blocks", "connections", "metadata"];

/// A true/false entry `key` of a block's `states` (false when absent).
fn flag(states: Option<&Node>, key: &str) -> bool {
    states
        .and_then(|s| s.get(key))
        .and_then(|v| match &v.value {
            Value::Scalar { text, .. } => Some(matches!(text.trim(), "true" | "True" | "1")),
            _ => None,
        })
        .unwrap_or(false)
}

/// How a block takes part in the flowgraph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// It runs.
    Enabled,
    /// It is left out, with its connections.
    Disabled,
    /// Its input is wired to its output.
    Bypassed,
}

/// One parameter value as written, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The text.
    pub text: String,
    /// Where the value starts.
    pub pos: Pos,
}

/// One block of the file.
#[derive(Clone, Debug, PartialEq)]
pub struct GrcBlock {
    /// Its instance name (`low_pass_filter_0`).
    pub name: String,
    /// Its GNU Radio block id (`low_pass_filter`).
    pub id: String,
    /// Its parameters by GNU Radio parameter id.
    pub params: BTreeMap<String, Param>,
    /// Enabled, disabled or bypassed.
    pub state: State,
    /// GRC's `states.bus_source`: its outputs also form bus ports.
    pub bus_source: bool,
    /// GRC's `states.bus_sink`: its inputs also form bus ports.
    pub bus_sink: bool,
    /// Where the block's entry starts.
    pub pos: Pos,
    /// Where its `id` value is.
    pub id_pos: Pos,
    /// Its index in `blocks`, for keys in errors.
    pub index: usize,
}

impl GrcBlock {
    /// The parameter `key`, if written.
    pub fn param(&self, key: &str) -> Option<&Param> {
        self.params.get(key)
    }

    /// The parameter's text, trimmed, or `""` when absent.
    pub fn text(&self, key: &str) -> &str {
        self.params.get(key).map(|p| p.text.trim()).unwrap_or("")
    }

    /// Where the parameter `key` is, or the block when it is absent.
    pub fn pos_of(&self, key: &str) -> Pos {
        self.params.get(key).map(|p| p.pos).unwrap_or(self.pos)
    }

    /// The error key of the parameter (`blocks[3].parameters.freq`).
    pub fn key(&self, param: &str) -> String {
        format!("blocks[{}].parameters.{param}", self.index)
    }
}

/// One connection `[src, src_port, dst, dst_port]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrcConnection {
    /// The source block's name.
    pub src: String,
    /// The source port: a stream index (`"0"`) or a message port id.
    pub src_port: String,
    /// The destination block's name.
    pub dst: String,
    /// The destination port.
    pub dst_port: String,
    /// Where the connection is written.
    pub pos: Pos,
    /// Its index in `connections`, for keys in errors.
    pub index: usize,
}

impl GrcConnection {
    /// True when both ends are stream ports (numbers).
    pub fn is_stream(&self) -> bool {
        is_index(&self.src_port) && is_index(&self.dst_port)
    }
}

/// True for a stream port key (`"0"`, `"1"`, ...).
pub fn is_index(port: &str) -> bool {
    !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit())
}

/// A whole GRC file.
#[derive(Clone, Debug, PartialEq)]
pub struct GrcFile {
    /// The `options` block's parameters (`id`, `generate_options`, `run`,
    /// ...), at the `options` entry's place.
    pub options: GrcBlock,
    /// Every block, in file order.
    pub blocks: Vec<GrcBlock>,
    /// Every connection, in file order.
    pub connections: Vec<GrcConnection>,
    /// `metadata.file_format`.
    pub file_format: u64,
}

struct Reader<'a> {
    file: &'a str,
}

impl Reader<'_> {
    fn err(&self, pos: Pos, key: impl Into<String>, message: impl Into<String>) -> GrcError {
        GrcError::at(self.file, pos, key, message)
    }

    fn map<'n>(&self, node: &'n Node, key: &str) -> Result<&'n [(Node, Node)], GrcError> {
        node.as_map().ok_or_else(|| {
            self.err(
                node.pos,
                key,
                format!("expected a mapping, found {}", node.kind()),
            )
        })
    }

    fn seq<'n>(&self, node: &'n Node, key: &str) -> Result<&'n [Node], GrcError> {
        if node.is_null() {
            return Ok(&[]);
        }
        node.as_seq().ok_or_else(|| {
            self.err(
                node.pos,
                key,
                format!("expected a sequence, found {}", node.kind()),
            )
        })
    }

    fn scalar(&self, node: &Node, key: &str) -> Result<String, GrcError> {
        match &node.value {
            Value::Scalar { text, .. } => Ok(text.clone()),
            _ => Err(self.err(
                node.pos,
                key,
                format!("expected a scalar, found {}", node.kind()),
            )),
        }
    }

    /// A parameter value: scalars as written (null as empty text), a
    /// sequence or mapping as the Python literal it stands for.
    fn value(&self, node: &Node) -> String {
        match &node.value {
            Value::Scalar { .. } if node.is_null() => String::new(),
            Value::Scalar { text, plain: true } => text.clone(),
            Value::Scalar { text, plain: false } => text.clone(),
            Value::Seq(items) => {
                let parts: Vec<String> = items.iter().map(|n| self.literal(n)).collect();
                format!("[{}]", parts.join(", "))
            }
            Value::Map(entries) => {
                let parts: Vec<String> = entries
                    .iter()
                    .map(|(k, v)| format!("{}: {}", self.literal(k), self.literal(v)))
                    .collect();
                format!("{{{}}}", parts.join(", "))
            }
        }
    }

    fn literal(&self, node: &Node) -> String {
        match &node.value {
            Value::Scalar { text, plain: false } => format!("{text:?}"),
            _ if node.is_null() => "None".into(),
            _ => self.value(node),
        }
    }

    fn params(&self, node: Option<&Node>, key: &str) -> Result<BTreeMap<String, Param>, GrcError> {
        let mut params = BTreeMap::new();
        let Some(node) = node else { return Ok(params) };
        if node.is_null() {
            return Ok(params);
        }
        for (k, v) in self.map(node, key)? {
            let name = self.scalar(k, key)?;
            params.insert(
                name,
                Param {
                    text: self.value(v),
                    pos: v.pos,
                },
            );
        }
        Ok(params)
    }

    fn state(&self, states: Option<&Node>, key: &str) -> Result<State, GrcError> {
        let Some(states) = states.filter(|s| !s.is_null()) else {
            return Ok(State::Enabled);
        };
        let key = format!("{key}.states");
        self.map(states, &key)?;
        let Some(state) = states.get("state") else {
            return Ok(State::Enabled);
        };
        let key = format!("{key}.state");
        let text = self.scalar(state, &key)?;
        match text.trim() {
            "enabled" | "true" | "True" | "1" => Ok(State::Enabled),
            "disabled" | "false" | "False" | "0" => Ok(State::Disabled),
            "bypassed" | "2" => Ok(State::Bypassed),
            other => Err(self
                .err(
                    state.pos,
                    key,
                    format!("`{other}` is not a block state (enabled, disabled or bypassed)"),
                )
                .suggest(rfgraph::registry::suggest::closest(
                    other,
                    ["enabled", "disabled", "bypassed"],
                ))),
        }
    }

    fn block(&self, node: &Node, index: usize) -> Result<GrcBlock, GrcError> {
        let key = format!("blocks[{index}]");
        self.map(node, &key)?;
        let field = |name: &str| -> Result<(String, Pos), GrcError> {
            let key = format!("{key}.{name}");
            let v = node
                .get(name)
                .ok_or_else(|| self.err(node.pos, &key, format!("a block needs `{name}`")))?;
            let text = self.scalar(v, &key)?;
            if text.trim().is_empty() {
                return Err(self.err(v.pos, key, format!("`{name}` is empty")));
            }
            Ok((text.trim().to_string(), v.pos))
        };
        let (name, _) = field("name")?;
        let (id, id_pos) = field("id")?;
        Ok(GrcBlock {
            params: self.params(node.get("parameters"), &format!("{key}.parameters"))?,
            state: self.state(node.get("states"), &key)?,
            bus_source: flag(node.get("states"), "bus_source"),
            bus_sink: flag(node.get("states"), "bus_sink"),
            name,
            id,
            pos: node.pos,
            id_pos,
            index,
        })
    }

    fn connection(&self, node: &Node, index: usize) -> Result<GrcConnection, GrcError> {
        let key = format!("connections[{index}]");
        let items = self.seq(node, &key)?;
        if items.len() != 4 {
            return Err(self.err(
                node.pos,
                key,
                format!(
                    "a connection is [source, source port, sink, sink port], found {} items",
                    items.len()
                ),
            ));
        }
        let mut parts = Vec::with_capacity(4);
        for (i, item) in items.iter().enumerate() {
            let text = self.scalar(item, &format!("{key}[{i}]"))?;
            if text.trim().is_empty() {
                return Err(self.err(item.pos, format!("{key}[{i}]"), "empty"));
            }
            parts.push(text.trim().to_string());
        }
        let mut parts = parts.into_iter();
        let mut next = || parts.next().unwrap_or_default();
        Ok(GrcConnection {
            src: next(),
            src_port: next(),
            dst: next(),
            dst_port: next(),
            pos: node.pos,
            index,
        })
    }

    fn options(&self, node: Option<&Node>, root: &Node) -> Result<GrcBlock, GrcError> {
        let node =
            node.ok_or_else(|| self.err(root.pos, "options", "a GRC file needs `options`"))?;
        self.map(node, "options")?;
        Ok(GrcBlock {
            name: String::new(),
            id: "options".into(),
            params: self.params(node.get("parameters"), "options.parameters")?,
            state: State::Enabled,
            bus_source: false,
            bus_sink: false,
            pos: node.pos,
            id_pos: node.pos,
            index: 0,
        })
    }

    fn file_format(&self, root: &Node) -> Result<u64, GrcError> {
        let Some(meta) = root.get("metadata") else {
            return Ok(1);
        };
        self.map(meta, "metadata")?;
        let Some(format) = meta.get("file_format") else {
            return Ok(1);
        };
        let key = "metadata.file_format";
        let text = self.scalar(format, key)?;
        let n: u64 = text
            .trim()
            .parse()
            .map_err(|_| self.err(format.pos, key, format!("`{text}` is not a number")))?;
        if !FILE_FORMATS.contains(&n) {
            return Err(self.err(
                format.pos,
                key,
                format!(
                    "file format {n} is not one this importer reads (1 or 2, GNU Radio 3.8 to 3.10)"
                ),
            ));
        }
        Ok(n)
    }
}

/// Reads the structure of a GRC file from its text; `file` names it in
/// errors.
pub fn parse(text: &str, file: &str) -> Result<GrcFile, GrcError> {
    let r = Reader { file };
    if text.len() > MAX_FILE_BYTES {
        return Err(r.err(
            Pos { line: 1, col: 1 },
            "",
            format!("the file is larger than {} MiB", MAX_FILE_BYTES >> 20),
        ));
    }
    let head = text.trim_start_matches('\u{feff}').trim_start();
    if head.starts_with("<?xml") || head.starts_with("<flow_graph") {
        return Err(r.err(
            Pos { line: 1, col: 1 },
            "",
            "a GNU Radio 3.7 XML flowgraph: this importer reads the YAML format of GNU Radio 3.8 \
             and later (open and save the file in a newer GNU Radio Companion to convert it)",
        ));
    }
    let root =
        yaml::parse(text).map_err(|e| r.err(e.pos, "", format!("not YAML: {}", e.message)))?;
    let entries = root.as_map().ok_or_else(|| {
        r.err(
            root.pos,
            "",
            format!("a GRC file is a mapping, found {}", root.kind()),
        )
    })?;
    for (k, _) in entries {
        let name = r.scalar(k, "")?;
        if !TOP_KEYS.contains(&name.as_str()) {
            return Err(r
                .err(
                    k.pos,
                    name.clone(),
                    "not a key of GRC files (options, blocks, connections, metadata)",
                )
                .suggest(rfgraph::registry::suggest::closest(&name, TOP_KEYS)));
        }
    }
    let file_format = r.file_format(&root)?;
    let options = r.options(root.get("options"), &root)?;
    let mut blocks = Vec::new();
    if let Some(list) = root.get("blocks") {
        for (i, node) in r.seq(list, "blocks")?.iter().enumerate() {
            blocks.push(r.block(node, i)?);
        }
    }
    let mut connections = Vec::new();
    if let Some(list) = root.get("connections") {
        for (i, node) in r.seq(list, "connections")?.iter().enumerate() {
            connections.push(r.connection(node, i)?);
        }
    }
    Ok(GrcFile {
        options,
        blocks,
        connections,
        file_format,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "\
options:
  parameters:
    id: small
    generate_options: no_gui
  states:
    state: enabled
blocks:
- name: samp_rate
  id: variable
  parameters:
    comment: ''
    value: '32000'
  states:
    coordinate: [8, 8]
    state: enabled
- name: src
  id: analog_sig_source_x
  parameters:
    freq: '1000'
    type: float
    waveform: analog.GR_COS_WAVE
  states:
    state: bypassed
connections:
- [src, '0', snk, '0']
metadata:
  file_format: 1
";

    #[test]
    fn blocks_params_states_and_connections_are_read_with_their_places() {
        let f = parse(SMALL, "small.grc").unwrap();
        assert_eq!(f.options.text("id"), "small");
        assert_eq!(f.blocks.len(), 2);
        let src = &f.blocks[1];
        assert_eq!(
            (src.name.as_str(), src.id.as_str()),
            ("src", "analog_sig_source_x")
        );
        assert_eq!(src.state, State::Bypassed);
        assert_eq!(src.text("waveform"), "analog.GR_COS_WAVE");
        assert_eq!(src.pos_of("freq"), Pos { line: 19, col: 11 });
        assert_eq!(src.pos, Pos { line: 16, col: 3 });
        let c = &f.connections[0];
        assert_eq!(
            (c.src.as_str(), c.src_port.as_str(), c.dst.as_str()),
            ("src", "0", "snk")
        );
        assert!(c.is_stream());
        assert_eq!(c.pos.line, 25);
        assert_eq!(f.file_format, 1);
    }

    #[test]
    fn shape_errors_name_line_column_and_key() {
        let e = parse(&SMALL.replace("state: bypassed", "state: bypased"), "s.grc").unwrap_err();
        assert_eq!(
            e.to_string(),
            "s.grc:23:12: `blocks[1].states.state`: `bypased` is not a block state \
             (enabled, disabled or bypassed) (did you mean `bypassed`?)"
        );
        let e = parse(
            &SMALL.replace("- [src, '0', snk, '0']", "- [src, '0', snk]"),
            "s.grc",
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("s.grc:25:3: `connections[0]`: a connection is"),
            "{e}"
        );
        let e = parse(&SMALL.replace("connections:", "conections:"), "s.grc").unwrap_err();
        assert!(
            e.to_string().contains("(did you mean `connections`?)"),
            "{e}"
        );
        let e = parse(&SMALL.replace("file_format: 1", "file_format: 7"), "s.grc").unwrap_err();
        assert!(e.to_string().contains("file format 7"), "{e}");
        let e = parse("<?xml version='1.0'?>\n<flow_graph/>", "old.grc").unwrap_err();
        assert!(e.to_string().contains("3.7 XML"), "{e}");
        let e = parse(&SMALL.replace("  id: variable\n", ""), "s.grc").unwrap_err();
        assert!(
            e.to_string().contains("`blocks[0].id`: a block needs `id`"),
            "{e}"
        );
    }

    #[test]
    fn list_values_become_python_literals() {
        let f = parse(
            &SMALL.replace("freq: '1000'", "freq: [1, 2.5, 'a']"),
            "s.grc",
        )
        .unwrap();
        assert_eq!(f.blocks[1].text("freq"), "[1, 2.5, \"a\"]");
    }
}
