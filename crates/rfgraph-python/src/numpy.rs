//! numpy arrays in and out of a flowgraph, whole slices at a time.
//!
//! In: `numpy_source`, a registry block of this package only, plays the
//! bytes of an array stashed under a slot number ([`stash`]; the Python
//! `VectorSource` owns the slot and frees it), with its tags. Out: a
//! `vector_sink` of the standard registry, whose items and tags
//! [`sink_contents`] copies out of the finished flowgraph.

use crate::slots::Slots;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{BlockId, Finished, Tag};
use rfgraph_blocks::{VectorSink, VectorSource};

/// The stashed arrays' bytes and tags.
static ARRAYS: Slots<(Vec<u8>, Vec<Tag>)> = Slots::new();

/// Keeps a copy of `data` (an array's bytes) and `tags` (`(offset, key,
/// value)` each, the offset an item index of the array, the value mapped
/// to a `Pmt`) for `numpy_source`; returns its slot number.
#[pyfunction]
#[pyo3(signature = (data, tags=None))]
pub fn stash(data: &[u8], tags: Option<Vec<(u64, String, Bound<'_, PyAny>)>>) -> PyResult<u64> {
    let tags = tags
        .unwrap_or_default()
        .into_iter()
        .map(|(offset, key, value)| Ok(Tag::new(offset, key, crate::pmt::to_pmt(&value)?)))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(ARRAYS.insert((data.to_vec(), tags)))
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

/// The items of the array in `slot`, as `T`, and its tags.
fn items<T: bytemuck::Pod>(slot: u64) -> Result<(Vec<T>, Vec<Tag>), rfgraph::BoxError> {
    ARRAYS
        .with(slot, |(bytes, tags)| {
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
            Ok((out, tags.clone()))
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
            rfgraph_blocks::for_any_item!(kind = p.item, T => {
                let (items, tags) = items::<T>(p.slot)?;
                VectorSource::<T>::new(items).with_tags(tags)
            })
        },
    )
    .output(PortSpec::new("out", PortItem::OfType))
}

/// The items (as bytes) and tags a finished `vector_sink` of item type
/// `kind` received (`None` when block `id` is no such sink).
pub fn sink_contents(
    finished: &Finished,
    id: BlockId,
    kind: &str,
) -> PyResult<Option<(Vec<u8>, Vec<Tag>)>> {
    fn take<T: bytemuck::Pod + rfgraph::Item>(
        f: &Finished,
        id: BlockId,
    ) -> Option<(Vec<u8>, Vec<Tag>)> {
        f.block::<VectorSink<T>>(id)
            .map(|s| (bytemuck::cast_slice(s.items()).to_vec(), s.tags().to_vec()))
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

/// `tags` as `(offset, key, value)` tuples.
pub fn tag_tuples<'py>(py: Python<'py>, tags: &[Tag]) -> PyResult<Vec<Bound<'py, PyTuple>>> {
    tags.iter()
        .map(|t| {
            PyTuple::new(
                py,
                [
                    t.index.into_pyobject(py)?.into_any(),
                    t.key.as_str().into_pyobject(py)?.into_any(),
                    crate::pmt::from_pmt(py, &t.value)?,
                ],
            )
        })
        .collect()
}
