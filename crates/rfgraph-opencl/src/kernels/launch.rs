//! Setting kernel arguments and enqueueing a 1-D launch: the one place
//! that talks to `clSetKernelArg` and `clEnqueueNDRangeKernel`.

use crate::context::OclContext;
use crate::error::OclError;
use crate::ring::Span;
use num_complex::Complex32;
use opencl3::error_codes::ClError;
use opencl3::kernel::{Kernel, set_kernel_arg};
use opencl3::types::cl_mem;

/// A scalar argument of a user kernel, after the runtime's buffer
/// arguments.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KernelArg {
    /// OpenCL `float`.
    F32(f32),
    /// OpenCL `float2` (re, im).
    C32(Complex32),
    /// OpenCL `int`.
    I32(i32),
    /// OpenCL `uint`.
    U32(u32),
}

impl From<f32> for KernelArg {
    fn from(v: f32) -> Self {
        KernelArg::F32(v)
    }
}

impl From<Complex32> for KernelArg {
    fn from(v: Complex32) -> Self {
        KernelArg::C32(v)
    }
}

impl From<i32> for KernelArg {
    fn from(v: i32) -> Self {
        KernelArg::I32(v)
    }
}

impl From<u32> for KernelArg {
    fn from(v: u32) -> Self {
        KernelArg::U32(v)
    }
}

/// Sets argument after argument of one kernel.
pub struct Args<'a> {
    kernel: &'a Kernel,
    next: u32,
}

impl<'a> Args<'a> {
    /// Starts at argument 0 of `kernel`.
    pub fn new(kernel: &'a Kernel) -> Self {
        Self { kernel, next: 0 }
    }

    fn raw(&mut self, size: usize, value: *const std::ffi::c_void) -> Result<&mut Self, OclError> {
        // SAFETY: `value` points at `size` readable bytes (callers pass a
        // reference to a live value); OpenCL copies them before returning.
        unsafe { set_kernel_arg(self.kernel.get(), self.next, size, value) }.map_err(|code| {
            OclError::Api {
                call: "clSetKernelArg",
                code: format!("argument {}: {}", self.next, ClError(code)),
            }
        })?;
        self.next += 1;
        Ok(self)
    }

    /// A plain-data argument.
    pub fn value<V: bytemuck::Pod>(&mut self, v: &V) -> Result<&mut Self, OclError> {
        self.raw(std::mem::size_of::<V>(), (v as *const V).cast())
    }

    /// A buffer argument.
    pub fn mem(&mut self, mem: &cl_mem) -> Result<&mut Self, OclError> {
        self.raw(std::mem::size_of::<cl_mem>(), (mem as *const cl_mem).cast())
    }

    /// A ring span as `(buffer, uint offset)`.
    pub fn span(&mut self, span: &Span) -> Result<&mut Self, OclError> {
        self.mem(&span.mem)?.value(&(span.offset as u32))
    }

    /// A user scalar.
    pub fn user(&mut self, arg: &KernelArg) -> Result<&mut Self, OclError> {
        match arg {
            KernelArg::F32(v) => self.value(v),
            KernelArg::C32(v) => self.value(v),
            KernelArg::I32(v) => self.value(v),
            KernelArg::U32(v) => self.value(v),
        }
    }
}

/// The largest power of two ≤ `n` (0 for 0): blocks launch chunks of
/// these sizes only. Drivers specialise a kernel per launch size (PoCL
/// compiles a new variant, ~40 ms, for each new one); powers of two bound
/// the variants to log2 of the ring size, at the cost of at most that many
/// launches for an odd chunk.
pub fn launch_size(n: usize) -> usize {
    if n == 0 { 0 } else { 1 << n.ilog2() }
}

/// Enqueues `kernel` over `n` work items on `context`'s queue. The event
/// is released at once: ordering comes from the in-order queue.
pub fn launch(context: &OclContext, kernel: &Kernel, n: usize) -> Result<(), OclError> {
    let global = [n];
    // SAFETY: every argument was set (a missing one is reported by OpenCL
    // as CL_INVALID_KERNEL_ARGS, not undefined behaviour); `global` lives
    // across the call; no offsets or local sizes are passed.
    unsafe {
        context.queue().enqueue_nd_range_kernel(
            kernel.get(),
            1,
            std::ptr::null(),
            global.as_ptr(),
            std::ptr::null(),
            &[],
        )
    }
    .map_err(OclError::api("clEnqueueNDRangeKernel"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn launch_sizes_are_powers_of_two_not_above_n() {
        assert_eq!(super::launch_size(0), 0);
        assert_eq!(super::launch_size(1), 1);
        assert_eq!(super::launch_size(100_003), 65_536);
        assert_eq!(super::launch_size(4096), 4096);
    }
}
