//! GNU Radio's `blocks` module: sources and sinks, stream operators,
//! arithmetic, type conversions and message blocks.

use super::{Map, P};

const T: P = P::Type("type");
const F32: P = P::Fixed("type", "f32");
const C32: P = P::Fixed("type", "c32");
const I16: P = P::Fixed("type", "i16");
const I32: P = P::Fixed("type", "i32");

const fn m(gr: &'static str, rf: &'static str, params: &'static [P]) -> Map {
    Map { gr, rf, params }
}

/// The entries.
pub(super) const MAPS: &[Map] = &[
    m("blocks_abs_xx", "abs", &[T, P::FlatVlen]),
    m(
        "blocks_add_const_vxx",
        "add_const",
        &[T, P::Expr("const", "constant"), P::Vlen],
    ),
    m(
        "blocks_add_const_xx",
        "add_const",
        &[T, P::Expr("const", "constant"), P::Vlen],
    ),
    m(
        "blocks_add_xx",
        "add",
        &[T, P::Expr("num_inputs", "inputs"), P::FlatVlen],
    ),
    m(
        "blocks_char_to_float",
        "char_to_float",
        &[P::Expr("scale", "scale"), P::FlatVlen],
    ),
    m("blocks_char_to_short", "char_to_short", &[P::FlatVlen]),
    m("blocks_complex_to_arg", "complex_to_arg", &[P::FlatVlen]),
    m(
        "blocks_complex_to_float",
        "complex_to_float",
        &[P::FlatVlen],
    ),
    m("blocks_complex_to_imag", "complex_to_imag", &[P::FlatVlen]),
    m("blocks_complex_to_mag", "complex_to_mag", &[P::FlatVlen]),
    m(
        "blocks_complex_to_mag_squared",
        "complex_to_mag_squared",
        &[P::FlatVlen],
    ),
    m("blocks_complex_to_real", "complex_to_real", &[P::FlatVlen]),
    m("blocks_conjugate_cc", "conjugate", &[]),
    m("blocks_copy", "copy", &[T, P::FlatVlen]),
    m(
        "blocks_delay",
        "delay",
        &[T, P::Expr("delay", "delay"), P::Vlen],
    ),
    m(
        "blocks_divide_xx",
        "divide",
        &[T, P::Expr("num_inputs", "inputs"), P::FlatVlen],
    ),
    m(
        "blocks_file_sink",
        "file_sink",
        &[
            T,
            P::Text("file", "path"),
            P::Expr("append", "append"),
            P::FlatVlen,
        ],
    ),
    m(
        "blocks_file_source",
        "file_source",
        &[
            T,
            P::Text("file", "path"),
            P::Expr("repeat", "repeat"),
            P::Expr("offset", "offset"),
            P::FlatVlen,
        ],
    ),
    m(
        "blocks_float_to_char",
        "float_to_char",
        &[P::Expr("scale", "scale"), P::FlatVlen],
    ),
    m(
        "blocks_float_to_complex",
        "float_to_complex",
        &[P::FlatVlen],
    ),
    m(
        "blocks_float_to_int",
        "float_to_int",
        &[P::Expr("scale", "scale"), P::FlatVlen],
    ),
    m(
        "blocks_float_to_short",
        "float_to_short",
        &[P::Expr("scale", "scale"), P::FlatVlen],
    ),
    m("blocks_float_to_uchar", "float_to_uchar", &[P::FlatVlen]),
    m(
        "blocks_head",
        "head",
        &[T, P::PerVector("num_items", "items")],
    ),
    m(
        "blocks_int_to_float",
        "int_to_float",
        &[P::Expr("scale", "scale"), P::FlatVlen],
    ),
    m(
        "blocks_keep_one_in_n",
        "keep_one_in_n",
        &[T, P::Expr("n", "n"), P::Vlen],
    ),
    m(
        "blocks_message_debug",
        "message_debug",
        &[P::Expr("en_uvec", "en_uvec")],
    ),
    m(
        "blocks_message_strobe",
        "message_strobe",
        &[P::Expr("msg", "message"), P::Expr("period", "period")],
    ),
    m(
        "blocks_multiply_const_vxx",
        "multiply_const",
        &[T, P::Expr("const", "constant"), P::Vlen],
    ),
    m(
        "blocks_multiply_const_xx",
        "multiply_const",
        &[T, P::Expr("const", "constant"), P::Vlen],
    ),
    m(
        "blocks_multiply_xx",
        "multiply",
        &[T, P::Expr("num_inputs", "inputs"), P::FlatVlen],
    ),
    m(
        "blocks_nlog10_ff",
        "nlog10",
        &[P::Expr("n", "n"), P::Expr("k", "k"), P::FlatVlen],
    ),
    m("blocks_null_sink", "null_sink", &[T, P::FlatVlen]),
    m("blocks_null_source", "null_source", &[T, P::FlatVlen]),
    m(
        "blocks_repack_bits_bb",
        "repack_bits",
        &[
            P::Expr("k", "k"),
            P::Expr("l", "l"),
            P::Enum(
                "endianness",
                "endianness",
                &[("gr.GR_MSB_FIRST", "msb"), ("gr.GR_LSB_FIRST", "lsb")],
            ),
            P::Expr("align_output", "align_output"),
            P::Expr("len_tag_key", "len_tag_key"),
        ],
    ),
    m(
        "blocks_repeat",
        "repeat",
        &[T, P::Expr("interp", "interpolation"), P::Vlen],
    ),
    m(
        "blocks_rotator_cc",
        "rotator",
        &[P::Expr("phase_inc", "phase_inc")],
    ),
    m(
        "blocks_selector",
        "selector",
        &[
            T,
            P::Expr("num_inputs", "inputs"),
            P::Expr("num_outputs", "outputs"),
            P::Expr("input_index", "input_index"),
            P::Expr("output_index", "output_index"),
            P::Expr("enabled", "enabled"),
            P::FlatVlen,
        ],
    ),
    m("blocks_short_to_char", "short_to_char", &[P::FlatVlen]),
    m(
        "blocks_short_to_float",
        "short_to_float",
        &[P::Expr("scale", "scale"), P::FlatVlen],
    ),
    m(
        "blocks_skiphead",
        "skiphead",
        &[T, P::PerVector("num_items", "skip")],
    ),
    m(
        "blocks_stream_demux",
        "stream_demux",
        &[
            T,
            // The lengths give the number of outputs.
            P::Expr("lengths", "lengths"),
            P::Vlen,
        ],
    ),
    m(
        "blocks_stream_mux",
        "stream_mux",
        &[
            T,
            // The lengths give the number of inputs.
            P::Expr("lengths", "lengths"),
            P::Vlen,
        ],
    ),
    m(
        "blocks_stream_to_vector",
        "stream_to_vector",
        &[T, P::FlatVlen],
    ),
    m(
        "blocks_sub_xx",
        "subtract",
        &[T, P::Expr("num_inputs", "inputs"), P::FlatVlen],
    ),
    m(
        "blocks_throttle",
        "throttle",
        &[T, P::PerVector("samples_per_second", "sample_rate")],
    ),
    m(
        "blocks_unpack_k_bits_bb",
        "unpack_k_bits",
        &[P::Expr("k", "k")],
    ),
    m("blocks_vector_sink_x", "vector_sink", &[T, P::FlatVlen]),
    m(
        "blocks_vector_source_x",
        "vector_source",
        &[
            T,
            P::Expr("vector", "values"),
            P::Expr("repeat", "repeat"),
            P::FlatVlen,
        ],
    ),
    m(
        "blocks_vector_to_stream",
        "vector_to_stream",
        &[T, P::FlatVlen],
    ),
    // Typed variants GNU Radio still ships under their own ids.
    m("blocks_add_ff", "add", &[F32]),
    m("blocks_add_cc", "add", &[C32]),
    m("blocks_multiply_ff", "multiply", &[F32]),
    m("blocks_multiply_cc", "multiply", &[C32]),
    m(
        "blocks_multiply_const_ff",
        "multiply_const",
        &[F32, P::Expr("k", "constant")],
    ),
    m(
        "blocks_multiply_const_cc",
        "multiply_const",
        &[C32, P::Expr("k", "constant")],
    ),
    m(
        "blocks_multiply_const_ss",
        "multiply_const",
        &[I16, P::Expr("k", "constant")],
    ),
    m(
        "blocks_multiply_const_ii",
        "multiply_const",
        &[I32, P::Expr("k", "constant")],
    ),
    m("blocks_uchar_to_float", "uchar_to_float", &[P::FlatVlen]),
];
