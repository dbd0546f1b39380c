//! Python sync blocks (`rfgraph.SyncBlock`, GNU Radio's `gr.sync_block`
//! convention): `python_sync`, a registry block of this package only,
//! runs a Python object's `work` on zero-copy views of its ring buffers.
//!
//! The Python object is stashed under a slot number ([`stash_object`];
//! the Python `Flowgraph` owns the slot). Each `work` call takes the GIL
//! only around the Python call; the views are `memoryview`s straight onto
//! the buffers, valid only during that call. A Python exception fails
//! the block, and with it the run, with the traceback in the error.

use crate::slots::Slots;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyList;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Item, Ports, StreamInput, StreamOutput, WorkIo};
use std::os::raw::c_char;

/// CPython's `PyBUF_READ` and `PyBUF_WRITE` (`memoryobject.h`; part of
/// the stable ABI, not exported by pyo3's limited-API bindings).
const PYBUF_READ: std::os::raw::c_int = 0x100;
const PYBUF_WRITE: std::os::raw::c_int = 0x200;

/// The most stream ports on each side of a Python block.
const MAX_PY_PORTS: usize = 16;
const IN_NAMES: [&str; MAX_PY_PORTS] = [
    "in0", "in1", "in2", "in3", "in4", "in5", "in6", "in7", "in8", "in9", "in10", "in11", "in12",
    "in13", "in14", "in15",
];
const OUT_NAMES: [&str; MAX_PY_PORTS] = [
    "out0", "out1", "out2", "out3", "out4", "out5", "out6", "out7", "out8", "out9", "out10",
    "out11", "out12", "out13", "out14", "out15",
];

/// The stashed Python blocks.
static OBJECTS: Slots<Py<PyAny>> = Slots::new();

/// Keeps `block` (a `rfgraph.SyncBlock`) for `python_sync`; returns its
/// slot number.
#[pyfunction]
pub fn stash_object(block: Py<PyAny>) -> u64 {
    OBJECTS.insert(block)
}

/// Frees a slot [`stash_object`] returned.
#[pyfunction]
pub fn unstash_object(slot: u64) {
    OBJECTS.remove(slot);
}

/// The parameters of `python_sync`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct PythonSyncParams {
    /// the block object's slot (from `Flowgraph.add`)
    pub slot: u64,
    /// input item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// output item type
    #[param(kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub output_type: ItemKind,
    /// number of inputs
    #[param(default = 1, min = 0, max = 16)]
    pub ninputs: usize,
    /// number of outputs
    #[param(default = 1, min = 0, max = 16)]
    pub noutputs: usize,
}

/// A Python object's `work` as a 1:1 block from `I` items to `O` items.
struct PySync<I: Item, O: Item> {
    inputs: Vec<StreamInput<I>>,
    outputs: Vec<StreamOutput<O>>,
    object: Py<PyAny>,
}

impl<I: Item, O: Item> PySync<I, O> {
    fn new(p: &PythonSyncParams) -> Result<Self, BoxError> {
        let object = Python::attach(|py| OBJECTS.with(p.slot, |o| o.clone_ref(py)))
            .ok_or_else(|| format!("no Python block in slot {}", p.slot))?;
        Ok(Self {
            inputs: IN_NAMES[..p.ninputs.min(MAX_PY_PORTS)]
                .iter()
                .map(|n| StreamInput::new(n))
                .collect(),
            outputs: OUT_NAMES[..p.noutputs.min(MAX_PY_PORTS)]
                .iter()
                .map(|n| StreamOutput::new(n))
                .collect(),
            object,
        })
    }
}

/// A `memoryview` of `len` bytes at `ptr` (`flags`: read or write).
///
/// # Safety
/// `ptr..ptr+len` must stay valid (and, for a writable view, not be
/// read or written by anything else) for as long as Python uses the view.
unsafe fn view<'py>(
    py: Python<'py>,
    ptr: *mut u8,
    len: usize,
    flags: std::os::raw::c_int,
) -> PyResult<Bound<'py, PyAny>> {
    let len = ffi::Py_ssize_t::try_from(len)
        .map_err(|_| pyo3::exceptions::PyOverflowError::new_err("buffer too large"))?;
    // SAFETY: the caller keeps the memory valid while the view is used;
    // PyMemoryView_FromMemory returns a new reference or null with an
    // exception set, which from_owned_ptr_or_err turns into an error.
    unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            ffi::PyMemoryView_FromMemory(ptr.cast::<c_char>(), len, flags),
        )
    }
}

