//! Python blocks (`rfgraph.SyncBlock`, `DecimBlock`, `InterpBlock` and the
//! general `Block`, GNU Radio's Python gateway conventions): registry
//! blocks of this package only (`python_sync`, `python_decim`,
//! `python_interp`, `python_general`) that run a Python object's `work`
//! or `general_work` on zero-copy views of their ring buffers.
//!
//! The Python object is stashed under a slot number ([`stash_object`];
//! whoever stashed it frees it). Each call takes the GIL only around the
//! Python call; the views are `memoryview`s straight onto the buffers,
//! valid only during that call ([`view`]). A Python exception fails the
//! block, and with it the run, with the traceback in the error. The
//! block itself ([`block`]) is one type for every kind: the kind
//! ([`rate::Kind`]) only sizes the views and scales the tags.

mod block;
mod hooks;
mod messages;
mod rate;
mod tags;
mod view;

use crate::slots::Slots;
use block::PyBlock;
use pyo3::prelude::*;
use rate::Kind;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Item, Pmt};

/// The stashed Python blocks.
static OBJECTS: Slots<Py<PyAny>> = Slots::new();

/// Keeps `block` (a `rfgraph.SyncBlock`, ...) for the `python_*` blocks;
/// returns its slot number. The caller frees it ([`unstash_object`]);
/// a built block holds its own reference, so that may be right after
/// the flowgraph is built.
#[pyfunction]
pub fn stash_object(block: Py<PyAny>) -> u64 {
    OBJECTS.insert(block)
}

/// Frees a slot [`stash_object`] returned.
#[pyfunction]
pub fn unstash_object(slot: u64) {
    OBJECTS.remove(slot);
}

/// The parameters every Python block has (`python_sync`,
/// `python_general`, and within `python_decim`, `python_interp`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct PythonBlockParams {
    /// the block object's slot (from `Flowgraph.add` or `rfgraph._declare`)
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
    /// the message inputs' names (`message_port_register_in`)
    #[param(default = Pmt::List(Vec::new()))]
    pub message_inputs: Pmt,
    /// the message outputs' names (`message_port_register_out`)
    #[param(default = Pmt::List(Vec::new()))]
    pub message_outputs: Pmt,
}

/// The parameters of `python_decim`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(no_default)]
pub struct PythonDecimParams {
    /// the block's slot, types and ports
    #[param(flatten)]
    pub block: PythonBlockParams,
    /// input items per output item
    #[param(default = 1, min = 1, max = 1 << 20)]
    pub decim: usize,
}

/// The parameters of `python_interp`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(no_default)]
pub struct PythonInterpParams {
    /// the block's slot, types and ports
    #[param(flatten)]
    pub block: PythonBlockParams,
    /// output items per input item
    #[param(default = 1, min = 1, max = 1 << 20)]
    pub interp: usize,
}

/// Builds a `PyBlock` for the output kind of `p`, with input type `I`.
fn with_output<I: Item>(p: &PythonBlockParams, kind: Kind) -> Result<Box<dyn Block>, BoxError> {
    rfgraph_blocks::for_any_item!(kind = p.output_type, O => PyBlock::<I, O>::new(p, kind)?)
}

/// Builds the block of `kind` that `p` describes.
fn build(p: &PythonBlockParams, kind: Kind) -> Result<Box<dyn Block>, BoxError> {
    match p.item {
        ItemKind::F32 => with_output::<f32>(p, kind),
        ItemKind::C32 => with_output::<num_complex::Complex32>(p, kind),
        ItemKind::F64 => with_output::<f64>(p, kind),
        ItemKind::I32 => with_output::<i32>(p, kind),
        ItemKind::I16 => with_output::<i16>(p, kind),
        ItemKind::I8 => with_output::<i8>(p, kind),
        ItemKind::U8 => with_output::<u8>(p, kind),
    }
}

/// The ports every Python block declares: streams counted by
/// `ninputs`/`noutputs`, messages named by `message_inputs`/`message_outputs`.
fn ports(spec: BlockSpec) -> BlockSpec {
    spec.input(PortSpec::new("in", PortItem::OfType).repeated("ninputs"))
        .output(PortSpec::new("out", PortItem::OfParam("output_type")).repeated("noutputs"))
        .message_inputs_named_by("message_inputs")
        .message_outputs_named_by("message_outputs")
}

/// The registry entries: `python_sync`, `python_decim`, `python_interp`,
/// `python_general`.
pub fn specs() -> Vec<BlockSpec> {
    vec![
        ports(BlockSpec::of::<PythonBlockParams>(
            "python_sync",
            "Python",
            "A Python 1:1 block (rfgraph.SyncBlock).",
            |p| build(&p, Kind::Sync),
        )),
        ports(BlockSpec::of::<PythonDecimParams>(
            "python_decim",
            "Python",
            "A Python decimating block (rfgraph.DecimBlock).",
            |p| build(&p.block, Kind::Decim(p.decim)),
        )),
        ports(BlockSpec::of::<PythonInterpParams>(
            "python_interp",
            "Python",
            "A Python interpolating block (rfgraph.InterpBlock).",
            |p| build(&p.block, Kind::Interp(p.interp)),
        )),
        ports(BlockSpec::of::<PythonBlockParams>(
            "python_general",
            "Python",
            "A Python general block with its own consume/produce (rfgraph.Block).",
            |p| {
                let rate = Kind::General {
                    interpolation: 1,
                    decimation: 1,
                };
                build(&p, rate)
            },
        )),
    ]
}
