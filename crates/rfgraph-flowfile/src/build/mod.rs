//! The builder: turns a flowgraph [`Document`] (from a TOML or `.grc`
//! file) into a [`Flowgraph`] through the [`Registry`], checking
//! everything before anything is constructed or started.
//!
//! In order: variables are evaluated by dependency (cycles reported) with
//! `--set` overrides; hierarchical blocks (a `kind` ending in `.toml`) are
//! loaded and flattened, their parameters overriding the sub-file's
//! variables; each parameter is evaluated for its [`ParamSpec`]'s type;
//! connections are checked against the specs' ports (names, item types
//! of both ends, one writer per input, no stream cycle); then blocks are
//! constructed, connected, options applied, and the graph validated
//! (unconnected ports). What `rfgraph run` needs besides the graph comes
//! with it in [`Built`], including a [`Controller`] that changes settable
//! variables while the graph runs (`control`). Every error is a [`FileError`] with file, line,
//! column and key.
//!
//! [`ParamSpec`]: rfgraph::registry::ParamSpec

mod construct;
mod control;
mod expand;
mod ports;
pub(crate) mod vars;

pub(crate) use vars::eval_value;

pub use construct::{
    BuiltBlock, BuiltEdge, DEFAULT_SCHEDULER, FiniteSource, SchedulerPlan, SettableVariable,
};
pub use control::{Change, ControlError, Controller, DEFAULT_REPLY_TIMEOUT};
pub use expand::MAX_NESTING;

use crate::model::{Document, FileError};
use rfgraph::Flowgraph;
use rfgraph::registry::Registry;
use std::path::{Path, PathBuf};

/// Choices from the command line.
#[derive(Clone, Debug, Default)]
pub struct BuildOptions {
    /// `--set name=value`: a top-level variable and the text of its new
    /// value (an expression; text that is not one is taken as a string).
    pub overrides: Vec<(String, String)>,
    /// `--scheduler`: overrides the file's `[scheduler] name`.
    pub scheduler: Option<String>,
    /// `--cores`: overrides the file's `[scheduler] cores`.
    pub cores: Option<usize>,
    /// `--max-latency`: overrides the file's `[scheduler] max_latency`.
    pub max_latency: Option<std::time::Duration>,
    /// Checks everything that can be checked without constructing a
    /// block (constructors open files and devices: a file sink creates
    /// its file): the returned [`Built::flowgraph`] is empty and ports
    /// are checked against the specs only. For `rfgraph check` and `dot`.
    pub dry_run: bool,
    /// `--host`: in a flowgraph that spans hosts, the host whose part to
    /// build (see [`crate::hosts`]). A dry run without one checks every
    /// host's part.
    pub host: Option<String>,
}

impl BuildOptions {
    /// Adds a `--set` override from `name=value`.
    ///
    /// Errors: text without `=` or with an empty name.
    pub fn set(&mut self, assignment: &str) -> Result<(), FileError> {
        match assignment.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => {
                self.overrides
                    .push((name.trim().to_string(), value.trim().to_string()));
                Ok(())
            }
            _ => Err(FileError::new(
                vars::command_line(),
                assignment,
                "expected `--set name=value`",
            )),
        }
    }
}

/// A flowgraph built from a file, and what running it needs.
pub struct Built {
    /// The graph, ready to start.
    pub flowgraph: Flowgraph,
    /// The scheduler the file (or the command line) asks for.
    pub scheduler: SchedulerPlan,
    /// Every registry block, in file order (hierarchical blocks' inner
    /// blocks named `outer/inner`).
    pub blocks: Vec<BuiltBlock>,
    /// Every connection, ports resolved.
    pub edges: Vec<BuiltEdge>,
    /// Blocks with stream inputs and no stream outputs: the ones whose
    /// rate a status line shows.
    pub sinks: Vec<String>,
    /// Sources that end, with their size: for a progress bar.
    pub sources: Vec<FiniteSource>,
    /// Settable variables and the block settings they reach.
    pub settable: Vec<SettableVariable>,
    /// Changes settable variables while the graph runs (see
    /// [`Controller`]).
    pub control: Controller,
    /// What the graph's `msgpair_to_var` blocks ask to set: drained
    /// into [`control`](Self::control) while running
    /// ([`VariableRequests::apply`](crate::var_requests::VariableRequests::apply)).
    pub variable_requests: crate::var_requests::VariableRequests,
    /// The variables that poll a block's reading or parameter: polled
    /// into [`control`](Self::control) while running
    /// ([`VariableProbes::poll`](crate::var_probes::VariableProbes::poll)).
    pub variable_probes: crate::var_probes::VariableProbes,
    /// The top document's variables, evaluated, in file order.
    pub variables: Vec<(String, crate::expr::Value)>,
    /// The flowgraph's title.
    pub title: Option<String>,
    /// One-line notices (options the runtime cannot apply, GUI sinks
    /// replaced).
    pub notices: Vec<String>,
    /// The ports a hierarchical block's definition exposes (`stream
    /// input in -> block.port`); empty for a flowgraph, which runs. Only
    /// `check` builds a definition: it runs inside other flowgraphs.
    pub exposed: Vec<String>,
}

