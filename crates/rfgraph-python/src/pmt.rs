//! Python values ↔ [`Pmt`], for tags, messages, `Run.post`/`call` and
//! parameters.
//!
//! The mapping, both ways unless said:
//! - `None` ↔ `Null`, `bool` ↔ `Bool`, `float` ↔ `F64`, `complex` ↔
//!   `Complex`, `str` (and its subclasses, such as the `pmt` shim's
//!   symbols) ↔ `String`, `bytes` ↔ `Blob` (`bytearray` → `Blob` too);
//! - `int` → `I64`, or `U64` above `i64::MAX`; `I64` and `U64` → `int`;
//! - `numpy.float32` ↔ `F32` (other numpy scalars → their Python value);
//! - one-dimensional numpy arrays ↔ the uniform vectors: `float32` ↔
//!   `VecF32`, `complex64` ↔ `VecComplexF32`, `int8`, `uint16`, `int16`,
//!   `uint32`, `int32`, `uint64`, `int64`, `float64`, `complex128` ↔
//!   [`Uniform`]; `uint8` arrays → `Blob` (which comes back as `bytes`);
//! - `list` ↔ `List`, `tuple` ↔ `Tuple`, `dict` with `str` keys ↔ `Map`;
//! - `rfgraph.Pair(car, cdr)` (a 2-tuple subclass, GNU Radio's
//!   `pmt.cons`) ↔ `Pair`, so that a pair and a 2-tuple stay apart.
//!
//! Anything else raises `TypeError`; nesting deeper than [`MAX_DEPTH`]
//! raises `ValueError` (a self-containing list must not overflow the stack).

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyComplex, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple,
    PyType,
};
use rfgraph::Pmt;
use rfgraph::pmt::Uniform;
use std::collections::BTreeMap;

/// The deepest nesting of lists, tuples, dicts and pairs mapped.
pub const MAX_DEPTH: usize = 64;

/// `rfgraph.Pair`, looked up once.
static PAIR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `numpy.ndarray`, looked up once.
static NDARRAY: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `numpy.generic` (every numpy scalar), looked up once.
static NP_SCALAR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// A Python value as a [`Pmt`] (see the module's mapping).
pub fn to_pmt(value: &Bound<'_, PyAny>) -> PyResult<Pmt> {
    to_pmt_at(value, 0)
}

/// A [`Pmt`] as a Python value (see the module's mapping).
pub fn from_pmt<'py>(py: Python<'py>, pmt: &Pmt) -> PyResult<Bound<'py, PyAny>> {
    Ok(match pmt {
        Pmt::Null => py.None().into_bound(py),
        Pmt::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Pmt::I64(v) => v.into_pyobject(py)?.into_any(),
        Pmt::U64(v) => v.into_pyobject(py)?.into_any(),
        Pmt::F32(v) => py.import("numpy")?.getattr("float32")?.call1((*v,))?,
        Pmt::F64(v) => PyFloat::new(py, *v).into_any(),
        Pmt::Complex([re, im]) => PyComplex::from_doubles(py, *re, *im).into_any(),
        Pmt::String(s) => PyString::new(py, s).into_any(),
        Pmt::Blob(b) => PyBytes::new(py, b).into_any(),
        Pmt::VecF32(v) => array(py, bytemuck::cast_slice(v), "float32")?,
        Pmt::VecComplexF32(v) => array(py, bytemuck::cast_slice(v), "complex64")?,
        Pmt::Uniform(u) => uniform_array(py, u)?,
        Pmt::List(items) => PyList::new(py, values(py, items)?)?.into_any(),
        Pmt::Tuple(items) => PyTuple::new(py, values(py, items)?)?.into_any(),
        Pmt::Pair(pair) => {
            let pair_type = PAIR.import(py, "rfgraph", "Pair")?;
            pair_type.call1((from_pmt(py, &pair.0)?, from_pmt(py, &pair.1)?))?
        }
        Pmt::Map(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, from_pmt(py, v)?)?;
            }
            dict.into_any()
        }
    })
}

