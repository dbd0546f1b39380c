//! Rational `L/M` polyphase resampler. Owns the (input index, filter phase)
//! state of the next output: output `k` sits at position `k·M` of the
//! `L`-times-upsampled stream, i.e. input index `⌊kM/L⌋` and phase `kM mod L`.

use super::{DEFAULT_ATTENUATION_DB, DEFAULT_PASSBAND};
use crate::design;
use crate::error::DspError;
use crate::filter::history_window as window;
use crate::filter::polyphase_prepare;
use crate::filter::{FirKind, History};
use crate::isa::Isa;
use crate::kernel::{Kernel, Ratio};
use crate::simd::Simd;

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Default anti-aliasing/anti-imaging taps for an `interp/decim` resampler
/// (already reduced): Kaiser low-pass at the upsampled rate with its pass band
/// up to 0.8 × and its stop band from 1.0 × the narrower Nyquist band,
/// [`DEFAULT_ATTENUATION_DB`](super::DEFAULT_ATTENUATION_DB) of attenuation,
/// and gain `interp` (unity overall). A 1:1 ratio gets the single tap `[1]`.
///
/// Errors: zero factors, or a filter that would need more than 2^24 taps.
pub fn default_taps(interp: usize, decim: usize) -> Result<Vec<f32>, DspError> {
    DspError::nonzero("interp", interp)?;
    DspError::nonzero("decim", decim)?;
    if interp == decim {
        // 1:1 needs no filtering.
        return Ok(vec![1.0]);
    }
    let r = interp.max(decim) as f64;
    let stop = 0.5 / r;
    let pass = DEFAULT_PASSBAND * stop;
    let taps = design::kaiser_lowpass(
        1.0,
        (pass + stop) / 2.0,
        stop - pass,
        DEFAULT_ATTENUATION_DB,
    )?;
    Ok(taps.into_iter().map(|t| t * interp as f32).collect())
}

/// Resamples by `interp/decim` (reduced by their gcd) with a polyphase FIR.
///
/// Output `k` equals output `k·M` of "insert `L−1` zeros after each input sample,
/// then filter with the taps".
#[derive(Debug, Clone)]
pub struct RationalResampler<K: FirKind> {
    interp: usize,
    decim: usize,
    phases: Vec<K::Prepared>,
    history: History<K::Input>,
    /// Input index (relative to the next call's input) of the newest sample of
    /// the next output's window.
    next_index: usize,
    /// Filter phase of the next output.
    phase: usize,
    /// How [`set_taps`](Self::set_taps) reads taps, as the constructor
    /// did: every `tap_stride`-th tap (`gcd(interp, decim)` for
    /// [`with_unreduced_taps`](Self::with_unreduced_taps), 1 otherwise).
    tap_stride: usize,
    simd: Simd,
}

impl<K: FirKind> RationalResampler<K>
where
    K::Tap: From<f32>,
{
    /// A resampler with designed taps (see [`default_taps`]).
    ///
    /// Errors: factors not in `1..=2^20`, or a design needing over 2^24 taps.
    pub fn new(interp: usize, decim: usize) -> Result<Self, DspError> {
        DspError::factor("interp", interp)?;
        DspError::factor("decim", decim)?;
        let g = gcd(interp, decim);
        let taps: Vec<K::Tap> = default_taps(interp / g, decim / g)?
            .into_iter()
            .map(K::Tap::from)
            .collect();
        Self::with_taps(interp, decim, &taps, Isa::detect())
    }
}

impl<K: FirKind> RationalResampler<K> {
    /// A resampler with caller-supplied prototype `taps` designed at the
    /// *reduced* upsampled rate `interp/g · input rate` (g = gcd), forced onto
    /// `isa`: `with_taps(6, 4, ..)` reads the taps as a 3/2 prototype. Taps
    /// written for GNU Radio (designed at `interp ·` the input rate, factors
    /// as given) belong in
    /// [`with_unreduced_taps`](Self::with_unreduced_taps).
    ///
    /// Errors: factors not in `1..=2^20`, empty or non-finite taps.
    pub fn with_taps(
        interp: usize,
        decim: usize,
        taps: &[K::Tap],
        isa: Isa,
    ) -> Result<Self, DspError> {
        DspError::factor("interp", interp)?;
        DspError::factor("decim", decim)?;
        crate::filter::check_taps(taps)?;
        let g = gcd(interp, decim);
        let (interp, decim) = (interp / g, decim / g);
        let phases = polyphase_prepare::<K>(taps, interp);
        let history = History::new(K::window_len(&phases[0]));
        Ok(RationalResampler {
            interp,
            decim,
            phases,
            history,
            next_index: 0,
            phase: 0,
            tap_stride: 1,
            simd: Simd::new(isa),
        })
    }

