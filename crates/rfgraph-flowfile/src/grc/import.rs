//! The importer: a parsed GRC file → a [`Document`] of registry blocks.
//!
//! Variables come from `variable`, `parameter` and the GUI variables;
//! each other enabled block becomes its registry block by the
//! [`mapping`](super::mapping) table, a Qt GUI block becomes null sinks
//! (one per connected input, with a notice), a complex hardware radio
//! source `sdr_source` on seify's `dummy` driver, other hardware and audio
//! sources null sources, hardware sinks null sinks (each with a notice). Every block without an
//! equivalent, every unsupported import and every message port rfgraph's
//! block lacks go into ONE [`GrcError::Unsupported`]; nothing half-loads.

use super::error::{GrcError, Unsupported};
use super::file::{self, GrcBlock, GrcConnection, GrcFile, State};
use super::yaml::Pos;
use super::{file_taps, hier, mapping, needed, translate, variables, wiring};
use crate::model::{
    BlockInstance, BlockOptions, Connection, ConnectionKind, Document, Endpoint, ExposedPort,
    Location, ParamValue, PortDirection, Value,
};
use crate::python;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec, Registry};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

/// How to load a file.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Sets `items` (when not set already) on every source whose registry
    /// block takes it, so that a flowgraph of endless sources ends after
    /// that many items (tests, benchmarks).
    pub max_items: Option<u64>,
}

/// Hardware and audio sources, replaced by seify's `dummy` device
/// (complex radio sources) or null sources.
fn is_hardware_source(id: &str) -> bool {
    id == "uhd_usrp_source"
        || id == "osmosdr_source"
        || id == "audio_source"
        || id == "iio_pluto_source"
        || id == "iio_fmcomms2_source"
        || (id.starts_with("soapy_") && id.ends_with("_source"))
}

/// Hardware and audio sinks, replaced by null sinks.
fn is_hardware_sink(id: &str) -> bool {
    id == "uhd_usrp_sink"
        || id == "osmosdr_sink"
        || id == "audio_sink"
        || id == "iio_pluto_sink"
        || id == "iio_fmcomms2_sink"
        || (id.starts_with("soapy_") && id.ends_with("_sink"))
}

/// Blocks that only document the flowgraph.
fn is_ignored(id: &str) -> bool {
    matches!(id, "note" | "options")
}

/// What a GRC block became (blocks absent from the map became nothing:
/// variables, notes, or unsupported ones).
enum Placed<'r> {
    /// A registry block of the same name.
    Block(&'r BlockSpec),
    /// Null sinks or sources, one per connected port (GUI sinks, hardware).
    PerPort {
        /// `null_sink` or `null_source`.
        spec: &'r BlockSpec,
        /// The item type when the connection does not tell.
        ty: &'static str,
    },
    /// A hierarchical block (another `.grc` file).
    Hier(Rc<hier::Interface>),
    /// A pad of this file (a port of the hierarchical block it is).
    Pad,
}

/// A connection between a pad and an inner block: one end of an exposed
/// port.
struct PadLink {
    /// Input (`pad_source`) or output (`pad_sink`).
    direction: PortDirection,
    /// The port's index in the interface's side.
    port: usize,
    /// The inner block's end.
    inner: Endpoint,
    /// Where the connection is written.
    at: Location,
}

struct Importer<'a> {
    path: Arc<PathBuf>,
    file: String,
    registry: &'a Registry,
    doc: Document,
    unsupported: Vec<Unsupported>,
    placed: BTreeMap<String, Placed<'a>>,
    grc_blocks: BTreeMap<String, &'a GrcBlock>,
    created: BTreeSet<String>,
    variable_blocks: Vec<&'a GrcBlock>,
    /// The names bound by `import` lines the expressions do not provide.
    ignored_names: Vec<String>,
    /// Variables whose values read one of those names, with the name:
    /// unsupported if a block that is built needs them.
    import_bound: Vec<(&'a GrcBlock, String)>,
    /// This file's ports, if it is a hierarchical block.
    interface: hier::Interface,
    /// The connections to its pads.
    pad_links: Vec<PadLink>,
    /// The variables' values, once evaluated (bus structures read them).
    env: crate::expr::Env,
    /// The file's connections as written (an embedded Python block's
    /// ports are the ones they name).
    grc_connections: &'a [GrcConnection],
}

impl<'a> Importer<'a> {
    fn at(&self, pos: Pos) -> Location {
        Location::new(self.path.clone(), pos.line, pos.col)
    }

    fn unsupported(&mut self, b: &GrcBlock, reason: Option<String>) {
        self.unsupported.push(Unsupported {
            id: b.id.clone(),
            name: b.name.clone(),
            pos: b.pos,
            reason,
        });
    }

    fn notice(&mut self, b: &GrcBlock, what: &str) {
        self.doc.notices.push(format!(
            "{}:{}: {} '{}': {what}",
            self.file, b.pos.line, b.id, b.name
        ));
    }

