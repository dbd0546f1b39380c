//! [`StreamMux`] and [`StreamDemux`]: N streams into one by turns of
//! given lengths, and back (GNU Radio's `stream_mux`, `stream_demux`,
//! `interleave`, `deinterleave`, `patterned_interleaver`,
//! `streams_to_stream`, `stream_to_streams` and their vector forms), with
//! their registry entries. Tags move with their items.

use super::tags::Segments;
use crate::spec_util::{for_any_item, kind_of};
use crate::wav::ports::channel_port;
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, Item, ParamError, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};

/// The parameters of `stream_mux` and `stream_demux` ([`StreamMux::new`],
/// [`StreamDemux::new`]).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct StreamMuxParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// GNU Radio vector length: lengths count vectors
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
    /// items per turn of each port (the inputs of a mux, the outputs of a
    /// demux); their count is the number of ports, at least one above 0
    #[param(default = vec![1, 1], max_len = limits::MAX_PORTS)]
    pub lengths: Vec<usize>,
}

impl StreamMuxParams {
    fn check(&self) -> Result<(), ParamError> {
        let invalid = |reason: String| ParamError::new("stream_mux", "lengths", reason);
        if self.lengths.iter().all(|&l| l == 0) {
            return Err(invalid("needs at least one length above 0".into()));
        }
        if let Some(l) = self.lengths.iter().find(|&&l| l > limits::MAX_FACTOR) {
            return Err(invalid(format!(
                "a turn of {l} is more than the {} allowed",
                limits::MAX_FACTOR
            )));
        }
        Ok(())
    }
}

/// The parameters of `patterned_interleaver` ([`StreamMux::pattern`]).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct PatternParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// GNU Radio vector length: each turn is one vector
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
    /// the input of each turn; the inputs are `in0` to `in{max(pattern)}`
    #[param(default = vec![0, 1], max_len = limits::MAX_ELEMENTS)]
    pub pattern: Vec<usize>,
}

impl PatternParams {
    fn check(&self) -> Result<(), ParamError> {
        let invalid = |reason: String| ParamError::new("patterned_interleaver", "pattern", reason);
        match self.pattern.iter().max() {
            None => Err(invalid("is empty".into())),
            Some(&m) if m >= limits::MAX_PORTS => Err(invalid(format!(
                "names input {m}; at most {} inputs are allowed",
                limits::MAX_PORTS
            ))),
            Some(_) => Ok(()),
        }
    }
}

/// The parameters of `streams_to_stream`, `streams_to_vector`,
/// `stream_to_streams` and `vector_to_streams` ([`StreamMux::join`],
/// [`StreamDemux::split`]): one item (or vector) per port in turn.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct JoinParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// GNU Radio vector length of each port's items
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
    /// number of ports taking turns (inputs of a join, outputs of a split)
    #[param(default = 2, min = 1, max = limits::MAX_PORTS, alias = "num_streams")]
    pub count: usize,
}

/// The parameters of `interleave` and `deinterleave`
/// ([`StreamMux::interleave`], [`StreamDemux::deinterleave`]).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct InterleaveParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// GNU Radio vector length: `blocksize` counts vectors
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
    /// number of ports taking turns (inputs to interleave, outputs to
    /// deinterleave into)
    #[param(default = 2, min = 1, max = limits::MAX_PORTS, alias = "num_streams")]
    pub count: usize,
    /// items (vectors) per turn
    #[param(default = 1, min = 1, max = limits::MAX_FACTOR)]
    pub blocksize: usize,
}

/// `counts` in items: times `vlen` (both bounded by their parameters, so
/// the products fit).
fn in_items(counts: &[usize], vlen: usize) -> Vec<usize> {
    counts.iter().map(|c| c * vlen).collect()
}

