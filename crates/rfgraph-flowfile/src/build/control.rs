//! Run-time control of settable variables: the [`Controller`] changes a
//! variable while the graph runs and carries the change to every block
//! setting it reaches.
//!
//! A variable marked settable (`{ value = 20, settable = true }`, or a GNU
//! Radio Companion range, chooser or entry variable) may be read by other
//! variables and by block parameters, directly or through other variables
//! (`constant = "10 ** (gain / 20)"`). [`Controller::set`] evaluates the
//! new value (an expression against the current variables; text that is
//! no expression is a string, as with `--set`), re-evaluates every
//! variable and block parameter that depends on it, converts each
//! parameter to its type as the builder does, and only when all of them
//! succeed posts each value to its block's setting (the message input
//! named after the parameter), waiting for the block's answer. A
//! parameter that is no setting of its block (and any parameter of a
//! hierarchical block) is listed in [`Change::deferred`]: it takes effect
//! at the next run. Nothing is posted when one value fails (all or
//! nothing); a block that refuses its value, or has finished, is listed
//! in [`Change::failed`]. [`Controller::widget`] and [`Controller::label`]
//! say how a user interface draws each variable.
//!
//! ```no_run
//! # fn demo(built: rfgraph_flowfile::build::Built) -> Result<(), Box<dyn std::error::Error>> {
//! let mut control = built.control;
//! let running = built.flowgraph.start(built.scheduler.scheduler()?)?;
//! let change = control.set(&running.handle(), "gain", "20")?;
//! eprintln!("{change}"); // gain = 20: mul.constant = 10
//! # Ok(()) }
//! ```

use super::vars::{eval_loose, eval_value, names_of};
use crate::expr::{self, Env, Expr};
use crate::model::{Document, Location, Value, VariableWidget};
use rfgraph::registry::suggest::closest;
use rfgraph::{BlockId, FlowgraphHandle, ParamType};
use std::collections::BTreeSet;
use std::fmt;
use std::time::Duration;

/// How long [`Controller::set`] waits for a block to take its value by
/// default.
pub const DEFAULT_REPLY_TIMEOUT: Duration = Duration::from_secs(2);

/// Why a change was refused. Nothing was posted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ControlError {
    /// A line that is not `name=value`.
    #[error("expected `name=value`, found `{0}`")]
    Assignment(String),
    /// No top-level variable of that name.
    #[error("no variable `{name}`{}", suggestion(.suggest))]
    UnknownVariable {
        /// The name asked for.
        name: String,
        /// The closest variable name.
        suggest: Option<String>,
    },
    /// The variable is not settable.
    #[error(
        "variable `{name}` ({at}) is not settable while the graph runs; mark it \
         `{{ value = ..., settable = true }}` or use `--set` before the run"
    )]
    NotSettable {
        /// The variable.
        name: String,
        /// Where it is defined.
        at: Location,
    },
    /// The new value, or a value depending on it, failed to evaluate or
    /// has the wrong type.
    #[error("cannot set `{variable}` to `{text}`: `{target}`: {message}")]
    Value {
        /// The variable being set.
        variable: String,
        /// The text of its new value.
        text: String,
        /// What failed: the variable itself, a dependent variable, or
        /// `block.parameter`.
        target: String,
        /// What is wrong.
        message: String,
    },
}

fn suggestion(s: &Option<String>) -> String {
    s.as_ref()
        .map(|s| format!(" (did you mean `{s}`?)"))
        .unwrap_or_default()
}

/// What a successful [`Controller::set`] changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The variable set.
    pub variable: String,
    /// Its new value.
    pub value: expr::Value,
    /// The other variables it changed, re-evaluated, in dependency order.
    pub variables: Vec<(String, expr::Value)>,
    /// `block.parameter` and the value its block took.
    pub applied: Vec<(String, expr::Value)>,
    /// `block.parameter` that are no run-time settings: they take effect at
    /// the next run.
    pub deferred: Vec<String>,
    /// `block.parameter: why` for values a block refused or could not
    /// take (it has finished).
    pub failed: Vec<String>,
}

impl fmt::Display for Change {
    /// One line: `gain = 20: mul.constant = 10; next run: head.items`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {}", self.variable, self.value)?;
        let mut parts: Vec<String> = self
            .applied
            .iter()
            .map(|(t, v)| format!("{t} = {v}"))
            .collect();
        if parts.is_empty() && self.failed.is_empty() {
            parts.push("no block setting reached".into());
        }
        f.write_str(": ")?;
        f.write_str(&parts.join(", "))?;
        if !self.deferred.is_empty() {
            write!(
                f,
                "; takes effect at the next run: {}",
                self.deferred.join(", ")
            )?;
        }
        if !self.failed.is_empty() {
            write!(f, "; failed: {}", self.failed.join("; "))?;
        }
        Ok(())
    }
}