/// Reads the flowgraph file at `path`: `.grc` files through
/// [`crate::grc`]-style import (see [`load_document`]), anything else as
/// TOML.
///
/// Errors: as [`load_document`].
pub fn load_document(path: &Path, registry: &Registry) -> Result<Document, FileError> {
    if path.extension().is_some_and(|e| e == "grc") {
        return grc_hook(path, registry);
    }
    crate::toml::load(path)
}

/// The `.grc` import entry point: [`crate::grc::load`], its error in the
/// shape of every file error.
fn grc_hook(path: &Path, registry: &Registry) -> Result<Document, FileError> {
    crate::grc::load(path, registry).map_err(FileError::from)
}

/// Loads and builds the flowgraph file at `path`.
///
/// Errors: any [`FileError`] of reading, evaluating, checking or
/// constructing.
pub fn build_file(
    path: &Path,
    registry: &Registry,
    options: &BuildOptions,
) -> Result<Built, FileError> {
    let doc = load_document(path, registry)?;
    build(&doc, registry, options)
}

/// Builds `doc` through `registry`.
///
/// Errors: an unknown variable, block, parameter or port (with the
/// closest name), a variable cycle, an expression that fails, a value of
/// the wrong type (expected and found named), a connection whose ends'
/// item types differ (both named), a stream cycle, an unconnected port,
/// a block constructor's refusal: each at its place in the file.
pub fn build(
    doc: &Document,
    registry: &Registry,
    options: &BuildOptions,
) -> Result<Built, FileError> {
    if doc.hosts.is_empty() {
        if let Some(host) = &options.host {
            return Err(FileError::new(
                doc.scheduler.at.clone(),
                "--host",
                format!("`--host {host}`, but the file names no hosts (`[hosts.NAME]`)"),
            ));
        }
        return build_one(doc, registry, options);
    }
    match &options.host {
        Some(host) => build_one(&crate::hosts::part(doc, host, registry)?, registry, options),
        None if options.dry_run => {
            let mut last = None;
            for host in &doc.hosts {
                last = Some(build_one(
                    &crate::hosts::part(doc, &host.name, registry)?,
                    registry,
                    options,
                )?);
            }
            Ok(last.expect("a file with hosts has one"))
        }
        None => Err(FileError::new(
            doc.hosts[0].at.clone(),
            "hosts",
            format!(
                "this flowgraph spans hosts {}: run each host's part with `--host NAME`",
                doc.hosts
                    .iter()
                    .map(|h| format!("`{}`", h.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

/// Builds `doc`, a flowgraph on one host.
fn build_one(
    doc: &Document,
    registry: &Registry,
    options: &BuildOptions,
) -> Result<Built, FileError> {
    // A hierarchical block is one of rfgraph's built-in ones, a TOML
    // file, or a GRC hierarchical block.
    let loader = |p: &Path| crate::builtin::load(p).unwrap_or_else(|| load_document(p, registry));
    let expander = expand::Expander {
        registry,
        loader: &loader,
    };
    let mut stack: Vec<PathBuf> = vec![
        doc.path
            .canonicalize()
            .unwrap_or_else(|_| (*doc.path).clone()),
    ];
    let flat = expander.expand(doc, &Default::default(), &options.overrides, "", &mut stack)?;
    construct::construct(doc, flat, options)
}