/// Writes `lengths[0]` items of `in0`, then `lengths[1]` of `in1`, …, and
/// round again. A turn of length 0 is skipped.
///
/// # Parameters
/// [`StreamMuxParams`], [`PatternParams`], [`JoinParams`] or
/// [`InterleaveParams`], by constructor.
///
/// # Stream Inputs
/// - `in0`, `in1`, …: `T`, one per length.
///
/// # Stream Outputs
/// - `out`: `T`.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::{VectorSink, VectorSource};
/// use rfgraph_blocks::stream::{StreamMux, StreamMuxParams};
///
/// let mut fg = Flowgraph::new();
/// let a = fg.add(VectorSource::new(vec![1u8, 1, 1, 1]));
/// let b = fg.add(VectorSource::new(vec![2u8, 2]));
/// let mux = fg.add(StreamMux::<u8>::new(StreamMuxParams {
///     lengths: vec![2, 1],
///     ..Default::default()
/// })?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(a, "out", mux, "in0")?;
/// fg.connect(b, "out", mux, "in1")?;
/// fg.connect(mux, "out", sink, "in")?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(done.block::<VectorSink<u8>>(sink).unwrap().items(), &[1, 1, 2, 1, 1, 2]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct StreamMux<T: Item> {
    inputs: Vec<StreamInput<T>>,
    output: StreamOutput<T>,
    params: Box<dyn ParamSet>,
    /// The input of each turn, and its length.
    order: Vec<usize>,
    lengths: Vec<usize>,
    /// The input whose turn it is, and how many of its items it wrote.
    turn: usize,
    done: usize,
    /// Items taken from each input in this call.
    consumed: Vec<usize>,
    /// The runs copied in this call, for moving their tags.
    runs: Segments,
}

impl<T: Item> StreamMux<T> {
    /// A mux taking `lengths[k]` vectors of `vlen` from input `k` in turn
    /// (`stream_mux`).
    ///
    /// Errors: no lengths, all 0, or a parameter out of its range.
    pub fn new(mut params: StreamMuxParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        let lengths = in_items(&params.lengths, params.vlen);
        Ok(Self::of_turns(
            (0..lengths.len()).collect(),
            lengths,
            Box::new(params),
        ))
    }

    /// A mux taking `blocksize` vectors of `vlen` from each of `count`
    /// inputs in turn (`interleave`).
    ///
    /// Errors: a parameter out of its range.
    pub fn interleave(mut params: InterleaveParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        let lengths = vec![params.blocksize * params.vlen; params.count];
        Ok(Self::of_turns(
            (0..params.count).collect(),
            lengths,
            Box::new(params),
        ))
    }

    /// A mux taking one vector of `vlen` from each of `count` inputs in
    /// turn (`streams_to_stream`, `streams_to_vector`).
    ///
    /// Errors: a parameter out of its range.
    pub fn join(mut params: JoinParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        let lengths = vec![params.vlen; params.count];
        Ok(Self::of_turns(
            (0..params.count).collect(),
            lengths,
            Box::new(params),
        ))
    }

    /// A mux taking `vlen` items of input `pattern[k]` in turn `k` (GNU
    /// Radio's `patterned_interleaver` on vectors of `vlen`); it has
    /// `max(pattern) + 1` inputs.
    ///
    /// Errors: an empty pattern, or a parameter out of its range.
    pub fn pattern(mut params: PatternParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        let turns = vec![params.vlen; params.pattern.len()];
        Ok(Self::of_turns(
            params.pattern.clone(),
            turns,
            Box::new(params),
        ))
    }

    fn of_turns(order: Vec<usize>, lengths: Vec<usize>, params: Box<dyn ParamSet>) -> Self {
        let inputs = order.iter().max().map_or(0, |&m| m + 1);
        let mut mux = Self {
            inputs: (0..inputs)
                .map(|i| StreamInput::new(channel_port("in", i)))
                .collect(),
            output: StreamOutput::new("out"),
            params,
            consumed: vec![0; inputs],
            runs: Segments::default(),
            order,
            lengths,
            turn: 0,
            done: 0,
        };
        mux.skip_empty_turns();
        mux
    }

    fn skip_empty_turns(&mut self) {
        while self.lengths[self.turn] == 0 {
            self.turn = (self.turn + 1) % self.lengths.len();
        }
    }
}

