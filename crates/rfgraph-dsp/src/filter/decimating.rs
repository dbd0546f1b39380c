//! Streaming decimating FIR. Owns the output-phase bookkeeping: only every M-th
//! output of the plain FIR is computed, and a call may end anywhere inside a
//! decimation period.

use super::history::{History, filter_strided};
use super::kind::{FirKind, check_taps};
use crate::error::DspError;
use crate::isa::Isa;
use crate::kernel::{Kernel, Ratio};
use crate::simd::Simd;

/// FIR filter followed by keeping every `decimation`-th output, computing only
/// the outputs that are kept.
///
/// Output `k` equals the plain FIR's output at input index `k · decimation`
/// (the first input sample produces the first output).
#[derive(Debug, Clone)]
pub struct DecimatingFir<K: FirKind> {
    taps: Vec<K::Tap>,
    prepared: K::Prepared,
    history: History<K::Input>,
    decimation: usize,
    /// Input samples to skip before the next one that produces an output.
    skip: usize,
    simd: Simd,
}

impl<K: FirKind> DecimatingFir<K> {
    /// A decimating filter on the best ISA of this CPU.
    ///
    /// Errors: empty or non-finite taps, `decimation == 0`.
    pub fn new(taps: &[K::Tap], decimation: usize) -> Result<Self, DspError> {
        Self::with_isa(taps, decimation, Isa::detect())
    }

    /// A decimating filter forced onto `isa` (scalar if the CPU lacks it).
    pub fn with_isa(taps: &[K::Tap], decimation: usize, isa: Isa) -> Result<Self, DspError> {
        check_taps(taps)?;
        DspError::nonzero("decimation", decimation)?;
        let prepared = K::prepare(taps);
        let history = History::new(K::window_len(&prepared));
        Ok(DecimatingFir {
            taps: taps.to_vec(),
            prepared,
            history,
            decimation,
            skip: 0,
            simd: Simd::new(isa),
        })
    }

    /// The taps, in the order given.
    pub fn taps(&self) -> &[K::Tap] {
        &self.taps
    }

    /// Filters with `taps` from the next output on, keeping the input
    /// history and the decimation phase.
    ///
    /// Errors: empty or non-finite taps (nothing changes).
    pub fn set_taps(&mut self, taps: &[K::Tap]) -> Result<(), DspError> {
        check_taps(taps)?;
        self.prepared = K::prepare(taps);
        self.history.resize(K::window_len(&self.prepared));
        self.taps = taps.to_vec();
        Ok(())
    }

    /// The decimation factor.
    pub fn decimation(&self) -> usize {
        self.decimation
    }

    /// The instruction set in use.
    pub fn isa(&self) -> Isa {
        self.simd.isa()
    }

    /// What [`process`](Self::process) would return for `input_len` input
    /// samples and `output_len` output slots, without doing it.
    pub fn plan(&self, input_len: usize, output_len: usize) -> (usize, usize) {
        let m = self.decimation;
        let available = if self.skip < input_len {
            (input_len - self.skip - 1) / m + 1
        } else {
            0
        };
        let produced = available.min(output_len);
        let consumed = if produced < available {
            self.skip + produced * m
        } else {
            input_len
        };
        (consumed, produced)
    }

    /// Filters and decimates; returns `(consumed, produced)`.
    ///
    /// Consumes every input sample it can: when `output` fills up it stops
    /// right before the input sample that would produce the next output.
    pub fn process(&mut self, input: &[K::Input], output: &mut [K::Output]) -> (usize, usize) {
        let (consumed, produced) = self.plan(input.len(), output.len());
        filter_strided::<K>(
            self.simd,
            &self.prepared,
            &mut self.history,
            input,
            self.skip,
            self.decimation,
            &mut output[..produced],
        );
        self.history.advance(&input[..consumed]);
        self.skip = self.skip + produced * self.decimation - consumed;
        (consumed, produced)
    }

    /// Clears the history and the decimation phase.
    pub fn reset(&mut self) {
        self.history.reset();
        self.skip = 0;
    }
}

impl<K: FirKind> Kernel for DecimatingFir<K> {
    type Input = K::Input;
    type Output = K::Output;

    fn process(&mut self, input: &[K::Input], output: &mut [K::Output]) -> (usize, usize) {
        DecimatingFir::process(self, input, output)
    }

    fn min_input(&self) -> usize {
        self.decimation
    }

    fn ratio(&self) -> Ratio {
        Ratio::new(1, self.decimation() as u64)
    }

    fn reset(&mut self) {
        DecimatingFir::reset(self);
    }
}