    /// A complex radio source as rfgraph's `sdr_source` on seify's
    /// `dummy` driver, with GNU Radio's sample rate, frequency and gain
    /// (channel 0). False when that is not possible (audio, non-complex
    /// samples, no `sdr_source` registered): a null source stands in then.
    fn dummy_device(&mut self, b: &GrcBlock) -> bool {
        if b.id == "audio_source" || !matches!(b.text("type"), "" | "fc32" | "complex") {
            return false;
        }
        let Ok(spec) = self.registry.get("sdr_source") else {
            return false;
        };
        let first =
            |ids: &[&'static str]| ids.iter().copied().find(|id| !b.text(id).trim().is_empty());
        let mut params = vec![ParamValue {
            name: "args".into(),
            value: Value::Text("driver=dummy".into()),
            at: self.at(b.pos),
        }];
        for (rf, gr) in [
            ("sample_rate", first(&["samp_rate", "sample_rate"])),
            (
                "frequency",
                first(&["center_freq0", "center_freq", "freq0", "freq"]),
            ),
            ("gain", first(&["gain0", "gain"])),
        ] {
            if let Some(gr) = gr {
                params.push(ParamValue {
                    name: rf.into(),
                    value: translate::expr_value(b.text(gr)),
                    at: self.at(b.pos_of(gr)),
                });
            }
        }
        self.doc.blocks.push(BlockInstance {
            name: b.name.clone(),
            kind: spec.name.to_string(),
            at: self.at(b.pos),
            kind_at: self.at(b.id_pos),
            params,
            options: BlockOptions::default(),
        });
        self.placed.insert(b.name.clone(), Placed::Block(spec));
        self.notice(
            b,
            "hardware or audio input: replaced by seify's `dummy` device (`sdr_source`, driver=dummy), bounded like other endless sources",
        );
        true
    }

    fn block(&mut self, b: &'a GrcBlock) {
        let id = b.id.as_str();
        if variables::is_variable(id) {
            if id == "import" {
                for line in variables::unsupported_imports(b) {
                    self.ignored_names.extend(variables::imported_names(&line));
                    self.notice(
                        b,
                        &format!(
                            "`{line}` is not provided (the expressions provide math, numpy, pmt \
                             and GNU Radio's filter design): ignored, so an expression that \
                             uses it fails where it does"
                        ),
                    );
                }
            }
            if let Some(reason) = variables::unsupported_tag_object(b) {
                self.unsupported(b, Some(reason));
            }
            self.variable_blocks.push(b);
            if variables::is_message_widget(id) {
                // Its message ports lead nowhere here.
                if let Ok(spec) = self.registry.get("null_sink") {
                    self.placed
                        .insert(b.name.clone(), Placed::PerPort { spec, ty: "f32" });
                }
            }
            return;
        }
        if is_ignored(id) || wiring::is_virtual(id) {
            return;
        }
        if hier::is_pad(id) {
            self.placed.insert(b.name.clone(), Placed::Pad);
            return;
        }
        let gui = id.starts_with("qtgui_");
        if gui && b.param("value").is_some() {
            // A message widget (digital number control, ...): its name is
            // a variable of the flowgraph too.
            self.variable_blocks.push(b);
        }
        // The Qt GUI sinks with a web display map like other blocks.
        let display = gui && mapping::is_web_display(id, b.text("type"));
        if (gui && !display) || is_hardware_sink(id) {
            match self.registry.get("null_sink") {
                Ok(spec) => {
                    let ty = gui_type(b);
                    self.placed
                        .insert(b.name.clone(), Placed::PerPort { spec, ty });
                    let what = if gui {
                        "a Qt GUI block, no window here: its stream inputs, if any, end in null sinks"
                    } else {
                        "hardware or audio output: its inputs go to null sinks"
                    };
                    self.notice(b, what);
                }
                Err(_) => {
                    self.unsupported(b, Some("rfgraph has no `null_sink` to stand for it".into()))
                }
            }
            return;
        }
        if is_hardware_source(id) && self.dummy_device(b) {
            return;
        }
        if is_hardware_source(id) {
            match self.registry.get("null_source") {
                Ok(spec) => {
                    let ty = if id == "audio_source" { "f32" } else { "c32" };
                    self.placed
                        .insert(b.name.clone(), Placed::PerPort { spec, ty });
                    self.notice(
                        b,
                        "hardware or audio input: replaced by a null source (zeros)",
                    );
                }
                Err(_) => self.unsupported(
                    b,
                    Some("rfgraph has no `null_source` to stand for it".into()),
                ),
            }
            return;
        }
        if id == EPY_BLOCK || id == EPY_MODULE {
            self.python_block(b);
            return;
        }
        let Some(map) = mapping::find(id) else {
            if self.builtin_block(b) || self.hier_block(b) {
                return;
            }
            let close = rfgraph::registry::suggest::closest(id, mapping::all().map(|m| m.gr));
            self.unsupported(b, close.map(|c| format!("did you mean `{c}`?")));
            return;
        };
        let Ok(spec) = self.registry.get(map.rf) else {
            self.unsupported(b, Some(format!("rfgraph has no `{}` block yet", map.rf)));
            return;
        };
        let path = self.path.clone();
        let at = move |pos: Pos| Location::new(path.clone(), pos.line, pos.col);
        let grc_blocks = &self.grc_blocks;
        let is_variable = |name: &str| {
            grc_blocks
                .get(name)
                .is_some_and(|v| variables::is_variable(&v.id))
        };
        let value_of = |name: &str| {
            grc_blocks
                .get(name)
                .filter(|v| v.id == "variable")
                .map(|v| v.text("value").to_string())
        };
        match translate::params(b, map, spec, &at, &is_variable, &value_of) {
            Ok(params) => {
                self.doc.blocks.push(BlockInstance {
                    name: b.name.clone(),
                    kind: spec.name.to_string(),
                    at: self.at(b.pos),
                    kind_at: self.at(b.id_pos),
                    params,
                    options: BlockOptions::default(),
                });
                self.placed.insert(b.name.clone(), Placed::Block(spec));
            }
            Err(reason) => self.unsupported(b, Some(reason)),
        }
    }

    /// The variables, in file order. GRC writes them sorted by name, not
    /// by dependency: their values are evaluated until nothing changes,
    /// so that GUI ranges get numeric bounds whatever the order.
    fn variables(&mut self) -> Result<(), GrcError> {
        let mut env = crate::expr::Env::new();
        let draft: Vec<_> = self
            .variable_blocks
            .iter()
            .filter_map(|b| variables::variable(b, self.at(b.pos), &env))
            .collect();
        for _ in 0..draft.len() {
            let before = env.names().count();
            for v in &draft {
                if env.get(&v.name).is_none() {
                    variables::remember(v, &mut env);
                }
            }
            if env.names().count() == before {
                break;
            }
        }
        let blocks = std::mem::take(&mut self.variable_blocks);
        for b in blocks {
            if let Some(name) = variables::reads_any(b, &self.ignored_names) {
                self.import_bound.push((b, name));
            }
            if let Some(mut v) = variables::variable(b, self.at(b.pos), &env) {
                if file_taps::is_file_taps(&b.id) {
                    v.value = file_taps::value(b, &env).map_err(|message| {
                        GrcError::at(&self.file, b.pos_of("file"), b.key("file"), message)
                    })?;
                }
                self.doc.variables.push(v);
            }
        }
        self.env = env;
        Ok(())
    }

    /// Refuses the variables that read an ignored import when a built
    /// block needs them; the others (read only by GUI blocks, or by
    /// nothing) are left out with a note.
    fn import_bound_variables(&mut self) {
        let needed = needed::needed(&self.doc);
        for (b, name) in std::mem::take(&mut self.import_bound) {
            if needed.contains(&b.name) {
                let reason = format!("its value reads `{name}`, which an ignored import gives");
                self.unsupported(b, Some(reason));
            } else {
                self.doc.variables.retain(|v| v.name != b.name);
                self.notice(
                    b,
                    &format!(
                        "its value reads `{name}`, which an ignored import gives; \
                         no block that runs here reads it: left out"
                    ),
                );
            }
        }
    }

    /// Leaves out the variables whose values rfgraph's expressions
    /// cannot compute and that no built block reads, with a note: a Qt
    /// label's text (`"%8.6f" % gain`, or empty), which only its window
    /// shows.
    fn unevaluable_unneeded_variables(&mut self) {
        let needed = needed::needed(&self.doc);
        let env = &self.env;
        let (keep, drop): (Vec<_>, Vec<_>) = std::mem::take(&mut self.doc.variables)
            .into_iter()
            .partition(|v| match &v.value {
                Value::Expr(t) => needed.contains(&v.name) || crate::expr::eval(t, env).is_ok(),
                _ => true,
            });
        self.doc.variables = keep;
        for v in drop {
            self.doc.notices.push(format!(
                "{}:{}: variable `{}`: its value does not evaluate here and no block that runs \
                 here reads it: left out",
                self.file, v.at.line, v.name
            ));
        }
    }

    /// The item type flowing out of `block.port`, if known.
    fn source_type(&self, block: &str, port: &str) -> Option<String> {
        match self.placed.get(block)? {
            Placed::Block(spec) => {
                let i: usize = port.parse().ok()?;
                let p = nth_port(&spec.outputs, i)?;
                match &p.item {
                    PortItem::Fixed(k) => Some(k.name().to_string()),
                    PortItem::OfType | PortItem::OfParam(_) => {
                        let inst = self.doc.block(block)?;
                        item_type_param(inst, spec, &p.item)
                    }
                    PortItem::Other(_) => None,
                }
            }
            Placed::PerPort { ty, .. } => Some(ty.to_string()),
            Placed::Hier(iface) => iface
                .outputs
                .iter()
                .find(|p| !p.message && p.key == port)
                .and_then(|p| p.ty)
                .map(str::to_string),
            Placed::Pad => self
                .interface
                .inputs
                .iter()
                .find(|p| p.pad == block && p.pad_port.is_some_and(|i| i.to_string() == port))
                .and_then(|p| p.ty)
                .map(str::to_string),
        }
    }

    /// The endpoint for GRC's `block`/`port` on the `output` or input
    /// side; `None` drops the connection (GUI widgets' message ports).
    fn endpoint(
        &mut self,
        c: &GrcConnection,
        output: bool,
        ty: Option<String>,
    ) -> Result<Option<Endpoint>, String> {
        let (block, port) = if output {
            (&c.src, &c.src_port)
        } else {
            (&c.dst, &c.dst_port)
        };
        let stream = file::is_index(port);
        match self.placed.get(block.as_str()) {
            None => Ok(None),
            Some(Placed::Block(spec)) => {
                let spec = *spec;
                if stream {
                    let i: usize = port.parse().map_err(|_| format!("port `{port}`"))?;
                    let ports = if output { &spec.outputs } else { &spec.inputs };
                    let name = port_name(ports, i).ok_or_else(|| {
                        format!(
                            "rfgraph's `{}` has no stream {} {i}",
                            spec.name,
                            if output { "output" } else { "input" }
                        )
                    })?;
                    Ok(Some(Endpoint::new(block.clone(), name)))
                } else {
                    let known: Vec<&str> = if output {
                        spec.message_outputs.clone()
                    } else {
                        spec.message_input_names()
                    };
                    let gr_id = self
                        .grc_blocks
                        .get(block.as_str())
                        .map_or("", |b| b.id.as_str());
                    let port = mapping::message_port(gr_id, port);
                    if gr_id.starts_with("qtgui_") && !known.contains(&port) {
                        // A web display's GUI message ports (a click's
                        // frequency) lead nowhere here.
                        return Ok(None);
                    }
                    if known.contains(&port) {
                        Ok(Some(Endpoint::new(block.clone(), port)))
                    } else {
                        Err(format!(
                            "rfgraph's `{}` has no message {} `{port}`",
                            spec.name,
                            if output { "output" } else { "input" }
                        ))
                    }
                }
            }
            Some(Placed::Hier(iface)) => {
                let ports = if output {
                    &iface.outputs
                } else {
                    &iface.inputs
                };
                let found = ports.iter().find(|p| p.message != stream && p.key == *port);
                match found {
                    Some(p) => Ok(Some(Endpoint::new(block.clone(), p.name.clone()))),
                    None => Err(format!(
                        "hierarchical block `{block}` has no {} {} `{port}`",
                        if stream { "stream" } else { "message" },
                        if output { "output" } else { "input" }
                    )),
                }
            }
            Some(Placed::Pad) => Err("a pad connected straight to a pad".into()),
            Some(Placed::PerPort { spec, ty: fallback }) => {
                if !stream {
                    return Ok(None);
                }
                let spec = *spec;
                let fallback = *fallback;
                // Port 0 keeps the block's name; others add theirs, and
                // step past a GRC block already called that (a sink
                // `x_0`'s port 1 and another sink `x_0_1`).
                let mut name = if port == "0" {
                    block.clone()
                } else {
                    format!("{block}_{port}")
                };
                while port != "0" && self.grc_blocks.contains_key(name.as_str()) {
                    name.push('_');
                }
                let ports = if output { &spec.outputs } else { &spec.inputs };
                let port_spec = ports.first().ok_or("a null block without ports")?;
                if self.created.insert(name.clone()) {
                    let b = *self
                        .grc_blocks
                        .get(block.as_str())
                        .ok_or("a block that is not in the file")?;
                    let mut params = vec![ParamValue {
                        name: "type".into(),
                        value: Value::Text(ty.unwrap_or_else(|| fallback.to_string())),
                        at: self.at(b.pos),
                    }];
                    if let Some(count) = port_spec.count {
                        params.push(ParamValue {
                            name: count.into(),
                            value: Value::Int(1),
                            at: self.at(b.pos),
                        });
                    }
                    self.doc.blocks.push(BlockInstance {
                        name: name.clone(),
                        kind: spec.name.to_string(),
                        at: self.at(b.pos),
                        kind_at: self.at(b.id_pos),
                        params,
                        options: BlockOptions::default(),
                    });
                }
                let port_name = if port_spec.count.is_some() {
                    format!("{}0", port_spec.name)
                } else {
                    port_spec.name.to_string()
                };
                Ok(Some(Endpoint::new(name, port_name)))
            }
        }
    }

    fn connection(&mut self, c: &GrcConnection) -> Result<(), GrcError> {
        let stream = c.is_stream();
        if stream != (file::is_index(&c.src_port) || file::is_index(&c.dst_port)) {
            return Err(GrcError::at(
                &self.file,
                c.pos,
                format!("connections[{}]", c.index),
                format!(
                    "`{}` port `{}` and `{}` port `{}`: a stream port connects to a stream port, a message port to a message port",
                    c.src, c.src_port, c.dst, c.dst_port
                ),
            ));
        }
        let ty = if stream {
            self.source_type(&c.src, &c.src_port)
        } else {
            None
        };
        let pad_src = matches!(self.placed.get(&c.src), Some(Placed::Pad));
        let pad_dst = matches!(self.placed.get(&c.dst), Some(Placed::Pad));
        if pad_src != pad_dst {
            self.pad_link(c, pad_src, stream, ty);
            return Ok(());
        }
        let ends = [
            (true, &c.src, self.endpoint(c, true, None)),
            (false, &c.dst, self.endpoint(c, false, ty)),
        ];
        let mut got = Vec::new();
        for (_, name, end) in ends {
            match end {
                Ok(e) => got.push(e),
                Err(reason) => {
                    if let Some(b) = self.grc_blocks.get(name.as_str()).copied() {
                        self.unsupported(b, Some(reason));
                    }
                    return Ok(());
                }
            }
        }
        match (got[0].take(), got[1].take()) {
            (Some(from), Some(to)) => self.doc.connections.push(Connection {
                from,
                to,
                kind: if stream {
                    ConnectionKind::Stream
                } else {
                    ConnectionKind::Message
                },
                at: self.at(c.pos),
            }),
            _ => self.doc.notices.push(format!(
                "{}:{}: the connection {}.{} -> {}.{} touches a GUI or hardware message port and is left out",
                self.file, c.pos.line, c.src, c.src_port, c.dst, c.dst_port
            )),
        }
        Ok(())
    }
}

impl Importer<'_> {
    /// `b` as one of rfgraph's built-in hierarchical blocks (GNU Radio's
    /// Python hier blocks, `builtin/<id>.toml`, see [`crate::builtin`]):
    /// its GRC parameters become the flowgraph's variables of the same
    /// names. A `raw` parameter left empty (`()`, GNU Radio's "use the
    /// default", which its template then omits) is not passed. False
    /// when rfgraph has no such built-in block.
    fn builtin_block(&mut self, b: &GrcBlock) -> bool {
        let kind = format!("{}{}.toml", crate::builtin::PREFIX, b.id);
        let Some(Ok(doc)) = crate::builtin::load(Path::new(&kind)) else {
            return false;
        };
        let registry = self.registry;
        let port = |p: &crate::model::ExposedPort| {
            let ty = doc
                .block(&p.inner.block)
                .and_then(|inner| registry.get(&inner.kind).ok())
                .and_then(|spec| {
                    let ports = match p.direction {
                        PortDirection::Input => &spec.inputs,
                        PortDirection::Output => &spec.outputs,
                    };
                    ports.iter().find(|s| s.name == p.inner.port)
                })
                .and_then(|s| match s.item {
                    PortItem::Fixed(k) => Some(k.name()),
                    _ => None,
                });
            (p.direction, p.kind, p.name.clone(), ty)
        };
        let mut iface = hier::Interface::default();
        for (direction, kind, name, ty) in doc.ports.iter().map(port) {
            let side = match direction {
                PortDirection::Input => &mut iface.inputs,
                PortDirection::Output => &mut iface.outputs,
            };
            let message = kind == ConnectionKind::Message;
            let streams = side.iter().filter(|p| !p.message).count();
            side.push(hier::Port {
                key: if message {
                    name.clone()
                } else {
                    streams.to_string()
                },
                name,
                message,
                ty,
                pad: String::new(),
                pad_port: (!message).then_some(streams),
                optional: false,
            });
        }
        let grc_blocks = &self.grc_blocks;
        let is_variable = |name: &str| {
            grc_blocks
                .get(name)
                .is_some_and(|v| variables::is_variable(&v.id))
        };
        let mut params = Vec::new();
        for v in &doc.variables {
            let text = b.text(&v.name);
            if matches!(text.trim(), "" | "()" | "[]") {
                continue;
            }
            let string = matches!(v.value, Value::Text(_));
            params.push(ParamValue {
                name: v.name.clone(),
                value: if string {
                    translate::grc_string(text, &is_variable)
                } else {
                    translate::expr_value(text)
                },
                at: self.at(b.pos_of(&v.name)),
            });
            iface.params.push(hier::Param {
                name: v.name.clone(),
                string,
            });
        }
        self.doc.blocks.push(BlockInstance {
            name: b.name.clone(),
            kind,
            at: self.at(b.pos),
            kind_at: self.at(b.id_pos),
            params,
            options: BlockOptions::default(),
        });
        self.placed
            .insert(b.name.clone(), Placed::Hier(Rc::new(iface)));
        true
    }

