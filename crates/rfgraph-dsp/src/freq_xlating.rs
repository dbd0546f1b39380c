//! Frequency-translating decimating FIR (channel selector): shifts `center` to
//! DC, low-pass filters and decimates. Owns the chunked mix-then-filter loop:
//! the input is rotated into a fixed scratch buffer (allocated once) only as far
//! as the filter will consume it, so the mixer and the filter never disagree
//! about stream position.

use crate::error::DspError;
use crate::filter::{DecimatingFir, FirKind};
use crate::isa::Isa;
use crate::kernel::{Kernel, Ratio};
use crate::rotator::Rotator;
use num_complex::Complex32;

/// Samples rotated per inner step.
const CHUNK: usize = 4096;

/// `y = decimate_M( h * (x · e^{-j2π f_c n}) )` for complex input; `K` is
/// [`Ccf`](crate::Ccf) (real low-pass taps) or [`Ccc`](crate::Ccc).
#[derive(Debug, Clone)]
pub struct FreqXlatingFir<K: FirKind<Input = Complex32, Output = Complex32>> {
    rotator: Rotator,
    fir: DecimatingFir<K>,
    scratch: Vec<Complex32>,
    center: f64,
}

impl<K: FirKind<Input = Complex32, Output = Complex32>> FreqXlatingFir<K> {
    /// A translating filter moving `center` (cycles per sample, i.e.
    /// `f_hz / sample_rate`) to DC, then filtering with `taps` and decimating by
    /// `decimation`.
    ///
    /// Errors: invalid taps, `decimation == 0`, non-finite `center`.
    pub fn new(taps: &[K::Tap], decimation: usize, center: f64) -> Result<Self, DspError> {
        Self::with_isa(taps, decimation, center, Isa::detect())
    }

    /// As [`new`](Self::new), forced onto `isa` (scalar if the CPU lacks it).
    pub fn with_isa(
        taps: &[K::Tap],
        decimation: usize,
        center: f64,
        isa: Isa,
    ) -> Result<Self, DspError> {
        Ok(FreqXlatingFir {
            rotator: Rotator::with_isa(-center, isa)?,
            fir: DecimatingFir::with_isa(taps, decimation, isa)?,
            scratch: vec![Complex32::new(0.0, 0.0); CHUNK],
            center,
        })
    }

    /// Changes the centre frequency, phase-continuously.
    ///
    /// Errors: non-finite `center` (unchanged).
    pub fn set_center(&mut self, center: f64) -> Result<(), DspError> {
        self.rotator.set_frequency(-center)?;
        self.center = center;
        Ok(())
    }

    /// Filters with `taps` from the next output on, keeping the input
    /// history, the decimation phase and the mixer's phase.
    ///
    /// Errors: empty or non-finite taps (nothing changes).
    pub fn set_taps(&mut self, taps: &[K::Tap]) -> Result<(), DspError> {
        self.fir.set_taps(taps)
    }

    /// The centre frequency in cycles per sample.
    pub fn center(&self) -> f64 {
        self.center
    }

    /// The decimation factor.
    pub fn decimation(&self) -> usize {
        self.fir.decimation()
    }

    /// The instruction set in use.
    pub fn isa(&self) -> Isa {
        self.fir.isa()
    }

    /// Translates, filters and decimates; returns `(consumed, produced)` with the
    /// same consumption rule as [`DecimatingFir::process`].
    pub fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) -> (usize, usize) {
        let (mut consumed, mut produced) = (0, 0);
        loop {
            let rest = &input[consumed..];
            let chunk = rest.len().min(CHUNK);
            let (c, p) = self.fir.plan(chunk, output.len() - produced);
            if c == 0 && p == 0 {
                break;
            }
            self.rotator.process(&rest[..c], &mut self.scratch[..c]);
            let (c2, p2) = self
                .fir
                .process(&self.scratch[..c], &mut output[produced..]);
            debug_assert_eq!((c, p), (c2, p2));
            consumed += c2;
            produced += p2;
        }
        (consumed, produced)
    }

    /// Clears the filter history and the mixer phase.
    pub fn reset(&mut self) {
        self.rotator.reset();
        self.fir.reset();
    }
}

impl<K: FirKind<Input = Complex32, Output = Complex32>> crate::filter::SetTaps
    for FreqXlatingFir<K>
{
    type Tap = K::Tap;
    fn set_taps(&mut self, taps: &[K::Tap]) -> Result<(), DspError> {
        FreqXlatingFir::set_taps(self, taps)
    }
}

impl<K: FirKind<Input = Complex32, Output = Complex32>> Kernel for FreqXlatingFir<K> {
    type Input = Complex32;
    type Output = Complex32;

    fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) -> (usize, usize) {
        FreqXlatingFir::process(self, input, output)
    }

    fn ratio(&self) -> Ratio {
        Ratio::new(1, self.decimation() as u64)
    }

    fn reset(&mut self) {
        FreqXlatingFir::reset(self);
    }
}
