//! GNU Radio's window types (`fft.window.win_type`) as firdes uses them: each
//! window's formula, the "max attenuation" that sets a design's tap count,
//! and the window parameter (Kaiser β, exponential decay, Gaussian σ, Tukey
//! α). Owns these rules only; the designs live in the sibling modules.
//!
//! Values follow GNU Radio 3.10's definitions, quirks included (the Riemann
//! and Welch windows are not the textbook ones there), so designs ported from
//! GNU Radio come out the same; they are computed in `f64` (GNU Radio rounds
//! windows to `f32`).

use crate::DspError;
use crate::window::bessel_i0;
use core::f64::consts::PI;

/// A GNU Radio window type. [`code`](Self::code) is GNU Radio's integer value
/// and [`from_gr_name`](Self::from_gr_name) reads its `WIN_*` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WinType {
    /// Hamming; 53 dB.
    Hamming,
    /// Hann; 44 dB.
    Hann,
    /// Blackman; 74 dB.
    Blackman,
    /// Rectangular (no window); 21 dB.
    Rectangular,
    /// Kaiser with `param` = β; `β / 0.1102 + 8.7` dB.
    Kaiser,
    /// Four-term Blackman–Harris; 92 dB.
    BlackmanHarris,
    /// Bartlett (triangular, zero at both ends); 27 dB.
    Bartlett,
    /// Flat top; 93 dB.
    Flattop,
    /// Nuttall (also GNU Radio's `WIN_BLACKMAN_NUTTALL`); 114 dB.
    Nuttall,
    /// Nuttall with continuous first derivative; 112 dB.
    NuttallCfd,
    /// Welch (parabolic); 31 dB.
    Welch,
    /// Parzen; 56 dB.
    Parzen,
    /// Exponential with `param` = decay `d` (≥ 0); 26 dB.
    Exponential,
    /// Riemann (sinc lobe); 39 dB.
    Riemann,
    /// Gaussian with `param` = σ in samples (> 0); GNU Radio says 100 dB.
    Gaussian,
    /// Tukey (tapered cosine) with `param` = α in `[0, 1]`; 21..165 dB.
    Tukey,
}

const ALL: [WinType; 16] = [
    WinType::Hamming,
    WinType::Hann,
    WinType::Blackman,
    WinType::Rectangular,
    WinType::Kaiser,
    WinType::BlackmanHarris,
    WinType::Bartlett,
    WinType::Flattop,
    WinType::Nuttall,
    WinType::NuttallCfd,
    WinType::Welch,
    WinType::Parzen,
    WinType::Exponential,
    WinType::Riemann,
    WinType::Gaussian,
    WinType::Tukey,
];

impl WinType {
    /// GNU Radio's `win_type` value (`WIN_HAMMING = 0` .. `WIN_TUKEY = 15`).
    pub fn code(self) -> i32 {
        ALL.iter().position(|&w| w == self).unwrap_or(0) as i32
    }

    /// The window with GNU Radio `win_type` value `code`.
    ///
    /// Errors: no such window (including GNU Radio's `WIN_NONE = -1`).
    pub fn from_code(code: i32) -> Result<WinType, DspError> {
        usize::try_from(code)
            .ok()
            .and_then(|i| ALL.get(i).copied())
            .ok_or(DspError::OutOfRange {
                name: "window",
                value: code as f64,
                expected: "a GNU Radio win_type in 0..=15",
            })
    }

    /// The window GNU Radio calls `name` (`"WIN_HAMMING"`, with or without a
    /// `window.` / `fft.window.` prefix; the aliases `WIN_HANNING`,
    /// `WIN_BLACKMAN_hARRIS` and `WIN_BLACKMAN_NUTTALL` too).
    pub fn from_gr_name(name: &str) -> Option<WinType> {
        let name = name.rsplit('.').next().unwrap_or(name);
        Some(match name {
            "WIN_HAMMING" => WinType::Hamming,
            "WIN_HANN" | "WIN_HANNING" => WinType::Hann,
            "WIN_BLACKMAN" => WinType::Blackman,
            "WIN_RECTANGULAR" => WinType::Rectangular,
            "WIN_KAISER" => WinType::Kaiser,
            "WIN_BLACKMAN_HARRIS" | "WIN_BLACKMAN_hARRIS" => WinType::BlackmanHarris,
            "WIN_BARTLETT" => WinType::Bartlett,
            "WIN_FLATTOP" => WinType::Flattop,
            "WIN_NUTTALL" | "WIN_BLACKMAN_NUTTALL" => WinType::Nuttall,
            "WIN_NUTTALL_CFD" => WinType::NuttallCfd,
            "WIN_WELCH" => WinType::Welch,
            "WIN_PARZEN" => WinType::Parzen,
            "WIN_EXPONENTIAL" => WinType::Exponential,
            "WIN_RIEMANN" => WinType::Riemann,
            "WIN_GAUSSIAN" => WinType::Gaussian,
            "WIN_TUKEY" => WinType::Tukey,
            _ => return None,
        })
    }

    /// Checks `param` for the windows that use it.
    fn check_param(self, param: f64) -> Result<(), DspError> {
        let ok = match self {
            WinType::Kaiser | WinType::Exponential => param >= 0.0,
            WinType::Gaussian => param > 0.0,
            WinType::Tukey => (0.0..=1.0).contains(&param),
            _ => return Ok(()),
        };
        DspError::finite("param", param)?;
        if ok {
            Ok(())
        } else {
            Err(DspError::OutOfRange {
                name: "param",
                value: param,
                expected: "Kaiser/exponential >= 0, Gaussian > 0, Tukey in [0, 1]",
            })
        }
    }