    /// GRC's embedded Python (`epy_block`, `epy_module`) as a block of
    /// kind [`python::BLOCK_KIND`] (or [`python::MODULE_KIND`]): its code
    /// and its constructor's arguments (GRC's expressions), for the
    /// Python package to make (see [`crate::python`]). Its ports are
    /// named as a Python block's: stream `i` is `in{i}` / `out{i}`, a
    /// message port keeps its name; which exist, the connections say.
    fn python_block(&mut self, b: &GrcBlock) {
        let module = b.id == EPY_MODULE;
        let code_key = if module {
            "source_code"
        } else {
            python::SOURCE_PARAM
        };
        let mut params = vec![ParamValue {
            name: python::SOURCE_PARAM.into(),
            value: Value::Text(
                b.param(code_key)
                    .map(|p| p.text.clone())
                    .unwrap_or_default(),
            ),
            at: self.at(b.pos_of(code_key)),
        }];
        if !module {
            for (key, p) in &b.params {
                if matches!(
                    key.as_str(),
                    "_source_code" | "affinity" | "alias" | "comment" | "maxoutbuf" | "minoutbuf"
                ) {
                    continue;
                }
                params.push(ParamValue {
                    name: key.clone(),
                    value: translate::expr_value(&p.text),
                    at: self.at(p.pos),
                });
            }
        }
        self.doc.blocks.push(BlockInstance {
            name: b.name.clone(),
            kind: if module {
                python::MODULE_KIND
            } else {
                python::BLOCK_KIND
            }
            .to_string(),
            at: self.at(b.pos),
            kind_at: self.at(b.id_pos),
            params,
            options: BlockOptions::default(),
        });
        if !module {
            let iface = python_interface(&b.name, self.grc_connections);
            self.placed
                .insert(b.name.clone(), Placed::Hier(Rc::new(iface)));
        }
    }

