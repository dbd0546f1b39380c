//! The generator's audio: test tones or sample audio per channel, and
//! pre-emphasis, rendered at the multiplex rate. Tones are computed and
//! pre-emphasised exactly; sample audio goes through one FIR that is both
//! the 15 kHz band limit and the pre-emphasis, then a resampler.

use super::FmGenError;
use rfgraph_dsp::resample::{DEFAULT_FILTERS, default_prototype};
use rfgraph_dsp::{ArbitraryResampler, Fff, Fir, Window};
use std::f64::consts::{PI, TAU};
use std::sync::Arc;

/// The audio band of FM broadcast: 15 kHz.
pub const AUDIO_BANDWIDTH_HZ: f64 = 15e3;

/// One channel's audio.
#[derive(Clone, Debug, PartialEq)]
pub enum Audio {
    /// Nothing.
    Silence,
    /// `amplitude · sin(2π·frequency·t)`, before pre-emphasis.
    Tone {
        /// Hz, in (0, 15 kHz].
        frequency: f64,
        /// Full scale 1.
        amplitude: f64,
    },
    /// Recorded audio, full scale ±1, at its own rate (at least 8 kHz);
    /// silence follows its end.
    Samples {
        /// Samples per second.
        sample_rate: f64,
        /// The samples.
        samples: Arc<[f32]>,
    },
}

impl Audio {
    /// A tone of `frequency` Hz and `amplitude` (full scale 1).
    pub fn tone(frequency: f64, amplitude: f64) -> Self {
        Audio::Tone {
            frequency,
            amplitude,
        }
    }

    /// Sample audio at `sample_rate`.
    pub fn samples(sample_rate: f64, samples: impl Into<Arc<[f32]>>) -> Self {
        Audio::Samples {
            sample_rate,
            samples: samples.into(),
        }
    }

    pub(super) fn validate(&self, channel: &'static str) -> Result<(), FmGenError> {
        match self {
            Audio::Silence => Ok(()),
            Audio::Tone {
                frequency,
                amplitude,
            } => {
                let (fname, aname) = match channel {
                    "left" => ("left.frequency", "left.amplitude"),
                    _ => ("right.frequency", "right.amplitude"),
                };
                if !(frequency.is_finite() && *frequency > 0.0 && *frequency <= AUDIO_BANDWIDTH_HZ)
                {
                    return Err(FmGenError::param(
                        fname,
                        *frequency,
                        "must be in (0, 15000] Hz, the broadcast audio band",
                    ));
                }
                if !(amplitude.is_finite() && (0.0..=1.0).contains(amplitude)) {
                    return Err(FmGenError::param(aname, *amplitude, "must be in [0, 1]"));
                }
                Ok(())
            }
            Audio::Samples {
                sample_rate,
                samples,
            } => {
                let name = match channel {
                    "left" => "left.sample_rate",
                    _ => "right.sample_rate",
                };
                if !(sample_rate.is_finite() && (8e3..=1e6).contains(sample_rate)) {
                    return Err(FmGenError::param(
                        name,
                        *sample_rate,
                        "must be between 8 kHz and 1 MHz",
                    ));
                }
                if let Some((index, &value)) =
                    samples.iter().enumerate().find(|(_, v)| !v.is_finite())
                {
                    return Err(FmGenError::AudioSample {
                        channel,
                        index,
                        value,
                    });
                }
                Ok(())
            }
        }
    }

    /// `n` samples of this channel after pre-emphasis, from sample `start`
    /// on, at `rate`.
    pub(super) fn render(
        &self,
        preemphasis: Preemphasis,
        rate: f64,
        start: usize,
        n: usize,
    ) -> Result<Vec<f32>, FmGenError> {
        match self {
            Audio::Silence => Ok(vec![0.0; n]),
            Audio::Tone {
                frequency,
                amplitude,
            } => {
                // Pre-emphasis 1 + j2πfτ: gain and phase lead, exactly.
                let w = TAU * frequency * preemphasis.tau();
                let gain = amplitude * (1.0 + w * w).sqrt();
                let lead = w.atan();
                let step = frequency / rate;
                Ok((start..start + n)
                    .map(|i| {
                        let turns = (i as f64 * step).fract();
                        (gain * (TAU * turns + lead).sin()) as f32
                    })
                    .collect())
            }
            Audio::Samples {
                sample_rate,
                samples,
            } => render_samples(samples, *sample_rate, preemphasis, rate, start, n),
        }
    }
}

/// Pre-emphasis of the audio before it enters the multiplex: the
/// high-frequency boost `1 + j2πfτ` that the receiver's de-emphasis
/// `1 / (1 + j2πfτ)` undoes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Preemphasis {
    /// None: flat audio.
    Off,
    /// τ = 50 µs (Europe, most of the world).
    #[default]
    Us50,
    /// τ = 75 µs (the Americas, Korea).
    Us75,
}

impl Preemphasis {
    /// The time constant in seconds (0 when off).
    pub fn tau(self) -> f64 {
        match self {
            Preemphasis::Off => 0.0,
            Preemphasis::Us50 => 50e-6,
            Preemphasis::Us75 => 75e-6,
        }
    }
}

/// Half the length of the band-limiting pre-emphasis FIR, in taps.
const HALF_TAPS: usize = 96;