    /// A resampler reading `taps` as GNU Radio's `rational_resampler_xxx`
    /// does with user taps: designed at `interp ×` the input rate, with the
    /// factors as given (not reduced). Output `k` is output `k · decim` of
    /// "insert `interp − 1` zeros after each input sample, then filter with
    /// `taps`", so `(6, 4)` taps of gain 6 give unity gain, where
    /// [`with_taps`](Self::with_taps) would read them as a 3/2 prototype (gain
    /// 6 at 3×, +6 dB).
    ///
    /// With `g = gcd(interp, decim) > 1` the outputs only ever land on every
    /// `g`-th upsampled position, so only the taps `taps[g·i]` are used, and
    /// the resampler runs as `interp/g` over `decim/g` with those (the same
    /// output, a `g`-times smaller bank).
    ///
    /// Errors: factors not in `1..=2^20`, empty or non-finite taps.
    pub fn with_unreduced_taps(
        interp: usize,
        decim: usize,
        taps: &[K::Tap],
        isa: Isa,
    ) -> Result<Self, DspError> {
        DspError::factor("interp", interp)?;
        DspError::factor("decim", decim)?;
        crate::filter::check_taps(taps)?;
        let g = gcd(interp, decim);
        let used: Vec<K::Tap> = taps.iter().step_by(g).copied().collect();
        let mut resampler = Self::with_taps(interp / g, decim / g, &used, isa)?;
        resampler.tap_stride = g;
        Ok(resampler)
    }

    /// Filters with `taps` from the next output on, read as the
    /// constructor read its taps: at the reduced rate after
    /// [`new`](RationalResampler::new) and [`with_taps`](Self::with_taps),
    /// every `gcd`-th tap of a prototype at `interp ×` the input rate after
    /// [`with_unreduced_taps`](Self::with_unreduced_taps) (GNU Radio's
    /// `set_taps`). The input history and the output phase stay; a longer
    /// filter starts with zeros before the history it kept.
    ///
    /// Errors: empty or non-finite taps (nothing changes).
    pub fn set_taps(&mut self, taps: &[K::Tap]) -> Result<(), DspError> {
        crate::filter::check_taps(taps)?;
        let used: Vec<K::Tap> = taps.iter().step_by(self.tap_stride).copied().collect();
        self.set_reduced_taps(&used)
    }

    /// Filters with `taps` designed at the reduced upsampled rate
    /// (`interp/g ×` the input rate, as [`with_taps`](Self::with_taps)
    /// reads them) from the next output on, whatever the constructor was;
    /// the history and the output phase stay.
    ///
    /// Errors: empty or non-finite taps (nothing changes).
    pub fn set_reduced_taps(&mut self, taps: &[K::Tap]) -> Result<(), DspError> {
        crate::filter::check_taps(taps)?;
        self.phases = polyphase_prepare::<K>(taps, self.interp);
        self.history.resize(K::window_len(&self.phases[0]));
        Ok(())
    }

    /// Reduced interpolation factor `L`.
    pub fn interpolation(&self) -> usize {
        self.interp
    }

    /// Reduced decimation factor `M`.
    pub fn decimation(&self) -> usize {
        self.decim
    }

    /// The instruction set in use.
    pub fn isa(&self) -> Isa {
        self.simd.isa()
    }

    /// Resamples; returns `(consumed, produced)`. Produces until `output` is full
    /// or the next output needs an input sample not yet given.
    pub fn process(&mut self, input: &[K::Input], output: &mut [K::Output]) -> (usize, usize) {
        let n_in = input.len();
        let mut produced = 0;
        if self.next_index < n_in && !output.is_empty() {
            let h = self.history.len();
            let staged = self.history.stage(input);
            while produced < output.len() && self.next_index < n_in {
                let w = window(staged, input, h, self.next_index);
                K::filter(
                    self.simd,
                    &self.phases[self.phase],
                    w,
                    &mut output[produced..produced + 1],
                    1,
                );
                produced += 1;
                self.phase += self.decim;
                self.next_index += self.phase / self.interp;
                self.phase %= self.interp;
            }
        }
        let consumed = self.next_index.min(n_in);
        self.next_index -= consumed;
        self.history.advance(&input[..consumed]);
        (consumed, produced)
    }

    /// Clears history and output phase.
    pub fn reset(&mut self) {
        self.history.reset();
        self.next_index = 0;
        self.phase = 0;
    }
}

impl<K: FirKind> Kernel for RationalResampler<K> {
    type Input = K::Input;
    type Output = K::Output;

    fn process(&mut self, input: &[K::Input], output: &mut [K::Output]) -> (usize, usize) {
        RationalResampler::process(self, input, output)
    }

    fn min_input(&self) -> usize {
        self.decim.div_ceil(self.interp)
    }

    fn ratio(&self) -> Ratio {
        Ratio::new(self.interpolation() as u64, self.decimation() as u64)
    }

    fn reset(&mut self) {
        RationalResampler::reset(self);
    }
}