    /// `b` as a use of the hierarchical block file with its id (see
    /// [`hier::find`]): a block whose kind is the file's path, with the
    /// parameters the file declares. False when there is none.
    fn hier_block(&mut self, b: &GrcBlock) -> bool {
        let dir = self.path.parent().unwrap_or(Path::new("")).to_path_buf();
        let Some(found) = hier::find(&b.id, &dir) else {
            return false;
        };
        let iface = hier::interface(&found.grc);
        // The file's name when it is next to this one, else its path.
        let kind = match found.path.parent() {
            Some(p) if p == dir || (dir.as_os_str().is_empty() && p == Path::new(".")) => found
                .path
                .file_name()
                .map_or_else(|| found.path.clone(), PathBuf::from),
            _ => found.path.clone(),
        };
        let grc_blocks = &self.grc_blocks;
        let is_variable = |name: &str| {
            grc_blocks
                .get(name)
                .is_some_and(|v| variables::is_variable(&v.id))
        };
        let params = iface
            .params
            .iter()
            .filter(|p| !b.text(&p.name).is_empty())
            .map(|p| {
                let text = b.text(&p.name);
                ParamValue {
                    name: p.name.clone(),
                    value: if p.string {
                        translate::grc_string(text, &is_variable)
                    } else {
                        translate::expr_value(text)
                    },
                    at: self.at(b.pos_of(&p.name)),
                }
            })
            .collect();
        self.doc.blocks.push(BlockInstance {
            name: b.name.clone(),
            kind: kind.display().to_string(),
            at: self.at(b.pos),
            kind_at: self.at(b.id_pos),
            params,
            options: BlockOptions::default(),
        });
        self.placed
            .insert(b.name.clone(), Placed::Hier(Rc::new(iface)));
        true
    }

