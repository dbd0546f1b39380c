//! The `rfgraph._rfgraph` Python extension module: the block registry as
//! JSON, flowgraphs built through the flowgraph-file builder (from TOML
//! text the Python side writes, or from a `.toml`/`.grc` file), and
//! running them. The pure-Python package `rfgraph` (`python/rfgraph`)
//! wraps these few functions in the user-facing API.

mod control;
mod embed;
mod gil;
mod numpy;
mod pmt;
mod pyblock;
mod registry;
mod run;
mod serve;
mod slots;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _rfgraph(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(registry::blocks_json, m)?)?;
    m.add_function(wrap_pyfunction!(run::check_text, m)?)?;
    m.add_function(wrap_pyfunction!(run::check_file, m)?)?;
    m.add_function(wrap_pyfunction!(run::start_text, m)?)?;
    m.add_function(wrap_pyfunction!(run::start_file, m)?)?;
    m.add_function(wrap_pyfunction!(numpy::stash, m)?)?;
    m.add_function(wrap_pyfunction!(numpy::unstash, m)?)?;
    m.add_function(wrap_pyfunction!(pyblock::stash_object, m)?)?;
    m.add_function(wrap_pyfunction!(pmt::pmt_round_trip, m)?)?;
    m.add_function(wrap_pyfunction!(pmt::pmt_json, m)?)?;
    m.add_function(wrap_pyfunction!(pyblock::unstash_object, m)?)?;
    m.add_function(wrap_pyfunction!(embed::read_file, m)?)?;
    m.add_class::<run::Run>()?;
    m.add_class::<control::BlockHandle>()?;
    m.add_class::<embed::FileDocument>()?;
    Ok(())
}
