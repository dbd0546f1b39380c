//! The FM receiver's rates and filters, worked out from its configuration
//! before any block exists. Owns the numbers: the MPX rate, the channel
//! filter and its decimation, how the demodulated MPX reaches the MPX rate,
//! and how the audio filter reaches the audio rate. It designs taps and
//! never builds blocks (that is the `receiver` module's job).
//!
//! # Rates
//!
//! | stage | rate | why |
//! |---|---|---|
//! | input | `input_rate` ≥ 240 kS/s | whatever the file or device gives |
//! | channel filter (frequency-translating, decimating by `D = ⌊input_rate / 240 k⌋`) | `quad_rate = input_rate / D` ≥ 240 kS/s | the station's ±100 kHz survive; what folds back lands beyond them |
//! | quadrature demodulation and MPX equaliser | `quad_rate` | |
//! | MPX (resampled when `quad_rate` ≠ 240 kS/s) | [`MPX_RATE`] = 240 kS/s | an integer multiple of 48 kHz audio (÷5), 2.4 MS/s input (÷10) and 1.92 MS/s (÷8); holds the whole MPX (RDS ends at 59.4 kHz) with room for the filters |
//! | audio | `audio_rate` (48 kHz by default) | the 15 kHz audio filter decimates to it (÷5 for 48 kHz) or resamples |

use super::error::FmError;
use rfgraph_dsp::design;

/// The rate of the multiplex signal (MPX) between demodulator, stereo
/// decoder and RDS, samples per second.
pub const MPX_RATE: f64 = 240_000.0;

/// The lowest input rate the receiver takes, samples per second.
pub const MIN_INPUT_RATE: f64 = MPX_RATE;

/// The highest input rate the receiver takes, samples per second.
pub const MAX_INPUT_RATE: f64 = 1e9;

/// FM broadcast's peak deviation: the demodulator scales it to 1.0.
pub const DEVIATION_HZ: f64 = 75_000.0;

/// Half the channel the filter keeps: Carson's bandwidth of a stereo
/// station with RDS is about ±130 kHz, of which ±100 kHz carry all but a
/// small fraction of the power.
pub const CHANNEL_PASS_HZ: f64 = 100_000.0;

/// The channel filter's stop-band attenuation, dB.
const CHANNEL_ATTEN_DB: f64 = 60.0;

/// The audio filter's pass band and stop band edges, Hz: broadcast audio
/// ends at 15 kHz and the pilot sits at 19 kHz.
const AUDIO_PASS_HZ: f64 = 15_000.0;
const AUDIO_STOP_HZ: f64 = 19_000.0;

/// The audio filter's stop-band attenuation, dB: keeps the pilot and the
/// 38 kHz products 70 dB down before de-emphasis lowers them further.
const AUDIO_ATTEN_DB: f64 = 70.0;

/// Audio rates the receiver produces, Hz.
pub const AUDIO_RATES: core::ops::RangeInclusive<u32> = 8_000..=192_000;

/// Largest interpolation factor of a rational resampler before an
/// arbitrary-ratio one is used instead (bounds the filter bank).
const MAX_RATIONAL_INTERPOLATION: u64 = 1024;

/// Phases of the arbitrary-ratio resamplers.
const ARBITRARY_FILTERS: usize = 32;

/// How a stream gets from one rate to another.
#[derive(Clone, Debug, PartialEq)]
pub enum Resampling {
    /// Same rate.
    None,
    /// Keep every `n`-th sample (after filtering).
    Decimate(usize),
    /// `interp / decim`, reduced.
    Rational {
        /// Interpolation factor.
        interp: usize,
        /// Decimation factor.
        decim: usize,
    },
    /// Any ratio (`output rate / input rate`), for rates with no small
    /// rational relation.
    Arbitrary(f64),
}

