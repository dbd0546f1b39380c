//! The TOML reader: walks a parsed `toml_edit` document (which keeps the
//! byte range of every key and value) and fills a [`Document`], turning
//! each range into a line and column. Owns the mapping of sections and
//! keys to the model, and the rejection of unknown keys (with the
//! closest known one).

use super::connections;
use crate::model::{
    BlockInstance, BlockOptions, Connection, ConnectionKind, Document, ExposedPort, FileError,
    Location, ParamValue, PortDirection, Value, Variable, VariableProbe,
};
use rfgraph::registry::suggest::closest;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;
use toml_edit::{Item, TableLike};

const TOP_KEYS: &[&str] = &[
    "format",
    "title",
    "connections",
    "variables",
    "blocks",
    "scheduler",
    "hosts",
    "links",
    "inputs",
    "outputs",
];

pub(super) struct Ctx<'a> {
    text: &'a str,
    file: Arc<PathBuf>,
    /// Byte offset of each line's start, for lines and columns in
    /// O(log n) (a big file has thousands of items).
    line_starts: Vec<usize>,
}

pub(super) type R<T> = Result<T, FileError>;

impl Ctx<'_> {
    fn loc(&self, span: Option<Range<usize>>) -> Location {
        let Some(s) = span else {
            return Location::new(self.file.clone(), 1, 1);
        };
        let offset = s.start.min(self.text.len());
        let line = self.line_starts.partition_point(|&start| start <= offset);
        let start = self.line_starts[line.saturating_sub(1)];
        match self.text.get(start..offset) {
            Some(before) => Location::new(self.file.clone(), line, before.chars().count() + 1),
            None => Location::at_offset(self.file.clone(), self.text, offset),
        }
    }

    pub(super) fn err(
        &self,
        span: Option<Range<usize>>,
        key: &str,
        message: impl Into<String>,
    ) -> FileError {
        FileError::new(self.loc(span), key, message)
    }

    /// The span of `key`'s key in `table`, else of its value, else of the
    /// table.
    fn key_span(
        &self,
        table: &dyn TableLike,
        key: &str,
        fallback: Option<Range<usize>>,
    ) -> Option<Range<usize>> {
        table
            .get_key_value(key)
            .and_then(|(k, v)| k.span().or_else(|| v.span()))
            .or(fallback)
    }

    /// Rejects keys of `table` not in `known`.
    fn only(
        &self,
        table: &dyn TableLike,
        known: &[&str],
        prefix: &str,
        fallback: Option<Range<usize>>,
    ) -> R<()> {
        for (k, _) in table.iter() {
            if !known.contains(&k) {
                return Err(self
                    .err(
                        self.key_span(table, k, fallback.clone()),
                        &join(prefix, k),
                        format!("unknown key `{k}` (known: {})", known.join(", ")),
                    )
                    .suggest(closest(k, known.iter().copied())));
            }
        }
        Ok(())
    }
}

pub(super) fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

fn type_name(item: &Item) -> &'static str {
    match item {
        Item::None => "nothing",
        Item::Value(v) => match v {
            toml_edit::Value::String(_) => "a string",
            toml_edit::Value::Integer(_) => "an integer",
            toml_edit::Value::Float(_) => "a float",
            toml_edit::Value::Boolean(_) => "a boolean",
            toml_edit::Value::Datetime(_) => "a date",
            toml_edit::Value::Array(_) => "an array",
            toml_edit::Value::InlineTable(_) => "a table",
        },
        Item::Table(_) => "a table",
        Item::ArrayOfTables(_) => "an array of tables",
    }
}

