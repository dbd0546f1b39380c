//! One FM broadcast station as complex baseband, with known contents: the
//! signal an FM receiver's tests and demos start from.
//!
//! [`FmStation`] describes the station (audio, pre-emphasis, stereo
//! multiplex, RDS, deviation, carrier offset, sample rate, noise) and
//! makes its IQ samples ([`FmStation::generate`]) or only its multiplex
//! ([`FmStation::mpx`]); [`write_iq`] stores IQ samples as a raw file or a
//! SigMF recording in any [`SampleFormat`](rfgraph_blocks::SampleFormat).
//! Everything is computed in memory, deterministically: one configuration
//! and seed give the same samples on every machine and run.
//!
//! # The signal
//!
//! The multiplex (MPX) is computed at [`FmStation::mpx_rate`] (the sample
//! rate divided by `k = max(1, ⌊rate / 240 kHz⌋)`, so between 240 and
//! 480 kHz) in units of the peak deviation (±1.0 = ±`deviation` Hz), with
//! `θ(t) = 2π·19 kHz·t` the pilot's phase (zero at the first sample):
//!
//! ```text
//! stereo: m(t) = a·[(L+R)/2 + (L−R)/2·sin 2θ] + p·sin θ + r·rds(t)·sin 3θ
//! mono:   m(t) = a·(L+R)/2                                + r·rds(t)·sin 3θ
//! ```
//!
//! - `L`, `R`: the channels after pre-emphasis, full scale ±1 before it
//!   (a 1 kHz tone of amplitude 1 on one channel alone peaks at `a`).
//!   Tones are pre-emphasised exactly (each is scaled and shifted by
//!   `1 + j2πfτ`); sample audio goes through a 15 kHz low-pass FIR with
//!   the same response inside the band, then a resampler to the MPX rate.
//!   No limiter follows: audio whose pre-emphasised peaks exceed ±1
//!   deviates beyond the nominal peak.
//! - `a` = [`MpxLevels::audio`], `p` = [`MpxLevels::pilot`] (0.09: 6.75
//!   kHz of 75), `r` = [`MpxLevels::rds`].
//! - the 38 kHz L−R subcarrier and the 57 kHz RDS subcarrier are the
//!   pilot's second and third harmonics, in phase with it (both cross
//!   zero rising when the pilot does), as ITU-R BS.450 and IEC 62106 ask.
//! - `rds(t)`: the RDS group stream of [`RdsContent`], differentially
//!   encoded, biphase coded at 1187.5 bit/s and shaped by the standard's
//!   `cos(πf·t_d/4)` filter (a root-raised-cosine pulse of roll-off 1 at
//!   2375 half-symbols per second), scaled so that `|rds(t)| ≤ 1`
//!   whatever the data: the RDS subcarrier deviates by at most `r ×
//!   deviation` (the default 0.04 gives 3 kHz).
//!
//! The MPX is interpolated to the sample rate (by `k`, delay compensated,
//! so sample `n` of the IQ is time `n / rate` of the MPX) and frequency
//! modulated: `s[n] = A·exp(jφ[n])`, `φ[n] = φ[n−1] + 2π(offset +
//! deviation·m[n]) / rate`, `φ[0] = 2π(offset + deviation·m[0]) / rate`.
//!
//! # Noise and CNR
//!
//! With [`FmStation::cnr_db`] set, complex white Gaussian noise `n[n]`
//! (circular, seeded by [`FmStation::seed`]) is added. Its total power
//! `σ² = E|n|²` is spread evenly over the whole sample rate, and the CNR
//! is the carrier's power over the noise power in a **200 kHz** band (a
//! broadcast channel):
//!
//! ```text
//! CNR = A² / (σ² · 200 kHz / rate)      σ² = A² · rate / (200 kHz · 10^(CNR_dB/10))
//! ```
//!
//! So at 2.4 MS/s the noise over the whole recording is 10.8 dB stronger
//! than in the channel. The carrier amplitude `A` is
//! [`FmStation::amplitude`] or, when that is `None`, `0.9 / (1 + 4κ)` with
//! `κ = σ / (A·√2)` (each of I and Q then stays within ±0.9 ± 4 standard
//! deviations of the noise, so an 8-bit recording seldom clips).