    /// A connection between one of this file's pads and an inner block:
    /// remembered as one end of the exposed port.
    fn pad_link(&mut self, c: &GrcConnection, pad_src: bool, stream: bool, ty: Option<String>) {
        let (pad, pad_port) = if pad_src {
            (&c.src, &c.src_port)
        } else {
            (&c.dst, &c.dst_port)
        };
        let side = if pad_src {
            &self.interface.inputs
        } else {
            &self.interface.outputs
        };
        let index = side.iter().position(|p| {
            p.pad == *pad
                && match p.pad_port {
                    Some(i) => stream && i.to_string() == *pad_port,
                    None => !stream,
                }
        });
        let Some(port) = index else {
            if let Some(b) = self.grc_blocks.get(pad.as_str()).copied() {
                self.unsupported(b, Some(format!("a pad without port `{pad_port}`")));
            }
            return;
        };
        // The inner end: the other one.
        let (inner, name) = if pad_src {
            (self.endpoint(c, false, ty), &c.dst)
        } else {
            (self.endpoint(c, true, None), &c.src)
        };
        match inner {
            Ok(Some(inner)) => self.pad_links.push(PadLink {
                direction: if pad_src {
                    PortDirection::Input
                } else {
                    PortDirection::Output
                },
                port,
                inner,
                at: self.at(c.pos),
            }),
            Ok(None) => self.doc.notices.push(format!(
                "{}:{}: the connection {}.{} -> {}.{} touches a GUI or hardware message port and is left out",
                self.file, c.pos.line, c.src, c.src_port, c.dst, c.dst_port
            )),
            Err(reason) => {
                if let Some(b) = self.grc_blocks.get(name.as_str()).copied() {
                    self.unsupported(b, Some(reason));
                }
            }
        }
    }

