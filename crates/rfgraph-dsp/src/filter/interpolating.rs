//! Streaming polyphase interpolating FIR. Owns the split of a prototype filter
//! into `L` phases; each input sample yields `L` outputs, one per phase, without
//! ever multiplying the inserted zeros. Each phase runs as a 1:1 streaming FIR
//! over a chunk of input into a scratch buffer (allocated once), and the
//! phases are then interleaved into the output.

use super::history::{History, filter_contiguous};
use super::kind::{FirKind, check_taps};
use crate::error::DspError;
use crate::isa::Isa;
use crate::kernel::{Kernel, Ratio};
use crate::sample::Sample;
use crate::simd::Simd;

/// Splits `taps` into `phases` sub-filters `h_p[j] = taps[p + j·phases]`
/// (each only as long as it has taps; some may have none) and returns them
/// with the longest one's length, the window every phase is laid out in.
pub(crate) fn polyphase_split<T: Copy>(taps: &[T], phases: usize) -> (Vec<Vec<T>>, usize) {
    let split: Vec<Vec<T>> = (0..phases)
        .map(|p| taps.iter().skip(p).step_by(phases).copied().collect())
        .collect();
    let window = taps.len().div_ceil(phases).max(1);
    (split, window)
}

/// Lays out every phase of `taps` in one common window (a phase shorter than
/// the window gets no padding: its missing oldest taps are simply not there).
pub(crate) fn polyphase_prepare<K: FirKind>(taps: &[K::Tap], phases: usize) -> Vec<K::Prepared> {
    let (split, window) = polyphase_split(taps, phases);
    split.iter().map(|p| K::prepare_in(p, window, 0)).collect()
}

/// Upsample by `L` (zero insertion) then FIR-filter, done as `L` polyphase
/// sub-filters.
///
/// Output `n·L + p` is `Σ_j h[p + j·L] · x[n - j]`. The taps are used as given:
/// scale them by `L` for unity pass-band gain.
#[derive(Debug, Clone)]
pub struct InterpolatingFir<K: FirKind> {
    taps: Vec<K::Tap>,
    phases: Vec<K::Prepared>,
    history: History<K::Input>,
    scratch: Vec<K::Output>,
    simd: Simd,
}

/// Input samples per inner step.
const CHUNK: usize = 1024;

impl<K: FirKind> InterpolatingFir<K> {
    /// An interpolating filter on the best ISA of this CPU.
    ///
    /// Errors: empty or non-finite taps, `interpolation` not in `1..=2^20`.
    pub fn new(taps: &[K::Tap], interpolation: usize) -> Result<Self, DspError> {
        Self::with_isa(taps, interpolation, Isa::detect())
    }

    /// An interpolating filter forced onto `isa` (scalar if the CPU lacks it).
    pub fn with_isa(taps: &[K::Tap], interpolation: usize, isa: Isa) -> Result<Self, DspError> {
        check_taps(taps)?;
        DspError::factor("interpolation", interpolation)?;
        let phases = polyphase_prepare::<K>(taps, interpolation);
        let history = History::new(K::window_len(&phases[0]));
        Ok(InterpolatingFir {
            taps: taps.to_vec(),
            phases,
            history,
            scratch: vec![K::Output::ZERO; CHUNK],
            simd: Simd::new(isa),
        })
    }

    /// The prototype taps, in the order given.
    pub fn taps(&self) -> &[K::Tap] {
        &self.taps
    }

    /// Filters with the prototype `taps` from the next input sample on
    /// (same interpolation), keeping the input history.
    ///
    /// Errors: empty or non-finite taps (nothing changes).
    pub fn set_taps(&mut self, taps: &[K::Tap]) -> Result<(), DspError> {
        check_taps(taps)?;
        self.phases = polyphase_prepare::<K>(taps, self.phases.len());
        self.history.resize(K::window_len(&self.phases[0]));
        self.taps = taps.to_vec();
        Ok(())
    }

    /// The interpolation factor `L`.
    pub fn interpolation(&self) -> usize {
        self.phases.len()
    }

    /// The instruction set in use.
    pub fn isa(&self) -> Isa {
        self.simd.isa()
    }

    /// Consumes `n = min(input.len(), output.len() / L)` samples and produces
    /// `n · L`; returns `(n, n · L)`.
    pub fn process(&mut self, input: &[K::Input], output: &mut [K::Output]) -> (usize, usize) {
        let l = self.phases.len();
        let n = input.len().min(output.len() / l);
        if n == 0 {
            return (0, 0);
        }
        for (c, chunk) in input[..n].chunks(CHUNK).enumerate() {
            let out = &mut output[c * CHUNK * l..(c * CHUNK + chunk.len()) * l];
            for (p, taps) in self.phases.iter().enumerate() {
                let ys = &mut self.scratch[..chunk.len()];
                filter_contiguous::<K>(self.simd, taps, &mut self.history, chunk, ys);
                for (o, &y) in out[p..].iter_mut().step_by(l).zip(ys.iter()) {
                    *o = y;
                }
            }
            self.history.advance(chunk);
        }
        (n, n * l)
    }

    /// Clears the history.
    pub fn reset(&mut self) {
        self.history.reset();
    }
}

impl<K: FirKind> Kernel for InterpolatingFir<K> {
    type Input = K::Input;
    type Output = K::Output;

    fn process(&mut self, input: &[K::Input], output: &mut [K::Output]) -> (usize, usize) {
        InterpolatingFir::process(self, input, output)
    }

    fn min_output(&self) -> usize {
        self.phases.len()
    }

    fn ratio(&self) -> Ratio {
        Ratio::new(self.interpolation() as u64, 1)
    }

    fn reset(&mut self) {
        InterpolatingFir::reset(self);
    }
}
