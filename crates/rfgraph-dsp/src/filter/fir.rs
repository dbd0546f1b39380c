//! Streaming 1:1 FIR filter. Owns the plain `y[n] = Σ h[k] x[n-k]` kernel; it
//! reads windows straight from the caller's input and keeps only `taps - 1`
//! samples of history between calls.

use super::history::{History, filter_contiguous};
use super::kind::{FirKind, check_taps};
use crate::error::DspError;
use crate::isa::Isa;
use crate::kernel::{Kernel, Ratio};
use crate::simd::Simd;

/// Streaming FIR filter `y[n] = Σ_k h[k] · x[n-k]`, one output per input.
///
/// `K` picks the types: [`Fff`](crate::Fff), [`Ccf`](crate::Ccf) or
/// [`Ccc`](crate::Ccc). History starts at zero, so the impulse response is the
/// tap vector itself.
///
/// ```
/// use rfgraph_dsp::{Fir, Fff, Kernel};
/// let mut fir = Fir::<Fff>::new(&[0.5, 0.5]).unwrap();
/// let mut out = [0.0; 3];
/// assert_eq!(fir.process(&[2.0, 4.0, 6.0], &mut out), (3, 3));
/// assert_eq!(out, [1.0, 3.0, 5.0]);
/// ```
#[derive(Debug, Clone)]
pub struct Fir<K: FirKind> {
    taps: Vec<K::Tap>,
    prepared: K::Prepared,
    history: History<K::Input>,
    simd: Simd,
}

impl<K: FirKind> Fir<K> {
    /// A filter with the given taps on the best ISA of this CPU.
    ///
    /// Errors: empty or non-finite taps.
    pub fn new(taps: &[K::Tap]) -> Result<Self, DspError> {
        Self::with_isa(taps, Isa::detect())
    }

    /// A filter forced onto `isa` (falls back to scalar if the CPU lacks it).
    pub fn with_isa(taps: &[K::Tap], isa: Isa) -> Result<Self, DspError> {
        check_taps(taps)?;
        let prepared = K::prepare(taps);
        let history = History::new(K::window_len(&prepared));
        Ok(Fir {
            taps: taps.to_vec(),
            prepared,
            history,
            simd: Simd::new(isa),
        })
    }

    /// The taps, in the order given.
    pub fn taps(&self) -> &[K::Tap] {
        &self.taps
    }

    /// Filters with `taps` from the next sample on, keeping the input
    /// history (a redesigned filter continues the stream without a
    /// restart transient of zeros).
    ///
    /// Errors: empty or non-finite taps (nothing changes).
    pub fn set_taps(&mut self, taps: &[K::Tap]) -> Result<(), DspError> {
        check_taps(taps)?;
        self.prepared = K::prepare(taps);
        self.history.resize(K::window_len(&self.prepared));
        self.taps = taps.to_vec();
        Ok(())
    }

    /// Number of taps.
    pub fn num_taps(&self) -> usize {
        self.taps.len()
    }

    /// The instruction set in use.
    pub fn isa(&self) -> Isa {
        self.simd.isa()
    }

    /// Filters `min(input.len(), output.len())` samples; returns
    /// `(consumed, produced)`, both equal to that count.
    pub fn process(&mut self, input: &[K::Input], output: &mut [K::Output]) -> (usize, usize) {
        let n = input.len().min(output.len());
        let input = &input[..n];
        filter_contiguous::<K>(
            self.simd,
            &self.prepared,
            &mut self.history,
            input,
            &mut output[..n],
        );
        self.history.advance(input);
        (n, n)
    }

    /// Clears the history.
    pub fn reset(&mut self) {
        self.history.reset();
    }
}

impl<K: FirKind> Kernel for Fir<K> {
    type Input = K::Input;
    type Output = K::Output;

    fn process(&mut self, input: &[K::Input], output: &mut [K::Output]) -> (usize, usize) {
        Fir::process(self, input, output)
    }

    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {
        Fir::reset(self);
    }
}
