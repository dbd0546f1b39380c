//! The RDS demodulator: from the FM multiplex (`f32`, any rate from 128
//! kHz) to one soft value per RDS bit.
//!
//! 1. The 57 kHz subcarrier is moved to 0 Hz by an NCO (at exactly 57 kHz
//!    of the given rate; the carrier loop takes up what is left).
//! 2. A Kaiser low-pass (pass band ±2.6 kHz, stop band from 8 kHz, 60 dB)
//!    decimates by `⌊rate / 19 kHz⌋`, to 19–38 kHz.
//! 3. An arbitrary-ratio resampler brings that to exactly 19 kHz: 16
//!    samples per bit, 8 per biphase half-symbol.
//! 4. The biphase matched filter: the time-reversed bit waveform (the
//!    shaping pulse, then the negated pulse half a bit later), so its
//!    output peaks at each bit's centre with the bit's sign.
//! 5. [`SymbolSync`] recovers timing and carrier phase and gives the
//!    soft bits.
//!
//! The DSP pieces are `rfgraph-dsp`'s (`Nco`, `DecimatingFir`,
//! `ArbitraryResampler`, `Fir`, the Kaiser design); every stage keeps its
//! own history, so the output does not depend on how the input is split.
//! Non-finite input samples are taken as 0 and the rest clipped to ±10⁶,
//! so no input can poison the filters' state.

use super::RdsError;
use super::pulse::{BIT_RATE, PULSE_SPAN, SUBCARRIER_HZ, shaping_pulse};
use super::symbol_sync::{SAMPLES_PER_BIT, SymbolSync};
use num_complex::Complex32;
use rfgraph_dsp::{ArbitraryResampler, Ccf, DecimatingFir, Fir, Nco, design};

/// The lowest multiplex rate accepted: the subcarrier's upper edge (59.4
/// kHz) must stay clear of Nyquist.
pub const MIN_MPX_RATE: f64 = 128e3;
/// The highest multiplex rate accepted.
pub const MAX_MPX_RATE: f64 = 10e6;

/// The rate of the matched filter and symbol recovery: 16 samples per bit.
pub const SYMBOL_RATE_HZ: f64 = BIT_RATE * SAMPLES_PER_BIT as f64;

/// Input values are clipped to ±this, so no filter overflows (an FM
/// multiplex is about ±1; any scale up to here works).
pub const MAX_INPUT: f32 = 1e6;

/// Input samples handled per internal step (bounds the scratch buffers).
const CHUNK: usize = 4096;

/// MPX → soft bits (see the module docs).
#[derive(Clone, Debug)]
pub struct RdsDemodulator {
    rate: f64,
    nco: Nco,
    decimator: DecimatingFir<Ccf>,
    resampler: ArbitraryResampler<Ccf>,
    matched: Fir<Ccf>,
    sync: SymbolSync,
    oscillator: Vec<Complex32>,
    mixed: Vec<Complex32>,
    decimated: Vec<Complex32>,
    resampled: Vec<Complex32>,
    filtered: Vec<Complex32>,
}

/// The biphase bit's matched filter at 16 samples per bit.
fn matched_taps() -> Vec<f32> {
    let per_half = (SAMPLES_PER_BIT / 2) as f64;
    let span = PULSE_SPAN as f64 * per_half;
    let len = (2.0 * span + per_half) as usize + 1;
    // The bit: +g centred at −T/2, −g at +T/2 (T = half a bit); reversed in
    // time for matching: −g at −T/2, +g at +T/2. Tap m sits at time
    // m − centre samples.
    let centre = (len - 1) as f64 / 2.0;
    let taps: Vec<f64> = (0..len)
        .map(|m| {
            let t = (m as f64 - centre) / per_half; // half-symbols
            shaping_pulse(t - 0.5) - shaping_pulse(t + 0.5)
        })
        .collect();
    let energy: f64 = taps.iter().map(|t| t * t).sum();
    taps.iter().map(|&t| (t / energy.sqrt()) as f32).collect()
}

impl RdsDemodulator {
    /// A demodulator for a multiplex sampled at `mpx_rate` Hz.
    ///
    /// Errors: [`RdsError::Rate`] outside [`MIN_MPX_RATE`]..=[`MAX_MPX_RATE`];
    /// [`RdsError::Dsp`] if a filter cannot be designed.
    pub fn new(mpx_rate: f64) -> Result<Self, RdsError> {
        if !(mpx_rate.is_finite() && (MIN_MPX_RATE..=MAX_MPX_RATE).contains(&mpx_rate)) {
            return Err(RdsError::Rate(mpx_rate));
        }
        let decimation = ((mpx_rate / SYMBOL_RATE_HZ).floor() as usize).max(1);
        let low = design::kaiser_lowpass(mpx_rate, 5.3e3, 5.4e3, 60.0)?;
        let inner = mpx_rate / decimation as f64;
        Ok(Self {
            rate: mpx_rate,
            nco: Nco::new(-SUBCARRIER_HZ / mpx_rate, 0.0)?,
            decimator: DecimatingFir::new(&low, decimation)?,
            resampler: ArbitraryResampler::new(SYMBOL_RATE_HZ / inner)?,
            matched: Fir::new(&matched_taps())?,
            sync: SymbolSync::new(),
            oscillator: vec![Complex32::default(); CHUNK],
            mixed: vec![Complex32::default(); CHUNK],
            decimated: vec![Complex32::default(); CHUNK],
            resampled: vec![Complex32::default(); 2 * CHUNK + 16],
            filtered: vec![Complex32::default(); 2 * CHUNK + 16],
        })
    }

    /// The multiplex rate.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// Demodulates `input`, appending one soft value per bit to `out`
    /// (about `input.len() · 1187.5 / rate` of them).
    pub fn process(&mut self, input: &[f32], out: &mut Vec<f32>) {
        for chunk in input.chunks(CHUNK) {
            let n = chunk.len();
            self.nco.generate(&mut self.oscillator[..n]);
            for ((m, &x), &o) in self.mixed[..n].iter_mut().zip(chunk).zip(&self.oscillator) {
                let x = if x.is_finite() {
                    x.clamp(-MAX_INPUT, MAX_INPUT)
                } else {
                    0.0
                };
                *m = o * x;
            }
            let (_, d) = self
                .decimator
                .process(&self.mixed[..n], &mut self.decimated);
            let (_, r) = self
                .resampler
                .process(&self.decimated[..d], &mut self.resampled);
            let (_, f) = self
                .matched
                .process(&self.resampled[..r], &mut self.filtered);
            for &y in &self.filtered[..f] {
                if let Some(bit) = self.sync.push(y) {
                    out.push(bit);
                }
            }
        }
    }
}