    /// The exposed ports, from the connections to the pads. A stream
    /// input that feeds several inner blocks goes through a `copy` block
    /// (`{pad}_fanout`, and `{pad}_fanout{i}` for a pad's further
    /// streams); a message input feeding several, or an output fed by
    /// several, is unsupported.
    fn exposed_ports(&mut self) {
        let links = std::mem::take(&mut self.pad_links);
        for direction in [PortDirection::Input, PortDirection::Output] {
            let side = match direction {
                PortDirection::Input => self.interface.inputs.clone(),
                PortDirection::Output => self.interface.outputs.clone(),
            };
            for (i, port) in side.iter().enumerate() {
                let ends: Vec<&PadLink> = links
                    .iter()
                    .filter(|l| l.direction == direction && l.port == i)
                    .collect();
                let Some(first) = ends.first() else {
                    continue;
                };
                let kind = if port.message {
                    ConnectionKind::Message
                } else {
                    ConnectionKind::Stream
                };
                let pad = self.grc_blocks.get(port.pad.as_str()).copied();
                let inner = if ends.len() == 1 {
                    first.inner.clone()
                } else if direction == PortDirection::Input && !port.message {
                    let (Some(ty), Ok(spec), Some(pad)) = (port.ty, self.registry.get("copy"), pad)
                    else {
                        if let Some(pad) = pad {
                            self.unsupported(
                                pad,
                                Some("a pad of any type feeding several blocks".into()),
                            );
                        }
                        continue;
                    };
                    let name = match port.pad_port {
                        Some(0) | None => format!("{}_fanout", port.pad),
                        Some(n) => format!("{}_fanout{n}", port.pad),
                    };
                    self.doc.blocks.push(BlockInstance {
                        name: name.clone(),
                        kind: spec.name.to_string(),
                        at: self.at(pad.pos),
                        kind_at: self.at(pad.id_pos),
                        params: vec![ParamValue {
                            name: "type".into(),
                            value: Value::Text(ty.to_string()),
                            at: self.at(pad.pos),
                        }],
                        options: BlockOptions::default(),
                    });
                    for l in &ends {
                        self.doc.connections.push(Connection {
                            from: Endpoint::new(name.clone(), "out"),
                            to: l.inner.clone(),
                            kind,
                            at: l.at.clone(),
                        });
                    }
                    Endpoint::new(name, "in")
                } else {
                    if let Some(pad) = pad {
                        let what = match direction {
                            PortDirection::Input => "a message pad feeding several blocks",
                            PortDirection::Output => "a pad fed by several blocks",
                        };
                        self.unsupported(pad, Some(what.into()));
                    }
                    continue;
                };
                self.doc.ports.push(ExposedPort {
                    name: port.name.clone(),
                    direction,
                    kind,
                    inner,
                    at: first.at.clone(),
                });
            }
        }
    }