/// Reads `text` (the contents of `file`).
pub(crate) fn read(text: &str, file: Arc<PathBuf>) -> R<Document> {
    let line_starts = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let ctx = Ctx {
        text,
        file: file.clone(),
        line_starts,
    };
    let parsed = toml_edit::Document::parse(text).map_err(|e| {
        let msg = e
            .message()
            .lines()
            .next()
            .unwrap_or("invalid TOML")
            .to_string();
        ctx.err(e.span(), "", format!("invalid TOML: {msg}"))
    })?;
    let root: &dyn TableLike = parsed
        .as_item()
        .as_table_like()
        .ok_or_else(|| ctx.err(None, "", "not a TOML table"))?;
    ctx.only(root, TOP_KEYS, "", None)?;
    let mut doc = Document::new(file);

    match root.get_key_value("format") {
        None => {
            return Err(ctx.err(
                None,
                "format",
                "missing `format = 1` (the file format version)",
            ));
        }
        Some((k, v)) => {
            if v.as_integer() != Some(super::FORMAT) {
                return Err(ctx.err(
                    v.span().or(k.span()),
                    "format",
                    format!("this rfgraph reads `format = {}` files", super::FORMAT),
                ));
            }
        }
    }
    if let Some((k, v)) = root.get_key_value("title") {
        let t = v.as_str().ok_or_else(|| {
            ctx.err(
                v.span().or(k.span()),
                "title",
                format!("expected a string, found {}", type_name(v)),
            )
        })?;
        doc.title = Some(t.to_string());
    }
    if let Some(item) = root.get("variables") {
        variables(&ctx, item, &mut doc)?;
    }
    if let Some(item) = root.get("blocks") {
        blocks(&ctx, item, &mut doc)?;
    }
    if let Some(item) = root.get("connections") {
        connections(&ctx, item, &mut doc)?;
    }
    if let Some(item) = root.get("scheduler") {
        scheduler(&ctx, item, &mut doc)?;
    }
    if let Some(item) = root.get("hosts") {
        hosts(&ctx, item, &mut doc)?;
    }
    if let Some(item) = root.get("links") {
        links(&ctx, item, &mut doc)?;
    }
    for (section, direction) in [
        ("inputs", PortDirection::Input),
        ("outputs", PortDirection::Output),
    ] {
        if let Some(item) = root.get(section) {
            ports(&ctx, section, direction, item, &mut doc)?;
        }
    }
    Ok(doc)
}

fn table<'a>(ctx: &Ctx, item: &'a Item, key: &str) -> R<&'a dyn TableLike> {
    item.as_table_like().ok_or_else(|| {
        ctx.err(
            item.span(),
            key,
            format!("expected a table, found {}", type_name(item)),
        )
    })
}

/// A value as written: strings become `string` (Expr or Text by the
/// caller's rule), `{ expr = ".." }` / `{ text = ".." }` say which.
pub(super) fn value(
    ctx: &Ctx,
    item: &Item,
    key: &str,
    string: fn(String) -> Value,
    depth: usize,
) -> R<Value> {
    let bad = |what: &str| {
        ctx.err(
            item.span(),
            key,
            format!("expected a number, bool, string, list or {{ expr = \"...\" }}, found {what}"),
        )
    };
    if depth > 32 {
        return Err(ctx.err(item.span(), key, "lists nested more than 32 deep"));
    }
    let Some(v) = item.as_value() else {
        return Err(bad(type_name(item)));
    };
    Ok(match v {
        toml_edit::Value::String(s) => string(s.value().clone()),
        toml_edit::Value::Integer(i) => Value::Int(*i.value()),
        toml_edit::Value::Float(f) => Value::Float(*f.value()),
        toml_edit::Value::Boolean(b) => Value::Bool(*b.value()),
        toml_edit::Value::Datetime(_) => return Err(bad("a date")),
        toml_edit::Value::Array(a) => {
            let mut out = Vec::with_capacity(a.len());
            for v in a.iter() {
                let item = Item::Value(v.clone());
                out.push(value(ctx, &item, key, string, depth + 1)?);
            }
            Value::List(out)
        }
        toml_edit::Value::InlineTable(t) => {
            ctx.only(t, &["expr", "text"], key, item.span())?;
            match (t.get("expr"), t.get("text")) {
                (Some(e), None) => Value::Expr(
                    e.as_str()
                        .ok_or_else(|| {
                            ctx.err(e.span().or(item.span()), key, "`expr` takes a string")
                        })?
                        .to_string(),
                ),
                (None, Some(e)) => Value::Text(
                    e.as_str()
                        .ok_or_else(|| {
                            ctx.err(e.span().or(item.span()), key, "`text` takes a string")
                        })?
                        .to_string(),
                ),
                _ => return Err(bad("a table without exactly one of `expr`, `text`")),
            }
        }
    })
}

