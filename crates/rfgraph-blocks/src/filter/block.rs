//! [`ChannelizerBlock`]: the block around a channelizer kernel: one
//! complex input, one output per channel.

use crate::wav::ports::channel_port;
use num_complex::Complex32;
use rfgraph::params::ParamSet;
use rfgraph::{Block, BoxError, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo};
use rfgraph_dsp::channelizer::{FilterbankChannelizer, PfbChannelizer};

/// A channelizer kernel: input samples in, items per output channel out.
pub trait Channelize: Send + 'static {
    /// Writes `outputs[c][..m]`; gives `(consumed, m)`.
    fn channelize(
        &mut self,
        input: &[Complex32],
        outputs: &mut [&mut [Complex32]],
    ) -> (usize, usize);
    /// Output items per channel written at once.
    fn output_multiple(&self) -> usize;
}

impl Channelize for PfbChannelizer {
    fn channelize(
        &mut self,
        input: &[Complex32],
        outputs: &mut [&mut [Complex32]],
    ) -> (usize, usize) {
        self.process(input, outputs)
    }

    fn output_multiple(&self) -> usize {
        self.rounds()
    }
}

impl Channelize for FilterbankChannelizer {
    fn channelize(
        &mut self,
        input: &[Complex32],
        outputs: &mut [&mut [Complex32]],
    ) -> (usize, usize) {
        self.process(input, outputs)
    }

    fn output_multiple(&self) -> usize {
        1
    }
}

/// Runs a [`Channelize`] kernel: `in` to `out0` … `out{n−1}`.
///
/// # Stream Inputs
/// - `in`: `Complex32`
///
/// # Stream Outputs
/// - `out0`, `out1`, …: `Complex32`, one per channel
pub struct ChannelizerBlock<K: Channelize, P: ParamSet> {
    input: StreamInput<Complex32>,
    outputs: Vec<StreamOutput<Complex32>>,
    kernel: K,
    params: P,
}

impl<K: Channelize, P: ParamSet> ChannelizerBlock<K, P> {
    /// A block with `outputs` output channels around `kernel`.
    pub fn new(kernel: K, params: P, outputs: usize) -> Self {
        let multiple = kernel.output_multiple();
        Self {
            input: StreamInput::new("in"),
            outputs: (0..outputs)
                .map(|i| StreamOutput::new(channel_port("out", i)).with_min_items(multiple))
                .collect(),
            kernel,
            params,
        }
    }

    /// The kernel.
    pub fn kernel(&self) -> &K {
        &self.kernel
    }
}

impl<K: Channelize, P: ParamSet> Block for ChannelizerBlock<K, P> {
    fn ports(&mut self) -> Ports<'_> {
        let mut ports = Ports::new().input(&mut self.input);
        for output in &mut self.outputs {
            ports = ports.output(output);
        }
        ports
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let input = self.input.slice();
        let mut slices: Vec<&mut [Complex32]> =
            self.outputs.iter_mut().map(|o| o.slice()).collect();
        let (consumed, produced) = self.kernel.channelize(input, &mut slices);
        drop(slices);
        self.input.consume(consumed);
        for o in &mut self.outputs {
            o.produce(produced);
        }
        Ok(())
    }
}
