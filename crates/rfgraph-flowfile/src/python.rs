//! Python blocks in flowgraph documents: TOML's `kind = "python"`
//! (`module = "mymod:MyBlock"`, every other key a keyword argument of the
//! class's constructor) and GNU Radio Companion's `epy_block` (the class
//! in its `_source_code`) and `epy_module` (code importable by its id).
//!
//! This crate runs no Python. It owns the declaration of the `python`
//! block ([`spec`], what `rfgraph blocks python` shows), finding the
//! Python blocks of a document ([`python_blocks`], [`needs_python`]),
//! their evaluated constructor arguments ([`declarations`]) and putting
//! in their place the registry block a Python interpreter made of them
//! ([`resolve`]). The Python package (`crates/rfgraph-python`) does the
//! instantiating, between [`declarations`] and [`resolve`].

use crate::build::vars;
use crate::expr;
use crate::model::{Document, FileError, Location, ParamValue, Value};
use rfgraph::registry::BlockSpec;
use std::collections::BTreeMap;

/// The kind of a Python block (TOML `kind = "python"`; GRC `epy_block`).
pub const BLOCK_KIND: &str = "python";
/// The kind GRC's `epy_module` becomes: code importable as its name.
pub const MODULE_KIND: &str = "python_module";
/// The parameter naming a Python block's class, `module:Class`.
pub const MODULE_PARAM: &str = "module";
/// The parameter holding the code of a GRC embedded block or module.
pub const SOURCE_PARAM: &str = "_source_code";
/// What to install to run Python blocks.
pub const INSTALL_HINT: &str = "install rfgraph's Python package (`pip install ./crates/rfgraph-python`) \
     and run the file with that Python (`python -m rfgraph run FILE`), or point \
     `RFGRAPH_PYTHON` at it";

/// The parameters of a Python block, as declared (its constructor's
/// keyword arguments come on top, undeclared).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct PythonBlockParams {
    /// the block's class, `module:Class` (the module is imported from
    /// `sys.path`, the flowgraph file's folder first); every other key
    /// of the block is a keyword argument of the class's constructor
    #[param(default = "")]
    pub module: String,
}

/// The registry entry `python`: documents the TOML `kind = "python"`.
/// Only the Python package builds such blocks, replacing each by the
/// registry block its object declares; built anywhere else, it fails
/// with what to install.
pub fn spec() -> BlockSpec {
    BlockSpec::of::<PythonBlockParams>(
        BLOCK_KIND,
        "Python",
        "A block written in Python: `module = \"mymod:MyBlock\"`, other keys its constructor's keyword arguments.",
        |_| Err(format!("a Python block needs Python: {INSTALL_HINT}").into()),
    )
    // Checking refuses it as building does (the Python package puts
    // another block in its place before either).
    .check_params(|_: &PythonBlockParams| {
        Err(rfgraph::ParamError::new(
            BLOCK_KIND,
            MODULE_PARAM,
            format!("a Python block needs Python: {INSTALL_HINT}"),
        ))
    })
    .doc(
        "A subclass of `rfgraph.SyncBlock`, `DecimBlock`, `InterpBlock` or `Block` (or of GNU \
         Radio's `gr.sync_block` and friends, through rfgraph's compatibility shim), made by \
         calling `Class(**kwargs)`: every key of the block but `kind` and `module` is a keyword \
         argument, its value evaluated like any parameter (variables, expressions; text that is \
         no expression is a string). Its ports are `in0`, `in1`, ... and `out0`, ...; message \
         ports by the names it registers. GNU Radio Companion's `epy_block` becomes one (its \
         `_source_code` holds the class) and `epy_module` becomes code importable by its id. \
         Such files run with Python: `rfgraph run` hands them to the `rfgraph` Python package \
         (`python -m rfgraph run FILE`).",
    )
}

/// The Python blocks and modules of `doc`.
pub fn python_blocks(doc: &Document) -> Vec<&crate::model::BlockInstance> {
    doc.blocks
        .iter()
        .filter(|b| b.kind == BLOCK_KIND || b.kind == MODULE_KIND)
        .collect()
}

/// When `doc` holds Python blocks: a message naming them (for a run
/// without Python), else `None`.
pub fn needs_python(doc: &Document) -> Option<String> {
    let blocks = python_blocks(doc);
    if blocks.is_empty() {
        return None;
    }
    let names: Vec<String> = blocks
        .iter()
        .map(|b| {
            let what = match b.param(MODULE_PARAM).map(|p| &p.value) {
                Some(Value::Text(m) | Value::Expr(m)) => format!(" (module {m})"),
                _ if b.kind == MODULE_KIND => " (embedded Python module)".to_string(),
                _ => " (embedded Python block)".to_string(),
            };
            format!("`{}`{what} at {}", b.name, b.at)
        })
        .collect();
    Some(format!(
        "{} holds Python blocks: {}; no usable Python with the `rfgraph` package was found: {INSTALL_HINT}",
        doc.path.display(),
        names.join(", ")
    ))
}