impl<T: Item> Block for StreamMux<T> {
    fn ports(&mut self) -> Ports<'_> {
        let mut ports = Ports::new();
        for input in &mut self.inputs {
            ports = ports.input(input);
        }
        ports.output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(self.params.as_mut())
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let mut written = 0;
        let mut consumed = std::mem::take(&mut self.consumed);
        consumed.fill(0);
        self.runs.clear();
        loop {
            let (k, len) = (self.order[self.turn], self.lengths[self.turn]);
            let input = &mut self.inputs[k];
            let i = &input.slice()[consumed[k]..];
            let o = &mut self.output.slice()[written..];
            let n = i.len().min(o.len()).min(len - self.done);
            if n == 0 {
                break;
            }
            rfgraph::copy_items(&mut o[..n], &i[..n]);
            let first = input.position() + consumed[k] as u64;
            self.runs.push(k, first, n, 0, written);
            consumed[k] += n;
            written += n;
            self.done += n;
            if self.done == len {
                self.done = 0;
                self.turn = (self.turn + 1) % self.lengths.len();
                self.skip_empty_turns();
            }
        }
        let inputs: Vec<&StreamInput<T>> = self.inputs.iter().collect();
        self.runs.forward(&inputs, &[&self.output]);
        for (input, &n) in self.inputs.iter_mut().zip(&consumed) {
            input.consume(n);
        }
        self.consumed = consumed;
        self.output.produce(written);
        Ok(())
    }
}

/// Sends `lengths[0]` items to `out0`, then `lengths[1]` to `out1`, …,
/// and round again. A turn of length 0 is skipped.
///
/// # Parameters
/// [`StreamMuxParams`], [`JoinParams`] or [`InterleaveParams`], by
/// constructor.
///
/// # Stream Inputs
/// - `in`: `T`.
///
/// # Stream Outputs
/// - `out0`, `out1`, …: `T`, one per length.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::{VectorSink, VectorSource};
/// use rfgraph_blocks::stream::{StreamDemux, StreamMuxParams};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8, 2, 3, 4, 5, 6]));
/// let demux = fg.add(StreamDemux::<u8>::new(StreamMuxParams {
///     lengths: vec![2, 1],
///     ..Default::default()
/// })?);
/// let a = fg.add(VectorSink::<u8>::new());
/// let b = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, "out", demux, "in")?;
/// fg.connect(demux, "out0", a, "in")?;
/// fg.connect(demux, "out1", b, "in")?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(done.block::<VectorSink<u8>>(a).unwrap().items(), &[1, 2, 4, 5]);
/// assert_eq!(done.block::<VectorSink<u8>>(b).unwrap().items(), &[3, 6]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct StreamDemux<T: Item> {
    input: StreamInput<T>,
    outputs: Vec<StreamOutput<T>>,
    params: Box<dyn ParamSet>,
    lengths: Vec<usize>,
    turn: usize,
    done: usize,
    /// Items given to each output in this call.
    written: Vec<usize>,
    /// The runs copied in this call, for moving their tags.
    runs: Segments,
}

impl<T: Item> StreamDemux<T> {
    /// A demux sending `lengths[k]` vectors of `vlen` to output `k` in
    /// turn (`stream_demux`).
    ///
    /// Errors: no lengths, all 0, or a parameter out of its range.
    pub fn new(mut params: StreamMuxParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        let lengths = in_items(&params.lengths, params.vlen);
        Ok(Self::of_turns(lengths, Box::new(params)))
    }

    /// A demux sending `blocksize` vectors of `vlen` to each of `count`
    /// outputs in turn (`deinterleave`).
    ///
    /// Errors: a parameter out of its range.
    pub fn deinterleave(mut params: InterleaveParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        let lengths = vec![params.blocksize * params.vlen; params.count];
        Ok(Self::of_turns(lengths, Box::new(params)))
    }

    /// A demux sending one vector of `vlen` to each of `count` outputs in
    /// turn (`stream_to_streams`, `vector_to_streams`).
    ///
    /// Errors: a parameter out of its range.
    pub fn split(mut params: JoinParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        let lengths = vec![params.vlen; params.count];
        Ok(Self::of_turns(lengths, Box::new(params)))
    }

    fn of_turns(lengths: Vec<usize>, params: Box<dyn ParamSet>) -> Self {
        let mut demux = Self {
            input: StreamInput::new("in"),
            outputs: (0..lengths.len())
                .map(|i| StreamOutput::new(channel_port("out", i)))
                .collect(),
            params,
            written: vec![0; lengths.len()],
            runs: Segments::default(),
            lengths,
            turn: 0,
            done: 0,
        };
        demux.skip_empty_turns();
        demux
    }

    fn skip_empty_turns(&mut self) {
        while self.lengths[self.turn] == 0 {
            self.turn = (self.turn + 1) % self.lengths.len();
        }
    }
}

