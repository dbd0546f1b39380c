//! Expansion: evaluates a document's variables and block parameters
//! against the registry and flattens hierarchical blocks (a block whose
//! `kind` is a `.toml` file) into one list of registry blocks and one list
//! of connections between them, with full instance names (`rx/lpf`).
//! Nothing is constructed here; every error is a [`FileError`] at the
//! item at fault.

use super::vars;
use crate::expr::{self, Env};
use crate::model::{
    BlockInstance, BlockOptions, ConnectionKind, Document, Endpoint, FileError, Location,
    PortDirection,
};
use rfgraph::ParamType;
use rfgraph::Pmt;
use rfgraph::params::Values;
use rfgraph::registry::suggest::closest;
use rfgraph::registry::{BlockSpec, BuildError, Registry};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How deep hierarchical blocks may nest.
pub const MAX_NESTING: usize = 16;

/// A registry block of the flattened graph, with its evaluated
/// parameters.
pub(crate) struct FlatBlock<'r> {
    /// Full instance name (`rx/lpf` inside hierarchical block `rx`).
    pub name: String,
    pub spec: &'r BlockSpec,
    /// The parameters given, evaluated.
    pub given: BTreeMap<String, Pmt>,
    /// With defaults filled in.
    pub params: Values,
    pub at: Location,
    /// Where each parameter given is written.
    pub param_at: BTreeMap<String, Location>,
    pub options: BlockOptions,
    /// For each parameter given, the names its expression reads.
    pub reads: Vec<(String, Vec<String>)>,
}

impl FlatBlock<'_> {
    /// A registry [`BuildError`] of this block, placed at the parameter
    /// it names (where the file writes it), else at the block.
    pub(crate) fn error(&self, e: &BuildError) -> FileError {
        locate(&self.name, &self.at, &self.param_at, e)
    }
}

/// A registry [`BuildError`] of block `name` (written at `at`), placed at
/// the parameter it names when the file writes one, else at the block.
fn locate(
    name: &str,
    at: &Location,
    param_at: &BTreeMap<String, Location>,
    e: &BuildError,
) -> FileError {
    let key = format!("blocks.{name}");
    let (at, key) = match e.param().and_then(|p| param_at.get_key_value(p)) {
        Some((param, at)) => (at.clone(), format!("{key}.{param}")),
        None => (
            at.clone(),
            e.param().map_or(key.clone(), |p| format!("{key}.{p}")),
        ),
    };
    let suggestion = match e {
        BuildError::UnknownParam { suggest, .. } => suggest.clone(),
        _ => None,
    };
    FileError::new(at, key, e.to_string()).suggest(suggestion)
}

/// A connection of the flattened graph.
pub(crate) struct FlatConn {
    /// `connections[i]` in its file.
    pub key: String,
    pub from: Endpoint,
    pub to: Endpoint,
    pub kind: ConnectionKind,
    pub at: Location,
}

/// A port a (sub)document exposes, resolved to a block of the flat graph.
#[derive(Clone)]
pub(crate) struct Exposed {
    pub name: String,
    pub direction: PortDirection,
    pub kind: ConnectionKind,
    pub inner: Endpoint,
}

/// A document flattened.
#[derive(Default)]
pub(crate) struct Flat<'r> {
    pub blocks: Vec<FlatBlock<'r>>,
    pub conns: Vec<FlatConn>,
    pub exposed: Vec<Exposed>,
    pub notices: Vec<String>,
    /// The top document's variables (for settable ones).
    pub env: Env,
}

/// Loads a hierarchical block's file.
pub(crate) type Loader<'a> = &'a dyn Fn(&Path) -> Result<Document, FileError>;

pub(crate) struct Expander<'r, 'l> {
    pub registry: &'r Registry,
    pub loader: Loader<'l>,
}

