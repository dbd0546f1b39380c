//! Magnitude and log-power spectra of complex frames. Owns the scaling
//! convention: a complex tone `A e^{jωn}` on a bin reads `A` in magnitude mode
//! and `20 log10 A` dB in power mode, whatever the window (the window's coherent
//! gain is divided out).

use crate::error::DspError;
use crate::fft::{Fft, FftDirection};
use crate::isa::Isa;
use crate::kernel::{Kernel, Ratio};
use crate::simd::{self, Simd};
use crate::window::Window;
use num_complex::Complex32;

/// What a [`Spectrum`] outputs per bin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpectrumMode {
    /// `|X[k]| / Σ w`.
    Magnitude,
    /// `10 log10(|X[k]|² / (Σ w)²)` dB, floored at −300 dB.
    PowerDb,
}

/// Frame-by-frame windowed spectrum: `size` complex samples in, `size` bins out.
#[derive(Debug, Clone)]
pub struct Spectrum {
    fft: Fft,
    frame: Vec<Complex32>,
    bins: Vec<f32>,
    mode: SpectrumMode,
    shift: bool,
    norm: f32,
    simd: Simd,
}

impl Spectrum {
    /// A spectrum of `size` bins with `window` and `mode`; bins in FFT order
    /// (DC first) unless [`with_shift`](Self::with_shift) is used.
    ///
    /// Errors: invalid size or window.
    pub fn new(size: usize, window: Window, mode: SpectrumMode) -> Result<Self, DspError> {
        Self::with_isa(size, window, mode, Isa::detect())
    }

    /// As [`new`](Self::new), forcing the magnitude loop onto `isa`.
    pub fn with_isa(
        size: usize,
        window: Window,
        mode: SpectrumMode,
        isa: Isa,
    ) -> Result<Self, DspError> {
        let fft = Fft::new(size, FftDirection::Forward)?.with_window(window)?;
        let sum: f32 = fft.window().map(|w| w.iter().sum()).unwrap_or(size as f32);
        if sum.is_nan() || sum <= 0.0 {
            return Err(DspError::InvalidSpec("window sums to zero".into()));
        }
        Ok(Spectrum {
            fft,
            frame: vec![Complex32::new(0.0, 0.0); size],
            bins: vec![0.0; size],
            mode,
            shift: false,
            norm: 1.0 / sum,
            simd: Simd::new(isa),
        })
    }

    /// Puts DC in the middle (bin `size/2`), negative frequencies first.
    pub fn with_shift(mut self, shift: bool) -> Self {
        self.shift = shift;
        self
    }

    /// Number of bins per frame.
    pub fn size(&self) -> usize {
        self.fft.size()
    }

    /// The output mode.
    pub fn mode(&self) -> SpectrumMode {
        self.mode
    }

    /// Computes one spectrum per whole frame that fits in both slices; returns
    /// `(consumed, produced)`.
    pub fn process(&mut self, input: &[Complex32], output: &mut [f32]) -> (usize, usize) {
        let size = self.size();
        let frames = (input.len() / size).min(output.len() / size);
        for f in 0..frames {
            self.frame.copy_from_slice(&input[f * size..(f + 1) * size]);
            self.fft.transform_frames(&mut self.frame);
            let out = &mut output[f * size..(f + 1) * size];
            let bins = &mut self.bins;
            match self.mode {
                SpectrumMode::Magnitude => {
                    simd::magnitude(self.simd, &self.frame, bins);
                    bins.iter_mut().for_each(|b| *b *= self.norm);
                }
                SpectrumMode::PowerDb => {
                    simd::magnitude_squared(self.simd, &self.frame, bins);
                    let n2 = self.norm * self.norm;
                    bins.iter_mut()
                        .for_each(|b| *b = 10.0 * (*b * n2).max(1e-30).log10());
                }
            }
            if self.shift {
                let half = size.div_ceil(2);
                out[..size - half].copy_from_slice(&bins[half..]);
                out[size - half..].copy_from_slice(&bins[..half]);
            } else {
                out.copy_from_slice(bins);
            }
        }
        (frames * size, frames * size)
    }
}

impl Kernel for Spectrum {
    type Input = Complex32;
    type Output = f32;

    fn process(&mut self, input: &[Complex32], output: &mut [f32]) -> (usize, usize) {
        Spectrum::process(self, input, output)
    }

    fn min_input(&self) -> usize {
        self.size()
    }

    fn min_output(&self) -> usize {
        self.size()
    }

    /// A spectrum has no state between frames.
    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {}
}
