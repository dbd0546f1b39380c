//! [`Elementwise`]: one device block for every 1:1 kernel with any number
//! of inputs: the built-in gain, saxpy, add, multiply and conjugate
//! multiply on `f32` and `Complex32`, and user kernels in OpenCL C 1.2.
//!
//! The calling convention of every kernel it runs, built-in or user:
//!
//! ```c
//! __kernel void name(__global const T *in0, uint in0_off,   // per input
//!                    __global T *out, uint out_off,
//!                    /* the block's scalar arguments, in order */ ...)
//! {
//!     size_t i = get_global_id(0);                          // 0 .. n-1
//!     out[out_off + i] = f(in0[in0_off + i], ...);
//! }
//! ```
//!
//! Every launch is contiguous in every ring it touches; the block splits at
//! ring ends, so a kernel never sees a wrap.

pub use super::launch::KernelArg;
use super::launch::{Args, launch, launch_size};
use crate::context::OclContext;
use crate::error::OclError;
use crate::item::DeviceItem;
use crate::port::{DeviceInput, DeviceOutput};
use opencl3::kernel::Kernel;
use rfgraph::{Block, BoxError, Ports, WorkIo};

const INPUT_NAMES: [&str; 8] = ["in0", "in1", "in2", "in3", "in4", "in5", "in6", "in7"];

/// The built-in kernels for item type `T`.
fn builtin_source<T: DeviceItem>() -> String {
    format!(
        r#"
#define T {ty}
#define MUL(a, b) {mul}
#define MUL_CONJ(a, b) {mul_conj}
__kernel void rf_gain(__global const T *in0, uint in0_off, __global T *out, uint out_off, T k) {{
    size_t i = get_global_id(0);
    out[out_off + i] = MUL(in0[in0_off + i], k);
}}
__kernel void rf_saxpy(__global const T *in0, uint in0_off, __global T *out, uint out_off, T a, T b) {{
    size_t i = get_global_id(0);
    out[out_off + i] = MUL(a, in0[in0_off + i]) + b;
}}
__kernel void rf_add(__global const T *in0, uint in0_off, __global const T *in1, uint in1_off,
                     __global T *out, uint out_off) {{
    size_t i = get_global_id(0);
    out[out_off + i] = in0[in0_off + i] + in1[in1_off + i];
}}
__kernel void rf_multiply(__global const T *in0, uint in0_off, __global const T *in1, uint in1_off,
                          __global T *out, uint out_off) {{
    size_t i = get_global_id(0);
    out[out_off + i] = MUL(in0[in0_off + i], in1[in1_off + i]);
}}
__kernel void rf_multiply_conjugate(__global const T *in0, uint in0_off, __global const T *in1,
                                    uint in1_off, __global T *out, uint out_off) {{
    size_t i = get_global_id(0);
    out[out_off + i] = MUL_CONJ(in0[in0_off + i], in1[in1_off + i]);
}}
"#,
        ty = T::CL_TYPE,
        mul = T::CL_MUL,
        mul_conj = T::CL_MUL_CONJ,
    )
}

/// A 1:1 device block running one kernel over `inputs` streams of `T`.
pub struct Elementwise<T: DeviceItem> {
    inputs: Vec<DeviceInput<T>>,
    output: DeviceOutput<T>,
    kernel: Kernel,
    /// Built-in kernels' scalars, of the item type.
    typed_args: Vec<T>,
    /// User kernels' scalars.
    args: Vec<KernelArg>,
    context: OclContext,
}

impl<T: DeviceItem> Elementwise<T> {
    /// Runs kernel `name` of the user's OpenCL C 1.2 `source` (see the
    /// module docs for the calling convention) over `inputs` streams
    /// (1 to 8; named `in` for one, else `in0`, `in1`, ...), with the
    /// scalar `args` after the buffers. A compile error carries the log.
    pub fn from_source(
        context: &OclContext,
        source: &str,
        name: &str,
        inputs: usize,
        args: Vec<KernelArg>,
    ) -> Result<Self, OclError> {
        assert!(
            (1..=INPUT_NAMES.len()).contains(&inputs),
            "an element-wise kernel takes 1 to 8 inputs"
        );
        let kernel = context.kernel(source, name)?;
        let names: &[&'static str] = if inputs == 1 {
            &["in"]
        } else {
            &INPUT_NAMES[..inputs]
        };
        Ok(Self {
            inputs: names.iter().map(|n| DeviceInput::new(n, context)).collect(),
            output: DeviceOutput::new("out", context),
            kernel,
            typed_args: Vec::new(),
            args,
            context: context.clone(),
        })
    }

    fn builtin(
        context: &OclContext,
        name: &str,
        inputs: usize,
        args: Vec<KernelArg>,
        values: &[T],
    ) -> Result<Self, OclError> {
        let mut block = Self::from_source(context, &builtin_source::<T>(), name, inputs, args)?;
        block.typed_args = values.to_vec();
        Ok(block)
    }

    /// `out = k · in`.
    pub fn gain(context: &OclContext, k: T) -> Result<Self, OclError> {
        Self::builtin(context, "rf_gain", 1, Vec::new(), &[k])
    }

    /// `out = a · in + b`.
    pub fn saxpy(context: &OclContext, a: T, b: T) -> Result<Self, OclError> {
        Self::builtin(context, "rf_saxpy", 1, Vec::new(), &[a, b])
    }

    /// `out = in0 + in1`.
    pub fn add(context: &OclContext) -> Result<Self, OclError> {
        Self::builtin(context, "rf_add", 2, Vec::new(), &[])
    }

    /// `out = in0 · in1` (the complex product for `Complex32`).
    pub fn multiply(context: &OclContext) -> Result<Self, OclError> {
        Self::builtin(context, "rf_multiply", 2, Vec::new(), &[])
    }

    /// `out = in0 · conj(in1)` (plain product for `f32`).
    pub fn multiply_conjugate(context: &OclContext) -> Result<Self, OclError> {
        Self::builtin(context, "rf_multiply_conjugate", 2, Vec::new(), &[])
    }

    fn enqueue(&mut self, n: usize) -> Result<(), OclError> {
        let mut args = Args::new(&self.kernel);
        for input in &mut self.inputs {
            args.span(&input.span(0))?;
        }
        args.span(&self.output.span(0))?;
        for v in &self.typed_args {
            args.value(v)?;
        }
        for a in &self.args {
            args.user(a)?;
        }
        launch(&self.context, &self.kernel, n)
    }
}

impl<T: DeviceItem> Block for Elementwise<T> {
    fn ports(&mut self) -> Ports<'_> {
        let mut ports = Ports::new();
        for input in &mut self.inputs {
            ports = ports.input(input);
        }
        ports.output(&mut self.output)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let mut left = self.output.refresh();
        for input in &mut self.inputs {
            left = left.min(input.refresh());
        }
        let mut launched = false;
        while left > 0 {
            let mut n = left.min(self.output.span(0).len);
            for input in &mut self.inputs {
                n = n.min(input.span(0).len);
            }
            let n = launch_size(n);
            self.enqueue(n)?;
            for input in &mut self.inputs {
                input.consume(n);
            }
            self.output.produce(n);
            left -= n;
            launched = true;
        }
        if launched {
            self.context.flush()?;
        }
        Ok(())
    }
}
