//! Stream tags between a Python block and its ports: the tags on its
//! input views as Python tuples, the tags its `add_item_tag` calls left,
//! and GNU Radio's one-to-one propagation (input `k` to output `k`),
//! which the runtime's own propagation (all to all) lacks.

use crate::pmt::to_pmt;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use rfgraph::{Item, StreamOutput, Tag};

/// The tags of each input as a list (per input) of `(offset, key,
/// value)` tuples; `None` when no input has one (the common case costs
/// no Python object).
pub fn to_python<'py>(py: Python<'py>, tags: &[Vec<Tag>]) -> PyResult<Option<Bound<'py, PyList>>> {
    if tags.iter().all(Vec::is_empty) {
        return Ok(None);
    }
    let per_input = tags
        .iter()
        .map(|tags| PyList::new(py, crate::numpy::tag_tuples(py, tags)?))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(Some(PyList::new(py, per_input)?))
}

/// A tag a Python block added: output port, absolute offset, key, value.
pub struct Added {
    port: usize,
    offset: u64,
    key: String,
    value: rfgraph::Pmt,
}

/// Reads the `(port, offset, key, value)` tuples of `added`, checking
/// the ports (values mapped now, under the GIL).
pub fn parse_added(added: &Bound<'_, PyAny>, noutputs: usize) -> PyResult<Vec<Added>> {
    let mut out = Vec::new();
    for entry in added.try_iter()? {
        let (port, offset, key, value): (usize, u64, String, Bound<'_, PyAny>) =
            entry?.extract()?;
        if port >= noutputs {
            return Err(PyValueError::new_err(format!(
                "add_item_tag: no output {port} (the block has {noutputs})"
            )));
        }
        out.push(Added {
            port,
            offset,
            key,
            value: to_pmt(&value)?,
        });
    }
    Ok(out)
}

/// Attaches `added` to `outputs`, before their items are produced.
/// Errors: a tag on an item already written.
pub fn attach<O: Item>(added: Vec<Added>, outputs: &[StreamOutput<O>]) -> Result<(), String> {
    for tag in added {
        let output = &outputs[tag.port];
        let position = output.position();
        let ahead = tag
            .offset
            .checked_sub(position)
            .and_then(|a| usize::try_from(a).ok())
            .ok_or_else(|| {
                format!(
                    "add_item_tag: offset {} on output {} is before its next item ({position}); \
                     tags go on items not yet produced",
                    tag.offset, tag.port
                )
            })?;
        output.add_tag(ahead, &tag.key, tag.value);
    }
    Ok(())
}

/// Copies the tags of input `k`'s consumed items (`tags[k]`, positions
/// from `starts[k]`, `consumed[k]` items) to output `k`, their indices
/// scaled by `interpolation / decimation` (an index before the output's
/// next item lands on that item).
pub fn one_to_one<O: Item>(
    tags: &[Vec<Tag>],
    starts: &[u64],
    consumed: &[usize],
    (interpolation, decimation): (u64, u64),
    outputs: &[StreamOutput<O>],
) {
    for (k, output) in outputs.iter().enumerate() {
        let (Some(tags), Some(&start), Some(&n)) = (tags.get(k), starts.get(k), consumed.get(k))
        else {
            continue;
        };
        let end = start + n as u64;
        for t in tags.iter().filter(|t| (start..end).contains(&t.index)) {
            let scaled = u128::from(t.index) * u128::from(interpolation) / u128::from(decimation);
            let scaled = u64::try_from(scaled).unwrap_or(u64::MAX);
            let ahead = usize::try_from(scaled.saturating_sub(output.position())).unwrap_or(0);
            output.add_tag(ahead, &t.key, t.value.clone());
        }
    }
}