/// How a variable is defined now.
#[derive(Clone, Debug)]
enum Definition {
    /// As written in the file.
    File(Value),
    /// Text from `--set` or an earlier [`Controller::set`].
    Text(String),
}

#[derive(Clone, Debug)]
struct Var {
    name: String,
    at: Location,
    settable: bool,
    definition: Definition,
    /// Its label for a user interface.
    label: Option<String>,
    /// How a user interface draws it.
    widget: Option<VariableWidget>,
}

impl Var {
    /// The variables' names it reads.
    fn reads(&self) -> Vec<String> {
        match &self.definition {
            Definition::File(v) => names_of(v),
            Definition::Text(t) => Expr::parse(t).map(|e| e.names()).unwrap_or_default(),
        }
    }
}

/// A parameter of a top-level block that reads variables.
#[derive(Clone, Debug)]
struct Param {
    block: String,
    id: BlockId,
    name: String,
    value: Value,
    ty: ParamType,
    at: Location,
    /// A setting of the block (a message input of that name).
    settable: bool,
    reads: Vec<String>,
}

/// A value for one block setting.
struct Post {
    /// `block.parameter`.
    target: String,
    value: expr::Value,
    id: BlockId,
    port: String,
    pmt: rfgraph::Pmt,
}

/// Changes settable variables of a running graph built from a file: each
/// change re-evaluates what depends on the variable and posts every new
/// parameter value to its block, all or nothing. Made by the builder
/// ([`Built::control`]).
///
/// [`Built::control`]: super::Built::control
#[derive(Clone, Debug)]
pub struct Controller {
    vars: Vec<Var>,
    env: Env,
    params: Vec<Param>,
    /// Parameters of hierarchical blocks: `(block, parameter, reads)`.
    nested: Vec<(String, String, Vec<String>)>,
    timeout: Duration,
}

impl Controller {
    pub(crate) fn new(
        doc: &Document,
        env: Env,
        overrides: &[(String, String)],
        blocks: &[super::expand::FlatBlock<'_>],
        ids: &[BlockId],
    ) -> Self {
        let vars = doc
            .variables
            .iter()
            .map(|v| Var {
                name: v.name.clone(),
                at: v.at.clone(),
                settable: v.settable,
                label: v.label.clone(),
                widget: v.widget.clone(),
                definition: match overrides.iter().rev().find(|(n, _)| *n == v.name) {
                    Some((_, text)) => Definition::Text(text.clone()),
                    None => Definition::File(v.value.clone()),
                },
            })
            .collect();
        let mut params = Vec::new();
        for (b, id) in blocks.iter().zip(ids) {
            // Top-level blocks only: inner blocks of hierarchical ones read
            // their own file's variables.
            let Some(inst) = doc.blocks.iter().find(|d| d.name == b.name) else {
                continue;
            };
            for (name, reads) in &b.reads {
                let (Some(p), Some(spec)) = (inst.param(name), b.spec.param_spec(name)) else {
                    continue;
                };
                params.push(Param {
                    block: b.name.clone(),
                    id: *id,
                    name: name.clone(),
                    value: p.value.clone(),
                    ty: spec.ty,
                    at: p.at.clone(),
                    settable: spec.settable,
                    reads: reads.clone(),
                });
            }
        }
        let nested = doc
            .blocks
            .iter()
            .filter(|b| b.kind.ends_with(".toml"))
            .flat_map(|b| {
                b.params
                    .iter()
                    .map(|p| (b.name.clone(), p.name.clone(), names_of(&p.value)))
            })
            .collect();
        Self {
            vars,
            env,
            params,
            nested,
            timeout: DEFAULT_REPLY_TIMEOUT,
        }
    }

    /// Waits up to `timeout` for each block to take its value (default
    /// [`DEFAULT_REPLY_TIMEOUT`]).
    pub fn reply_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The settable variables, in file order.
    pub fn settable(&self) -> Vec<&str> {
        self.vars
            .iter()
            .filter(|v| v.settable)
            .map(|v| v.name.as_str())
            .collect()
    }

    /// How a user interface draws variable `name` (a GUI variable's
    /// widget, see [`VariableWidget::to_json`]), if it has one.
    pub fn widget(&self, name: &str) -> Option<&VariableWidget> {
        self.var(name)?.widget.as_ref()
    }

    /// Variable `name`'s label for a user interface, if it has one.
    pub fn label(&self, name: &str) -> Option<&str> {
        self.var(name)?.label.as_deref()
    }

    fn var(&self, name: &str) -> Option<&Var> {
        self.vars.iter().find(|v| v.name == name)
    }

    /// A variable's current value.
    pub fn value(&self, name: &str) -> Option<&expr::Value> {
        self.env.get(name)
    }

    /// Applies a line `name=value` (spaces around either are ignored), as
    /// [`set`](Self::set).
    ///
    /// Errors: a line without `=` or name, and those of [`set`](Self::set).
    pub fn set_line(
        &mut self,
        handle: &FlowgraphHandle,
        line: &str,
    ) -> Result<Change, ControlError> {
        match line.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => {
                self.set(handle, name.trim(), value.trim())
            }
            _ => Err(ControlError::Assignment(line.trim().to_string())),
        }
    }

