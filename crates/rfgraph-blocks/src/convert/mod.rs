//! Type converters with GNU Radio's semantics: item by item between
//! integers and floats (scale, round half to even, saturate), and complex
//! items to and from interleaved integer pairs.

mod interleaved;
pub mod round;
mod scalar;

pub use interleaved::{
    ComplexToPairs, InterleavedCharParams, InterleavedShortParams, PairsParams, PairsToComplex,
    ToInterleavedParams,
};
pub use scalar::ScaleParams;

pub(crate) use interleaved::{
    complex_to_interleaved_char_spec, complex_to_interleaved_short_spec,
    interleaved_char_to_complex_spec, interleaved_short_to_complex_spec,
};
pub(crate) use scalar::{
    char_to_float_spec, char_to_short_spec, float_to_char_spec, float_to_int_spec,
    float_to_short_spec, float_to_uchar_spec, int_to_float_spec, short_to_char_spec,
    short_to_float_spec, uchar_to_float_spec,
};
