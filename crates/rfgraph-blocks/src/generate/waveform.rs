//! The waveforms of [`SignalSource`](super::SignalSource) and how each item
//! type renders them from the oscillator's phase, following GNU Radio's
//! `sig_source` definitions (3.10). Owns the per-sample formulas; never
//! touches ports or settings.
//!
//! The phase `φ` of a sample lies in `[−π, π)`. Real output:
//!
//! | waveform | value |
//! |---|---|
//! | constant | `A + offset` |
//! | sine / cosine | `A sin φ + offset` / `A cos φ + offset` |
//! | square | `A + offset` while `φ < 0`, `offset` otherwise |
//! | triangle | rises from `offset` (`φ = −π`) to `A + offset` (`φ = 0`), falls back by `φ = π` |
//! | sawtooth | `A φ / 2π + A/2 + offset`: rises from `offset` to `A + offset` |
//!
//! Complex output: constant is `A + offset` (real `A`); sine and cosine are
//! both `A e^{jφ} + offset`; square, triangle and sawtooth carry the real
//! waveform in the real part and the same waveform a quarter period
//! earlier (leading by 90°) in the imaginary part, exactly as GNU Radio
//! builds them.
//!
//! GNU Radio evaluates the non-sinusoidal waveforms on its fixed-point
//! phase converted to `f32` (`p · π_f32 / 2^31`), and so does this module,
//! so those waveforms match it value for value at equal phase words.

use num_complex::Complex32;
use rfgraph::params::ParamChoice;
use rfgraph::{Item, ParamError};
use rfgraph_dsp::Nco;
use std::f64::consts::{FRAC_PI_2, PI, TAU};
use std::fmt;
use std::str::FromStr;

/// The shape of a [`SignalSource`](super::SignalSource)'s output. As a
/// parameter it is the variant's name in any case; GNU Radio's constant
/// names (`GR_SIN_WAVE`, ...) and short forms (`sin`, `saw`) parse too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum Waveform {
    /// `amplitude + offset`, for ever.
    #[choice(alias = "const", alias = "gr_const_wave")]
    Constant,
    /// `amplitude · sin φ + offset` (complex: `amplitude · e^{jφ} + offset`).
    #[choice(alias = "sin", alias = "gr_sin_wave")]
    Sine,
    /// `amplitude · cos φ + offset` (complex: `amplitude · e^{jφ} + offset`).
    #[choice(alias = "cos", alias = "gr_cos_wave")]
    Cosine,
    /// High (`amplitude + offset`) for the first half of each period.
    #[choice(alias = "sqr", alias = "gr_sqr_wave")]
    Square,
    /// Rising over the first half period, falling over the second.
    #[choice(alias = "tri", alias = "gr_tri_wave")]
    Triangle,
    /// Rising over the whole period, then back at once.
    #[choice(alias = "saw", alias = "gr_saw_wave")]
    Sawtooth,
}

impl Waveform {
    /// Every waveform, in GNU Radio's order.
    pub const ALL: [Waveform; 6] = [
        Waveform::Constant,
        Waveform::Sine,
        Waveform::Cosine,
        Waveform::Square,
        Waveform::Triangle,
        Waveform::Sawtooth,
    ];

    /// The name the `waveform` parameter and flowgraph files use.
    pub fn name(self) -> &'static str {
        self.choice_name()
    }
}

impl fmt::Display for Waveform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a waveform.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown waveform `{0}` (expected constant, sine, cosine, square, triangle or sawtooth)")]
pub struct UnknownWaveform(pub String);

impl FromStr for Waveform {
    type Err = UnknownWaveform;

    /// The [`name`](Waveform::name) or an alias, in any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Waveform::from_choice(s).ok_or_else(|| UnknownWaveform(s.to_string()))
    }
}

/// Phase words per pass of the non-sinusoidal waveforms (a stack buffer).
const PHASES: usize = 256;

/// GNU Radio's `fxpt::fixed_to_float`: the phase word as radians in
/// `[−π, π)`, computed in `f32` as GNU Radio does.
#[inline(always)]
fn gr_phase(p: u32) -> f64 {
    ((p as i32) as f32 * (std::f32::consts::PI / 2_147_483_648.0)) as f64
}

/// Calls `each(phase_words)` over `out.len()` samples of `nco`, in passes
/// of at most [`PHASES`], with the matching part of `out`.
#[inline(always)]
fn by_phase<T>(nco: &mut Nco, out: &mut [T], mut each: impl FnMut(&[u32], &mut [T])) {
    let mut words = [0u32; PHASES];
    for chunk in out.chunks_mut(PHASES) {
        let w = &mut words[..chunk.len()];
        nco.generate_phases(w);
        each(w, chunk);
    }
}

pub(crate) mod sealed {
    /// Keeps [`SignalItem`](super::SignalItem) implemented here only.
    pub trait Sealed {}
}

/// An item type [`SignalSource`](super::SignalSource) can produce: `f32`
/// or [`Complex32`].
pub trait SignalItem: Item + sealed::Sealed {
    /// Fills `out` with the next samples of `wave` on `nco` (advancing it
    /// by `out.len()` samples).
    #[doc(hidden)]
    fn render(wave: Waveform, amplitude: f64, offset: Self, nco: &mut Nco, out: &mut [Self]);

