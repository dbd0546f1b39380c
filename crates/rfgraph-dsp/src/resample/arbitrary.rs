//! Arbitrary-ratio resampler: a bank of `N` polyphase filters (default 32) cut
//! from one prototype low-pass designed at `N ×` the input rate, with linear
//! interpolation between the two phases around each output instant. Owns the
//! fractional output-time state, kept in `f64` and advanced identically whatever
//! the call split.
//!
//! The prototype gets one leading zero so that phase `N` (one input sample
//! later than phase 0) can be formed from the same window as phases `0..N`;
//! interpolating between phases `N−1` and `N` is then exact.

use super::{DEFAULT_ATTENUATION_DB, DEFAULT_PASSBAND};
use crate::design;
use crate::error::DspError;
use crate::filter::history_window as window;
use crate::filter::{FirKind, History};
use crate::isa::Isa;
use crate::kernel::{Kernel, Ratio};
use crate::sample::Sample;
use crate::simd::Simd;

/// Default number of filter phases.
pub const DEFAULT_FILTERS: usize = 32;

/// Default prototype for resampling by `rate` with `num_filters` phases: Kaiser
/// low-pass at `num_filters ×` the input rate, pass band 0.8 × and stop band
/// 1.0 × the narrower Nyquist band, 70 dB, gain `num_filters`.
///
/// Errors: non-positive rate, zero filters, or too many taps.
pub fn default_prototype(rate: f64, num_filters: usize) -> Result<Vec<f32>, DspError> {
    DspError::positive("rate", rate)?;
    DspError::nonzero("num_filters", num_filters)?;
    let bw = rate.min(1.0);
    // With one filter and no decimation the band edge would sit on Nyquist.
    let stop = (0.5 * bw / num_filters as f64).min(0.45);
    let pass = DEFAULT_PASSBAND * stop;
    let taps = design::kaiser_lowpass(
        1.0,
        (pass + stop) / 2.0,
        stop - pass,
        DEFAULT_ATTENUATION_DB,
    )?;
    Ok(taps.into_iter().map(|t| t * num_filters as f32).collect())
}

/// Resamples by any ratio `rate = output rate / input rate`.
#[derive(Debug, Clone)]
pub struct ArbitraryResampler<K: FirKind> {
    rate: f64,
    /// `num_filters + 1` phases.
    phases: Vec<K::Prepared>,
    history: History<K::Input>,
    /// Newest input index of the next output's window, relative to the next
    /// call's input.
    next_index: usize,
    /// Position of the next output between input samples, in phases `[0, N)`.
    mu: f64,
    /// Phase advance per output, `N / rate`.
    step: f64,
    simd: Simd,
}

impl<K: FirKind> ArbitraryResampler<K>
where
    K::Tap: From<f32>,
{
    /// A resampler by `rate` with [`DEFAULT_FILTERS`] phases and the
    /// [`default_prototype`].
    ///
    /// Errors: `rate` not finite or not in `(1e-6, 1e6)`.
    pub fn new(rate: f64) -> Result<Self, DspError> {
        check_rate(rate)?;
        let proto: Vec<K::Tap> = default_prototype(rate, DEFAULT_FILTERS)?
            .into_iter()
            .map(K::Tap::from)
            .collect();
        Self::with_taps(rate, DEFAULT_FILTERS, &proto, Isa::detect())
    }
}

/// The `N + 1` phases of `prototype` with a leading zero `h' = [0, h]`: phase
/// `j` is `h'[j + iN]` on the sample `i` places back. Only real prototype taps
/// are laid out: phase 0's tap on the newest sample (the added zero) and the
/// zeros that square off the bank are left out, so a non-finite sample only
/// reaches the outputs whose taps cover it. Phase `N` (`h'[N + iN]`) is phase
/// 0 one input sample later.
fn phase_bank<K: FirKind>(prototype: &[K::Tap], n: usize) -> Vec<K::Prepared> {
    // Phase j's taps h'[j + iN] = h[j − 1 + iN] for i >= first (the index
    // must be >= 1 in h'), newest first.
    let taps = |j: usize| -> (Vec<K::Tap>, usize) {
        let first = usize::from(j == 0);
        let start = j + first * n - 1;
        let t = prototype.iter().skip(start).step_by(n).copied().collect();
        (t, first)
    };
    let layouts: Vec<(Vec<K::Tap>, usize)> = (0..=n).map(taps).collect();
    let window = layouts
        .iter()
        .map(|(t, newest)| t.len() + newest)
        .max()
        .unwrap_or(1)
        .max(1);
    layouts
        .iter()
        .map(|(t, newest)| K::prepare_in(t, window, *newest))
        .collect()
}