impl<'r> Expander<'r, '_> {
    /// Flattens `doc`; `given` are the evaluated parameters of the
    /// hierarchical block it stands for, `overrides` the `--set` texts.
    pub fn expand(
        &self,
        doc: &Document,
        given: &BTreeMap<String, expr::Value>,
        overrides: &[(String, String)],
        prefix: &str,
        stack: &mut Vec<PathBuf>,
    ) -> Result<Flat<'r>, FileError> {
        let env = vars::evaluate(doc, given, overrides)?;
        let mut flat = Flat {
            notices: doc.notices.clone(),
            ..Flat::default()
        };
        // Hierarchical blocks' ports, by instance name.
        let mut hier: BTreeMap<String, Vec<Exposed>> = BTreeMap::new();
        let mut seen: BTreeMap<&str, &Location> = BTreeMap::new();
        for b in &doc.blocks {
            if let Some(first) = seen.insert(&b.name, &b.at) {
                return Err(FileError::new(
                    b.at.clone(),
                    format!("blocks.{}", b.name),
                    format!(
                        "a second block named `{}` (the first is at {first})",
                        b.name
                    ),
                ));
            }
            if b.kind.ends_with(".toml") || b.kind.ends_with(".grc") {
                let sub = self.hierarchical(doc, b, &env, prefix, stack)?;
                hier.insert(b.name.clone(), sub.exposed.clone());
                flat.blocks.extend(sub.blocks);
                flat.conns.extend(sub.conns);
                flat.notices.extend(sub.notices);
            } else {
                flat.blocks.push(self.block(b, &env, prefix)?);
            }
        }
        let names: Vec<&str> = doc.blocks.iter().map(|b| b.name.as_str()).collect();
        let resolve = |ep: &Endpoint,
                       direction: PortDirection,
                       kind: ConnectionKind,
                       at: &Location,
                       key: &str|
         -> Result<Endpoint, FileError> {
            if !names.contains(&ep.block.as_str()) {
                return Err(FileError::new(
                    at.clone(),
                    key,
                    format!("no block named `{}`", ep.block),
                )
                .suggest(closest(&ep.block, names.iter().copied())));
            }
            let Some(ports) = hier.get(&ep.block) else {
                return Ok(Endpoint::new(
                    format!("{prefix}{}", ep.block),
                    ep.port.clone(),
                ));
            };
            let fitting: Vec<&Exposed> = ports
                .iter()
                .filter(|p| p.direction == direction && p.kind == kind)
                .collect();
            let found = if ep.port.is_empty() && fitting.len() == 1 {
                Some(fitting[0])
            } else {
                fitting.iter().copied().find(|p| p.name == ep.port)
            };
            found.map(|p| p.inner.clone()).ok_or_else(|| {
                let dir = match direction {
                    PortDirection::Input => "input",
                    PortDirection::Output => "output",
                };
                let list: Vec<&str> = fitting.iter().map(|p| p.name.as_str()).collect();
                let what = match kind {
                    ConnectionKind::Stream => "stream",
                    ConnectionKind::Message => "message",
                };
                FileError::new(
                    at.clone(),
                    key,
                    format!(
                        "hierarchical block `{}` has no {what} {dir} `{}` (it has: {})",
                        ep.block,
                        ep.port,
                        if list.is_empty() {
                            "none".to_string()
                        } else {
                            list.join(", ")
                        }
                    ),
                )
                .suggest(closest(&ep.port, list.iter().copied()))
            })
        };
        // One entry of a file's list may hold several links (a chain):
        // they share its place, and its index.
        let mut index = 0usize;
        let mut last: Option<&Location> = None;
        for c in &doc.connections {
            if last.is_some_and(|l| *l != c.at) {
                index += 1;
            }
            last = Some(&c.at);
            let key = format!("connections[{index}]");
            flat.conns.push(FlatConn {
                key: key.clone(),
                from: resolve(&c.from, PortDirection::Output, c.kind, &c.at, &key)?,
                to: resolve(&c.to, PortDirection::Input, c.kind, &c.at, &key)?,
                kind: c.kind,
                at: c.at.clone(),
            });
        }
        for p in &doc.ports {
            let key = match p.direction {
                PortDirection::Input => format!("inputs.{}", p.name),
                PortDirection::Output => format!("outputs.{}", p.name),
            };
            // An exposed input stands for an inner input, an output for an
            // inner output.
            let inner = resolve(&p.inner, p.direction, p.kind, &p.at, &key)?;
            flat.exposed.push(Exposed {
                name: p.name.clone(),
                direction: p.direction,
                kind: p.kind,
                inner,
            });
        }
        flat.env = env;
        Ok(flat)
    }

    fn hierarchical(
        &self,
        doc: &Document,
        b: &BlockInstance,
        env: &Env,
        prefix: &str,
        stack: &mut Vec<PathBuf>,
    ) -> Result<Flat<'r>, FileError> {
        let key = format!("blocks.{}.kind", b.name);
        let dir = doc.path.parent().unwrap_or(Path::new(""));
        let path = crate::builtin::path(&b.kind).unwrap_or_else(|| dir.join(&b.kind));
        let canon = path.canonicalize().unwrap_or_else(|_| path.clone());
        if stack.contains(&canon) || stack.len() >= MAX_NESTING {
            return Err(FileError::new(
                b.kind_at.clone(),
                key,
                format!(
                    "hierarchical block `{}` includes itself (or nests more than {MAX_NESTING} deep)",
                    b.kind
                ),
            ));
        }
        let sub = (self.loader)(&path).map_err(|e| {
            if e.at.path() == path.as_path() && e.at.line == 0 {
                FileError::new(
                    b.kind_at.clone(),
                    key.clone(),
                    format!("{}: {}", b.kind, e.message),
                )
            } else {
                e
            }
        })?;
        let mut given = BTreeMap::new();
        let known: Vec<&str> = sub.variables.iter().map(|v| v.name.as_str()).collect();
        for p in &b.params {
            let pk = format!("blocks.{}.{}", b.name, p.name);
            if !known.contains(&p.name.as_str()) {
                return Err(FileError::new(
                    p.at.clone(),
                    pk,
                    format!(
                        "hierarchical block `{}` has no variable `{}`",
                        b.kind, p.name
                    ),
                )
                .suggest(closest(&p.name, known.iter().copied())));
            }
            let v = vars::eval_loose(&p.value, env, &p.at, &pk)?;
            given.insert(p.name.clone(), v);
        }
        stack.push(canon);
        let sub_prefix = format!("{prefix}{}/", b.name);
        let flat = self.expand(&sub, &given, &[], &sub_prefix, stack);
        stack.pop();
        flat
    }

    fn block(
        &self,
        b: &BlockInstance,
        env: &Env,
        prefix: &str,
    ) -> Result<FlatBlock<'r>, FileError> {
        let key = format!("blocks.{}", b.name);
        let spec = self.registry.get(&b.kind).map_err(|e| {
            FileError::new(
                b.kind_at.clone(),
                format!("{key}.kind"),
                format!("unknown block `{}`", b.kind),
            )
            .suggest(e.suggest)
        })?;
        let mut given = BTreeMap::new();
        let mut reads = Vec::new();
        for p in &b.params {
            let pk = format!("{key}.{}", p.name);
            let Some(ps) = spec.param_spec(&p.name) else {
                return Err(FileError::new(
                    p.at.clone(),
                    pk,
                    format!("block `{}` has no parameter `{}`", b.kind, p.name),
                )
                .suggest(closest(&p.name, spec.params.iter().map(|s| s.name))));
            };
            let literal = ps.ty == ParamType::String;
            let v = crate::lambda::param_value(&p.value, env, &p.at, &pk, literal)?;
            if !literal || crate::lambda::is_lambda_value(&p.value) {
                reads.push((p.name.clone(), vars::names_of(&p.value)));
            }
            // A configuration object (a header format, a coder) sets every
            // parameter it has a field for.
            let fields = match v {
                expr::Value::Object(o) => {
                    let class = o.class.clone();
                    o.fields
                        .into_iter()
                        .map(|(name, v)| (name, v, Some(class.clone())))
                        .collect()
                }
                v => vec![(p.name.clone(), v, None)],
            };
            for (name, v, object) in fields {
                let from = || object.as_ref().map(|c| format!(" (from the {c} object)"));
                let Some(ps) = spec.param_spec(&name) else {
                    return Err(FileError::new(
                        p.at.clone(),
                        pk,
                        format!(
                            "block `{}` has no parameter `{name}`{}",
                            b.kind,
                            from().unwrap_or_default()
                        ),
                    ));
                };
                let pmt = v.to_pmt(ps.ty).map_err(|(expected, found)| {
                    FileError::new(
                        p.at.clone(),
                        pk.clone(),
                        match from() {
                            Some(from) => {
                                format!("{name}{from}: expected {expected}, found {found}")
                            }
                            None => format!("expected {expected}, found {found}"),
                        },
                    )
                })?;
                given.insert(name, pmt);
            }
        }
        let name = format!("{prefix}{}", b.name);
        let param_at: BTreeMap<String, Location> = b
            .params
            .iter()
            .map(|p| (p.name.clone(), p.at.clone()))
            .collect();
        let params = Values::resolve(spec.name, &spec.params, given.clone())
            .map_err(|e| locate(&name, &b.at, &param_at, &e))?;
        Ok(FlatBlock {
            name,
            spec,
            given,
            params,
            at: b.at.clone(),
            param_at,
            options: b.options.clone(),
            reads,
        })
    }
}