    /// A null sink on every stream output of a hierarchical block that
    /// nothing here reads (GNU Radio lets an optional pad stay
    /// unconnected; rfgraph's inner block needs its output read):
    /// `{block}_{port}_null`.
    fn drain_hier_outputs(&mut self) {
        let Ok(null) = self.registry.get("null_sink") else {
            return;
        };
        let hiers: Vec<(String, Rc<hier::Interface>)> = self
            .placed
            .iter()
            .filter_map(|(name, p)| match p {
                Placed::Hier(i) => Some((name.clone(), i.clone())),
                _ => None,
            })
            .collect();
        for (block, iface) in hiers {
            let Some(b) = self.doc.block(&block).cloned() else {
                continue;
            };
            for port in iface.outputs.iter().filter(|p| !p.message) {
                let read = self
                    .doc
                    .connections
                    .iter()
                    .any(|c| c.from.block == block && c.from.port == port.name);
                let Some(ty) = port.ty.filter(|_| !read) else {
                    continue;
                };
                let name = format!("{block}_{}_null", port.key);
                let mut params = vec![ParamValue {
                    name: "type".into(),
                    value: Value::Text(ty.to_string()),
                    at: b.at.clone(),
                }];
                let input = null.inputs.first();
                if let Some(count) = input.and_then(|p| p.count) {
                    params.push(ParamValue {
                        name: count.into(),
                        value: Value::Int(1),
                        at: b.at.clone(),
                    });
                }
                let in_name = match input {
                    Some(p) if p.count.is_some() => format!("{}0", p.name),
                    Some(p) => p.name.to_string(),
                    None => continue,
                };
                self.doc.blocks.push(BlockInstance {
                    name: name.clone(),
                    kind: null.name.to_string(),
                    at: b.at.clone(),
                    kind_at: b.kind_at.clone(),
                    params,
                    options: BlockOptions::default(),
                });
                self.doc.connections.push(Connection {
                    from: Endpoint::new(block.clone(), port.name.clone()),
                    to: Endpoint::new(name, in_name),
                    kind: ConnectionKind::Stream,
                    at: b.at.clone(),
                });
            }
        }
    }
}

/// GRC's id of an embedded Python block.
const EPY_BLOCK: &str = "epy_block";
/// GRC's id of an embedded Python module.
const EPY_MODULE: &str = "epy_module";

/// The ports of embedded Python block `name`, from the connections that
/// touch it: stream `i` named `in{i}` / `out{i}`, message ports by name.
fn python_interface(name: &str, connections: &[GrcConnection]) -> hier::Interface {
    let mut iface = hier::Interface::default();
    let port = |key: &str, prefix: &str| {
        let stream = file::is_index(key);
        hier::Port {
            name: if stream {
                format!("{prefix}{key}")
            } else {
                key.to_string()
            },
            key: key.to_string(),
            message: !stream,
            ty: None,
            pad: String::new(),
            pad_port: None,
            optional: false,
        }
    };
    for c in connections {
        if c.dst == name && !iface.inputs.iter().any(|p| p.key == c.dst_port) {
            iface.inputs.push(port(&c.dst_port, "in"));
        }
        if c.src == name && !iface.outputs.iter().any(|p| p.key == c.src_port) {
            iface.outputs.push(port(&c.src_port, "out"));
        }
    }
    iface
}

/// The name of the `i`-th stream port of `ports` (`in`, or `in3` of a
/// repeated `in`).
pub fn port_name(ports: &[PortSpec], i: usize) -> Option<String> {
    let mut i = i;
    for p in ports {
        if p.count.is_some() {
            return Some(format!("{}{i}", p.name));
        }
        if i == 0 {
            return Some(p.name.to_string());
        }
        i -= 1;
    }
    None
}

fn nth_port(ports: &[PortSpec], i: usize) -> Option<&PortSpec> {
    let mut i = i;
    for p in ports {
        if p.count.is_some() || i == 0 {
            return Some(p);
        }
        i -= 1;
    }
    None
}

/// The item type of a GUI sink's inputs, by its `type` parameter or its
/// id's suffix.
fn gui_type(b: &GrcBlock) -> &'static str {
    let t = b.text("type");
    let t = t.strip_prefix("msg_").unwrap_or(t);
    mapping::item_type(t).unwrap_or(if b.id.ends_with("_c") { "c32" } else { "f32" })
}

/// Imports a parsed GRC file.
pub fn import(
    grc: &GrcFile,
    path: &Path,
    registry: &Registry,
    options: &LoadOptions,
) -> Result<Document, GrcError> {
    let path = Arc::new(path.to_path_buf());
    let file = path.display().to_string();
    let mut doc = Document::new(path.clone());
    doc.title = Some(grc.options.text("title").to_string()).filter(|t| !t.is_empty());
    let mut names = BTreeSet::new();
    for b in grc.blocks.iter().filter(|b| b.state != State::Disabled) {
        if !names.insert(b.name.as_str()) {
            return Err(GrcError::at(
                &file,
                b.pos,
                format!("blocks[{}].name", b.index),
                format!("a second block named `{}`", b.name),
            ));
        }
    }
    let mut imp = Importer {
        path,
        file,
        registry,
        doc,
        unsupported: Vec::new(),
        placed: BTreeMap::new(),
        grc_blocks: grc
            .blocks
            .iter()
            .filter(|b| b.state != State::Disabled)
            .map(|b| (b.name.clone(), b))
            .collect(),
        created: BTreeSet::new(),
        variable_blocks: Vec::new(),
        ignored_names: Vec::new(),
        import_bound: Vec::new(),
        interface: hier::interface(grc),
        pad_links: Vec::new(),
        env: crate::expr::Env::new(),
        grc_connections: &grc.connections,
    };
    for b in grc.blocks.iter().filter(|b| b.state == State::Enabled) {
        imp.block(b);
    }
    imp.variables()?;
    imp.import_bound_variables();
    imp.unevaluable_unneeded_variables();
    let connections = wiring::resolve(grc, &imp.file)?;
    let connections = super::bus::expand(connections, &imp.grc_blocks, &imp.env);
    // Blocks that are unsupported already: their connections say no more.
    let bad: BTreeSet<String> = imp.unsupported.iter().map(|u| u.name.clone()).collect();
    for c in connections
        .iter()
        .filter(|c| !bad.contains(&c.src) && !bad.contains(&c.dst))
    {
        imp.connection(c)?;
    }
    imp.exposed_ports();
    imp.drain_hier_outputs();
    if !imp.unsupported.is_empty() {
        let mut blocks = imp.unsupported;
        blocks.sort_by_key(|u| u.pos);
        blocks.dedup();
        return Err(GrcError::Unsupported {
            file: imp.file,
            blocks,
        });
    }
    if let Some(n) = options.max_items {
        bound(&mut imp.doc, registry, n);
    }
    Ok(imp.doc)
}

