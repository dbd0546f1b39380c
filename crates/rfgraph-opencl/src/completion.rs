//! Commands in flight: OpenCL events kept in order, each of which wakes
//! its block when it completes (`clSetEventCallback`), so a transfer block
//! never waits in `clFinish` and never polls.

use crate::context::OclContext;
use crate::error::OclError;
use opencl3::event::{CL_COMPLETE, Event};
use opencl3::types::{cl_event, cl_int};
use rfgraph::{Waker, WorkIo};
use std::collections::VecDeque;
use std::ffi::c_void;

extern "C" fn wake_block(_event: cl_event, _status: cl_int, user_data: *mut c_void) {
    // SAFETY: `user_data` is the `Box<Waker>` leaked in `watch`; OpenCL
    // calls this callback exactly once per registration, so the box is
    // reclaimed exactly once.
    let waker = unsafe { Box::from_raw(user_data.cast::<Waker>()) };
    waker.wake();
}

/// Registers `waker` to run when `event` completes (or fails).
fn watch(event: &Event, waker: &Waker) -> Result<(), OclError> {
    let user_data = Box::into_raw(Box::new(waker.clone()));
    if let Err(e) = event.set_callback(CL_COMPLETE, wake_block, user_data.cast()) {
        // SAFETY: registration failed, so OpenCL will never call
        // `wake_block` with this pointer; we still own the box.
        drop(unsafe { Box::from_raw(user_data) });
        return Err(OclError::api("clSetEventCallback")(e));
    }
    Ok(())
}

/// Commands in flight, oldest first, each with the items it moves, at most
/// `limit` of them; each wakes the owning block when it completes.
pub struct InFlight {
    commands: VecDeque<(Event, usize)>,
    /// Items of all commands in flight.
    items: usize,
    limit: usize,
    waker: Option<Waker>,
    /// Whose queue the commands are on.
    context: OclContext,
}

impl InFlight {
    /// No commands yet on `context`'s queue; at most the context's
    /// `in_flight` at a time.
    pub fn new(context: &OclContext) -> Self {
        Self {
            commands: VecDeque::new(),
            items: 0,
            limit: context.in_flight().max(1),
            waker: None,
            context: context.clone(),
        }
    }

    /// The block to wake on completions (from `Block::attach_waker`).
    pub fn set_waker(&mut self, waker: Waker) {
        self.waker = Some(waker);
    }

    /// True while another command may be queued.
    pub fn has_room(&self) -> bool {
        self.commands.len() < self.limit
    }

    /// Ends a `work` call: submits what was queued, and tells the runtime
    /// the block still waits for the device while anything is in flight.
    pub fn end_call(&self, queued: bool, io: &mut WorkIo) -> Result<(), OclError> {
        if queued {
            self.context.flush()?;
        }
        if !self.commands.is_empty() {
            io.in_flight();
        }
        Ok(())
    }

    /// Tracks `event`, which moves `items`, and wakes the block when it
    /// completes. The event is tracked before its callback is set: if that
    /// fails, the run fails, and `wait_all` must still wait for the
    /// command, which was already enqueued on host memory.
    pub fn push(&mut self, event: Event, items: usize) -> Result<(), OclError> {
        self.commands.push_back((event, items));
        self.items += items;
        if let (Some(w), Some((event, _))) = (&self.waker, self.commands.back()) {
            watch(event, w)?;
        }
        Ok(())
    }

    /// Removes the completed commands at the front; returns their items.
    /// A failed command is an error.
    pub fn retire(&mut self) -> Result<usize, OclError> {
        let mut done = 0;
        while let Some((event, items)) = self.commands.front() {
            let status = event
                .command_execution_status()
                .map_err(OclError::api("clGetEventInfo"))?
                .0;
            if status < 0 {
                return Err(OclError::Api {
                    call: "a transfer command",
                    code: format!("{}", opencl3::error_codes::ClError(status)),
                });
            }
            if status != CL_COMPLETE {
                break;
            }
            done += items;
            self.items -= items;
            self.commands.pop_front();
        }
        Ok(done)
    }

    /// Blocks until every command completed (shutdown only); returns the
    /// items of the commands that completed in order without an error,
    /// up to the first that failed: those a transfer block still owes its
    /// ports (consumed, or produced), as [`retire`](Self::retire) would
    /// have counted them.
    pub fn wait_all(&mut self) -> usize {
        let mut done = 0;
        let mut failed = false;
        for (event, items) in self.commands.drain(..) {
            // Wait for every command, failed or not: each may still touch
            // host memory until it is over.
            let ok = event.wait().is_ok();
            failed |= !ok;
            if !failed {
                done += items;
            }
        }
        self.items = 0;
        done
    }

    /// Items of all commands in flight.
    pub fn items(&self) -> usize {
        self.items
    }
}
