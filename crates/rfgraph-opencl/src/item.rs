//! Item types device kernels understand, and their OpenCL C spelling.

use num_complex::Complex32;
use rfgraph::Item;

/// An item type with an OpenCL C equivalent of the same layout.
pub trait DeviceItem: Item {
    /// The OpenCL C type: `float`, `float2`.
    const CL_TYPE: &'static str;
    /// OpenCL C for the product of `a` and `b` of this type (a macro body
    /// with parameters `a`, `b`).
    const CL_MUL: &'static str;
    /// OpenCL C for `a * conj(b)`.
    const CL_MUL_CONJ: &'static str;
}

impl DeviceItem for f32 {
    const CL_TYPE: &'static str = "float";
    const CL_MUL: &'static str = "((a) * (b))";
    const CL_MUL_CONJ: &'static str = "((a) * (b))";
}

impl DeviceItem for Complex32 {
    const CL_TYPE: &'static str = "float2";
    const CL_MUL: &'static str =
        "((float2)((a).x * (b).x - (a).y * (b).y, (a).x * (b).y + (a).y * (b).x))";
    const CL_MUL_CONJ: &'static str =
        "((float2)((a).x * (b).x + (a).y * (b).y, (a).y * (b).x - (a).x * (b).y))";
}