fn check_rate(rate: f64) -> Result<(), DspError> {
    DspError::positive("rate", rate)?;
    if !(1e-6..1e6).contains(&rate) {
        return Err(DspError::OutOfRange {
            name: "rate",
            value: rate,
            expected: "must be in (1e-6, 1e6)",
        });
    }
    Ok(())
}

impl<K: FirKind> ArbitraryResampler<K> {
    /// A resampler by `rate` with a caller-supplied `prototype` designed at
    /// `num_filters ×` the input rate (gain `num_filters` for unity overall),
    /// forced onto `isa`.
    ///
    /// Errors: invalid rate, zero filters, empty or non-finite prototype.
    pub fn with_taps(
        rate: f64,
        num_filters: usize,
        prototype: &[K::Tap],
        isa: Isa,
    ) -> Result<Self, DspError> {
        check_rate(rate)?;
        DspError::factor("num_filters", num_filters)?;
        crate::filter::check_taps(prototype)?;
        let phases = phase_bank::<K>(prototype, num_filters);
        let history = History::new(K::window_len(&phases[0]));
        Ok(ArbitraryResampler {
            rate,
            phases,
            history,
            next_index: 0,
            mu: 0.0,
            step: num_filters as f64 / rate,
            simd: Simd::new(isa),
        })
    }

    /// Resamples by `rate` from the next output on (GNU Radio's
    /// `set_rate`): the filter phase and the input history stay, so the
    /// output timing continues without a jump.
    ///
    /// Errors: `rate` not finite or not in `[1e-6, 1e6)` (nothing changes).
    pub fn set_rate(&mut self, rate: f64) -> Result<(), DspError> {
        check_rate(rate)?;
        self.rate = rate;
        self.step = self.num_filters() as f64 / rate;
        Ok(())
    }

    /// Filters with a new `prototype` (at `num_filters ×` the input rate,
    /// as [`with_taps`](Self::with_taps) reads it) from the next output on,
    /// GNU Radio's `set_taps`: the number of filters, the filter phase and
    /// the input history stay; a longer filter starts with zeros before
    /// the history it kept.
    ///
    /// Errors: an empty or non-finite prototype (nothing changes).
    pub fn set_taps(&mut self, prototype: &[K::Tap]) -> Result<(), DspError> {
        crate::filter::check_taps(prototype)?;
        self.phases = phase_bank::<K>(prototype, self.num_filters());
        self.history.resize(K::window_len(&self.phases[0]));
        Ok(())
    }

    /// The resampling rate (output rate / input rate).
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// Number of filter phases.
    pub fn num_filters(&self) -> usize {
        self.phases.len() - 1
    }

    /// The instruction set in use.
    pub fn isa(&self) -> Isa {
        self.simd.isa()
    }

    /// Resamples; returns `(consumed, produced)`. Produces until `output` is full
    /// or the next output needs an input sample not yet given.
    pub fn process(&mut self, input: &[K::Input], output: &mut [K::Output]) -> (usize, usize) {
        let n_in = input.len();
        let nf = self.phases.len() - 1;
        let mut produced = 0;
        if self.next_index < n_in && !output.is_empty() {
            let h = self.history.len();
            let staged = self.history.stage(input);
            let mut pair = [K::Output::ZERO; 2];
            while produced < output.len() && self.next_index < n_in {
                let w = window(staged, input, h, self.next_index);
                let j = (self.mu as usize).min(nf - 1);
                let frac = (self.mu - j as f64) as f32;
                K::filter(self.simd, &self.phases[j], w, &mut pair[..1], 1);
                output[produced] = if frac == 0.0 {
                    // On a phase: the next phase has no weight, and leaving it
                    // out keeps a non-finite sample it alone covers (0 · NaN)
                    // out of this output.
                    pair[0]
                } else {
                    K::filter(self.simd, &self.phases[j + 1], w, &mut pair[1..], 1);
                    pair[0] * (1.0 - frac) + pair[1] * frac
                };
                produced += 1;
                self.mu += self.step;
                let whole = (self.mu / nf as f64).floor();
                self.next_index += whole as usize;
                self.mu -= whole * nf as f64;
            }
        }
        let consumed = self.next_index.min(n_in);
        self.next_index -= consumed;
        self.history.advance(&input[..consumed]);
        (consumed, produced)
    }

    /// Clears history and output timing.
    pub fn reset(&mut self) {
        self.history.reset();
        self.next_index = 0;
        self.mu = 0.0;
    }
}

impl<K: FirKind> Kernel for ArbitraryResampler<K> {
    type Input = K::Input;
    type Output = K::Output;

    fn process(&mut self, input: &[K::Input], output: &mut [K::Output]) -> (usize, usize) {
        ArbitraryResampler::process(self, input, output)
    }

    fn ratio(&self) -> Ratio {
        Ratio::approximate(self.rate())
    }

    fn reset(&mut self) {
        ArbitraryResampler::reset(self);
    }
}
