//! Attaching scheduler threads to Python cheaply: each thread that runs a
//! Python block keeps one Python thread state for as long as it lives.
//!
//! A thread Python does not know gets a new thread state from every
//! `PyGILState_Ensure` and loses it at the matching release. Per `work`
//! call that is an allocation, a fresh frame stack (CPython maps it, then
//! unmaps it: a TLB shootdown on every core) and its teardown: most of a
//! small call's cost. [`attach`] creates the state once per thread and
//! keeps it (without the GIL) until the thread exits, so each later call
//! only takes and releases the GIL.

use pyo3::ffi;
use pyo3::prelude::*;
use std::cell::Cell;

/// The thread state this thread keeps (see the module doc): the
/// `PyGILState_Ensure` that made it, not yet released.
struct Kept {
    gstate: ffi::PyGILState_STATE,
}

impl Drop for Kept {
    fn drop(&mut self) {
        // SAFETY: this thread's state was made by the `PyGILState_Ensure`
        // in `keep` (counter 1, no GIL since its `PyEval_SaveThread`).
        // `PyGILState_Ensure` takes the GIL back into it (counter 2; pyo3's
        // wrapper parks the thread instead of unwinding should the
        // interpreter be finalizing); a release as if the GIL had been
        // held keeps the GIL (counter 1); releasing `keep`'s ensure then
        // deletes the state and releases the GIL. Skipped once the
        // interpreter is gone (the state went with it).
        unsafe {
            if ffi::Py_IsInitialized() != 0 {
                let _ = ffi::PyGILState_Ensure();
                ffi::PyGILState_Release(ffi::PyGILState_STATE::PyGILState_LOCKED);
                ffi::PyGILState_Release(self.gstate);
            }
        }
    }
}

thread_local! {
    /// Whether this thread was looked at, and its kept state if any.
    static KEPT: Cell<Option<Option<Kept>>> = const { Cell::new(None) };
}

/// Gives this thread a Python thread state it keeps, unless Python
/// already knows the thread (a Python thread: its state is its own).
fn keep() {
    KEPT.with(|kept| {
        let mut current = kept.take();
        if current.is_none() {
            // SAFETY: the interpreter is running (a Python block's
            // flowgraph was built from Python). With no state for this
            // thread, `PyGILState_Ensure` makes one and takes the GIL;
            // `PyEval_SaveThread` releases the GIL and keeps the state,
            // which `PyGILState_Ensure` finds from now on. `Kept::drop`
            // undoes both when the thread exits.
            let state = unsafe {
                if ffi::Py_IsInitialized() == 0 || !ffi::PyGILState_GetThisThreadState().is_null() {
                    None
                } else {
                    let gstate = ffi::PyGILState_Ensure();
                    ffi::PyEval_SaveThread();
                    Some(Kept { gstate })
                }
            };
            current = Some(state);
        }
        kept.set(current);
    });
}

/// `Python::attach` for a scheduler thread: the first call on a thread
/// gives it a lasting thread state, so that later calls are cheap.
pub fn attach<F, R>(f: F) -> R
where
    F: for<'py> FnOnce(Python<'py>) -> R,
{
    keep();
    Python::attach(f)
}