fn name_check(ctx: &Ctx, span: Option<Range<usize>>, key: &str, name: &str, what: &str) -> R<()> {
    if connections::is_name(name) {
        Ok(())
    } else {
        Err(ctx.err(span, key, format!("`{name}` is not a valid {what} name (letters, digits and `_`, not starting with a digit)")))
    }
}

fn variables(ctx: &Ctx, item: &Item, doc: &mut Document) -> R<()> {
    let t = table(ctx, item, "variables")?;
    for (name, v) in t.iter() {
        let key = format!("variables.{name}");
        let span = ctx.key_span(t, name, item.span());
        name_check(ctx, span.clone(), &key, name, "variable")?;
        let at = ctx.loc(v.span().or(span.clone()));
        let mut var = Variable {
            name: name.to_string(),
            value: Value::Int(0),
            at,
            settable: false,
            label: None,
            widget: None,
            probe: None,
        };
        let full = v
            .as_value()
            .and_then(|x| x.as_inline_table())
            .filter(|it| !it.contains_key("expr") && !it.contains_key("text"));
        match (full, v.as_table()) {
            (Some(_), _) | (_, Some(_)) => {
                let tt = table(ctx, v, &key)?;
                ctx.only(
                    tt,
                    &[
                        "value", "expr", "text", "settable", "label", "range", "choices", "probe",
                        "widget", "options", "labels", "gui_hint",
                    ],
                    &key,
                    v.span(),
                )?;
                let given: Vec<&str> = ["value", "expr", "text"]
                    .into_iter()
                    .filter(|k| tt.contains_key(k))
                    .collect();
                if given.len() != 1 {
                    return Err(ctx.err(
                        v.span().or(span),
                        &key,
                        "give exactly one of `value`, `expr`, `text`",
                    ));
                }
                let vk = join(&key, given[0]);
                let vi = tt.get(given[0]).unwrap_or(&Item::None);
                var.at = ctx.loc(vi.span().or(v.span()));
                var.value = match given[0] {
                    "value" => value(ctx, vi, &vk, Value::Expr, 0)?,
                    kind => {
                        let s = vi
                            .as_str()
                            .ok_or_else(|| ctx.err(vi.span(), &vk, "expected a string"))?
                            .to_string();
                        if kind == "expr" {
                            Value::Expr(s)
                        } else {
                            Value::Text(s)
                        }
                    }
                };
                if let Some(s) = tt.get("settable") {
                    var.settable = s.as_bool().ok_or_else(|| {
                        ctx.err(s.span(), &join(&key, "settable"), "expected true or false")
                    })?;
                }
                if let Some(l) = tt.get("label") {
                    var.label = Some(
                        l.as_str()
                            .ok_or_else(|| {
                                ctx.err(l.span(), &join(&key, "label"), "expected a string")
                            })?
                            .to_string(),
                    );
                }
                if let Some(p) = tt.get("probe") {
                    var.probe = Some(probe(ctx, p, &join(&key, "probe"))?);
                    var.settable = true;
                }
                var.widget = super::widget::widget(ctx, tt, &key)?;
            }
            _ => var.value = value(ctx, v, &key, Value::Expr, 0)?,
        }
        doc.variables.push(var);
    }
    Ok(())
}

