//! Math blocks, GNU Radio's `blocks` math: N-ary [`Combine`] (add,
//! subtract, multiply, divide), [`ConstOp`] (multiply or add a settable
//! constant), one-input maps (magnitude, phase, parts, conjugate, abs,
//! `nlog10`), and [`Zip2`]/[`Unzip2`] between complex and real streams.
//! The item arithmetic they share is [`Arith`]. Each block's parameters
//! are one `...Params` struct (a [`ParamSet`](rfgraph::ParamSet)) the
//! registry entry builds from.

mod bitwise;
mod constant;
mod function;
mod level;
mod matrix;
mod nary;
mod pairs;
mod peak;
mod reduce;
mod scalar;
mod tag_value;
mod unary;
mod vlen;

pub use bitwise::{BitwiseParams, NotParams};
pub use constant::{
    AddConst, AddConstParams, ConstOp, ConstParams, MultiplyConst, MultiplyConstParams,
};
pub use function::{Function, MuteParams, TranscendentalParams};
pub use level::{RmsParams, SampleAndHoldParams, ThresholdParams};
pub use matrix::{MultiplyMatrix, MultiplyMatrixParams, matrix};
pub use nary::{Combination, Combine, CombineParams};
pub use pairs::{Unzip2, Zip2};
pub use peak::{PeakDetector2, PeakDetector2Params};
pub use reduce::{ArgmaxParams, ExtremumParams, Integrate, IntegrateParams};
pub use scalar::{Arith, constants};
pub use tag_value::{MultiplyByTagValue, MultiplyByTagValueParams};
pub use unary::{AbsParams, Nlog10Params, SliceKernel};
pub use vlen::FlatVlenParams;

pub(crate) use bitwise::{and_spec, not_spec, or_spec, xor_spec};
pub(crate) use constant::{add_const_spec, multiply_const_spec};
pub(crate) use function::{mute_spec, transcendental_spec};
pub(crate) use level::{rms_spec, sample_and_hold_spec, threshold_spec};
pub(crate) use matrix::spec as multiply_matrix_spec;
pub(crate) use nary::{add_spec, divide_spec, multiply_spec, subtract_spec};
pub(crate) use pairs::{
    complex_to_float_spec, complex_to_magphase_spec, float_to_complex_spec,
    magphase_to_complex_spec, multiply_conjugate_spec,
};
pub(crate) use peak::spec as peak_detector2_spec;
pub(crate) use reduce::{argmax_spec, integrate_spec, max_spec, min_spec};
pub(crate) use tag_value::spec as multiply_by_tag_value_spec;
pub(crate) use unary::{
    abs_spec, complex_to_arg_spec, complex_to_imag_spec, complex_to_mag_spec,
    complex_to_mag_squared_spec, complex_to_real_spec, conjugate_spec, nlog10_spec,
};
