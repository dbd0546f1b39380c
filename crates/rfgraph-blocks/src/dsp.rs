//! Blocks around `rfgraph-dsp` kernels: [`DspBlock`] runs any streaming
//! kernel (FIR, decimating/interpolating FIR, resamplers, rotator, FFT,
//! demodulators, ...) between one input and one output; [`NcoSource`]
//! turns the NCO into a finite or endless complex source.

use crate::limit::Limit;
use num_complex::Complex32;
use rfgraph::params::{NoParams, ParamSet};
use rfgraph::{Block, BoxError, Item, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo};
use rfgraph_dsp::{Kernel, Nco};

/// How a [`DspBlock`]'s kernel follows a changed parameter: given the
/// kernel, the parameters (with the new value) and the parameter's name,
/// it retunes the kernel or says why it cannot.
pub type Retune<K, P> = fn(&mut K, &P, &str) -> Result<(), BoxError>;

/// Runs a DSP [`Kernel`] on input `in`, writing output `out`.
///
/// The kernel's `(consumed, produced)` drive the ports, so rate-changing
/// kernels need no extra code, and tags move by the kernel's own
/// [`ratio`](Kernel::ratio). A block built with [`tuned`](Self::tuned)
/// carries the [`ParamSet`] `P` the kernel was made from: its settable
/// parameters are message inputs, and a change reaches the kernel through
/// the [`Retune`] function given with it.
///
/// # Stream Inputs
/// - `in`: `K::Input`
///
/// # Stream Outputs
/// - `out`: `K::Output`
///
/// # Message Inputs
/// - one per settable parameter of `P` (and alias), named after it
///
/// # Usage
/// ```
/// use rfgraph::ParamSet;
/// use rfgraph_blocks::DspBlock;
/// use rfgraph_dsp::{Ccf, FreqXlatingFir};
///
/// /// The parameters of a channel selector.
/// #[derive(ParamSet, Clone, Debug)]
/// struct Channel {
///     /// the frequency moved to 0 Hz, in cycles per sample
///     #[param(default = 0.1, settable)]
///     center: f64,
/// }
///
/// let params = Channel { center: 0.1 };
/// let xlate = FreqXlatingFir::<Ccf>::new(&[0.25f32; 4], 4, params.center).unwrap();
/// let block = DspBlock::tuned(xlate, params, |k, p, _| Ok(k.set_center(p.center)?));
/// # let _ = block;
/// ```
pub struct DspBlock<K, P = NoParams>
where
    K: Kernel,
    K::Input: Item,
    K::Output: Item,
{
    input: StreamInput<K::Input>,
    output: StreamOutput<K::Output>,
    kernel: K,
    params: P,
    retune: Retune<K, P>,
}

impl<K> DspBlock<K>
where
    K: Kernel + Send + 'static,
    K::Input: Item,
    K::Output: Item,
{
    /// A block around `kernel`; its rings hold at least the kernel's
    /// minimum chunks (a whole FFT frame, say).
    pub fn new(kernel: K) -> Self {
        Self::tuned(kernel, NoParams, |_, _, name| {
            Err(format!("`{name}` cannot change").into())
        })
    }
}

impl<K, P> DspBlock<K, P>
where
    K: Kernel + Send + 'static,
    K::Input: Item,
    K::Output: Item,
    P: ParamSet,
{
    /// A block around `kernel`, made from `params`: a change of a settable
    /// parameter reaches the kernel through `retune`.
    pub fn tuned(kernel: K, params: P, retune: Retune<K, P>) -> Self {
        Self {
            input: StreamInput::new("in").with_min_items(kernel.min_input()),
            output: StreamOutput::new("out").with_min_items(kernel.min_output()),
            kernel,
            params,
            retune,
        }
    }

    /// A block around `kernel`, made from `params`, none of which may
    /// change while it runs (the registry and the control port read them).
    pub fn with_params(kernel: K, params: P) -> Self {
        Self::tuned(kernel, params, |_, _, name| {
            Err(format!("`{name}` cannot change while the block runs").into())
        })
    }

    /// The wrapped kernel.
    pub fn kernel(&self) -> &K {
        &self.kernel
    }
}

impl<K, P> Block for DspBlock<K, P>
where
    K: Kernel + Send + 'static,
    K::Input: Item,
    K::Output: Item,
    P: ParamSet,
{
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        (self.retune)(&mut self.kernel, &self.params, name)
    }

    #[inline]
    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let (consumed, produced) = self.kernel.process(self.input.slice(), self.output.slice());
        self.input.consume(consumed);
        self.output.produce(produced);
        Ok(())
    }

    fn tag_policy(&self) -> TagPolicy {
        let ratio = self.kernel.ratio();
        TagPolicy::Propagate {
            interpolation: ratio.interpolation,
            decimation: ratio.decimation,
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