impl<T: Item> Block for StreamDemux<T> {
    fn ports(&mut self) -> Ports<'_> {
        let mut ports = Ports::new().input(&mut self.input);
        for output in &mut self.outputs {
            ports = ports.output(output);
        }
        ports
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(self.params.as_mut())
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let mut read = 0;
        let mut written = std::mem::take(&mut self.written);
        written.fill(0);
        let start = self.input.position();
        self.runs.clear();
        loop {
            let k = self.turn;
            let output = &mut self.outputs[k];
            let i = &self.input.slice()[read..];
            let o = &mut output.slice()[written[k]..];
            let n = i.len().min(o.len()).min(self.lengths[k] - self.done);
            if n == 0 {
                break;
            }
            rfgraph::copy_items(&mut o[..n], &i[..n]);
            self.runs.push(0, start + read as u64, n, k, written[k]);
            read += n;
            written[k] += n;
            self.done += n;
            if self.done == self.lengths[k] {
                self.done = 0;
                self.turn = (k + 1) % self.lengths.len();
                self.skip_empty_turns();
            }
        }
        let outputs: Vec<&StreamOutput<T>> = self.outputs.iter().collect();
        self.runs.forward(&[&self.input], &outputs);
        self.input.consume(read);
        for (output, &n) in self.outputs.iter_mut().zip(&written) {
            output.produce(n);
        }
        self.written = written;
        Ok(())
    }
}

/// Which side of a turn-taking block has a port per turn: the inputs of
/// a [`StreamMux`], the outputs of a [`StreamDemux`].
#[derive(Clone, Copy)]
enum Many {
    Inputs,
    Outputs,
}

/// The ports of a turn-taking block, with one port per entry of
/// parameter `count` on the `many` side.
fn with_ports(spec: BlockSpec, many: Many, count: &'static str) -> BlockSpec {
    let (one_in, one_out) = (
        PortSpec::new("in", PortItem::OfType),
        PortSpec::new("out", PortItem::OfType),
    );
    match many {
        Many::Inputs => spec.input(one_in.repeated(count)).output(one_out),
        Many::Outputs => spec.input(one_in).output(one_out.repeated(count)),
    }
}

/// `stream_mux`: GNU Radio's `blocks_stream_mux`.
pub(crate) fn stream_mux_spec() -> BlockSpec {
    let spec = BlockSpec::of::<StreamMuxParams>(
        "stream_mux",
        "Stream Operators",
        "N streams into one, `lengths[k]` items of input k in turn.",
        |p| for_any_item!(kind = p.item, T => StreamMux::<T>::new(p)?),
    )
    .doc("Copies `lengths[0]·vlen` items from `in0`, then `lengths[1]·vlen` from `in1`, …, then starts again at `in0`; one input per entry of `lengths`, which must be whole numbers ≥ 0 with at least one above 0 (an input of length 0 is never read). It waits on the input whose turn it is, so a stalled or finished input stops the output. Tags move with their items. Any item type. GNU Radio's `blocks_stream_mux`.");
    with_ports(spec, Many::Inputs, "lengths")
}

/// `stream_demux`: GNU Radio's `blocks_stream_demux`.
pub(crate) fn stream_demux_spec() -> BlockSpec {
    let spec = BlockSpec::of::<StreamMuxParams>(
        "stream_demux",
        "Stream Operators",
        "One stream into N, `lengths[k]` items to output k in turn.",
        |p| for_any_item!(kind = p.item, T => StreamDemux::<T>::new(p)?),
    )
    .doc("The reverse of `stream_mux`: `lengths[0]·vlen` items to `out0`, then `lengths[1]·vlen` to `out1`, …, then `out0` again; one output per entry of `lengths`, which must be whole numbers ≥ 0 with at least one above 0 (an output of length 0 gets nothing). It waits while the output whose turn it is has no room. Tags move with their items. Any item type. GNU Radio's `blocks_stream_demux`.");
    with_ports(spec, Many::Outputs, "lengths")
}