    /// The stop-band attenuation (dB) GNU Radio credits this window with;
    /// it sets the tap count of the `firdes` designs.
    ///
    /// Errors: an invalid `param` for the windows that use it.
    pub fn max_attenuation(self, param: f64) -> Result<f64, DspError> {
        self.check_param(param)?;
        Ok(match self {
            WinType::Hamming => 53.0,
            WinType::Hann => 44.0,
            WinType::Blackman => 74.0,
            WinType::Rectangular => 21.0,
            WinType::Kaiser => param / 0.1102 + 8.7,
            WinType::BlackmanHarris => 92.0,
            WinType::Bartlett => 27.0,
            WinType::Flattop => 93.0,
            WinType::Nuttall => 114.0,
            WinType::NuttallCfd => 112.0,
            WinType::Welch => 31.0,
            WinType::Parzen => 56.0,
            WinType::Exponential => 26.0,
            WinType::Riemann => 39.0,
            WinType::Gaussian => 100.0,
            // GNU Radio's piecewise-linear fit, never below the truth.
            WinType::Tukey if param > 0.9 => (param - 0.9) * 135.0 + 30.5,
            WinType::Tukey if param > 0.7 => (param - 0.6) * 20.0 + 24.0,
            WinType::Tukey => param * 5.0 + 21.0,
        })
    }

    /// The `ntaps`-point window (GNU Radio's `window::build`), in `f64`. A
    /// single point is `[1]`.
    ///
    /// Errors: an invalid `param`, or more than 2^24 points.
    pub fn build(self, ntaps: usize, param: f64) -> Result<Vec<f64>, DspError> {
        self.check_param(param)?;
        if ntaps > 0 {
            DspError::tap_count("ntaps", ntaps)?;
        }
        if ntaps <= 1 {
            return Ok(vec![1.0; ntaps]);
        }
        Ok((0..ntaps).map(|i| self.value(i, ntaps, param)).collect())
    }

    /// Point `i` of an `n`-point window (`n >= 2`).
    fn value(self, i: usize, n: usize, param: f64) -> f64 {
        let nf = n as f64;
        let m = nf - 1.0;
        let x = i as f64;
        // Distance from the centre, and the index mirrored into the first half.
        let centre = x - m / 2.0;
        let half = i.min(n - 1 - i) as f64;
        let cos_sum = |c: &[f64]| -> f64 {
            c.iter()
                .enumerate()
                .map(|(k, &ck)| {
                    let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
                    sign * ck * (2.0 * PI * k as f64 * x / m).cos()
                })
                .sum()
        };
        match self {
            WinType::Hamming => cos_sum(&[0.54, 0.46]),
            WinType::Hann => cos_sum(&[0.5, 0.5]),
            WinType::Blackman => cos_sum(&[0.42, 0.5, 0.08]),
            WinType::Rectangular => 1.0,
            WinType::Kaiser => {
                let r = 2.0 * x / m - 1.0;
                bessel_i0(param * (1.0 - r * r).max(0.0).sqrt()) / bessel_i0(param)
            }
            WinType::BlackmanHarris => cos_sum(&[0.35875, 0.48829, 0.14128, 0.01168]),
            WinType::Bartlett => {
                if i < n / 2 {
                    2.0 * x / m
                } else {
                    2.0 - 2.0 * x / m
                }
            }
            WinType::Flattop => {
                let s = 4.63867;
                cos_sum(&[1.0 / s, 1.93 / s, 1.29 / s, 0.388 / s, 0.028 / s])
            }
            WinType::Nuttall => cos_sum(&[0.3635819, 0.4891775, 0.1365995, 0.0106411]),
            WinType::NuttallCfd => cos_sum(&[0.355768, 0.487396, 0.144232, 0.012604]),
            // Normalised by (n + 1) / 2, so it never reaches 0.
            WinType::Welch => 1.0 - (centre / ((nf + 1.0) / 2.0)).powi(2),
            WinType::Parzen => {
                let r = centre.abs() / (nf / 2.0);
                let outer = 3 * n / 4;
                if i >= outer || n - 1 - i >= outer {
                    2.0 * (1.0 - r).powi(3)
                } else {
                    1.0 - 6.0 * r * r * (1.0 - r)
                }
            }
            WinType::Exponential => (-centre.abs() * 2.0 * param / (8.69 * nf)).exp(),
            // sin(c)/c with c = 2π (half − n/2) / n (never 0: half < n/2).
            WinType::Riemann => {
                let c = 2.0 * PI / nf * (half - nf / 2.0);
                c.sin() / c
            }
            WinType::Gaussian => (-(centre * centre) / (2.0 * param * param)).exp(),
            WinType::Tukey => {
                let an = param * m;
                if half < an / 2.0 {
                    0.5 * (1.0 - (2.0 * PI * half / an).cos())
                } else {
                    1.0
                }
            }
        }
    }
}

/// The `ntaps`-point window `window` with parameter `param`, as `f32` (GNU
/// Radio's `firdes.window`).
///
/// Errors: as [`WinType::build`].
pub fn window(window: WinType, ntaps: usize, param: f64) -> Result<Vec<f32>, DspError> {
    Ok(window
        .build(ntaps, param)?
        .into_iter()
        .map(|v| v as f32)
        .collect())
}