/// A variable's `probe = { block = "p", read = "level", rate = 10 }`:
/// `read` a reading, or `get_NAME` for parameter `NAME`; `block`
/// omitted or empty for the flowgraph's own variables (`get_NAME`);
/// `rate` in polls per second (default 10).
fn probe(ctx: &Ctx, item: &Item, key: &str) -> R<VariableProbe> {
    let t = table(ctx, item, key)?;
    ctx.only(t, &["block", "read", "rate"], key, item.span())?;
    let text = |k: &str| -> R<String> {
        match t.get(k) {
            None => Ok(String::new()),
            Some(v) => v
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| ctx.err(v.span(), &join(key, k), "expected a string")),
        }
    };
    let function = text("read")?;
    if function.is_empty() {
        return Err(ctx.err(
            item.span(),
            key,
            "missing `read` (a reading such as `level`, or `get_NAME` for a parameter)",
        ));
    }
    let rate = match t.get("rate") {
        Some(r) => value(ctx, r, &join(key, "rate"), Value::Expr, 0)?,
        None => Value::Int(10),
    };
    Ok(VariableProbe {
        block: text("block")?,
        function,
        args: String::new(),
        rate,
        at: ctx.loc(item.span()),
        strict: true,
    })
}

fn blocks(ctx: &Ctx, item: &Item, doc: &mut Document) -> R<()> {
    let t = table(ctx, item, "blocks")?;
    for (name, b) in t.iter() {
        let key = format!("blocks.{name}");
        let span = ctx.key_span(t, name, item.span());
        name_check(ctx, span.clone(), &key, name, "block")?;
        let bt = table(ctx, b, &key)?;
        let at = ctx.loc(b.span().or(span.clone()));
        let Some((kk, kind)) = bt.get_key_value("kind") else {
            return Err(ctx.err(
                b.span().or(span),
                &key,
                "missing `kind` (the registry block, or a `.toml` file for a hierarchical block)",
            ));
        };
        let kind_at = ctx.loc(kind.span().or(kk.span()));
        let kind = kind.as_str().ok_or_else(|| {
            ctx.err(
                kind.span(),
                &join(&key, "kind"),
                format!("expected a string, found {}", type_name(kind)),
            )
        })?;
        let mut block = BlockInstance {
            name: name.to_string(),
            kind: kind.to_string(),
            at,
            kind_at,
            params: Vec::new(),
            options: BlockOptions::default(),
        };
        for (p, v) in bt.iter() {
            let pk = join(&key, p);
            match p {
                "kind" => {}
                "options" => block.options = options(ctx, v, &pk)?,
                _ => {
                    let at = ctx.loc(v.span().or(ctx.key_span(bt, p, b.span())));
                    block.params.push(ParamValue {
                        name: p.to_string(),
                        value: value(ctx, v, &pk, Value::Text, 0)?,
                        at,
                    });
                }
            }
        }
        doc.blocks.push(block);
    }
    Ok(())
}

fn count(ctx: &Ctx, item: &Item, key: &str, min: i64) -> R<usize> {
    item.as_integer()
        .filter(|&i| i >= min)
        .and_then(|i| usize::try_from(i).ok())
        .ok_or_else(|| {
            ctx.err(
                item.span(),
                key,
                format!("expected an integer >= {min}, found {}", type_name(item)),
            )
        })
}