/// The FIR whose response is `1 + j2πfτ` below `cutoff` and zero above
/// (windowed): the ideal low-pass `sin(2πf_c n)/(πn)` plus `τ` times its
/// derivative, both in samples, under a Blackman–Harris window.
fn preemphasis_taps(rate: f64, cutoff: f64, tau: f64) -> Result<Vec<f32>, FmGenError> {
    let fc = cutoff / rate;
    let tau_s = tau * rate;
    let len = 2 * HALF_TAPS + 1;
    let window = Window::BlackmanHarris.symmetric_f64(len)?;
    Ok((0..len)
        .map(|k| {
            let n = k as f64 - HALF_TAPS as f64;
            let (lp, dlp) = if n == 0.0 {
                (2.0 * fc, 0.0)
            } else {
                let a = TAU * fc * n;
                (a.sin() / (PI * n), (a * a.cos() - a.sin()) / (PI * n * n))
            };
            ((lp + tau_s * dlp) * window[k]) as f32
        })
        .collect())
}

/// Sample audio band-limited and pre-emphasised at its own rate, then
/// resampled to `rate`, delay compensated: output `i` is time `i / rate`.
fn render_samples(
    samples: &[f32],
    audio_rate: f64,
    preemphasis: Preemphasis,
    rate: f64,
    start: usize,
    n: usize,
) -> Result<Vec<f32>, FmGenError> {
    let cutoff = AUDIO_BANDWIDTH_HZ.min(0.45 * audio_rate);
    let taps = preemphasis_taps(audio_rate, cutoff, preemphasis.tau())?;
    let mut fir = Fir::<Fff>::new(&taps)?;
    // Filter with the FIR's delay removed: HALF_TAPS zeros after the end.
    let mut padded = samples.to_vec();
    padded.extend(std::iter::repeat_n(0.0, HALF_TAPS));
    let mut shaped = vec![0.0; padded.len()];
    fir.process(&padded, &mut shaped);
    let shaped = &shaped[HALF_TAPS..];

    let ratio = rate / audio_rate;
    let mut resampler = ArbitraryResampler::<Fff>::new(ratio)?;
    // The prototype's delay in input samples, then in outputs.
    let proto = default_prototype(ratio, DEFAULT_FILTERS)?.len();
    let delay = ((proto as f64 - 1.0) / 2.0 / DEFAULT_FILTERS as f64 * ratio).round() as usize;
    let wanted = start + n + delay;
    // Enough input (zeros after the audio) to produce every wanted output.
    let needed = (wanted as f64 / ratio).ceil() as usize + proto / DEFAULT_FILTERS + 2;
    let mut input = shaped.to_vec();
    if input.len() < needed {
        input.resize(needed, 0.0);
    }
    let mut out = vec![0.0; wanted + (ratio.ceil() as usize) + 4];
    let (_, produced) = resampler.process(&input, &mut out);
    out.truncate(produced);
    out.resize(wanted, 0.0);
    Ok(out[start + delay..].to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pre-emphasis FIR has the analog response inside the band (gain
    /// and phase of `1 + j2πfτ`, within 0.5 %) and little above it.
    #[test]
    fn the_preemphasis_fir_matches_the_analog_response() {
        let rate = 48e3;
        let tau = 75e-6;
        let taps = preemphasis_taps(rate, 15e3, tau).unwrap();
        for f in [100.0, 1e3, 5e3, 10e3, 13e3] {
            let h: num_complex::Complex64 = taps
                .iter()
                .enumerate()
                .map(|(k, &t)| {
                    let n = k as f64 - HALF_TAPS as f64;
                    num_complex::Complex64::from_polar(t as f64, -TAU * f / rate * n)
                })
                .sum();
            let want = num_complex::Complex64::new(1.0, TAU * f * tau);
            assert!(
                (h - want).norm() / want.norm() < 5e-3,
                "{f} Hz: {h} vs {want}"
            );
        }
        let stop: f64 = taps
            .iter()
            .enumerate()
            .map(|(k, &t)| {
                let n = k as f64 - HALF_TAPS as f64;
                num_complex::Complex64::from_polar(t as f64, -TAU * 20e3 / rate * n)
            })
            .sum::<num_complex::Complex64>()
            .norm();
        assert!(stop < 0.05, "20 kHz leaks {stop}");
    }

    /// A tone given as samples comes out as the same tone, pre-emphasised
    /// and aligned in time, as the analytic tone.
    #[test]
    fn sample_audio_matches_the_analytic_tone() {
        let audio_rate = 48e3;
        let f = 1000.0;
        let samples: Vec<f32> = (0..48_000)
            .map(|i| (0.5 * (TAU * f * i as f64 / audio_rate).sin()) as f32)
            .collect();
        let rate = 240e3;
        let got = Audio::samples(audio_rate, samples)
            .render(Preemphasis::Us50, rate, 1000, 100_000)
            .unwrap();
        let want = Audio::tone(f, 0.5)
            .render(Preemphasis::Us50, rate, 1000, 100_000)
            .unwrap();
        // Away from the edges, the two agree closely.
        let err = got[20_000..80_000]
            .iter()
            .zip(&want[20_000..80_000])
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(err < 0.01, "largest difference {err}");
    }
}