    /// Sets variable `name` to `text` (an expression of the current
    /// variables, or a string when it is none) and posts every block
    /// setting that depends on it to the running graph behind `handle`.
    ///
    /// Errors: an unknown variable (with the closest name), one that is
    /// not settable, a value (its own, a dependent variable's or a block
    /// parameter's) that fails to evaluate or has the wrong type. Nothing
    /// is posted then.
    pub fn set(
        &mut self,
        handle: &FlowgraphHandle,
        name: &str,
        text: &str,
    ) -> Result<Change, ControlError> {
        let (mut change, posts) = self.plan(name, text)?;
        for post in posts {
            match handle.call(post.id, &post.port, post.pmt, self.timeout) {
                Ok(_) => change.applied.push((post.target, post.value)),
                Err(e) => change.failed.push(format!("{}: {e}", post.target)),
            }
        }
        Ok(change)
    }

    /// Evaluates a change and commits it to the variables: the change, and
    /// the posts it needs (block, port, value). Nothing is committed on an
    /// error.
    fn plan(&mut self, name: &str, text: &str) -> Result<(Change, Vec<Post>), ControlError> {
        let Some(index) = self.vars.iter().position(|v| v.name == name) else {
            return Err(ControlError::UnknownVariable {
                name: name.to_string(),
                suggest: closest(name, self.vars.iter().map(|v| v.name.as_str()))
                    .map(str::to_string),
            });
        };
        if !self.vars[index].settable {
            return Err(ControlError::NotSettable {
                name: name.to_string(),
                at: self.vars[index].at.clone(),
            });
        }
        let fail = |target: &str, message: String| ControlError::Value {
            variable: name.to_string(),
            text: text.to_string(),
            target: target.to_string(),
            message,
        };
        let mut env = self.env.clone();
        let here = Location::file(std::sync::Arc::new("control".into()));
        let value = eval_loose(&Value::Text(text.to_string()), &env, &here, name)
            .map_err(|e| fail(name, e.message))?;
        env.set(name.to_string(), value.clone());
        let mut vars = self.vars.clone();
        vars[index].definition = Definition::Text(text.to_string());
        // The variables that depend on `name`, re-evaluated in dependency
        // order.
        let affected = dependents(&vars, name);
        let mut changed = Vec::new();
        for i in order(&vars) {
            let v = &vars[i];
            if v.name == name || !affected.contains(&v.name) {
                continue;
            }
            let key = format!("variables.{}", v.name);
            let x = match &v.definition {
                Definition::File(value) => eval_value(value, &env, &v.at, &key, true),
                Definition::Text(t) => eval_loose(&Value::Text(t.clone()), &env, &v.at, &key),
            }
            .map_err(|e| fail(&v.name, e.message))?;
            env.set(v.name.clone(), x.clone());
            changed.push((v.name.clone(), x));
        }
        let reached = |reads: &[String]| reads.iter().any(|r| affected.contains(r));
        let mut posts = Vec::new();
        let mut deferred = Vec::new();
        for p in self.params.iter().filter(|p| reached(&p.reads)) {
            let target = format!("{}.{}", p.block, p.name);
            let key = format!("blocks.{target}");
            let literal = p.ty == rfgraph::ParamType::String;
            let x = crate::lambda::param_value(&p.value, &env, &p.at, &key, literal)
                .map_err(|e| fail(&target, e.message))?;
            let pmt = x.to_pmt(p.ty).map_err(|(expected, found)| {
                fail(&target, format!("expected {expected}, found {found}"))
            })?;
            if p.settable {
                posts.push(Post {
                    target,
                    value: x,
                    id: p.id,
                    port: p.name.clone(),
                    pmt,
                });
            } else {
                deferred.push(target);
            }
        }
        for (block, param, reads) in &self.nested {
            if reached(reads) {
                deferred.push(format!("{block}.{param}"));
            }
        }
        self.env = env;
        self.vars = vars;
        Ok((
            Change {
                variable: name.to_string(),
                value,
                variables: changed,
                applied: Vec::new(),
                deferred,
                failed: Vec::new(),
            },
            posts,
        ))
    }
}

