//! [`DiagBlock`]: a block around a timing-recovery kernel that, besides
//! its samples on `out`, writes three optional `f32` diagnostic streams
//! (GNU Radio's optional outputs of `symbol_sync_xx` and
//! `pfb_clock_sync_xxx`), one item per output sample.

use rfgraph::params::ParamSet;
use rfgraph::{Block, BoxError, Item, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo};
use rfgraph_dsp::Kernel;
use rfgraph_dsp::digital::{PfbClockSync, SymbolSync, SyncSample};

/// A kernel that can report three values per output.
pub trait Diagnosed: Kernel {
    /// [`Kernel::process`], also writing each output's three values into
    /// `diag` when given.
    fn process_diag(
        &mut self,
        input: &[Self::Input],
        output: &mut [Self::Output],
        diag: Option<&mut [[f32; 3]]>,
    ) -> (usize, usize);
}

impl<T: SyncSample> Diagnosed for PfbClockSync<T> {
    fn process_diag(
        &mut self,
        input: &[T],
        output: &mut [T],
        diag: Option<&mut [[f32; 3]]>,
    ) -> (usize, usize) {
        PfbClockSync::process_diag(self, input, output, diag)
    }
}

impl<T: SyncSample> Diagnosed for SymbolSync<T> {
    fn process_diag(
        &mut self,
        input: &[T],
        output: &mut [T],
        diag: Option<&mut [[f32; 3]]>,
    ) -> (usize, usize) {
        self.run(input, output, diag)
    }
}

/// How the block's kernel follows a changed parameter.
pub type Retune<K, P> = fn(&mut K, &P, &str) -> Result<(), BoxError>;

/// Runs a [`Diagnosed`] kernel on `in`, writing `out` and, where
/// connected, the three diagnostic outputs.
///
/// # Stream Inputs
/// - `in`: `K::Input`
///
/// # Stream Outputs
/// - `out`: `K::Output`
/// - three optional `f32` outputs, named at construction
///
/// # Message Inputs
/// - one per settable parameter of `P`
pub struct DiagBlock<K, P>
where
    K: Diagnosed,
    K::Input: Item,
    K::Output: Item,
{
    input: StreamInput<K::Input>,
    output: StreamOutput<K::Output>,
    diag_out: [StreamOutput<f32>; 3],
    scratch: Vec<[f32; 3]>,
    kernel: K,
    params: P,
    retune: Retune<K, P>,
}

impl<K, P> DiagBlock<K, P>
where
    K: Diagnosed + Send + 'static,
    K::Input: Item,
    K::Output: Item,
    P: ParamSet,
{
    /// A block around `kernel` made from `params`, its diagnostic outputs
    /// named `names`.
    pub fn new(kernel: K, params: P, names: [&'static str; 3], retune: Retune<K, P>) -> Self {
        Self {
            input: StreamInput::new("in").with_min_items(kernel.min_input()),
            output: StreamOutput::new("out").with_min_items(kernel.min_output()),
            diag_out: names.map(StreamOutput::optional),
            scratch: Vec::new(),
            kernel,
            params,
            retune,
        }
    }

    /// The wrapped kernel.
    pub fn kernel(&self) -> &K {
        &self.kernel
    }
}

impl<K, P> Block for DiagBlock<K, P>
where
    K: Diagnosed + Send + 'static,
    K::Input: Item,
    K::Output: Item,
    P: ParamSet,
{
    fn ports(&mut self) -> Ports<'_> {
        let [a, b, c] = &mut self.diag_out;
        Ports::new()
            .input(&mut self.input)
            .output(&mut self.output)
            .output(a)
            .output(b)
            .output(c)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        (self.retune)(&mut self.kernel, &self.params, name)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let connected = [0, 1, 2].map(|i| self.diag_out[i].is_connected());
        if !connected.contains(&true) {
            let (c, p) = self.kernel.process(self.input.slice(), self.output.slice());
            self.input.consume(c);
            self.output.produce(p);
            return Ok(());
        }
        let mut room = self.output.free();
        for i in (0..3).filter(|&i| connected[i]) {
            room = room.min(self.diag_out[i].free());
        }
        if room < self.kernel.min_output() {
            return Ok(());
        }
        if self.scratch.len() < room {
            self.scratch.resize(room, [0.0; 3]);
        }
        let out = &mut self.output.slice()[..room];
        let (c, p) =
            self.kernel
                .process_diag(self.input.slice(), out, Some(&mut self.scratch[..room]));
        for i in (0..3).filter(|&i| connected[i]) {
            let d = self.diag_out[i].slice();
            for (slot, v) in d[..p].iter_mut().zip(&self.scratch[..p]) {
                *slot = v[i];
            }
            self.diag_out[i].produce(p);
        }
        self.input.consume(c);
        self.output.produce(p);
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