impl Resampling {
    /// The way from `from` to `to` samples per second.
    pub fn between(from: f64, to: f64) -> Resampling {
        if from == to {
            return Resampling::None;
        }
        let whole = |x: f64| x.fract() == 0.0 && x > 0.0 && x < (1u64 << 52) as f64;
        if whole(from) && whole(to) {
            let (f, t) = (from as u64, to as u64);
            let g = gcd(f, t);
            let (interp, decim) = (t / g, f / g);
            if interp == 1 && decim as usize <= rfgraph_dsp::design::MAX_FACTOR {
                return Resampling::Decimate(decim as usize);
            }
            if interp <= MAX_RATIONAL_INTERPOLATION
                && decim as usize <= rfgraph_dsp::design::MAX_FACTOR
            {
                return Resampling::Rational {
                    interp: interp as usize,
                    decim: decim as usize,
                };
            }
        }
        Resampling::Arbitrary(to / from)
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// One decimating low-pass stage of the channel filter.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    /// Its decimation.
    pub decimation: usize,
    /// Its taps (unity DC gain) at its input's rate.
    pub taps: Vec<f32>,
}

/// Channel selection: from the input to the demodulator.
///
/// The decimation `D = ⌊input_rate / 240 k⌋` is done in one stage, or,
/// when `D` is even and at least 4, in two: `D/2` with few taps (its
/// transition band reaches to where aliases would fold onto the station:
/// 33 taps at 2.4 MS/s), then 2 with the sharp edge at the low rate (45
/// taps), where a single stage needs 219 taps at the input rate.
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelPlan {
    /// Input rate, samples per second.
    pub input_rate: f64,
    /// The station's offset from the input's centre, Hz.
    pub offset: f64,
    /// Total decimation of the channel filter.
    pub decimation: usize,
    /// The demodulator's rate, `input_rate / decimation`.
    pub quad_rate: f64,
    /// The first (frequency-translating) stage, at `input_rate`.
    pub first: Stage,
    /// The second stage, at `input_rate / first.decimation`, if any.
    pub second: Option<Stage>,
    /// From `quad_rate` to [`MPX_RATE`], after demodulation.
    pub to_mpx: Resampling,
}

impl ChannelPlan {
    /// The plan for `input_rate` samples per second with the station
    /// `offset` Hz from the centre.
    ///
    /// Errors: `input_rate` not finite or outside
    /// [`MIN_INPUT_RATE`]`..=`[`MAX_INPUT_RATE`]; `offset` not finite or
    /// putting the station's ±100 kHz outside the input's band.
    pub fn new(input_rate: f64, offset: f64) -> Result<Self, FmError> {
        if !(input_rate.is_finite() && (MIN_INPUT_RATE..=MAX_INPUT_RATE).contains(&input_rate)) {
            return Err(FmError::param(
                "input rate",
                input_rate,
                format!("must be {MIN_INPUT_RATE} to {MAX_INPUT_RATE} samples per second"),
            ));
        }
        let limit = input_rate / 2.0 - CHANNEL_PASS_HZ;
        if !(offset.is_finite() && offset.abs() <= limit) {
            return Err(FmError::param(
                "offset",
                offset,
                format!(
                    "the station's ±{} kHz must lie inside the input's ±{} kHz, so |offset| ≤ {} Hz",
                    CHANNEL_PASS_HZ / 1e3,
                    input_rate / 2e3,
                    limit
                ),
            ));
        }
        let decimation = (input_rate / MPX_RATE).floor().max(1.0) as usize;
        let quad_rate = input_rate / decimation as f64;
        let (first, second) = if decimation >= 4 && decimation.is_multiple_of(2) {
            let d1 = decimation / 2;
            (
                stage(input_rate, d1)?,
                Some(stage(input_rate / d1 as f64, 2)?),
            )
        } else {
            (stage(input_rate, decimation)?, None)
        };
        Ok(ChannelPlan {
            input_rate,
            offset,
            decimation,
            quad_rate,
            first,
            second,
            to_mpx: Resampling::between(quad_rate, MPX_RATE),
        })
    }

    /// The taps of both stages, for reports.
    pub fn num_taps(&self) -> usize {
        self.first.taps.len() + self.second.as_ref().map_or(0, |s| s.taps.len())
    }

