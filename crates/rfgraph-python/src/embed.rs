//! Flowgraph files with Python blocks (TOML `kind = "python"`, GRC
//! `epy_block` / `epy_module`): [`FileDocument`] is a file read into its
//! document, whose Python blocks the package's pure-Python side
//! (`rfgraph/_embed.py`) makes, with the GIL, from
//! [`FileDocument::declarations`], then puts in place with
//! [`FileDocument::resolve`] before the document is built and started
//! like any other (see `rfgraph_flowfile::python`).

use crate::run::{Cores, Run, file_error, options, registry, start};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyComplex, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use rfgraph_flowfile::build::{build, load_document};
use rfgraph_flowfile::expr;
use rfgraph_flowfile::model::{Document, Value};
use rfgraph_flowfile::python::{self, Argument};
use std::path::Path;

/// A flowgraph file read into its document.
#[pyclass(module = "rfgraph._rfgraph")]
pub struct FileDocument {
    doc: Document,
}

/// Reads the flowgraph file at `path` (`.toml` or `.grc`) without
/// building it.
///
/// Raises `ValueError` with the file's error.
#[pyfunction]
pub fn read_file(path: &str) -> PyResult<FileDocument> {
    let doc = load_document(Path::new(path), &registry()).map_err(file_error)?;
    Ok(FileDocument { doc })
}

/// An expression value as a Python value (`None` for what has none:
/// message values, GNU Radio objects, functions).
fn to_py<'py>(py: Python<'py>, v: &expr::Value) -> PyResult<Option<Bound<'py, PyAny>>> {
    Ok(Some(match v {
        expr::Value::None => py.None().into_bound(py),
        expr::Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        expr::Value::Int(i) => i.into_pyobject(py)?.into_any(),
        expr::Value::Float(f) => PyFloat::new(py, *f).into_any(),
        expr::Value::Complex(c) => PyComplex::from_doubles(py, c.re, c.im).into_any(),
        expr::Value::Str(s) => PyString::new(py, s).into_any(),
        expr::Value::List(items) => {
            let mut out = Vec::with_capacity(items.len());
            for i in items {
                match to_py(py, i)? {
                    Some(o) => out.push(o),
                    None => return Ok(None),
                }
            }
            PyList::new(py, out)?.into_any()
        }
        expr::Value::Dict(pairs) => {
            let d = PyDict::new(py);
            for (k, v) in pairs {
                match (to_py(py, k)?, to_py(py, v)?) {
                    (Some(k), Some(v)) => d.set_item(k, v)?,
                    _ => return Ok(None),
                }
            }
            d.into_any()
        }
        expr::Value::Pmt(_) | expr::Value::Object(_) | expr::Value::Function(_) => {
            return Ok(None);
        }
    }))
}

/// A declared parameter's Python value as a file value.
fn from_py(name: &str, v: &Bound<'_, PyAny>) -> PyResult<Value> {
    if v.is_instance_of::<PyBool>() {
        return Ok(Value::Bool(v.extract()?));
    }
    if v.is_instance_of::<PyInt>() {
        return Ok(Value::Int(v.extract()?));
    }
    if v.is_instance_of::<PyFloat>() {
        return Ok(Value::Float(v.extract()?));
    }
    if v.is_instance_of::<PyString>() {
        return Ok(Value::Text(v.extract()?));
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        let items: Vec<Bound<'_, PyAny>> = v.extract()?;
        return items
            .iter()
            .map(|i| {
                // Text in a list is an expression to the builder: a
                // string goes as its Python literal (message port names).
                if i.is_instance_of::<PyString>() {
                    Ok(Value::Expr(i.repr()?.extract()?))
                } else {
                    from_py(name, i)
                }
            })
            .collect::<PyResult<_>>()
            .map(Value::List);
    }
    Err(PyTypeError::new_err(format!(
        "declared parameter `{name}`: unsupported value {}",
        v.repr().map(|r| r.to_string()).unwrap_or_default()
    )))
}

