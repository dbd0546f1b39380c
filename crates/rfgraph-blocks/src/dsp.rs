//! Blocks around `rfgraph-dsp` kernels: [`DspBlock`] runs any streaming
//! kernel (FIR, decimating/interpolating FIR, resamplers, rotator, FFT,
//! demodulators, ...) between one input and one output; [`NcoSource`]
//! turns the NCO into a finite or endless complex source.

use crate::limit::Limit;
use num_complex::Complex32;
use rfgraph::params::{NoParams, ParamSet};
use rfgraph::{
    Block, BoxError, FromPmt, Item, ParamInfo, Pmt, Ports, Setting, Settings, StreamInput,
    StreamOutput, TagPolicy, WorkIo,
};

/// How a [`DspBlock`]'s kernel follows a changed parameter: given the
/// kernel, the parameters (with the new value) and the parameter's name,
/// it retunes the kernel or says why it cannot.
pub type Retune<K, P> = fn(&mut K, &P, &str) -> Result<(), BoxError>;
use rfgraph_dsp::{Kernel, Nco};

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
/// - one per setting, named after it
///
/// # Usage
/// ```
/// use rfgraph::Setting;
/// use rfgraph_blocks::DspBlock;
/// use rfgraph_dsp::{Ccf, FreqXlatingFir};
///
/// let taps = vec![0.25f32; 4];
/// let xlate = FreqXlatingFir::<Ccf>::new(&taps, 4, 0.1).unwrap();
/// let block = DspBlock::new(xlate)
///     .with_setting(Setting::try_new("center", |k: &mut FreqXlatingFir<Ccf>, f: f64| k.set_center(f)).unit("cycles/sample"));
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
    settings: Settings<K>,
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
            settings: Settings::new(),
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

    /// Adds a run-time parameter of the kernel (see [`Setting`]).
    pub fn with_setting(mut self, setting: impl Into<Setting<K>>) -> Self {
        self.settings = self.settings.with(setting.into());
        self
    }

    /// Shorthand for [`with_setting`](Self::with_setting) with a setter
    /// that cannot fail.
    pub fn setting<T: FromPmt + 'static>(
        self,
        name: &'static str,
        set: impl Fn(&mut K, T) + Send + Sync + 'static,
    ) -> Self {
        self.with_setting(Setting::new(name, set))
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
        self.settings
            .message_inputs(Ports::new().input(&mut self.input).output(&mut self.output))
    }

    fn handle_message(&mut self, port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        self.settings.handle(&mut self.kernel, port, msg)
    }

    fn settings(&self) -> Vec<ParamInfo> {
        self.settings.infos()
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
