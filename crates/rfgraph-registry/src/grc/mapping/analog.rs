//! GNU Radio's `analog` module: signal and noise sources, FM.

use super::{Map, P};

const T: P = P::Type("type");

const NOISE: &[(&str, &str)] = &[
    ("analog.GR_GAUSSIAN", "gaussian"),
    ("analog.GR_UNIFORM", "uniform"),
    ("analog.GR_LAPLACIAN", "laplacian"),
    ("analog.GR_IMPULSE", "impulse"),
];

/// The entries.
pub(super) const MAPS: &[Map] = &[
    Map {
        gr: "analog_const_source_x",
        rf: "const_source",
        params: &[T, P::Expr("const", "constant")],
    },
    Map {
        gr: "analog_agc2_xx",
        rf: "agc2",
        params: &[
            T,
            P::Expr("attack_rate", "attack_rate"),
            P::Expr("decay_rate", "decay_rate"),
            P::Expr("reference", "reference"),
            P::Expr("gain", "gain"),
            P::Expr("max_gain", "max_gain"),
        ],
    },
    Map {
        gr: "analog_agc_xx",
        rf: "agc",
        params: &[
            T,
            P::Expr("rate", "rate"),
            P::Expr("reference", "reference"),
            P::Expr("gain", "gain"),
            P::Expr("max_gain", "max_gain"),
        ],
    },
    // GNU Radio's fast noise source draws from a pool of `samples`
    // precomputed values, as rfgraph's `fastnoise_source` does.
    Map {
        gr: "analog_fastnoise_source_x",
        rf: "fastnoise_source",
        params: &[
            T,
            P::Enum("noise_type", "kind", NOISE),
            P::Expr("amp", "amplitude"),
            P::Abs("seed", "seed"),
            P::Expr("samples", "samples"),
        ],
    },
    Map {
        gr: "analog_fm_deemph",
        rf: "fm_deemph",
        params: &[P::Expr("samp_rate", "sample_rate"), P::Expr("tau", "tau")],
    },
    Map {
        gr: "analog_fm_preemph",
        rf: "fm_preemph",
        params: &[
            P::Expr("samp_rate", "sample_rate"),
            P::Expr("tau", "tau"),
            P::Expr("fh", "high_freq"),
        ],
    },
    Map {
        gr: "analog_frequency_modulator_fc",
        rf: "frequency_modulator",
        params: &[P::Expr("sensitivity", "sensitivity")],
    },
    Map {
        gr: "analog_noise_source_x",
        rf: "noise_source",
        params: &[
            T,
            P::Enum("noise_type", "kind", NOISE),
            P::Expr("amp", "amplitude"),
            P::Abs("seed", "seed"),
        ],
    },
    Map {
        gr: "analog_quadrature_demod_cf",
        rf: "quadrature_demod",
        params: &[P::Expr("gain", "gain")],
    },
    Map {
        gr: "analog_random_uniform_source_x",
        rf: "random_uniform_source",
        params: &[
            T,
            P::Expr("minimum", "minimum"),
            P::Expr("maximum", "maximum"),
            P::Abs("seed", "seed"),
        ],
    },
    Map {
        gr: "analog_random_source_x",
        rf: "random_source",
        params: &[
            T,
            P::Expr("min", "min"),
            P::Expr("max", "max"),
            P::Expr("num_samps", "num_samps"),
            P::Expr("repeat", "repeat"),
        ],
    },
    Map {
        gr: "analog_sig_source_x",
        rf: "sig_source",
        params: &[
            T,
            P::Expr("samp_rate", "sample_rate"),
            P::Enum(
                "waveform",
                "waveform",
                &[
                    ("analog.GR_CONST_WAVE", "constant"),
                    ("analog.GR_SIN_WAVE", "sine"),
                    ("analog.GR_COS_WAVE", "cosine"),
                    ("analog.GR_SQR_WAVE", "square"),
                    ("analog.GR_TRI_WAVE", "triangle"),
                    ("analog.GR_SAW_WAVE", "sawtooth"),
                ],
            ),
            P::Expr("freq", "frequency"),
            P::Expr("amp", "amplitude"),
            P::Expr("offset", "offset"),
            P::Expr("phase", "phase"),
        ],
    },
    Map {
        gr: "analog_wfm_rcv",
        rf: "wfm_rcv",
        params: &[
            P::Expr("quad_rate", "quad_rate"),
            P::Expr("audio_decimation", "audio_decimation"),
        ],
    },
];