/// A Python error as text: the traceback, then the exception.
fn describe(py: Python<'_>, e: &PyErr) -> String {
    let traceback = e
        .traceback(py)
        .and_then(|t| t.format().ok())
        .unwrap_or_default();
    format!("Python block failed:\n{traceback}{e}")
}

impl<I: Item, O: Item> Block for PySync<I, O> {
    fn ports(&mut self) -> Ports<'_> {
        let mut ports = Ports::new();
        for input in &mut self.inputs {
            ports = ports.input(input);
        }
        for output in &mut self.outputs {
            ports = ports.output(output);
        }
        ports
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let mut n = usize::MAX;
        for input in &mut self.inputs {
            n = n.min(input.available());
        }
        for output in &mut self.outputs {
            n = n.min(output.free());
        }
        if n == 0 || n == usize::MAX {
            return Ok(());
        }
        let Self {
            inputs,
            outputs,
            object,
        } = self;
        let produced = crate::gil::attach(|py| {
            let mut call = || -> PyResult<usize> {
                let mut views = Vec::with_capacity(inputs.len() + outputs.len());
                for input in inputs.iter_mut() {
                    let s = &input.slice()[..n];
                    // SAFETY: the view covers `n` readable items of the
                    // input's ring buffer, which stay in place and unchanged
                    // until `consume` below; the views are released (and a
                    // kept one refused) before this closure returns.
                    let v = unsafe { view(py, s.as_ptr() as *mut u8, size_of_val(s), PYBUF_READ)? };
                    views.push(v);
                }
                for output in outputs.iter_mut() {
                    let s = &mut output.slice()[..n];
                    // SAFETY: the view covers `n` free items of the output's
                    // ring buffer, which only this block writes until
                    // `produce` below; released as the input views are.
                    let v = unsafe {
                        view(py, s.as_mut_ptr().cast::<u8>(), size_of_val(s), PYBUF_WRITE)?
                    };
                    views.push(v);
                }
                let (ins, outs) = views.split_at(inputs.len());
                let result = object
                    .bind(py)
                    .call_method1(
                        pyo3::intern!(py, "_rfgraph_work"),
                        (PyList::new(py, ins)?, PyList::new(py, outs)?),
                    )
                    .and_then(|r| r.extract::<usize>());
                // The package's shim refuses a `work` that kept an array
                // of a view (see `SyncBlock._rfgraph_work`), so that Python
                // never reads memory the ring reuses; `release` then ends
                // each view itself.
                for v in &views {
                    // An error here would only hide the call's own.
                    let _ = v.call_method0("release");
                }
                let produced = result?;
                Ok(produced)
            };
            call().map_err(|e| describe(py, &e))
        })?;
        if produced > n {
            return Err(
                format!("work returned {produced}, more than the {n} items it was given").into(),
            );
        }
        for input in inputs {
            input.consume(produced);
        }
        for output in outputs {
            output.produce(produced);
        }
        Ok(())
    }
}

/// Builds a `PySync` for the output kind of `p`, with input type `I`.
fn with_output<I: Item>(p: &PythonSyncParams) -> Result<Box<dyn Block>, BoxError> {
    rfgraph_blocks::for_any_item!(kind = p.output_type, O => PySync::<I, O>::new(p)?)
}

/// The registry entry: `python_sync`.
pub fn spec() -> BlockSpec {
    BlockSpec::of::<PythonSyncParams>(
        "python_sync",
        "Python",
        "A Python 1:1 block (rfgraph.SyncBlock).",
        |p| {
            let block: Result<Box<dyn Block>, BoxError> = match p.item {
                ItemKind::F32 => with_output::<f32>(&p),
                ItemKind::C32 => with_output::<num_complex::Complex32>(&p),
                ItemKind::F64 => with_output::<f64>(&p),
                ItemKind::I32 => with_output::<i32>(&p),
                ItemKind::I16 => with_output::<i16>(&p),
                ItemKind::I8 => with_output::<i8>(&p),
                ItemKind::U8 => with_output::<u8>(&p),
            };
            block
        },
    )
    .input(PortSpec::new("in", PortItem::OfType).repeated("ninputs"))
    .output(PortSpec::new("out", PortItem::OfParam("output_type")).repeated("noutputs"))
}