    /// The station's offset in cycles per input sample, for the
    /// frequency-translating filter.
    pub fn center(&self) -> f64 {
        self.offset / self.input_rate
    }
}

/// A low-pass stage at `rate` decimating by `decimation`, keeping the
/// station's ±100 kHz: what lies beyond `rate/decimation − 100 kHz` folds
/// back outside them; with no decimation the filter need only stop before
/// Nyquist.
fn stage(rate: f64, decimation: usize) -> Result<Stage, FmError> {
    let out = rate / decimation as f64;
    let stop = (out - CHANNEL_PASS_HZ).min(0.49 * rate);
    let taps = design::kaiser_lowpass(
        rate,
        (CHANNEL_PASS_HZ + stop) / 2.0,
        stop - CHANNEL_PASS_HZ,
        CHANNEL_ATTEN_DB,
    )?;
    Ok(Stage { decimation, taps })
}

/// The audio filter: from the MPX rate to the audio rate.
#[derive(Clone, Debug, PartialEq)]
pub struct AudioPlan {
    /// Audio rate, Hz.
    pub audio_rate: u32,
    /// How the filter changes the rate.
    pub resampling: Resampling,
    /// The filter's taps: a low-pass at [`MPX_RATE`] for
    /// [`Resampling::Decimate`], the prototype at `interp ×` (rational) or
    /// 32 × (arbitrary) the MPX rate otherwise, with the gain that makes the
    /// whole unity.
    pub taps: Vec<f32>,
    /// Phases of the arbitrary-ratio resampler's bank (unused otherwise).
    pub filters: usize,
}

impl AudioPlan {
    /// The plan for `audio_rate` Hz: a low-pass keeping 15 kHz (or 42 % of
    /// the audio rate, if less) and stopping at 19 kHz (or the audio
    /// Nyquist frequency, if less), 70 dB down, that also changes the rate.
    ///
    /// Errors: `audio_rate` outside [`AUDIO_RATES`].
    pub fn new(audio_rate: u32) -> Result<Self, FmError> {
        if !AUDIO_RATES.contains(&audio_rate) {
            return Err(FmError::param(
                "audio rate",
                audio_rate as f64,
                format!(
                    "must be {} to {} Hz",
                    AUDIO_RATES.start(),
                    AUDIO_RATES.end()
                ),
            ));
        }
        let rate = audio_rate as f64;
        let pass = AUDIO_PASS_HZ.min(0.42 * rate);
        let stop = AUDIO_STOP_HZ.min(0.5 * rate);
        let resampling = Resampling::between(MPX_RATE, rate);
        let (design_rate, gain) = match resampling {
            Resampling::None | Resampling::Decimate(_) => (MPX_RATE, 1.0),
            Resampling::Rational { interp, .. } => (MPX_RATE * interp as f64, interp as f32),
            Resampling::Arbitrary(_) => (
                MPX_RATE * ARBITRARY_FILTERS as f64,
                ARBITRARY_FILTERS as f32,
            ),
        };
        let taps = design::kaiser_lowpass(
            design_rate,
            (pass + stop) / 2.0,
            stop - pass,
            AUDIO_ATTEN_DB,
        )?
        .into_iter()
        .map(|t| t * gain)
        .collect();
        Ok(AudioPlan {
            audio_rate,
            resampling,
            taps,
            filters: ARBITRARY_FILTERS,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rfgraph_dsp::design::magnitude_response_db;

    fn db_at(taps: &[f32], rate: f64, hz: f64) -> f32 {
        let n = 1 << 16;
        let r = magnitude_response_db(taps, n).unwrap();
        r[(hz / rate * n as f64).round() as usize]
    }

    #[test]
    fn channel_plans_for_common_rates() {
        let p = ChannelPlan::new(2.4e6, 250e3).unwrap();
        assert_eq!((p.decimation, p.quad_rate), (10, 240e3));
        assert_eq!(p.to_mpx, Resampling::None);
        assert!((p.center() - 250e3 / 2.4e6).abs() < 1e-15);
        // ÷5 with few taps, then ÷2 with the sharp edge.
        let second = p.second.as_ref().unwrap();
        assert_eq!((p.first.decimation, second.decimation), (5, 2));
        assert_eq!((p.first.taps.len(), second.taps.len()), (33, 45));
        // Flat over the station, 60 dB down where aliases would land.
        assert!(db_at(&p.first.taps, 2.4e6, 100e3).abs() < 0.01);
        assert!(db_at(&p.first.taps, 2.4e6, 380e3) < -59.0);
        assert!(db_at(&second.taps, 480e3, 100e3).abs() < 0.01);
        assert!(db_at(&second.taps, 480e3, 140e3) < -59.0);
        let p = ChannelPlan::new(1e6, 0.0).unwrap();
        assert_eq!((p.decimation, p.quad_rate), (4, 250e3));
        assert_eq!(
            p.to_mpx,
            Resampling::Rational {
                interp: 24,
                decim: 25
            }
        );
        let p = ChannelPlan::new(240e3, 0.0).unwrap();
        assert_eq!((p.decimation, p.to_mpx), (1, Resampling::None));
        assert!(p.second.is_none());
        assert!(db_at(&p.first.taps, 240e3, 118e3) < -59.0);
        // An odd decimation stays one stage.
        let p = ChannelPlan::new(3.2e6, 0.0).unwrap();
        assert_eq!((p.decimation, p.second.is_none()), (13, true));
        let p = ChannelPlan::new(2.4e6 + 0.5, 0.0).unwrap();
        assert!(
            matches!(p.to_mpx, Resampling::Arbitrary(r) if (r * p.quad_rate - MPX_RATE).abs() < 1e-6)
        );
    }

    #[test]
    fn channel_plans_reject_what_cannot_be_received() {
        for rate in [0.0, 239_999.0, f64::NAN, f64::INFINITY, 2e9] {
            assert!(ChannelPlan::new(rate, 0.0).is_err(), "{rate}");
        }
        assert!(ChannelPlan::new(240e3, 20e3).is_ok());
        let e = ChannelPlan::new(240e3, 20_001.0).unwrap_err().to_string();
        assert!(e.contains("offset") && e.contains("20000"), "{e}");
        assert!(ChannelPlan::new(2.4e6, -1.2e6).is_err());
        assert!(ChannelPlan::new(2.4e6, f64::NAN).is_err());
    }

    #[test]
    fn audio_plans() {
        let a = AudioPlan::new(48_000).unwrap();
        assert_eq!(a.resampling, Resampling::Decimate(5));
        assert!(db_at(&a.taps, MPX_RATE, 15e3).abs() < 0.01);
        assert!(db_at(&a.taps, MPX_RATE, 19e3) < -69.0);
        let a = AudioPlan::new(44_100).unwrap();
        assert_eq!(
            a.resampling,
            Resampling::Rational {
                interp: 147,
                decim: 800
            }
        );
        let a = AudioPlan::new(44_101).unwrap();
        assert!(matches!(a.resampling, Resampling::Arbitrary(_)));
        assert_eq!(
            AudioPlan::new(96_000).unwrap().resampling,
            Resampling::Rational {
                interp: 2,
                decim: 5
            }
        );
        assert!(AudioPlan::new(7_999).is_err());
        assert!(AudioPlan::new(192_001).is_err());
    }
}