mod audio;
mod modulate;
mod mpx;
mod noise;
mod rds;
mod recording;

pub use audio::{Audio, Preemphasis};
pub use recording::{IqRecording, write_iq};

use rfgraph_blocks::sigmf::SigmfError;
use rfgraph_dsp::DspError;
use std::path::PathBuf;

/// The bandwidth in which [`FmStation::cnr_db`] is measured: one FM
/// broadcast channel, 200 kHz.
pub const CNR_BANDWIDTH_HZ: f64 = 200e3;

/// The lowest output sample rate: the multiplex needs 60 kHz of audio
/// bandwidth each side, and the channel (±100 kHz) must fit.
pub const MIN_SAMPLE_RATE: f64 = 240e3;

/// The most samples one call generates (2^28 complex samples, 2 GiB).
pub const MAX_SAMPLES: u64 = 1 << 28;

/// The pilot frequency, Hz.
pub const PILOT_HZ: f64 = 19e3;

/// Why a station could not be generated or written.
#[derive(Debug, thiserror::Error)]
pub enum FmGenError {
    /// A parameter is out of range.
    #[error("{name} = {value}: {expected}")]
    Param {
        /// The parameter (`sample_rate`, `left.frequency`, ...).
        name: &'static str,
        /// Its value.
        value: f64,
        /// What it must be.
        expected: String,
    },
    /// Sample audio holds a value that is not a finite number.
    #[error("{channel} audio sample {index} is {value}, not a finite number")]
    AudioSample {
        /// `left` or `right`.
        channel: &'static str,
        /// The sample's index.
        index: usize,
        /// The value.
        value: f32,
    },
    /// The filter design or resampler refused its parameters.
    #[error("DSP: {0}")]
    Dsp(#[from] DspError),
    /// The RDS content cannot be encoded.
    #[error("RDS: {0}")]
    Rds(#[from] crate::rds::RdsContentError),
    /// The sample format cannot hold complex samples.
    #[error(transparent)]
    Format(#[from] rfgraph_blocks::SampleFormatError),
    /// Writing a SigMF recording failed.
    #[error(transparent)]
    Sigmf(#[from] SigmfError),
    /// Writing a raw recording failed.
    #[error("cannot write {}: {cause}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        cause: std::io::Error,
    },
}

impl FmGenError {
    pub(crate) fn param(name: &'static str, value: f64, expected: impl Into<String>) -> Self {
        FmGenError::Param {
            name,
            value,
            expected: expected.into(),
        }
    }
}

/// The levels of the multiplex's parts, as fractions of the peak
/// deviation (1.0 = [`FmStation::deviation`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MpxLevels {
    /// Full-scale audio (`a` in the module's formula); default 0.87.
    pub audio: f64,
    /// The 19 kHz pilot (`p`); default 0.09 (6.75 kHz of 75, inside the
    /// 8–10 % the standards allow).
    pub pilot: f64,
    /// The RDS subcarrier's largest possible amplitude (`r`); default
    /// 0.04 (3 kHz of 75).
    pub rds: f64,
}

impl Default for MpxLevels {
    fn default() -> Self {
        Self {
            audio: 0.87,
            pilot: 0.09,
            rds: 0.04,
        }
    }
}

pub use crate::rds::RdsContent;

/// One FM broadcast station and how to sample it. Build one with
/// [`new`](Self::new) and change the public fields; [`generate`] checks
/// them.
///
/// [`generate`]: Self::generate
///
/// ```
/// use rfgraph_radio::generate::fm::{Audio, FmStation};
///
/// let station = FmStation {
///     carrier_offset: 150e3,
///     cnr_db: Some(30.0),
///     left: Audio::tone(1000.0, 0.5),
///     ..FmStation::new(1.2e6, 0.05)
/// };
/// let iq = station.generate().unwrap();
/// assert_eq!(iq.len(), 60_000);
/// ```
#[derive(Clone, Debug)]
pub struct FmStation {
    /// The IQ sample rate in samples per second, at least
    /// [`MIN_SAMPLE_RATE`].
    pub sample_rate: f64,
    /// Seconds of signal (`round(duration · sample_rate)` samples).
    pub duration: f64,
    /// The carrier's frequency relative to the recording's centre, Hz;
    /// the ±100 kHz channel must fit inside ±`sample_rate`/2.
    pub carrier_offset: f64,
    /// The left channel (default: a 1 kHz tone of amplitude 0.5).
    pub left: Audio,
    /// The right channel (default: a 2.5 kHz tone of amplitude 0.5).
    pub right: Audio,
    /// Pre-emphasis (default 50 µs, as in Europe, where RDS began).
    pub preemphasis: Preemphasis,
    /// Stereo (pilot and L−R subcarrier); `false` sends `(L+R)/2` alone.
    pub stereo: bool,
    /// The RDS data; `None` sends no RDS subcarrier.
    pub rds: Option<RdsContent>,
    /// The multiplex's levels.
    pub levels: MpxLevels,
    /// The peak deviation in Hz for an MPX value of 1 (default 75 kHz).
    pub deviation: f64,
    /// Carrier-to-noise ratio in dB in 200 kHz (see the module docs);
    /// `None`: no noise.
    pub cnr_db: Option<f64>,
    /// The noise generator's seed.
    pub seed: u64,
    /// The carrier's amplitude (0 < A ≤ 1); `None`: chosen from the noise
    /// (see the module docs).
    pub amplitude: Option<f64>,
}

impl FmStation {
    /// A stereo station at `sample_rate` for `duration` seconds with the
    /// defaults: 1 kHz (L) and 2.5 kHz (R) tones at amplitude 0.5, 50 µs
    /// pre-emphasis, default levels and ±75 kHz deviation, on the centre
    /// frequency, no RDS, no noise, seed 1.
    pub fn new(sample_rate: f64, duration: f64) -> Self {
        Self {
            sample_rate,
            duration,
            carrier_offset: 0.0,
            left: Audio::tone(1000.0, 0.5),
            right: Audio::tone(2500.0, 0.5),
            preemphasis: Preemphasis::Us50,
            stereo: true,
            rds: None,
            levels: MpxLevels::default(),
            deviation: 75e3,
            cnr_db: None,
            seed: 1,
            amplitude: None,
        }
    }

    /// The number of IQ samples [`generate`](Self::generate) makes.
    pub fn num_samples(&self) -> u64 {
        (self.duration * self.sample_rate).round().max(0.0) as u64
    }

    /// The interpolation factor from the MPX rate to the sample rate.
    fn mpx_factor(&self) -> usize {
        ((self.sample_rate / MIN_SAMPLE_RATE).floor() as usize).max(1)
    }

    /// The rate at which the multiplex is computed: the sample rate over
    /// `max(1, ⌊rate / 240 kHz⌋)`.
    pub fn mpx_rate(&self) -> f64 {
        self.sample_rate / self.mpx_factor() as f64
    }

    /// The noise's total power `σ²` for carrier amplitude `a` (0 without
    /// noise).
    fn noise_power(&self, a: f64) -> f64 {
        match self.cnr_db {
            Some(cnr) => a * a * self.sample_rate / (CNR_BANDWIDTH_HZ * 10f64.powf(cnr / 10.0)),
            None => 0.0,
        }
    }

    /// The carrier amplitude `A` in use: [`amplitude`](Self::amplitude),
    /// or the module docs' headroom rule.
    pub fn carrier_amplitude(&self) -> f64 {
        self.amplitude.unwrap_or_else(|| {
            let kappa = (self.noise_power(1.0) / 2.0).sqrt();
            0.9 / (1.0 + 4.0 * kappa)
        })
    }

    /// Checks every parameter.
    ///
    /// Errors: [`FmGenError::Param`] naming the first one out of range,
    /// [`FmGenError::AudioSample`], [`FmGenError::Rds`].
    pub fn validate(&self) -> Result<(), FmGenError> {
        let finite = |name, v: f64| {
            if v.is_finite() {
                Ok(())
            } else {
                Err(FmGenError::param(name, v, "must be a finite number"))
            }
        };
        finite("sample_rate", self.sample_rate)?;
        if !(MIN_SAMPLE_RATE..=100e6).contains(&self.sample_rate) {
            return Err(FmGenError::param(
                "sample_rate",
                self.sample_rate,
                "must be between 240 kS/s and 100 MS/s",
            ));
        }
        finite("duration", self.duration)?;
        if self.duration <= 0.0 || self.num_samples() == 0 {
            return Err(FmGenError::param(
                "duration",
                self.duration,
                "must give at least one sample",
            ));
        }
        if self.num_samples() > MAX_SAMPLES {
            return Err(FmGenError::param(
                "duration",
                self.duration,
                format!("gives more than {MAX_SAMPLES} samples at this rate"),
            ));
        }
        finite("carrier_offset", self.carrier_offset)?;
        if self.carrier_offset.abs() + 100e3 > self.sample_rate / 2.0 {
            return Err(FmGenError::param(
                "carrier_offset",
                self.carrier_offset,
                format!(
                    "the ±100 kHz channel must fit inside ±{} Hz (half the sample rate)",
                    self.sample_rate / 2.0
                ),
            ));
        }
        finite("deviation", self.deviation)?;
        if !(1e3..=200e3).contains(&self.deviation) {
            return Err(FmGenError::param(
                "deviation",
                self.deviation,
                "must be between 1 kHz and 200 kHz",
            ));
        }
        for (name, v) in [
            ("levels.audio", self.levels.audio),
            ("levels.pilot", self.levels.pilot),
            ("levels.rds", self.levels.rds),
        ] {
            if !(v.is_finite() && (0.0..=1.0).contains(&v)) {
                return Err(FmGenError::param(name, v, "must be between 0 and 1"));
            }
        }
        if let Some(cnr) = self.cnr_db {
            finite("cnr_db", cnr)?;
            if !(-50.0..=200.0).contains(&cnr) {
                return Err(FmGenError::param(
                    "cnr_db",
                    cnr,
                    "must be between -50 and 200 dB",
                ));
            }
        }
        if let Some(a) = self.amplitude
            && !(a.is_finite() && a > 0.0 && a <= 1.0)
        {
            return Err(FmGenError::param("amplitude", a, "must be in (0, 1]"));
        }
        self.left.validate("left")?;
        self.right.validate("right")?;
        if let Some(rds) = &self.rds {
            rds.validate()?;
        }
        Ok(())
    }

    /// The multiplex alone, at [`mpx_rate`](Self::mpx_rate), in units of
    /// the peak deviation, covering the same time as
    /// [`generate`](Self::generate)'s samples: the signal an FM
    /// demodulator should give back (scaled by the deviation), for tests
    /// of what follows it.
    ///
    /// Errors: as [`validate`](Self::validate).
    pub fn mpx(&self) -> Result<Mpx, FmGenError> {
        self.validate()?;
        let rate = self.mpx_rate();
        let n = self.num_samples().div_ceil(self.mpx_factor() as u64) as usize;
        Ok(Mpx {
            rate,
            samples: mpx::build(self, rate, 0, n)?,
        })
    }

    /// The station's IQ samples, `num_samples()` of them.
    ///
    /// Errors: as [`validate`](Self::validate).
    pub fn generate(&self) -> Result<Vec<num_complex::Complex32>, FmGenError> {
        self.validate()?;
        modulate::generate(self)
    }
}

/// A multiplex signal and its rate.
#[derive(Clone, Debug, PartialEq)]
pub struct Mpx {
    /// Samples per second.
    pub rate: f64,
    /// The samples, ±1 = the peak deviation.
    pub samples: Vec<f32>,
}
