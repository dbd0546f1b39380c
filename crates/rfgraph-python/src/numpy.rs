//! numpy arrays in and out of a flowgraph, whole slices at a time.
//!
//! In: `numpy_source`, a registry block of this package only, plays the
//! bytes of an array stashed under a slot number ([`stash`]; the Python
//! `VectorSource` owns the slot and frees it). Out: a `vector_sink` of
//! the standard registry, whose items [`sink_bytes`] copies out of the
//! finished flowgraph.

use crate::slots::Slots;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{BlockId, Finished};
use rfgraph_blocks::{VectorSink, VectorSource};

/// The stashed arrays' bytes.
static ARRAYS: Slots<Vec<u8>> = Slots::new();

/// Keeps a copy of `data` (an array's bytes) for `numpy_source`; returns
/// its slot number.
#[pyfunction]
pub fn stash(data: &[u8]) -> u64 {
    ARRAYS.insert(data.to_vec())
}

/// Frees a slot [`stash`] returned.
#[pyfunction]
pub fn unstash(slot: u64) {
    ARRAYS.remove(slot);
}

/// The parameters of `numpy_source`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct NumpySourceParams {
    /// the array's slot (from `rfgraph.VectorSource`)
    pub slot: u64,
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
}

/// The items of the array in `slot`, as `T`.
fn items<T: bytemuck::Pod>(slot: u64) -> Result<Vec<T>, rfgraph::BoxError> {
    ARRAYS
        .with(slot, |bytes| {
            if bytes.len() % size_of::<T>() != 0 {
                return Err(format!(
                    "{} bytes are not a whole number of {}-byte items",
                    bytes.len(),
                    size_of::<T>()
                )
                .into());
            }
            // Copied into a `Vec<T>` (aligned for `T`), not cast in place:
            // the stashed bytes are only byte-aligned.
            let mut out = vec![T::zeroed(); bytes.len() / size_of::<T>()];
            bytemuck::cast_slice_mut::<T, u8>(&mut out).copy_from_slice(bytes);
            Ok(out)
        })
        .unwrap_or_else(|| {
            Err(format!("no array in slot {slot} (its VectorSource was freed)").into())
        })
}

/// The registry entry: `numpy_source`.
pub fn source_spec() -> BlockSpec {
    BlockSpec::of::<NumpySourceParams>(
        "numpy_source",
        "Sources",
        "Plays a numpy array once (rfgraph.VectorSource).",
        |p| {
            rfgraph_blocks::for_any_item!(kind = p.item, T => VectorSource::<T>::new(items::<T>(p.slot)?))
        },
    )
    .output(PortSpec::new("out", PortItem::OfType))
}

/// The items a finished `vector_sink` of item type `kind` received, as
/// bytes (`None` when block `id` is no such sink).
pub fn sink_bytes(finished: &Finished, id: BlockId, kind: &str) -> PyResult<Option<Vec<u8>>> {
    fn take<T: bytemuck::Pod + rfgraph::Item>(f: &Finished, id: BlockId) -> Option<Vec<u8>> {
        f.block::<VectorSink<T>>(id)
            .map(|s| bytemuck::cast_slice(s.items()).to_vec())
    }
    Ok(match kind {
        "f32" => take::<f32>(finished, id),
        "c32" => take::<num_complex::Complex32>(finished, id),
        "f64" => take::<f64>(finished, id),
        "i32" => take::<i32>(finished, id),
        "i16" => take::<i16>(finished, id),
        "i8" => take::<i8>(finished, id),
        "u8" => take::<u8>(finished, id),
        other => return Err(PyValueError::new_err(format!("no item type `{other}`"))),
    })
}
