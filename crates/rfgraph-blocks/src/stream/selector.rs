//! [`Selector`]: routes one of N inputs to one of M outputs, both
//! settable, GNU Radio's `blocks_selector`, with its registry entry.

use super::tags::forward;
use crate::spec_util::kind_of;
use crate::wav::ports::channel_port;
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, Item, ParamError, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};

/// The parameters of [`Selector`] (`selector`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct SelectorParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// number of inputs
    #[param(default = 2, min = 1, max = limits::MAX_PORTS, alias = "num_inputs")]
    pub inputs: usize,
    /// number of outputs
    #[param(default = 1, min = 1, max = limits::MAX_PORTS, alias = "num_outputs")]
    pub outputs: usize,
    /// the input copied
    #[param(default = 0, settable)]
    pub input_index: usize,
    /// the output written
    #[param(default = 0, settable)]
    pub output_index: usize,
    /// copy (true) or only drain (false)
    #[param(default = true, settable)]
    pub enabled: bool,
}

impl SelectorParams {
    fn check(&self) -> Result<(), ParamError> {
        let missing = |param: &str, index: usize, count: usize, what: &str| {
            ParamError::new(
                "selector",
                param,
                format!("{what} {index} does not exist: there are {count} {what}s"),
            )
        };
        if self.input_index >= self.inputs {
            return Err(missing(
                "input_index",
                self.input_index,
                self.inputs,
                "input",
            ));
        }
        if self.output_index >= self.outputs {
            return Err(missing(
                "output_index",
                self.output_index,
                self.outputs,
                "output",
            ));
        }
        Ok(())
    }
}

/// Copies input `input_index` to output `output_index`, and drains every
/// other input at the same pace (as GNU Radio does, so no upstream
/// stalls); the other outputs get nothing. While not `enabled`, inputs
/// are drained and nothing is written. Tags of the selected input move
/// with its items.
///
/// # Stream Inputs
/// - `in0`, `in1`, …: `T`.
///
/// # Stream Outputs
/// - `out0`, `out1`, …: `T`.
///
/// # Parameters
/// [`SelectorParams`]; `input_index`, `output_index` (an index out of
/// range is refused) and `enabled` may change while the block runs.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::{VectorSink, VectorSource, stream::{Selector, SelectorParams}};
///
/// let mut fg = Flowgraph::new();
/// let a = fg.add(VectorSource::new(vec![1u8; 3]));
/// let b = fg.add(VectorSource::new(vec![2u8; 3]));
/// let sel = fg.add(Selector::<u8>::new(SelectorParams {
///     input_index: 1,
///     ..Default::default()
/// })?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(a, "out", sel, "in0")?;
/// fg.connect(b, "out", sel, "in1")?;
/// fg.connect(sel, "out0", sink, "in")?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(done.block::<VectorSink<u8>>(sink).unwrap().items(), &[2, 2, 2]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Selector<T: Item> {
    inputs: Vec<StreamInput<T>>,
    outputs: Vec<StreamOutput<T>>,
    params: SelectorParams,
}

impl<T: Item> Selector<T> {
    /// The selector `params` describe (the item type is `T`'s).
    ///
    /// Errors: no inputs or outputs, or an index out of range.
    pub fn new(mut params: SelectorParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        Ok(Self {
            inputs: (0..params.inputs)
                .map(|i| StreamInput::new(channel_port("in", i)))
                .collect(),
            outputs: (0..params.outputs)
                .map(|i| StreamOutput::new(channel_port("out", i)))
                .collect(),
            params,
        })
    }
}

impl<T: Item> Block for Selector<T> {
    fn ports(&mut self) -> Ports<'_> {
        let mut ports = Ports::new();
        for input in &mut self.inputs {
            ports = ports.input(input);
        }
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
        let mut n = usize::MAX;
        for input in &mut self.inputs {
            n = n.min(input.available());
        }
        let (k, m, enabled) = (
            self.params.input_index,
            self.params.output_index,
            self.params.enabled,
        );
        if enabled {
            n = n.min(self.outputs[m].free());
        }
        if n == 0 {
            return Ok(());
        }
        if enabled {
            let input = &mut self.inputs[k];
            let first = input.position();
            let output = &mut self.outputs[m];
            rfgraph::copy_items(&mut output.slice()[..n], &input.slice()[..n]);
            forward(input, first..first + n as u64, output, |j| {
                Some((j - first) as usize)
            });
            output.produce(n);
        }
        for input in &mut self.inputs {
            input.consume(n);
        }
        Ok(())
    }
}

/// `selector`: GNU Radio's `blocks_selector`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<SelectorParams>(
        "selector",
        "Stream Operators",
        "Routes one of N inputs to one of M outputs (both settable).",
        |p| crate::spec_util::for_any_item!(kind = p.item, T => Selector::<T>::new(p)?),
    )
    .doc("Copies the selected input to the selected output and drains the other inputs at the same pace; the other outputs get nothing. While disabled, inputs are drained and nothing is written. The selection and `enabled` may change while the flowgraph runs (an index out of range is refused).")
    .input(PortSpec::new("in", PortItem::OfType).repeated("inputs"))
    .output(PortSpec::new("out", PortItem::OfType).repeated("outputs"))
}
