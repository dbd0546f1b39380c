//! Numerically controlled oscillator. Owns the phase representation: a 32-bit
//! fixed-point phase accumulator (one turn = 2^32), advanced with wrapping
//! integer adds. Each sample's value depends only on its integer phase, so the
//! output is bit-identical whatever the call split, and phase never drifts or
//! needs re-normalising. Frequency resolution is `sample_rate / 2^32`.

use crate::error::DspError;
use crate::isa::Isa;
use crate::simd::{self, Simd, poly};
use core::f64::consts::TAU;
use num_complex::Complex32;

const TURN: f64 = 4_294_967_296.0;

/// Converts a frequency in cycles per sample (any real value; aliased into one
/// turn) to a phase increment.
pub(crate) fn phase_step(freq: f64) -> Result<u32, DspError> {
    DspError::finite("frequency", freq)?;
    Ok((freq.rem_euclid(1.0) * TURN).round() as u64 as u32)
}

/// Converts radians to a phase.
pub(crate) fn phase_of(radians: f64) -> Result<u32, DspError> {
    DspError::finite("phase", radians)?;
    Ok(((radians / TAU).rem_euclid(1.0) * TURN).round() as u64 as u32)
}

/// Signed frequency in cycles per sample of a phase increment.
pub(crate) fn freq_of(step: u32) -> f64 {
    step as i32 as f64 / TURN
}

/// `(cos, sin)` of the phase word `phase` (one turn = 2^32), with the
/// oscillator's own polynomial (absolute error below 1e-7): for code that
/// keeps its own phase words, such as a Box–Muller noise generator.
#[inline]
pub fn sincos(phase: u32) -> (f32, f32) {
    poly::sincos(phase)
}

/// Complex exponential generator `e^{j(2π f n + φ0)}`.
///
/// ```
/// use rfgraph_dsp::Nco;
/// let mut nco = Nco::new(0.25, 0.0).unwrap();
/// let mut out = [Default::default(); 4];
/// nco.generate(&mut out);
/// assert!((out[1].im - 1.0).abs() < 1e-6 && (out[2].re + 1.0).abs() < 1e-6);
/// ```
#[derive(Debug, Clone)]
pub struct Nco {
    phase: u32,
    step: u32,
    initial_phase: u32,
    simd: Simd,
}

impl Nco {
    /// An oscillator at `frequency` cycles per sample (`f_hz / sample_rate`;
    /// negative allowed) starting at `phase` radians.
    ///
    /// Errors: non-finite arguments.
    pub fn new(frequency: f64, phase: f64) -> Result<Self, DspError> {
        Self::with_isa(frequency, phase, Isa::detect())
    }

    /// As [`new`](Self::new), forced onto `isa` (scalar if the CPU lacks it).
    pub fn with_isa(frequency: f64, phase: f64, isa: Isa) -> Result<Self, DspError> {
        let p = phase_of(phase)?;
        Ok(Nco {
            phase: p,
            step: phase_step(frequency)?,
            initial_phase: p,
            simd: Simd::new(isa),
        })
    }

    /// Changes the frequency, keeping the phase continuous.
    ///
    /// Errors: non-finite frequency (the oscillator is unchanged).
    pub fn set_frequency(&mut self, frequency: f64) -> Result<(), DspError> {
        self.step = phase_step(frequency)?;
        Ok(())
    }

    /// Current frequency in cycles per sample, in `[-0.5, 0.5)`, as quantised.
    pub fn frequency(&self) -> f64 {
        freq_of(self.step)
    }

    /// Sets the phase of the next sample, in radians.
    ///
    /// Errors: non-finite phase.
    pub fn set_phase(&mut self, phase: f64) -> Result<(), DspError> {
        self.phase = phase_of(phase)?;
        Ok(())
    }

    /// Phase of the next sample, in radians in `[0, 2π)`.
    pub fn phase(&self) -> f64 {
        self.phase as f64 / TURN * TAU
    }

    /// The instruction set in use.
    pub fn isa(&self) -> Isa {
        self.simd.isa()
    }

    /// Fills `out` with the next `out.len()` samples; returns `out.len()`.
    pub fn generate(&mut self, out: &mut [Complex32]) -> usize {
        self.phase = simd::nco(self.simd, out, self.phase, self.step);
        out.len()
    }

    /// Fills `out` with the real part `cos(2π f n + φ0)` of the next samples;
    /// returns `out.len()`.
    pub fn generate_cos(&mut self, out: &mut [f32]) -> usize {
        for o in out.iter_mut() {
            *o = poly::sincos(self.phase).0;
            self.phase = self.phase.wrapping_add(self.step);
        }
        out.len()
    }

    /// Fills `out` with the imaginary part `sin(2π f n + φ0)` of the next
    /// samples; returns `out.len()`.
    pub fn generate_sin(&mut self, out: &mut [f32]) -> usize {
        for o in out.iter_mut() {
            *o = poly::sincos(self.phase).1;
            self.phase = self.phase.wrapping_add(self.step);
        }
        out.len()
    }

    /// Fills `out` with the phase words of the next samples (one turn =
    /// 2^32, so `p as i32` is the phase in `[-π, π)` scaled by `2^31/π`),
    /// for waveforms that are functions of the phase (square, triangle,
    /// sawtooth); returns `out.len()`. Advances the oscillator as
    /// [`generate`](Self::generate) does.
    pub fn generate_phases(&mut self, out: &mut [u32]) -> usize {
        let (phase, step) = (self.phase, self.step);
        for (n, o) in out.iter_mut().enumerate() {
            *o = phase.wrapping_add(step.wrapping_mul(n as u32));
        }
        self.advance(out.len() as u64);
        out.len()
    }

    /// Skips `n` samples.
    pub fn advance(&mut self, n: u64) {
        self.phase = self.phase.wrapping_add(self.step.wrapping_mul(n as u32));
    }

    /// Returns to the initial phase.
    pub fn reset(&mut self) {
        self.phase = self.initial_phase;
    }
}
