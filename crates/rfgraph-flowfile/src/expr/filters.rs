//! GNU Radio's filter designer in expressions: `firdes.low_pass(gain,
//! sampling_freq, cutoff_freq, transition_width, window=..., param=...)`
//! and its siblings with GNU Radio's argument names and defaults (`beta`
//! accepted for `param`), and `window.build(type, ntaps, param)`, computed
//! by `rfgraph_dsp::firdes`. Owns the argument binding; the designs are
//! the DSP crate's.

use super::builtins::{Arg, Call, arg_type, count, real};
use super::error::{ExprError, ExprErrorKind};
use super::value::Value;
use num_complex::Complex32;
use rfgraph_dsp::firdes::{self, WinType};

/// The `firdes` functions.
pub(crate) const FUNCTIONS: &[&str] = &[
    "low_pass",
    "low_pass_2",
    "high_pass",
    "high_pass_2",
    "band_pass",
    "band_pass_2",
    "band_reject",
    "band_reject_2",
    "complex_band_pass",
    "complex_band_pass_2",
    "complex_band_reject",
    "complex_band_reject_2",
    "root_raised_cosine",
    "gaussian",
    "hilbert",
    "window",
];

const ALIASES: &[(&str, &str)] = &[
    ("beta", "param"),
    ("fs", "sampling_freq"),
    ("sampling_rate", "sampling_freq"),
    ("samp_rate", "sampling_freq"),
    ("attenuation_db", "attenuation_dB"),
    ("windowtype", "window"),
    ("window_type", "window"),
    ("type", "window"),
];

fn win(function: &str, a: Option<&Arg>, default: WinType) -> Result<WinType, ExprError> {
    let Some(a) = a else { return Ok(default) };
    let bad = |msg: String| ExprError::new(ExprErrorKind::Value(msg), a.span.clone());
    match &a.value {
        Value::Int(code) => i32::try_from(*code)
            .ok()
            .and_then(|c| WinType::from_code(c).ok())
            .ok_or_else(|| bad(format!("no window type {code} (0..=15)"))),
        Value::Str(s) => {
            WinType::from_gr_name(s).ok_or_else(|| bad(format!("unknown window `{s}`")))
        }
        _ => Err(arg_type(function, "a window (firdes.WIN_*)", a)),
    }
}

fn floats(taps: Vec<f32>) -> Value {
    Value::List(
        taps.into_iter()
            .map(|t| Value::Float(f64::from(t)))
            .collect(),
    )
}

fn complexes(taps: Vec<Complex32>) -> Value {
    Value::List(
        taps.into_iter()
            .map(|t| {
                Value::Complex(num_complex::Complex64::new(
                    f64::from(t.re),
                    f64::from(t.im),
                ))
            })
            .collect(),
    )
}