    /// The `offset` parameter as this item, or why it cannot be one.
    #[doc(hidden)]
    fn from_offset(offset: Complex32) -> Result<Self, ParamError>;
}

impl sealed::Sealed for f32 {}

impl SignalItem for f32 {
    fn render(wave: Waveform, ampl: f64, offset: f32, nco: &mut Nco, out: &mut [f32]) {
        let off = offset as f64;
        match wave {
            Waveform::Constant => {
                out.fill(ampl as f32 + offset);
                nco.advance(out.len() as u64);
            }
            Waveform::Sine | Waveform::Cosine => {
                if wave == Waveform::Sine {
                    nco.generate_sin(out);
                } else {
                    nco.generate_cos(out);
                }
                for o in out.iter_mut() {
                    *o = (*o as f64 * ampl) as f32 + offset;
                }
            }
            Waveform::Square => {
                let high = ampl as f32 + offset;
                by_phase(nco, out, |w, o| {
                    for (o, &p) in o.iter_mut().zip(w) {
                        *o = if (p as i32) < 0 { high } else { offset };
                    }
                });
            }
            Waveform::Triangle => by_phase(nco, out, |w, o| {
                for (o, &p) in o.iter_mut().zip(w) {
                    let t = ampl * gr_phase(p) / PI;
                    let t = if (p as i32) < 0 { t } else { -t };
                    *o = (t + ampl + off) as f32;
                }
            }),
            Waveform::Sawtooth => by_phase(nco, out, |w, o| {
                for (o, &p) in o.iter_mut().zip(w) {
                    *o = (ampl * gr_phase(p) / TAU + ampl / 2.0 + off) as f32;
                }
            }),
        }
    }

    fn from_offset(offset: Complex32) -> Result<Self, ParamError> {
        if offset.im != 0.0 {
            return Err(ParamError::new(
                "SignalSource",
                "offset",
                format!("a real source takes a real offset, not {offset}"),
            ));
        }
        Ok(offset.re)
    }
}

impl sealed::Sealed for Complex32 {}

/// `Complex32` from two `f64` parts, each rounded to `f32` (GNU Radio's
/// `gr_complex(double, double)`).
#[inline(always)]
fn c(re: f64, im: f64) -> Complex32 {
    Complex32::new(re as f32, im as f32)
}

impl SignalItem for Complex32 {
    fn render(wave: Waveform, a: f64, offset: Complex32, nco: &mut Nco, out: &mut [Complex32]) {
        match wave {
            Waveform::Constant => {
                out.fill(Complex32::new(a as f32, 0.0) + offset);
                nco.advance(out.len() as u64);
            }
            Waveform::Sine | Waveform::Cosine => {
                nco.generate(out);
                for o in out.iter_mut() {
                    *o = c(o.re as f64 * a, o.im as f64 * a) + offset;
                }
            }
            Waveform::Square => by_phase(nco, out, |w, o| {
                let (high, low) = (a as f32, 0.0);
                for (o, &p) in o.iter_mut().zip(w) {
                    let ph = gr_phase(p);
                    let re = if ph < 0.0 { high } else { low };
                    let im = if (-FRAC_PI_2..FRAC_PI_2).contains(&ph) {
                        high
                    } else {
                        low
                    };
                    *o = Complex32::new(re, im) + offset;
                }
            }),
            Waveform::Triangle => by_phase(nco, out, |w, o| {
                for (o, &p) in o.iter_mut().zip(w) {
                    let t = a * gr_phase(p) / PI;
                    let ph = gr_phase(p);
                    *o = if ph < -FRAC_PI_2 {
                        c(t + a, -t - a / 2.0)
                    } else if ph < 0.0 {
                        c(t + a, t + a / 2.0)
                    } else if ph < FRAC_PI_2 {
                        c(-t + a, t + a / 2.0)
                    } else {
                        c(-t + a, -t + 3.0 * a / 2.0)
                    } + offset;
                }
            }),
            Waveform::Sawtooth => by_phase(nco, out, |w, o| {
                for (o, &p) in o.iter_mut().zip(w) {
                    let t = a * gr_phase(p) / TAU;
                    let lead = if gr_phase(p) < -FRAC_PI_2 { 5.0 } else { 1.0 };
                    *o = c(t + a / 2.0, t + lead * a / 4.0) + offset;
                }
            }),
        }
    }

    fn from_offset(offset: Complex32) -> Result<Self, ParamError> {
        Ok(offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_gnu_radio_names_parse() {
        for w in Waveform::ALL {
            assert_eq!(w.name().parse::<Waveform>(), Ok(w));
            assert_eq!(w.to_string().to_uppercase().parse::<Waveform>(), Ok(w));
        }
        assert_eq!("GR_SAW_WAVE".parse::<Waveform>(), Ok(Waveform::Sawtooth));
        let e = "noise".parse::<Waveform>().unwrap_err();
        assert!(e.to_string().contains("`noise`"), "{e}");
    }

    #[test]
    fn the_gnu_radio_phase_covers_minus_pi_to_pi() {
        assert_eq!(gr_phase(0), 0.0);
        assert_eq!(gr_phase(0x8000_0000), -(std::f32::consts::PI as f64));
        assert!(gr_phase(0x7FFF_FFFF) > PI - 1e-6);
        assert!(gr_phase(0xC000_0000) < -FRAC_PI_2, "GNU Radio's π_f32 > π");
    }
}
