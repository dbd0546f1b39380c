//! This crate's blocks as registry entries (`rfgraph::registry::BlockSpec`):
//! each block file describes its block next to its code, and [`specs`]
//! lists them all for the `rfgraph-registry` crate.

use crate::{convert, math, stream};
use rfgraph::registry::BlockSpec;

/// Every block of this crate, described for the registry.
pub fn specs() -> Vec<BlockSpec> {
    vec![
        math::abs_spec(),
        math::add_const_spec(),
        math::add_spec(),
        convert::char_to_float_spec(),
        convert::char_to_short_spec(),
        math::complex_to_arg_spec(),
        math::complex_to_float_spec(),
        math::complex_to_imag_spec(),
        convert::complex_to_interleaved_char_spec(),
        convert::complex_to_interleaved_short_spec(),
        math::complex_to_mag_spec(),
        math::complex_to_mag_squared_spec(),
        math::complex_to_magphase_spec(),
        math::complex_to_real_spec(),
        math::conjugate_spec(),
        stream::const_source_spec(),
        stream::deinterleave_spec(),
        stream::delay_spec(),
        math::divide_spec(),
        convert::float_to_char_spec(),
        math::float_to_complex_spec(),
        convert::float_to_int_spec(),
        convert::float_to_short_spec(),
        convert::float_to_uchar_spec(),
        convert::int_to_float_spec(),
        stream::interleave_spec(),
        convert::interleaved_char_to_complex_spec(),
        convert::interleaved_short_to_complex_spec(),
        stream::keep_m_in_n_spec(),
        stream::keep_one_in_n_spec(),
        math::magphase_to_complex_spec(),
        math::multiply_conjugate_spec(),
        math::multiply_const_spec(),
        math::multiply_spec(),
        math::nlog10_spec(),
        stream::repeat_spec(),
        stream::selector_spec(),
        convert::short_to_char_spec(),
        convert::short_to_float_spec(),
        stream::skiphead_spec(),
        stream::stream_demux_spec(),
        stream::stream_mux_spec(),
        stream::stream_to_vector_spec(),
        math::subtract_spec(),
        convert::uchar_to_float_spec(),
        stream::vector_to_stream_spec(),
    ]
}