/// `firdes.f(...)`.
pub(crate) fn firdes(f: &str, call: Call) -> Result<Value, ExprError> {
    let name = format!("firdes.{f}");
    let dsp = |e: rfgraph_dsp::DspError| call.error(ExprErrorKind::Value(format!("{name}: {e}")));
    let num = |a: Option<&Arg>, default: f64| a.map_or(Ok(default), |a| real(&name, a));
    let p = firdes::DEFAULT_PARAM;
    // (params, required) for each shape of signature.
    const ONE_EDGE: &[&str] = &[
        "gain",
        "sampling_freq",
        "cutoff_freq",
        "transition_width",
        "window",
        "param",
    ];
    const ONE_EDGE_2: &[&str] = &[
        "gain",
        "sampling_freq",
        "cutoff_freq",
        "transition_width",
        "attenuation_dB",
        "window",
        "param",
    ];
    const TWO_EDGES: &[&str] = &[
        "gain",
        "sampling_freq",
        "low_cutoff_freq",
        "high_cutoff_freq",
        "transition_width",
        "window",
        "param",
    ];
    const TWO_EDGES_2: &[&str] = &[
        "gain",
        "sampling_freq",
        "low_cutoff_freq",
        "high_cutoff_freq",
        "transition_width",
        "attenuation_dB",
        "window",
        "param",
    ];
    match f {
        "low_pass" | "high_pass" => {
            let a = call.bind(ONE_EDGE, 4, ALIASES)?;
            let (g, fs, fc, tw) = (
                num(a[0], 0.0)?,
                num(a[1], 0.0)?,
                num(a[2], 0.0)?,
                num(a[3], 0.0)?,
            );
            let w = win(&name, a[4], WinType::Hamming)?;
            let param = num(a[5], p)?;
            let design = if f == "low_pass" {
                firdes::low_pass
            } else {
                firdes::high_pass
            };
            design(g, fs, fc, tw, w, param).map(floats).map_err(dsp)
        }
        "low_pass_2" | "high_pass_2" => {
            let a = call.bind(ONE_EDGE_2, 5, ALIASES)?;
            let (g, fs, fc, tw, att) = (
                num(a[0], 0.0)?,
                num(a[1], 0.0)?,
                num(a[2], 0.0)?,
                num(a[3], 0.0)?,
                num(a[4], 0.0)?,
            );
            let w = win(&name, a[5], WinType::Hamming)?;
            let param = num(a[6], p)?;
            let design = if f == "low_pass_2" {
                firdes::low_pass_2
            } else {
                firdes::high_pass_2
            };
            design(g, fs, fc, tw, att, w, param)
                .map(floats)
                .map_err(dsp)
        }
        "band_pass" | "band_reject" | "complex_band_pass" | "complex_band_reject" => {
            let a = call.bind(TWO_EDGES, 5, ALIASES)?;
            let (g, fs, lo, hi, tw) = (
                num(a[0], 0.0)?,
                num(a[1], 0.0)?,
                num(a[2], 0.0)?,
                num(a[3], 0.0)?,
                num(a[4], 0.0)?,
            );
            let w = win(&name, a[5], WinType::Hamming)?;
            let param = num(a[6], p)?;
            match f {
                "band_pass" => firdes::band_pass(g, fs, lo, hi, tw, w, param).map(floats),
                "band_reject" => firdes::band_reject(g, fs, lo, hi, tw, w, param).map(floats),
                "complex_band_pass" => {
                    firdes::complex_band_pass(g, fs, lo, hi, tw, w, param).map(complexes)
                }
                _ => firdes::complex_band_reject(g, fs, lo, hi, tw, w, param).map(complexes),
            }
            .map_err(dsp)
        }
        "band_pass_2" | "band_reject_2" | "complex_band_pass_2" | "complex_band_reject_2" => {
            let a = call.bind(TWO_EDGES_2, 6, ALIASES)?;
            let (g, fs, lo, hi, tw, att) = (
                num(a[0], 0.0)?,
                num(a[1], 0.0)?,
                num(a[2], 0.0)?,
                num(a[3], 0.0)?,
                num(a[4], 0.0)?,
                num(a[5], 0.0)?,
            );
            let w = win(&name, a[6], WinType::Hamming)?;
            let param = num(a[7], p)?;
            match f {
                "band_pass_2" => firdes::band_pass_2(g, fs, lo, hi, tw, att, w, param).map(floats),
                "band_reject_2" => {
                    firdes::band_reject_2(g, fs, lo, hi, tw, att, w, param).map(floats)
                }
                "complex_band_pass_2" => {
                    firdes::complex_band_pass_2(g, fs, lo, hi, tw, att, w, param).map(complexes)
                }
                _ => firdes::complex_band_reject_2(g, fs, lo, hi, tw, att, w, param).map(complexes),
            }
            .map_err(dsp)
        }
        "root_raised_cosine" => {
            let a = call.bind(
                &["gain", "sampling_freq", "symbol_rate", "alpha", "ntaps"],
                5,
                ALIASES,
            )?;
            let ntaps = a[4].map_or(Ok(0), |n| count(&name, n))?;
            firdes::root_raised_cosine(
                num(a[0], 0.0)?,
                num(a[1], 0.0)?,
                num(a[2], 0.0)?,
                num(a[3], 0.0)?,
                ntaps,
            )
            .map(floats)
            .map_err(dsp)
        }
        "gaussian" => {
            let a = call.bind(&["gain", "spb", "bt", "ntaps"], 4, ALIASES)?;
            let ntaps = a[3].map_or(Ok(0), |n| count(&name, n))?;
            firdes::gaussian(num(a[0], 0.0)?, num(a[1], 0.0)?, num(a[2], 0.0)?, ntaps)
                .map(floats)
                .map_err(dsp)
        }
        "hilbert" => {
            let a = call.bind(&["ntaps", "window", "param"], 0, ALIASES)?;
            let ntaps = a[0].map_or(Ok(19), |n| count(&name, n))?;
            let w = win(&name, a[1], WinType::Rectangular)?;
            firdes::hilbert(ntaps, w, num(a[2], p)?)
                .map(floats)
                .map_err(dsp)
        }
        "window" => build_window(&name, &call, None),
        _ => Err(call.error(ExprErrorKind::UnknownName {
            name,
            suggest: None,
        })),
    }
}

fn build_window(name: &str, call: &Call, fixed: Option<WinType>) -> Result<Value, ExprError> {
    let dsp = |e: rfgraph_dsp::DspError| call.error(ExprErrorKind::Value(format!("{name}: {e}")));
    let (w, ntaps, param) = match fixed {
        None => {
            let a = call.bind(&["window", "ntaps", "param"], 2, ALIASES)?;
            let w = win(name, a[0], WinType::Hamming)?;
            let n = a[1].map_or(Ok(0), |n| count(name, n))?;
            let p = a[2].map_or(Ok(firdes::DEFAULT_PARAM), |a| real(name, a))?;
            (w, n, p)
        }
        Some(w) => {
            let a = call.bind(&["ntaps", "param"], 1, ALIASES)?;
            let n = a[0].map_or(Ok(0), |n| count(name, n))?;
            let p = a[1].map_or(Ok(firdes::DEFAULT_PARAM), |a| real(name, a))?;
            (w, n, p)
        }
    };
    firdes::window(w, ntaps, param).map(floats).map_err(dsp)
}

/// `window.f(...)`: `build(type, ntaps, param)` or a window by name.
pub(crate) fn window(f: &str, call: Call) -> Result<Value, ExprError> {
    let name = format!("window.{f}");
    let fixed = match f {
        "build" => None,
        "hamming" => Some(WinType::Hamming),
        "hann" | "hanning" => Some(WinType::Hann),
        "blackman" => Some(WinType::Blackman),
        "rectangular" => Some(WinType::Rectangular),
        "kaiser" => Some(WinType::Kaiser),
        // GNU Radio has both spellings (the default window of `fft_vxx`
        // is `window.blackmanharris(fft_len)`).
        "blackman_harris" | "blackmanharris" => Some(WinType::BlackmanHarris),
        "bartlett" => Some(WinType::Bartlett),
        "flattop" => Some(WinType::Flattop),
        _ => {
            return Err(call.error(ExprErrorKind::UnknownName {
                name,
                suggest: None,
            }));
        }
    };
    build_window(&name, &call, fixed)
}
