//! [`Selector`]: routes one of N inputs to one of M outputs, both
//! settable, GNU Radio's `blocks_selector`, with its registry entry.

use super::tags::forward;
use crate::wav::ports::channel_port;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, Item, Pmt, Ports, Setting, Settings, StreamInput, StreamOutput, TagPolicy,
    WorkIo,
};

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
/// # Message Inputs
/// - `input_index`, `output_index`: the new selection (an index out of
///   range is refused).
/// - `enabled`: `true` or `false`.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::{VectorSink, VectorSource, stream::Selector};
///
/// let mut fg = Flowgraph::new();
/// let a = fg.add(VectorSource::new(vec![1u8; 3]));
/// let b = fg.add(VectorSource::new(vec![2u8; 3]));
/// let sel = fg.add(Selector::<u8>::new(2, 1, 1, 0)?);
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
    input_index: usize,
    output_index: usize,
    enabled: bool,
    settings: Settings<Self>,
}

impl<T: Item> Selector<T> {
    /// `inputs` inputs and `outputs` outputs, routing `input_index` to
    /// `output_index`.
    ///
    /// Errors: no inputs or outputs, or an index out of range.
    pub fn new(
        inputs: usize,
        outputs: usize,
        input_index: usize,
        output_index: usize,
    ) -> Result<Self, String> {
        if inputs == 0 || outputs == 0 {
            return Err("needs at least one input and one output".into());
        }
        if input_index >= inputs || output_index >= outputs {
            return Err(format!(
                "input {input_index} of {inputs} or output {output_index} of {outputs} does not exist"
            ));
        }
        Ok(Self {
            inputs: (0..inputs)
                .map(|i| StreamInput::new(channel_port("in", i)))
                .collect(),
            outputs: (0..outputs)
                .map(|i| StreamOutput::new(channel_port("out", i)))
                .collect(),
            input_index,
            output_index,
            enabled: true,
            settings: Settings::new()
                .with(
                    Setting::try_new("input_index", |s: &mut Self, i: usize| {
                        if i >= s.inputs.len() {
                            return Err(format!("there are {} inputs", s.inputs.len()));
                        }
                        s.input_index = i;
                        Ok(())
                    })
                    .doc("the input copied"),
                )
                .with(
                    Setting::try_new("output_index", |s: &mut Self, i: usize| {
                        if i >= s.outputs.len() {
                            return Err(format!("there are {} outputs", s.outputs.len()));
                        }
                        s.output_index = i;
                        Ok(())
                    })
                    .doc("the output written"),
                )
                .with(
                    Setting::new("enabled", |s: &mut Self, on: bool| s.enabled = on)
                        .doc("copy (true) or only drain (false)"),
                ),
        })
    }

    /// Starts disabled (`false`) or enabled.
    pub fn enabled(mut self, on: bool) -> Self {
        self.enabled = on;
        self
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
        self.settings.message_inputs(ports)
    }

    fn handle_message(&mut self, port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        Settings::dispatch(self, |b| &mut b.settings, port, msg)
    }

    fn settings(&self) -> Vec<rfgraph::ParamInfo> {
        self.settings.infos()
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let mut n = usize::MAX;
        for input in &mut self.inputs {
            n = n.min(input.available());
        }
        let (k, m) = (self.input_index, self.output_index);
        if self.enabled {
            n = n.min(self.outputs[m].free());
        }
        if n == 0 {
            return Ok(());
        }
        if self.enabled {
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
    BlockSpec::new(
        "selector",
        "Stream Operators",
        "Routes one of N inputs to one of M outputs (both settable).",
        |p: &Params| {
            let (ni, no) = (p.usize("inputs")?, p.usize("outputs")?);
            let (i, o, on) = (p.usize("input_index")?, p.usize("output_index")?, p.bool("enabled")?);
            super::any_item!(p, T => Selector::<T>::new(ni, no, i, o).map_err(|e| p.refused(e))?.enabled(on))
        },
    )
    .doc("Copies the selected input to the selected output and drains the other inputs at the same pace; the other outputs get nothing. While disabled, inputs are drained and nothing is written.")
    .param(ParamSpec::item_type(&ItemKind::ALL))
    .param(ParamSpec::uint("inputs").default(2u64).doc("number of inputs"))
    .param(ParamSpec::uint("outputs").default(1u64).doc("number of outputs"))
    .param(
        ParamSpec::uint("input_index")
            .default(0u64)
            .settable()
            .doc("the input copied"),
    )
    .param(
        ParamSpec::uint("output_index")
            .default(0u64)
            .settable()
            .doc("the output written"),
    )
    .param(
        ParamSpec::bool("enabled")
            .default(true)
            .settable()
            .doc("copy (true) or only drain (false)"),
    )
    .input(PortSpec::new("in", PortItem::OfType).repeated("inputs"))
    .output(PortSpec::new("out", PortItem::OfType).repeated("outputs"))
}