/// A constructor argument of a Python block.
#[derive(Clone, Debug, PartialEq)]
pub enum Argument {
    /// Evaluated by rfgraph's expression evaluator.
    Value(expr::Value),
    /// A GRC expression the evaluator cannot evaluate: Python evaluates
    /// it, with the flowgraph's variables in scope.
    Python(String),
}

/// What a Python interpreter needs to make one Python block.
#[derive(Clone, Debug, PartialEq)]
pub struct PythonBlock {
    /// The block's instance name.
    pub name: String,
    /// `module:Class` (TOML), if given.
    pub module: Option<String>,
    /// The code defining its class (GRC `epy_block`), if given.
    pub source: Option<String>,
    /// The constructor's keyword arguments, in file order.
    pub kwargs: Vec<(String, Argument)>,
    /// Where the block is written.
    pub at: Location,
}

/// An embedded module (GRC `epy_module`): `source` importable as `name`.
#[derive(Clone, Debug, PartialEq)]
pub struct PythonModule {
    /// The module's name (its GRC id).
    pub name: String,
    /// Its code.
    pub source: String,
}

/// What a Python interpreter needs to make a document's Python blocks.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarations {
    /// The embedded modules, to run first.
    pub modules: Vec<PythonModule>,
    /// The blocks.
    pub blocks: Vec<PythonBlock>,
    /// The document's variables, evaluated (the scope of
    /// [`Argument::Python`] expressions).
    pub variables: Vec<(String, expr::Value)>,
}

/// The Python modules and blocks of `doc`, each block's arguments
/// evaluated with the document's variables (`overrides`: `--set`).
///
/// Errors: a variable that fails; a TOML block without `module`.
pub fn declarations(
    doc: &Document,
    overrides: &[(String, String)],
) -> Result<Declarations, FileError> {
    let env = vars::evaluate(doc, &BTreeMap::new(), overrides)?;
    let mut modules = Vec::new();
    let mut blocks = Vec::new();
    for b in python_blocks(doc) {
        let text = |name: &str| match b.param(name).map(|p| &p.value) {
            Some(Value::Text(s) | Value::Expr(s)) => Some(s.clone()),
            _ => None,
        };
        if b.kind == MODULE_KIND {
            modules.push(PythonModule {
                name: b.name.clone(),
                source: text(SOURCE_PARAM).unwrap_or_default(),
            });
            continue;
        }
        let module = text(MODULE_PARAM).filter(|m| !m.trim().is_empty());
        let source = text(SOURCE_PARAM);
        if module.is_none() && source.is_none() {
            return Err(FileError::new(
                b.at.clone(),
                format!("blocks.{}", b.name),
                "a Python block needs `module = \"mymod:MyBlock\"`",
            ));
        }
        let mut kwargs = Vec::new();
        for p in &b.params {
            if p.name == MODULE_PARAM || p.name == SOURCE_PARAM {
                continue;
            }
            kwargs.push((p.name.clone(), argument(p, &env)?));
        }
        blocks.push(PythonBlock {
            name: b.name.clone(),
            module,
            source,
            kwargs,
            at: b.at.clone(),
        });
    }
    let variables = doc
        .variables
        .iter()
        .filter_map(|v| {
            env.get(&v.name)
                .map(|value| (v.name.clone(), value.clone()))
        })
        .collect();
    Ok(Declarations {
        modules,
        blocks,
        variables,
    })
}

/// One constructor argument: an expression evaluated when it can be
/// (GRC's, whose Python the evaluator may lack, left to Python
/// otherwise); other values as [`vars::eval_loose`] reads them.
fn argument(p: &ParamValue, env: &expr::Env) -> Result<Argument, FileError> {
    let key = format!("blocks.{}", p.name);
    match &p.value {
        Value::Expr(text) => Ok(match expr::eval(text, env) {
            Ok(v) => Argument::Value(v),
            Err(_) => Argument::Python(text.clone()),
        }),
        other => vars::eval_loose(other, env, &p.at, &key).map(Argument::Value),
    }
}

/// Puts registry block `kind` with `params` in the place of Python
/// block `name` (what its object declared).
///
/// Errors: no Python block of that name.
pub fn resolve(
    doc: &mut Document,
    name: &str,
    kind: &str,
    params: Vec<(String, Value)>,
) -> Result<(), String> {
    let block = doc
        .blocks
        .iter_mut()
        .find(|b| b.name == name && b.kind == BLOCK_KIND)
        .ok_or_else(|| format!("no Python block named `{name}`"))?;
    let at = block.at.clone();
    block.kind = kind.to_string();
    block.params = params
        .into_iter()
        .map(|(name, value)| ParamValue {
            name,
            value,
            at: at.clone(),
        })
        .collect();
    Ok(())
}

/// Drops the embedded modules of `doc` (run by then: they are no
/// blocks).
pub fn drop_modules(doc: &mut Document) {
    doc.blocks.retain(|b| b.kind != MODULE_KIND);
}