/// `patterned_interleaver`: GNU Radio's `blocks_patterned_interleaver`.
pub(crate) fn patterned_interleaver_spec() -> BlockSpec {
    let spec = BlockSpec::of::<PatternParams>(
        "patterned_interleaver",
        "Stream Operators",
        "One item of input `pattern[k]` in turn k, round and round.",
        |p| for_any_item!(kind = p.item, T => StreamMux::<T>::pattern(p)?),
    )
    .doc("The inputs are `in0` … `in{max(pattern)}`; every input should appear in the pattern. Each turn is one GNU Radio vector of `vlen` items. GNU Radio's `blocks_patterned_interleaver`.");
    with_ports(spec, Many::Inputs, "pattern")
}

/// `streams_to_stream` and `streams_to_vector` (`Many::Inputs`), or
/// `stream_to_streams` and `vector_to_streams`.
fn join_spec(name: &'static str, summary: &'static str, many: Many) -> BlockSpec {
    let spec = match many {
        Many::Inputs => BlockSpec::of::<JoinParams>(name, "Stream Operators", summary, |p| {
            for_any_item!(kind = p.item, T => StreamMux::<T>::join(p)?)
        })
        .doc("An item (or GNU Radio vector of `vlen`) of `in0`, `in1`, … in turn: a flat stream, as GNU Radio's vectors are here."),
        Many::Outputs => BlockSpec::of::<JoinParams>(name, "Stream Operators", summary, |p| {
            for_any_item!(kind = p.item, T => StreamDemux::<T>::split(p)?)
        })
        .doc("Item (or GNU Radio vector of `vlen`) k goes to output `k mod count`."),
    };
    with_ports(spec, many, "count")
}

/// `streams_to_stream`: GNU Radio's `blocks_streams_to_stream`.
pub(crate) fn streams_to_stream_spec() -> BlockSpec {
    join_spec(
        "streams_to_stream",
        "N streams into one, an item of each in turn.",
        Many::Inputs,
    )
}

/// `streams_to_vector`: GNU Radio's `blocks_streams_to_vector`.
pub(crate) fn streams_to_vector_spec() -> BlockSpec {
    join_spec(
        "streams_to_vector",
        "N streams into vectors of N: flat, an item of each in turn.",
        Many::Inputs,
    )
}

/// `stream_to_streams`: GNU Radio's `blocks_stream_to_streams`.
pub(crate) fn stream_to_streams_spec() -> BlockSpec {
    join_spec(
        "stream_to_streams",
        "One stream into N, item k to output k mod N.",
        Many::Outputs,
    )
}

/// `vector_to_streams`: GNU Radio's `blocks_vector_to_streams`.
pub(crate) fn vector_to_streams_spec() -> BlockSpec {
    join_spec(
        "vector_to_streams",
        "Vectors of N into N streams: entry k to output k.",
        Many::Outputs,
    )
}

/// `interleave`: GNU Radio's `blocks_interleave`.
pub(crate) fn interleave_spec() -> BlockSpec {
    let spec = BlockSpec::of::<InterleaveParams>(
        "interleave",
        "Stream Operators",
        "N streams into one, `blocksize` items of each in turn.",
        |p| for_any_item!(kind = p.item, T => StreamMux::<T>::interleave(p)?),
    )
    .doc("`blocksize·vlen` items of `in0`, then as many of `in1`, … up to `in{count−1}`, round and round: `stream_mux` with equal lengths. It waits on the input whose turn it is. `count`, `blocksize` and `vlen` must be at least 1. Tags move with their items. Any item type; GNU Radio vectors are flat streams here. GNU Radio's `blocks_interleave`.");
    with_ports(spec, Many::Inputs, "count")
}

/// `deinterleave`: GNU Radio's `blocks_deinterleave`.
pub(crate) fn deinterleave_spec() -> BlockSpec {
    let spec = BlockSpec::of::<InterleaveParams>(
        "deinterleave",
        "Stream Operators",
        "One stream into N, `blocksize` items to each in turn.",
        |p| for_any_item!(kind = p.item, T => StreamDemux::<T>::deinterleave(p)?),
    )
    .doc("Item blocks of `blocksize·vlen` go to `out0`, `out1`, … `out{count−1}` in turn, round and round: `stream_demux` with equal lengths. `count`, `blocksize` and `vlen` must be at least 1. Tags move with their items. Any item type; GNU Radio vectors are flat streams here. GNU Radio's `blocks_deinterleave`.");
    with_ports(spec, Many::Outputs, "count")
}