/// Each of `items` as a Python value.
fn values<'py>(py: Python<'py>, items: &[Pmt]) -> PyResult<Vec<Bound<'py, PyAny>>> {
    items.iter().map(|p| from_pmt(py, p)).collect()
}

/// A new (writable) numpy array of `dtype` holding `bytes`.
fn array<'py>(py: Python<'py>, bytes: &[u8], dtype: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("numpy")?
        .getattr("frombuffer")?
        .call1((PyBytes::new(py, bytes), dtype))?
        .call_method0("copy")
}

/// A [`Uniform`] vector as a numpy array.
fn uniform_array<'py>(py: Python<'py>, u: &Uniform) -> PyResult<Bound<'py, PyAny>> {
    let (bytes, dtype): (&[u8], &str) = match u {
        Uniform::I8(v) => (bytemuck::cast_slice(v), "int8"),
        Uniform::U16(v) => (bytemuck::cast_slice(v), "uint16"),
        Uniform::I16(v) => (bytemuck::cast_slice(v), "int16"),
        Uniform::U32(v) => (bytemuck::cast_slice(v), "uint32"),
        Uniform::I32(v) => (bytemuck::cast_slice(v), "int32"),
        Uniform::U64(v) => (bytemuck::cast_slice(v), "uint64"),
        Uniform::I64(v) => (bytemuck::cast_slice(v), "int64"),
        Uniform::F64(v) => (bytemuck::cast_slice(v), "float64"),
        Uniform::C64(v) => (bytemuck::cast_slice(v), "complex128"),
    };
    array(py, bytes, dtype)
}

fn to_pmt_at(value: &Bound<'_, PyAny>, depth: usize) -> PyResult<Pmt> {
    let py = value.py();
    if depth > MAX_DEPTH {
        return Err(PyValueError::new_err(format!(
            "a value nested deeper than {MAX_DEPTH} levels"
        )));
    }
    if value.is_none() {
        return Ok(Pmt::Null);
    }
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(Pmt::Bool(b.is_true()));
    }
    if value.is_instance_of::<PyInt>() {
        if let Ok(v) = value.extract::<i64>() {
            return Ok(Pmt::I64(v));
        }
        return value
            .extract::<u64>()
            .map(Pmt::U64)
            .map_err(|_| PyOverflowError::new_err("an int outside -2**63 .. 2**64-1"));
    }
    if let Ok(f) = value.cast::<PyFloat>() {
        return Ok(Pmt::F64(f.value()));
    }
    if let Ok(c) = value.cast::<PyComplex>() {
        return Ok(Pmt::Complex([c.real(), c.imag()]));
    }
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(Pmt::String(s.to_cow()?.into_owned()));
    }
    if let Ok(b) = value.cast::<PyBytes>() {
        return Ok(Pmt::Blob(b.as_bytes().to_vec()));
    }
    if let Ok(b) = value.cast::<PyByteArray>() {
        return Ok(Pmt::Blob(b.to_vec()));
    }
    if let Ok(list) = value.cast::<PyList>() {
        return Ok(Pmt::List(items_of(list.iter(), depth)?));
    }
    if let Ok(tuple) = value.cast::<PyTuple>() {
        if value.is_instance(PAIR.import(py, "rfgraph", "Pair")?)? && tuple.len() == 2 {
            let car = to_pmt_at(&tuple.get_item(0)?, depth + 1)?;
            let cdr = to_pmt_at(&tuple.get_item(1)?, depth + 1)?;
            return Ok(Pmt::pair(car, cdr));
        }
        return Ok(Pmt::Tuple(items_of(tuple.iter(), depth)?));
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        let mut map = BTreeMap::new();
        for (k, v) in dict.iter() {
            let key = k.cast::<PyString>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "a dict key must be a str to map to a Pmt map, not {}",
                    type_name(&k)
                ))
            })?;
            map.insert(key.to_cow()?.into_owned(), to_pmt_at(&v, depth + 1)?);
        }
        return Ok(Pmt::Map(map));
    }
    if let Ok(ndarray) = NDARRAY.import(py, "numpy", "ndarray")
        && value.is_instance(ndarray)?
    {
        return numpy_array(value);
    }
    if let Ok(scalar) = NP_SCALAR.import(py, "numpy", "generic")
        && value.is_instance(scalar)?
    {
        let dtype = value.getattr("dtype")?;
        if dtype.getattr("kind")?.extract::<String>()? == "f"
            && dtype.getattr("itemsize")?.extract::<usize>()? == 4
        {
            return Ok(Pmt::F32(value.extract::<f32>()?));
        }
        return to_pmt_at(&value.call_method0("item")?, depth + 1);
    }
    Err(PyTypeError::new_err(format!(
        "no Pmt for a value of type {}",
        type_name(value)
    )))
}