fn options(ctx: &Ctx, item: &Item, key: &str) -> R<BlockOptions> {
    let t = table(ctx, item, key)?;
    ctx.only(
        t,
        &["affinity", "buffer_size", "blocking", "host"],
        key,
        item.span(),
    )?;
    let mut o = BlockOptions::default();
    if let Some(a) = t.get("affinity") {
        let k = join(key, "affinity");
        let arr = a
            .as_array()
            .ok_or_else(|| ctx.err(a.span(), &k, "expected a list of CPU numbers"))?;
        let mut cores = Vec::new();
        for c in arr.iter() {
            cores.push(
                c.as_integer()
                    .and_then(|i| usize::try_from(i).ok())
                    .filter(|&i| i < 4096)
                    .ok_or_else(|| {
                        ctx.err(c.span().or(a.span()), &k, "expected a CPU number (0..4096)")
                    })?,
            );
        }
        o.affinity = Some(cores);
    }
    if let Some(b) = t.get("buffer_size") {
        o.buffer_size = Some(count(ctx, b, &join(key, "buffer_size"), 1)?);
    }
    if let Some(b) = t.get("blocking") {
        o.blocking =
            Some(b.as_bool().ok_or_else(|| {
                ctx.err(b.span(), &join(key, "blocking"), "expected true or false")
            })?);
    }
    if let Some(h) = t.get("host") {
        let name = h.as_str().ok_or_else(|| {
            ctx.err(
                h.span(),
                &join(key, "host"),
                "expected a host name (a `[hosts.NAME]`)",
            )
        })?;
        o.host = Some(name.to_string());
    }
    Ok(o)
}

/// `[hosts.NAME]` sections: `address` (required) and `port`.
fn hosts(ctx: &Ctx, item: &Item, doc: &mut Document) -> R<()> {
    let t = table(ctx, item, "hosts")?;
    for (name, v) in t.iter() {
        let key = join("hosts", name);
        name_check(ctx, v.span(), &key, name, "host")?;
        let h = table(ctx, v, &key)?;
        ctx.only(h, &["address", "port"], &key, v.span())?;
        let address = h
            .get("address")
            .and_then(|a| a.as_str())
            .filter(|a| !a.trim().is_empty())
            .ok_or_else(|| {
                ctx.err(
                    v.span(),
                    &join(&key, "address"),
                    "expected the host's address as a string",
                )
            })?;
        let port = match h.get("port") {
            None => crate::hosts::DEFAULT_PORT,
            Some(p) => p
                .as_integer()
                .and_then(|p| u16::try_from(p).ok())
                .filter(|&p| p > 0)
                .ok_or_else(|| {
                    ctx.err(p.span(), &join(&key, "port"), "expected a port (1..65535)")
                })?,
        };
        doc.hosts.push(crate::model::Host {
            name: name.to_string(),
            address: address.trim().to_string(),
            port,
            at: ctx.loc(v.span()),
        });
    }
    Ok(())
}

/// The `[links]` section.
fn links(ctx: &Ctx, item: &Item, doc: &mut Document) -> R<()> {
    let t = table(ctx, item, "links")?;
    ctx.only(
        t,
        &["on_loss", "peer_timeout", "window"],
        "links",
        item.span(),
    )?;
    if let Some(o) = t.get("on_loss") {
        let text = o
            .as_str()
            .filter(|s| ["stop", "reconnect"].contains(s))
            .ok_or_else(|| {
                ctx.err(
                    o.span(),
                    "links.on_loss",
                    "expected \"stop\" or \"reconnect\"",
                )
            })?;
        doc.links.on_loss = Some(text.to_string());
    }
    if let Some(p) = t.get("peer_timeout") {
        let text = p.as_str().ok_or_else(|| {
            ctx.err(
                p.span(),
                "links.peer_timeout",
                "expected a duration as a string (\"5s\")",
            )
        })?;
        let d = crate::duration::parse_duration(text)
            .map_err(|e| ctx.err(p.span(), "links.peer_timeout", e))?;
        if d.is_zero() {
            return Err(ctx.err(p.span(), "links.peer_timeout", "must be longer than zero"));
        }
        doc.links.peer_timeout = Some(d);
    }
    if let Some(w) = t.get("window") {
        doc.links.window = Some(count(ctx, w, "links.window", 1)?);
    }
    Ok(())
}

