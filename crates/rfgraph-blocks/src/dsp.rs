//! Blocks around `rfgraph-dsp` kernels: [`DspBlock`] runs any streaming
//! kernel (FIR, decimating/interpolating FIR, resamplers, rotator, FFT,
//! demodulators, ...) between one input and one output; [`NcoSource`]
//! turns the NCO into a finite or endless complex source.

use crate::limit::Limit;
use num_complex::Complex32;
use rfgraph::{Block, BoxError, Item, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo};
use rfgraph_dsp::{Kernel, Nco};

/// Runs a [`Kernel`] on input `in`, writing output `out`. The kernel's
/// `(consumed, produced)` drive the ports, so rate-changing kernels need no
/// extra code; give their nominal rate for tag propagation with
/// [`with_rate`](Self::with_rate).
pub struct DspBlock<K>
where
    K: Kernel,
    K::Input: Item,
    K::Output: Item,
{
    input: StreamInput<K::Input>,
    output: StreamOutput<K::Output>,
    kernel: K,
    rate: (u64, u64),
}

impl<K> DspBlock<K>
where
    K: Kernel + Send + 'static,
    K::Input: Item,
    K::Output: Item,
{
    /// A 1:1 block around `kernel`; its rings hold at least the kernel's
    /// minimum chunks (a whole FFT frame, say).
    pub fn new(kernel: K) -> Self {
        Self {
            input: StreamInput::new("in").with_min_items(kernel.min_input()),
            output: StreamOutput::new("out").with_min_items(kernel.min_output()),
            kernel,
            rate: (1, 1),
        }
    }

    /// Declares that the kernel makes `interpolation` outputs per
    /// `decimation` inputs, so tags move to the scaled index.
    pub fn with_rate(mut self, interpolation: u64, decimation: u64) -> Self {
        self.rate = (interpolation.max(1), decimation.max(1));
        self
    }

    /// The wrapped kernel.
    pub fn kernel(&self) -> &K {
        &self.kernel
    }
}

impl<K> Block for DspBlock<K>
where
    K: Kernel + Send + 'static,
    K::Input: Item,
    K::Output: Item,
{
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    #[inline]
    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let (consumed, produced) = self.kernel.process(self.input.slice(), self.output.slice());
        self.input.consume(consumed);
        self.output.produce(produced);
        Ok(())
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Propagate {
            interpolation: self.rate.0,
            decimation: self.rate.1,
        }
    }
}

/// A complex oscillator source (phase-continuous), endless or limited.
pub struct NcoSource {
    output: StreamOutput<Complex32>,
    nco: Nco,
    limit: Limit,
}

impl NcoSource {
    /// An endless source at `frequency` cycles per sample.
    pub fn new(frequency: f64) -> Result<Self, rfgraph_dsp::DspError> {
        Ok(Self {
            output: StreamOutput::new("out"),
            nco: Nco::new(frequency, 0.0)?,
            limit: Limit::unlimited(),
        })
    }

    /// Stops after `items` samples.
    pub fn limit(mut self, items: u64) -> Self {
        self.limit = Limit::of(items);
        self
    }
}

impl Block for NcoSource {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.output.slice();
        let n = self.limit.allow(out.len());
        self.nco.generate(&mut out[..n]);
        self.output.produce(n);
        self.limit.spend(n, io);
        Ok(())
    }
}