/// Bounds every source to `n` items: `items = n` where its registry
/// block takes `items` and has none; otherwise, for a source that repeats
/// (a vector or file source whose `repeat` is not `False`), a `head` of
/// `n` items on each of its stream outputs, named `{source}_bound` (and
/// `{source}_bound_{port}` for further outputs).
fn bound(doc: &mut Document, registry: &Registry, n: u64) {
    let n = Value::Int(i64::try_from(n).unwrap_or(i64::MAX));
    let mut heads: Vec<(String, String, String, crate::model::Location)> = Vec::new();
    let mut names = Vec::new();
    for b in &mut doc.blocks {
        let Ok(spec) = registry.get(&b.kind) else {
            continue;
        };
        if !spec.inputs.is_empty() || spec.outputs.is_empty() || b.param("items").is_some() {
            continue;
        }
        if spec.param_spec("items").is_some() {
            b.params.push(ParamValue {
                name: "items".into(),
                value: n.clone(),
                at: b.at.clone(),
            });
            continue;
        }
        // A device streams until stopped.
        let repeats = spec.name == "sdr_source"
            || spec.param_spec("repeat").is_some()
                && !matches!(
                    b.param("repeat").map(|p| &p.value),
                    Some(Value::Bool(false))
                );
        if !repeats {
            continue;
        }
        for (i, port) in spec.outputs.iter().enumerate() {
            let ty = match &port.item {
                PortItem::Fixed(k) => Some(k.name().to_string()),
                PortItem::OfType | PortItem::OfParam(_) => item_type_param(b, spec, &port.item),
                PortItem::Other(_) => None,
            };
            if let (Some(ty), None) = (ty, port.count) {
                names.push(if i == 0 {
                    format!("{}_bound", b.name)
                } else {
                    format!("{}_bound_{}", b.name, port.name)
                });
                heads.push((b.name.clone(), port.name.to_string(), ty, b.at.clone()));
            }
        }
    }
    if registry.get("head").is_err() {
        return;
    }
    for ((block, port, ty, at), name) in heads.into_iter().zip(names) {
        let mut feeds = false;
        for c in doc
            .connections
            .iter_mut()
            .filter(|c| c.from.block == block && c.from.port == port)
        {
            c.from = Endpoint::new(name.clone(), "out");
            feeds = true;
        }
        if !feeds {
            continue;
        }
        doc.connections.push(Connection {
            from: Endpoint::new(block.clone(), port.clone()),
            to: Endpoint::new(name.clone(), "in"),
            kind: ConnectionKind::Stream,
            at: at.clone(),
        });
        doc.blocks.push(BlockInstance {
            name,
            kind: "head".into(),
            at: at.clone(),
            kind_at: at.clone(),
            params: vec![
                ParamValue {
                    name: "items".into(),
                    value: n.clone(),
                    at: at.clone(),
                },
                ParamValue {
                    name: "type".into(),
                    value: Value::Text(ty),
                    at: at.clone(),
                },
            ],
            options: BlockOptions::default(),
        });
    }
}

/// Reads and imports the text of a GRC file; `path` names it.
pub fn from_str_with(
    text: &str,
    path: &Path,
    registry: &Registry,
    options: &LoadOptions,
) -> Result<Document, GrcError> {
    let grc = file::parse(text, &path.display().to_string())?;
    import(&grc, path, registry, options)
}

/// Reads and imports the GRC file at `path`.
pub fn load_with(
    path: &Path,
    registry: &Registry,
    options: &LoadOptions,
) -> Result<Document, GrcError> {
    let bytes = std::fs::read(path).map_err(|error| GrcError::Io {
        file: path.display().to_string(),
        error,
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let text = String::from_utf8_lossy(valid);
        let line = text.matches('\n').count() + 1;
        let col = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        GrcError::at(
            &path.display().to_string(),
            Pos { line, col },
            "",
            "not UTF-8 text",
        )
    })?;
    from_str_with(&text, path, registry, options)
}

/// The item type a `type`-like parameter of `inst` gives the port `item`
/// (`type` for [`PortItem::OfType`], the named one for
/// [`PortItem::OfParam`]): its text, else the parameter's default, else
/// its first choice.
fn item_type_param(inst: &BlockInstance, spec: &BlockSpec, item: &PortItem) -> Option<String> {
    let name = match item {
        PortItem::OfParam(p) => p,
        _ => "type",
    };
    match inst.param(name).map(|p| &p.value) {
        Some(Value::Text(t)) => Some(t.clone()),
        _ => spec.param_spec(name).and_then(|p| match &p.default {
            Some(rfgraph::Pmt::String(s)) => Some(s.clone()),
            _ => p.choices.first().map(|s| s.to_string()),
        }),
    }
}