fn connections(ctx: &Ctx, item: &Item, doc: &mut Document) -> R<()> {
    let arr = item.as_array().ok_or_else(|| {
        ctx.err(
            item.span(),
            "connections",
            "expected a list of strings like \"src.out -> snk.in\"",
        )
    })?;
    for (i, v) in arr.iter().enumerate() {
        let key = format!("connections[{i}]");
        let span = v.span().or(item.span());
        let s = v.as_str().ok_or_else(|| {
            ctx.err(
                span.clone(),
                &key,
                "expected a string like \"src.out -> snk.in\"",
            )
        })?;
        let at = ctx.loc(span.clone());
        let links = connections::parse(s).map_err(|e| {
            // Inside the quotes: one column for the opening quote.
            FileError::new(at.shifted(1 + e.chars), &key, e.message)
        })?;
        for l in links {
            doc.connections.push(Connection {
                from: l.from,
                to: l.to,
                kind: l.kind,
                at: at.clone(),
            });
        }
    }
    Ok(())
}

fn scheduler(ctx: &Ctx, item: &Item, doc: &mut Document) -> R<()> {
    let t = table(ctx, item, "scheduler")?;
    ctx.only(
        t,
        &["name", "cores", "buffer_size", "max_latency"],
        "scheduler",
        item.span(),
    )?;
    doc.scheduler.at = ctx.loc(item.span());
    if let Some(n) = t.get("name") {
        doc.scheduler.name = Some(
            n.as_str()
                .ok_or_else(|| {
                    ctx.err(
                        n.span(),
                        "scheduler.name",
                        "expected a string (tpb, single, pool or chain)",
                    )
                })?
                .to_string(),
        );
    }
    if let Some(c) = t.get("cores") {
        doc.scheduler.cores = Some(count(ctx, c, "scheduler.cores", 1)?);
    }
    if let Some(b) = t.get("buffer_size") {
        doc.scheduler.buffer_size = Some(count(ctx, b, "scheduler.buffer_size", 1)?);
    }
    if let Some(m) = t.get("max_latency") {
        let text = m.as_str().ok_or_else(|| {
            ctx.err(
                m.span(),
                "scheduler.max_latency",
                "expected a duration as a string (\"2ms\", \"500us\")",
            )
        })?;
        let budget = crate::duration::parse_duration(text)
            .map_err(|e| ctx.err(m.span(), "scheduler.max_latency", e))?;
        doc.scheduler.max_latency = Some(budget);
    }
    Ok(())
}

fn ports(
    ctx: &Ctx,
    section: &str,
    direction: PortDirection,
    item: &Item,
    doc: &mut Document,
) -> R<()> {
    let t = table(ctx, item, section)?;
    for (name, v) in t.iter() {
        let key = format!("{section}.{name}");
        let span = ctx.key_span(t, name, item.span());
        name_check(ctx, span.clone(), &key, name, "port")?;
        let (port, kind, pspan) = match v.as_str() {
            Some(s) => (s.to_string(), ConnectionKind::Stream, v.span()),
            None => {
                let pt = table(ctx, v, &key)?;
                ctx.only(pt, &["port", "message"], &key, v.span())?;
                let p = pt
                    .get("port")
                    .ok_or_else(|| ctx.err(v.span(), &key, "missing `port = \"block.port\"`"))?;
                let message = match pt.get("message") {
                    Some(m) => m.as_bool().ok_or_else(|| {
                        ctx.err(m.span(), &join(&key, "message"), "expected true or false")
                    })?,
                    None => false,
                };
                let s = p.as_str().ok_or_else(|| {
                    ctx.err(
                        p.span(),
                        &join(&key, "port"),
                        "expected a string \"block.port\"",
                    )
                })?;
                let kind = if message {
                    ConnectionKind::Message
                } else {
                    ConnectionKind::Stream
                };
                (s.to_string(), kind, p.span())
            }
        };
        let inner = connections::endpoint(port.trim()).ok_or_else(|| {
            ctx.err(
                pspan.clone().or(span.clone()),
                &key,
                format!("`{port}` is not `block.port` or `block`"),
            )
        })?;
        doc.ports.push(ExposedPort {
            name: name.to_string(),
            direction,
            kind,
            inner,
            at: ctx.loc(span),
        });
    }
    Ok(())
}
