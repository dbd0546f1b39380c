//! GNU Radio's `filter` module: FIR filters, filter designers and
//! resamplers.

use super::{Map, P};

/// `fff`/`ccf`/`ccc` of the FIR blocks: the stream type (complex streams
/// take real or complex taps; `fcc` has no rfgraph form).
/// (`pfb_arb_resampler_xxx`'s `atten` designs the prototype when no taps
/// are given, in GNU Radio as here, though the designs differ.)
const FIR_TYPE: P = P::Enum(
    "type",
    "type",
    &[("fff", "f32"), ("ccf", "c32"), ("ccc", "c32")],
);

/// `fff`/`ccf` of the resamplers: real taps on real or complex streams.
/// The resamplers' types: real or complex taps on complex items are both
/// `c32` (their taps take either); `fcc` (real in, complex out) has no
/// rfgraph form.
const RESAMPLER_TYPE: P = P::Enum(
    "type",
    "type",
    &[("fff", "f32"), ("ccf", "c32"), ("ccc", "c32")],
);

/// `fir_filter_ccf`/`interp_fir_filter_fff`/... of the designer blocks.
const DESIGN_TYPE: P = P::Enum(
    "type",
    "type",
    &[
        ("fir_filter_ccf", "c32"),
        ("interp_fir_filter_ccf", "c32"),
        ("fir_filter_fff", "f32"),
        ("interp_fir_filter_fff", "f32"),
        ("fir_filter_ccc", "c32"),
        ("interp_fir_filter_ccc", "c32"),
    ],
);

const DECIM: P = P::Only {
    when: "type",
    prefix: "fir",
    gr: "decim",
    rf: "decimation",
};
const INTERP: P = P::Only {
    when: "type",
    prefix: "interp",
    gr: "interp",
    rf: "interpolation",
};

const WINDOW: P = P::Enum(
    "win",
    "window",
    &[
        ("window.WIN_HAMMING", "hamming"),
        ("window.WIN_HANN", "hann"),
        ("window.WIN_BLACKMAN", "blackman"),
        ("window.WIN_RECTANGULAR", "rectangular"),
        ("window.WIN_KAISER", "kaiser"),
    ],
);

/// `firdes.root_raised_cosine(gain, samp_rate, sym_rate, alpha, ntaps)`:
/// the taps GNU Radio's RRC filter blocks design (defaults: their YAML's).
const RRC_TAPS: P = P::Call {
    rf: "taps",
    func: "firdes.root_raised_cosine",
    args: &[
        ("gain", "1"),
        ("samp_rate", "samp_rate"),
        ("sym_rate", "1.0"),
        ("alpha", "0.35"),
        ("ntaps", "11*samp_rate"),
    ],
};

/// The entries.
pub(super) const MAPS: &[Map] = &[
    Map {
        gr: "mmse_resampler_xx",
        rf: "mmse_resampler",
        params: &[P::Type("type")],
    },
    Map {
        gr: "band_pass_filter",
        rf: "band_pass_filter",
        params: &[DESIGN_TYPE, DECIM, INTERP, WINDOW],
    },
    Map {
        gr: "band_reject_filter",
        rf: "band_reject_filter",
        params: &[DESIGN_TYPE, DECIM, INTERP, WINDOW],
    },
    Map {
        gr: "dc_blocker_xx",
        rf: "dc_blocker",
        params: &[P::Enum("type", "type", &[("cc", "c32"), ("ff", "f32")])],
    },
    Map {
        gr: "fft_filter_xxx",
        rf: "fft_filter",
        params: &[FIR_TYPE],
    },
    // The same taps as GNU Radio's FFT filter: the output agrees within
    // float rounding (rfgraph's designer filters pick their own method).
    Map {
        gr: "filter_fft_low_pass_filter",
        rf: "low_pass_filter",
        params: &[
            P::Enum(
                "type",
                "type",
                &[("ccc", "c32"), ("ccf", "c32"), ("fff", "f32")],
            ),
            P::Expr("decim", "decimation"),
            WINDOW,
        ],
    },
    // GNU Radio's `fft_filter_xxx` with `firdes.root_raised_cosine` taps:
    // the same taps (`nthreads` does not change the output).
    Map {
        gr: "filter_fft_rrc_filter",
        rf: "fft_filter",
        params: &[
            P::Enum(
                "type",
                "type",
                &[("ccc", "c32"), ("ccf", "c32"), ("fff", "f32")],
            ),
            P::Expr("decim", "decimation"),
            RRC_TAPS,
        ],
    },
    Map {
        gr: "fir_filter_xxx",
        rf: "fir_filter",
        params: &[FIR_TYPE],
    },
    Map {
        gr: "freq_xlating_fir_filter_xxx",
        rf: "freq_xlating_fir_filter",
        params: &[P::Enum("type", "type", &[("ccf", "c32"), ("ccc", "c32")])],
    },
    Map {
        gr: "high_pass_filter",
        rf: "high_pass_filter",
        params: &[DESIGN_TYPE, DECIM, INTERP, WINDOW],
    },
    Map {
        gr: "iir_filter_xxx",
        rf: "iir_filter",
        params: &[
            // Real taps only (GNU Radio's `ffd`, `ccf`, `ccd`).
            P::Enum(
                "type",
                "type",
                &[("ffd", "f32"), ("ccf", "c32"), ("ccd", "c32")],
            ),
        ],
    },
    Map {
        gr: "interp_fir_filter_xxx",
        rf: "interp_fir_filter",
        params: &[FIR_TYPE],
    },
    Map {
        gr: "low_pass_filter",
        rf: "low_pass_filter",
        params: &[DESIGN_TYPE, DECIM, INTERP, WINDOW],
    },
    Map {
        gr: "pfb_channelizer_ccf",
        rf: "pfb_channelizer",
        params: &[],
    },
    Map {
        gr: "pfb_channelizer_hier_ccf",
        rf: "pfb_channelizer_hier",
        // GNU Radio's `None` (design the taps, output every channel) is
        // rfgraph's empty list.
        params: &[
            P::Call {
                rf: "taps",
                func: "(lambda v: [] if v is None else v)",
                args: &[("taps", "None")],
            },
            P::Call {
                rf: "outchans",
                func: "(lambda v: [] if v is None else v)",
                args: &[("outchans", "None")],
            },
        ],
    },
    Map {
        gr: "pfb_arb_resampler_xxx",
        rf: "pfb_arb_resampler",
        params: &[RESAMPLER_TYPE],
    },
    Map {
        gr: "rational_resampler_xxx",
        rf: "rational_resampler",
        params: &[RESAMPLER_TYPE],
    },
    Map {
        gr: "single_pole_iir_filter_xx",
        rf: "single_pole_iir_filter",
        params: &[
            P::Enum("type", "type", &[("float", "f32"), ("complex", "c32")]),
            P::Vlen,
        ],
    },
];