/// `name` and every variable that reads it, directly or not.
fn dependents(vars: &[Var], name: &str) -> BTreeSet<String> {
    let reads: Vec<(String, Vec<String>)> =
        vars.iter().map(|v| (v.name.clone(), v.reads())).collect();
    let mut affected = BTreeSet::from([name.to_string()]);
    loop {
        let before = affected.len();
        for (n, r) in &reads {
            if r.iter().any(|x| affected.contains(x)) {
                affected.insert(n.clone());
            }
        }
        if affected.len() == before {
            return affected;
        }
    }
}

/// Indices of `vars`, each after the variables it reads (the builder
/// refused cycles; a variable met again while visited is skipped).
fn order(vars: &[Var]) -> Vec<usize> {
    fn visit(i: usize, vars: &[Var], state: &mut [u8], out: &mut Vec<usize>) {
        if state[i] != 0 {
            return;
        }
        state[i] = 1;
        for r in vars[i].reads() {
            if let Some(j) = vars.iter().position(|v| v.name == r)
                && j != i
            {
                visit(j, vars, state, out);
            }
        }
        state[i] = 2;
        out.push(i);
    }
    let mut state = vec![0u8; vars.len()];
    let mut out = Vec::with_capacity(vars.len());
    for i in 0..vars.len() {
        visit(i, vars, &mut state, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{BuildOptions, build};
    use proptest::prelude::*;
    use std::path::PathBuf;
    use std::sync::Arc;

    const GRAPH: &str = r#"format = 1
connections = ["src -> mul -> snk"]
[variables]
gain = { value = 0, settable = true }
level = "10 ** (gain / 20)"
twice = "level * 2"
[blocks.src]
kind = "const_source"
type = "f32"
[blocks.mul]
kind = "multiply_const"
type = "f32"
constant = "twice"
[blocks.snk]
kind = "null_sink"
type = "f32"
"#;

    /// The controller of `GRAPH`, built without constructing blocks.
    fn controller() -> Controller {
        let doc = crate::toml::parse(GRAPH, Arc::new(PathBuf::from("g.toml"))).unwrap();
        let options = BuildOptions {
            dry_run: true,
            ..BuildOptions::default()
        };
        build(&doc, &crate::standard::registry(), &options)
            .unwrap()
            .control
    }

    #[test]
    fn a_change_reevaluates_dependents_in_order() {
        let mut c = controller();
        let (change, posts) = c.plan("gain", "20").unwrap();
        assert_eq!(
            change.variables,
            vec![
                ("level".to_string(), expr::Value::Float(10.0)),
                ("twice".to_string(), expr::Value::Float(20.0)),
            ]
        );
        assert_eq!(posts.len(), 1);
        assert_eq!(
            (posts[0].target.as_str(), posts[0].port.as_str()),
            ("mul.constant", "constant")
        );
        assert_eq!(posts[0].pmt, rfgraph::Pmt::F64(20.0));
        // The new value may read the current ones.
        let (change, _) = c.plan("gain", "gain - 20").unwrap();
        assert_eq!(change.value, expr::Value::Int(0));
        assert_eq!(c.value("twice"), Some(&expr::Value::Float(2.0)));
    }

    proptest! {
        /// Any text as a name or value: a change or an error, never a
        /// panic; a refused change leaves every value as it was.
        #[test]
        fn any_text_is_a_change_or_an_error(name in "gain|level|[a-z=]{0,6}", text in "\\PC{0,40}") {
            let mut c = controller();
            let before = c.env.clone();
            if c.plan(&name, &text).is_err() {
                for n in ["gain", "level", "twice"] {
                    prop_assert_eq!(c.value(n), before.get(n));
                }
            }
        }
    }
}