/// One Python block's declaration as a tuple: `(name, module, source,
/// kwargs, at)`; each keyword argument `(key, value, expression)`, the
/// value `None` when `expression` (Python text) must be evaluated.
type Declared<'py> = (
    String,
    Option<String>,
    Option<String>,
    Vec<(String, Bound<'py, PyAny>, Option<String>)>,
    String,
);

#[pymethods]
impl FileDocument {
    /// The file's Python declarations: `(modules, blocks, variables)`,
    /// modules `(name, source)`, blocks as [`Declared`], variables a dict
    /// of the ones with a Python value. `overrides`: `--set` pairs.
    ///
    /// Raises `ValueError` for a variable that fails.
    #[pyo3(signature = (overrides=Vec::new()))]
    #[allow(clippy::type_complexity)]
    fn declarations<'py>(
        &self,
        py: Python<'py>,
        overrides: Vec<(String, String)>,
    ) -> PyResult<(
        Vec<(String, String)>,
        Vec<Declared<'py>>,
        Bound<'py, PyDict>,
    )> {
        let d = python::declarations(&self.doc, &overrides).map_err(file_error)?;
        let modules = d.modules.into_iter().map(|m| (m.name, m.source)).collect();
        let mut blocks = Vec::new();
        for b in d.blocks {
            let mut kwargs = Vec::new();
            for (key, arg) in &b.kwargs {
                let (value, text) = match arg {
                    Argument::Value(v) => match to_py(py, v)? {
                        Some(o) => (o, None),
                        None => {
                            return Err(PyValueError::new_err(format!(
                                "{}: argument `{key}` of Python block `{}`: a {} cannot be passed to Python",
                                b.at,
                                b.name,
                                v.type_name()
                            )));
                        }
                    },
                    Argument::Python(t) => (py.None().into_bound(py), Some(t.clone())),
                };
                kwargs.push((key.clone(), value, text));
            }
            blocks.push((b.name, b.module, b.source, kwargs, b.at.to_string()));
        }
        let variables = PyDict::new(py);
        for (name, v) in &d.variables {
            if let Some(o) = to_py(py, v)? {
                variables.set_item(name, o)?;
            }
        }
        Ok((modules, blocks, variables))
    }

    /// Puts registry block `kind` with `params` (a dict of plain values)
    /// in the place of Python block `name`.
    ///
    /// Raises `ValueError` for no such block, `TypeError` for a value
    /// a file cannot hold.
    fn resolve(&mut self, name: &str, kind: &str, params: &Bound<'_, PyDict>) -> PyResult<()> {
        let mut values = Vec::new();
        for (k, v) in params.iter() {
            let k: String = k.extract()?;
            values.push((k.clone(), from_py(&k, &v)?));
        }
        python::resolve(&mut self.doc, name, kind, values).map_err(PyValueError::new_err)
    }

    /// Drops the embedded modules (once run).
    fn drop_modules(&mut self) {
        python::drop_modules(&mut self.doc);
    }

    /// Checks the document without constructing a block.
    ///
    /// Raises `ValueError` with the builder's message.
    #[pyo3(signature = (overrides=Vec::new()))]
    fn check(&self, overrides: Vec<(String, String)>) -> PyResult<()> {
        let mut o = options(None, None, true);
        o.overrides = overrides;
        build(&self.doc, &registry(), &o).map_err(file_error)?;
        Ok(())
    }

    /// Builds the document and starts it.
    ///
    /// Raises `ValueError` for a build error, `RuntimeError` for a start
    /// error.
    #[pyo3(signature = (scheduler=None, cores=None, overrides=Vec::new()))]
    fn start(
        &self,
        scheduler: Option<String>,
        cores: Option<Cores>,
        overrides: Vec<(String, String)>,
    ) -> PyResult<Run> {
        let mut o = options(scheduler, Cores::count(&cores), false);
        o.overrides = overrides;
        let built = build(&self.doc, &registry(), &o).map_err(file_error)?;
        start(built, cores)
    }
}
