//! GNU Radio's `blocks` module: sources and sinks, stream operators,
//! arithmetic, type conversions and message blocks.

use super::{Map, P};

const T: P = P::Type("type");
const F32: P = P::Fixed("type", "f32");
const C32: P = P::Fixed("type", "c32");
const I16: P = P::Fixed("type", "i16");
const I32: P = P::Fixed("type", "i32");
const ENDIANNESS: P = P::Enum(
    "endianness",
    "endianness",
    &[("gr.GR_MSB_FIRST", "msb"), ("gr.GR_LSB_FIRST", "lsb")],
);

const fn m(gr: &'static str, rf: &'static str, params: &'static [P]) -> Map {
    Map { gr, rf, params }
}

/// The entries.
pub(super) const MAPS: &[Map] = &[
    m("blocks_abs_xx", "abs", &[T, P::FlatVlen]),
    m("blocks_add_const_vxx", "add_const", &[T, P::Vlen]),
    m("blocks_add_const_xx", "add_const", &[T, P::Vlen]),
    m("blocks_add_xx", "add", &[T, P::FlatVlen]),
    m("blocks_char_to_float", "char_to_float", &[P::FlatVlen]),
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
    m("blocks_delay", "delay", &[T, P::Vlen]),
    m("blocks_divide_xx", "divide", &[T, P::FlatVlen]),
    m(
        "blocks_file_meta_sink",
        "file_meta_sink",
        &[
            T,
            P::Text("file", "path"),
            P::Vlen,
            // Extras from GRC would need `pmt.dict_add` expressions.
            P::Require("extra_dict", &["pmt.make_dict()"]),
        ],
    ),
    m(
        "blocks_file_meta_source",
        "file_meta_source",
        &[
            T,
            P::Text("file", "path"),
            P::Text("hdr_file", "hdr_file"),
            P::Vlen,
        ],
    ),
    m(
        "blocks_file_sink",
        "file_sink",
        &[T, P::Text("file", "path"), P::FlatVlen],
    ),
    m(
        "blocks_file_source",
        "file_source",
        &[
            T,
            P::Text("file", "path"),
            // GNU Radio's `len` 0 plays the whole file.
            P::NonZero("length", "length"),
            // `pmt.PMT_NIL` (no tag) leaves the optional key unset.
            P::Pmt("begin_tag", "begin_tag"),
            P::FlatVlen,
        ],
    ),
    m("blocks_float_to_char", "float_to_char", &[P::FlatVlen]),
    m(
        "blocks_float_to_complex",
        "float_to_complex",
        &[P::FlatVlen],
    ),
    m("blocks_float_to_int", "float_to_int", &[P::FlatVlen]),
    m("blocks_float_to_short", "float_to_short", &[P::FlatVlen]),
    m("blocks_float_to_uchar", "float_to_uchar", &[P::FlatVlen]),
    m(
        "blocks_head",
        "head",
        &[T, P::PerVector("num_items", "items")],
    ),
    m("blocks_int_to_float", "int_to_float", &[P::FlatVlen]),
    m("blocks_keep_one_in_n", "keep_one_in_n", &[T, P::Vlen]),
    m("blocks_message_debug", "message_debug", &[]),
    m(
        "blocks_message_strobe",
        "message_strobe",
        &[P::Pmt("msg", "message")],
    ),
    m(
        "blocks_msgpair_to_var",
        "msgpair_to_var",
        &[P::Text("target", "target")],
    ),
    m("blocks_multiply_const_vxx", "multiply_const", &[T, P::Vlen]),
    m("blocks_multiply_const_xx", "multiply_const", &[T, P::Vlen]),
    m("blocks_multiply_xx", "multiply", &[T, P::FlatVlen]),
    m("blocks_nlog10_ff", "nlog10", &[P::FlatVlen]),
    m("blocks_null_sink", "null_sink", &[T, P::FlatVlen]),
    m("blocks_null_source", "null_source", &[T, P::FlatVlen]),
    m(
        "blocks_repack_bits_bb",
        "repack_bits",
        &[P::Enum(
            "endianness",
            "endianness",
            &[("gr.GR_MSB_FIRST", "msb"), ("gr.GR_LSB_FIRST", "lsb")],
        )],
    ),
    m("blocks_repeat", "repeat", &[T, P::Vlen]),
    m("blocks_rotator_cc", "rotator", &[]),
    m("blocks_selector", "selector", &[T, P::FlatVlen]),
    m("blocks_short_to_char", "short_to_char", &[P::FlatVlen]),
    m("blocks_short_to_float", "short_to_float", &[P::FlatVlen]),
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
            P::Vlen,
        ],
    ),
    m(
        "blocks_stream_mux",
        "stream_mux",
        &[
            T,
            // The lengths give the number of inputs.
            P::Vlen,
        ],
    ),
    m(
        "blocks_stream_to_vector",
        "stream_to_vector",
        &[T, P::FlatVlen],
    ),
    m("blocks_sub_xx", "subtract", &[T, P::FlatVlen]),
    m(
        "blocks_throttle",
        "throttle",
        &[T, P::PerVector("samples_per_second", "sample_rate")],
    ),
    m("blocks_unpack_k_bits_bb", "unpack_k_bits", &[]),
    // `msgname` is GRC string text: a variable's name there is the name
    // itself (GRC makes text of what does not evaluate to a string).
    m(
        "blocks_var_to_msg",
        "var_to_msg",
        &[P::Text("msgname", "msgname"), P::Expr("target", "target")],
    ),
    m("blocks_vector_sink_x", "vector_sink", &[T, P::FlatVlen]),
    m(
        "blocks_vector_source_x",
        "vector_source",
        &[
            T,
            P::Tags("tags", "tags"),
            // Tag offsets count vectors.
            P::FlatVlen,
        ],
    ),
    m(
        "blocks_vector_to_stream",
        "vector_to_stream",
        &[T, P::FlatVlen],
    ),
    m("blocks_and_xx", "and", &[T, P::FlatVlen]),
    m("blocks_argmax_xx", "argmax", &[T, P::Vlen]),
    m(
        "blocks_burst_tagger",
        "burst_tagger",
        &[
            T,
            P::Str("true_key", "true_key"),
            P::Str("false_key", "false_key"),
        ],
    ),
    m(
        "blocks_complex_to_interleaved_char",
        "complex_to_interleaved_char",
        &[],
    ),
    m(
        "blocks_complex_to_interleaved_short",
        "complex_to_interleaved_short",
        &[],
    ),
    m(
        "blocks_complex_to_magphase",
        "complex_to_magphase",
        &[P::FlatVlen],
    ),
    m("blocks_deinterleave", "deinterleave", &[T, P::Vlen]),
    m("blocks_integrate_xx", "integrate", &[T, P::Vlen]),
    m("blocks_interleave", "interleave", &[T, P::Vlen]),
    m(
        "blocks_interleaved_char_to_complex",
        "interleaved_char_to_complex",
        &[],
    ),
    m(
        "blocks_interleaved_short_to_complex",
        "interleaved_short_to_complex",
        &[],
    ),
    m("blocks_keep_m_in_n", "keep_m_in_n", &[T]),
    m(
        "blocks_magphase_to_complex",
        "magphase_to_complex",
        &[P::FlatVlen],
    ),
    m(
        "blocks_matrix_interleaver",
        "matrix_interleaver",
        &[T, P::Vlen],
    ),
    m("blocks_max_xx", "max", &[T, P::Vlen]),
    m(
        "blocks_message_strobe_random",
        "message_strobe_random",
        &[
            P::Pmt("msg", "message"),
            P::Enum(
                "dist",
                "distribution",
                &[
                    ("blocks.STROBE_EXPONENTIAL", "exponential"),
                    ("blocks.STROBE_UNIFORM", "uniform"),
                    ("blocks.STROBE_GAUSSIAN", "gaussian"),
                    ("blocks.STROBE_POISSON", "poisson"),
                ],
            ),
        ],
    ),
    m("blocks_min_xx", "min", &[T, P::Vlen]),
    m("blocks_moving_average_xx", "moving_average", &[T, P::Vlen]),
    m(
        "blocks_multiply_by_tag_value_cc",
        "multiply_by_tag_value",
        &[P::Str("tagname", "key"), P::FlatVlen],
    ),
    m(
        "blocks_multiply_conjugate_cc",
        "multiply_conjugate",
        &[P::FlatVlen],
    ),
    m("blocks_multiply_matrix_xx", "multiply_matrix", &[T]),
    m("blocks_mute_xx", "mute", &[T]),
    m("blocks_not_xx", "not", &[T, P::FlatVlen]),
    m("blocks_or_xx", "or", &[T, P::FlatVlen]),
    m("blocks_pack_k_bits_bb", "pack_k_bits", &[]),
    m(
        "blocks_packed_to_unpacked_xx",
        "packed_to_unpacked",
        &[T, ENDIANNESS, P::Require("num_ports", &["1"])],
    ),
    m(
        "blocks_patterned_interleaver",
        "patterned_interleaver",
        &[T, P::Vlen],
    ),
    m("blocks_peak_detector2_fb", "peak_detector2", &[]),
    m("blocks_probe_signal_x", "probe_signal", &[T]),
    m("blocks_probe_signal_vx", "probe_signal", &[T, P::Vlen]),
    m("blocks_rms_xx", "rms", &[T]),
    m("blocks_sample_and_hold_xx", "sample_and_hold", &[T]),
    m(
        "blocks_stream_to_streams",
        "stream_to_streams",
        &[T, P::Vlen],
    ),
    m(
        "blocks_stream_to_tagged_stream",
        "stream_to_tagged_stream",
        &[T, P::Str("len_tag_key", "len_tag_key"), P::Vlen],
    ),
    m(
        "blocks_streams_to_stream",
        "streams_to_stream",
        &[T, P::Vlen],
    ),
    m(
        "blocks_streams_to_vector",
        "streams_to_vector",
        &[T, P::Vlen],
    ),
    m(
        "blocks_tag_debug",
        "tag_debug",
        &[
            T,
            P::Str("name", "name"),
            P::Str("filter", "filter"),
            P::Require("num_inputs", &["1"]),
        ],
    ),
    m(
        "blocks_tag_gate",
        "tag_gate",
        &[T, P::Str("single_key", "single_key"), P::FlatVlen],
    ),
    m("blocks_tagged_file_sink", "tagged_file_sink", &[T, P::Vlen]),
    m(
        "blocks_tagged_stream_multiply_length",
        "tagged_stream_multiply_length",
        &[T, P::Str("lengthtagname", "len_tag_key"), P::Vlen],
    ),
    m(
        "blocks_tagged_stream_mux",
        "tagged_stream_mux",
        &[T, P::Str("lengthtagname", "len_tag_key"), P::Vlen],
    ),
    m(
        "blocks_tags_strobe",
        "tags_strobe",
        &[T, P::Pmt("value", "value"), P::Pmt("key", "key"), P::Vlen],
    ),
    m(
        "blocks_test_tag_variable_rate_ff",
        "test_tag_variable_rate",
        &[],
    ),
    m("blocks_threshold_ff", "threshold", &[]),
    m(
        "blocks_transcendental",
        "transcendental",
        &[
            P::Enum(
                "type",
                "type",
                &[("complex_float", "c32"), ("float", "f32")],
            ),
            P::Text("name", "function"),
        ],
    ),
    m(
        "blocks_unpacked_to_packed_xx",
        "unpacked_to_packed",
        &[T, ENDIANNESS, P::Require("num_ports", &["1"])],
    ),
    m("blocks_vco_c", "vco", &[C32]),
    m("blocks_vco_f", "vco", &[F32]),
    m(
        "blocks_vector_to_streams",
        "vector_to_streams",
        &[T, P::Vlen],
    ),
    m(
        "blocks_wavfile_sink",
        "wavfile_sink",
        &[
            P::Text("file", "path"),
            P::Require("format", &["FORMAT_WAV"]),
            P::Enum(
                "bits_per_sample1",
                "format",
                &[("FORMAT_PCM_16", "pcm16"), ("FORMAT_FLOAT", "float32")],
            ),
            P::Require("append", &["False"]),
        ],
    ),
    m(
        "blocks_wavfile_source",
        "wavfile_source",
        &[P::Text("file", "path")],
    ),
    m("blocks_xor_xx", "xor", &[T, P::FlatVlen]),
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
