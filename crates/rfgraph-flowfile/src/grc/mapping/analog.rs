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
        params: &[T],
    },
    Map {
        gr: "analog_agc2_xx",
        rf: "agc2",
        params: &[T],
    },
    Map {
        gr: "analog_agc_xx",
        rf: "agc",
        params: &[T],
    },
    // GNU Radio's fast noise source draws from a pool of `samples`
    // precomputed values, as rfgraph's `fastnoise_source` does.
    Map {
        gr: "analog_fastnoise_source_x",
        rf: "fastnoise_source",
        params: &[
            T,
            P::Enum("noise_type", "kind", NOISE),
            P::Expr("seed", "seed"),
            // GNU Radio's users compare outputs sample by sample.
            P::Fixed("generator", "gnuradio"),
        ],
    },
    Map {
        gr: "analog_fm_deemph",
        rf: "fm_deemph",
        params: &[],
    },
    Map {
        gr: "analog_fm_preemph",
        rf: "fm_preemph",
        params: &[],
    },
    Map {
        gr: "analog_frequency_modulator_fc",
        rf: "frequency_modulator",
        params: &[],
    },
    Map {
        gr: "analog_noise_source_x",
        rf: "noise_source",
        params: &[
            T,
            P::Enum("noise_type", "kind", NOISE),
            P::Expr("seed", "seed"),
            // GNU Radio's users compare outputs sample by sample.
            P::Fixed("generator", "gnuradio"),
        ],
    },
    Map {
        gr: "analog_quadrature_demod_cf",
        rf: "quadrature_demod",
        params: &[],
    },
    Map {
        gr: "analog_random_uniform_source_x",
        rf: "random_uniform_source",
        params: &[T, P::Abs("seed", "seed")],
    },
    Map {
        gr: "analog_random_source_x",
        rf: "random_source",
        params: &[T],
    },
    Map {
        gr: "analog_simple_squelch_cc",
        rf: "simple_squelch",
        params: &[],
    },
    Map {
        gr: "analog_sig_source_x",
        rf: "sig_source",
        params: &[
            T,
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
        ],
    },
    Map {
        gr: "analog_wfm_tx",
        rf: "wfm_tx",
        params: &[],
    },
    Map {
        gr: "analog_wfm_rcv",
        rf: "wfm_rcv",
        params: &[],
    },
];