/// The items of a list or tuple, each mapped.
fn items_of<'py>(
    items: impl Iterator<Item = Bound<'py, PyAny>>,
    depth: usize,
) -> PyResult<Vec<Pmt>> {
    items.map(|v| to_pmt_at(&v, depth + 1)).collect()
}

/// The name of `value`'s type, for errors.
fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// A one-dimensional numpy array as a vector [`Pmt`].
fn numpy_array(value: &Bound<'_, PyAny>) -> PyResult<Pmt> {
    let ndim: usize = value.getattr("ndim")?.extract()?;
    if ndim != 1 {
        return Err(PyValueError::new_err(format!(
            "only one-dimensional numpy arrays map to a Pmt vector, not {ndim}-dimensional ones"
        )));
    }
    let dtype = value.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    let size: usize = dtype.getattr("itemsize")?.extract()?;
    // Native byte order and contiguous, then the raw bytes.
    let native = dtype.call_method1("newbyteorder", ("=",))?;
    let raw = value
        .call_method1("astype", (native,))?
        .call_method0("tobytes")?;
    let bytes = raw.cast::<PyBytes>()?.as_bytes();
    Ok(match (kind.as_str(), size) {
        ("u", 1) => Pmt::Blob(bytes.to_vec()),
        ("f", 4) => Pmt::VecF32(cast(bytes)),
        ("c", 8) => Pmt::VecComplexF32(cast(bytes)),
        ("i", 1) => Pmt::Uniform(Uniform::I8(cast(bytes))),
        ("u", 2) => Pmt::Uniform(Uniform::U16(cast(bytes))),
        ("i", 2) => Pmt::Uniform(Uniform::I16(cast(bytes))),
        ("u", 4) => Pmt::Uniform(Uniform::U32(cast(bytes))),
        ("i", 4) => Pmt::Uniform(Uniform::I32(cast(bytes))),
        ("u", 8) => Pmt::Uniform(Uniform::U64(cast(bytes))),
        ("i", 8) => Pmt::Uniform(Uniform::I64(cast(bytes))),
        ("f", 8) => Pmt::Uniform(Uniform::F64(cast(bytes))),
        ("c", 16) => Pmt::Uniform(Uniform::C64(cast(bytes))),
        _ => {
            return Err(PyTypeError::new_err(format!(
                "no Pmt vector for numpy dtype {}",
                dtype.str()?
            )));
        }
    })
}

/// `bytes` (whole elements, native order) copied into an aligned `Vec<T>`.
fn cast<T: bytemuck::Pod>(bytes: &[u8]) -> Vec<T> {
    let mut out = vec![T::zeroed(); bytes.len() / size_of::<T>()];
    bytemuck::cast_slice_mut::<T, u8>(&mut out).copy_from_slice(bytes);
    out
}

/// `value` mapped to a `Pmt` and back: for tests of the mapping.
#[pyfunction]
pub fn pmt_round_trip<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    from_pmt(value.py(), &to_pmt(value)?)
}

/// `value`'s `Pmt` as its tagged JSON (`{"type": "f64", "value": 1.0}`):
/// for tests and debugging of the mapping.
#[pyfunction]
pub fn pmt_json(value: &Bound<'_, PyAny>) -> PyResult<String> {
    serde_json::to_string(&to_pmt(value)?).map_err(|e| PyValueError::new_err(e.to_string()))
}
