//! Zero-copy `memoryview`s of ring-buffer memory for a Python call, and
//! Python errors as a block's error text.

use pyo3::ffi;
use pyo3::prelude::*;
use std::os::raw::{c_char, c_int};

/// CPython's `PyBUF_READ` (`memoryobject.h`; part of the stable ABI, not
/// exported by pyo3's limited-API bindings).
pub const PYBUF_READ: c_int = 0x100;
/// CPython's `PyBUF_WRITE`.
pub const PYBUF_WRITE: c_int = 0x200;

/// A `memoryview` of `len` bytes at `ptr` (`flags`: read or write).
///
/// # Safety
/// `ptr..ptr+len` must stay valid (and, for a writable view, not be
/// read or written by anything else) for as long as Python uses the view.
pub unsafe fn view<'py>(
    py: Python<'py>,
    ptr: *mut u8,
    len: usize,
    flags: c_int,
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
pub fn describe(py: Python<'_>, e: &PyErr) -> String {
    let traceback = e
        .traceback(py)
        .and_then(|t| t.format().ok())
        .unwrap_or_default();
    format!("Python block failed:\n{traceback}{e}")
}
