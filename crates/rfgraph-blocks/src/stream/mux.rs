//! [`StreamMux`] and [`StreamDemux`]: N streams into one by turns of
//! given lengths, and back (GNU Radio's `stream_mux`, `stream_demux`,
//! `interleave`, `deinterleave`), with their registry entries. Tags move
//! with their items.

use super::tags::forward;
use crate::wav::ports::channel_port;
use rfgraph::registry::{BlockSpec, BuildError, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Item, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo};

/// Checks turn lengths: at least one, not all zero.
fn check_lengths(lengths: &[usize]) -> Result<(), String> {
    if lengths.is_empty() || lengths.iter().all(|&l| l == 0) {
        return Err("needs at least one length above 0".into());
    }
    Ok(())
}

/// Writes `lengths[0]` items of `in0`, then `lengths[1]` of `in1`, …, and
/// round again. A turn of length 0 is skipped.
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
/// use rfgraph_blocks::{VectorSink, VectorSource, stream::StreamMux};
///
/// let mut fg = Flowgraph::new();
/// let a = fg.add(VectorSource::new(vec![1u8, 1, 1, 1]));
/// let b = fg.add(VectorSource::new(vec![2u8, 2]));
/// let mux = fg.add(StreamMux::<u8>::new(vec![2, 1])?);
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
    /// The input of each turn, and its length.
    order: Vec<usize>,
    lengths: Vec<usize>,
    /// The input whose turn it is, and how many of its items it wrote.
    turn: usize,
    done: usize,
    /// Items taken from each input in this call.
    consumed: Vec<usize>,
}

impl<T: Item> StreamMux<T> {
    /// A mux taking `lengths[k]` items from input `k` in turn.
    ///
    /// Errors: no lengths, or all 0.
    pub fn new(lengths: Vec<usize>) -> Result<Self, String> {
        check_lengths(&lengths)?;
        Ok(Self::of_turns((0..lengths.len()).collect(), lengths))
    }

    /// A mux taking `vlen` items of input `pattern[k]` in turn `k` (GNU
    /// Radio's `patterned_interleaver` on vectors of `vlen`); it has
    /// `max(pattern) + 1` inputs.
    ///
    /// Errors: an empty pattern, or a `vlen` of 0.
    pub fn pattern(pattern: Vec<usize>, vlen: usize) -> Result<Self, String> {
        if pattern.is_empty() || vlen == 0 {
            return Err("the pattern is empty or vlen 0".into());
        }
        let turns = vec![vlen; pattern.len()];
        Ok(Self::of_turns(pattern, turns))
    }

    fn of_turns(order: Vec<usize>, lengths: Vec<usize>) -> Self {
        let inputs = order.iter().max().map_or(0, |&m| m + 1);
        let mut mux = Self {
            inputs: (0..inputs)
                .map(|i| StreamInput::new(channel_port("in", i)))
                .collect(),
            output: StreamOutput::new("out"),
            consumed: vec![0; inputs],
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

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let mut written = 0;
        let mut consumed = std::mem::take(&mut self.consumed);
        consumed.fill(0);
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
            let at = written;
            forward(input, first..first + n as u64, &self.output, |j| {
                Some(at + (j - first) as usize)
            });
            consumed[k] += n;
            written += n;
            self.done += n;
            if self.done == len {
                self.done = 0;
                self.turn = (self.turn + 1) % self.lengths.len();
                self.skip_empty_turns();
            }
        }
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
/// # Stream Inputs
/// - `in`: `T`.
///
/// # Stream Outputs
/// - `out0`, `out1`, …: `T`, one per length.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::{VectorSink, VectorSource, stream::StreamDemux};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8, 2, 3, 4, 5, 6]));
/// let demux = fg.add(StreamDemux::<u8>::new(vec![2, 1])?);
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
    lengths: Vec<usize>,
    turn: usize,
    done: usize,
    /// Items given to each output in this call.
    written: Vec<usize>,
}

impl<T: Item> StreamDemux<T> {
    /// A demux sending `lengths[k]` items to output `k` in turn.
    ///
    /// Errors: no lengths, or all 0.
    pub fn new(lengths: Vec<usize>) -> Result<Self, String> {
        check_lengths(&lengths)?;
        let mut demux = Self {
            input: StreamInput::new("in"),
            outputs: (0..lengths.len())
                .map(|i| StreamOutput::new(channel_port("out", i)))
                .collect(),
            written: vec![0; lengths.len()],
            lengths,
            turn: 0,
            done: 0,
        };
        demux.skip_empty_turns();
        Ok(demux)
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

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let mut read = 0;
        let mut written = std::mem::take(&mut self.written);
        written.fill(0);
        let start = self.input.position();
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
            let first = start + read as u64;
            let at = written[k];
            forward(&self.input, first..first + n as u64, output, |j| {
                Some(at + (j - first) as usize)
            });
            read += n;
            written[k] += n;
            self.done += n;
            if self.done == self.lengths[k] {
                self.done = 0;
                self.turn = (k + 1) % self.lengths.len();
                self.skip_empty_turns();
            }
        }
        self.input.consume(read);
        for (output, &n) in self.outputs.iter_mut().zip(&written) {
            output.produce(n);
        }
        self.written = written;
        Ok(())
    }
}

/// The non-negative whole numbers of list parameter `name`.
fn lengths_of(p: &Params, name: &str) -> Result<Vec<usize>, BuildError> {
    let raw = p.raw(name)?;
    let list: Vec<f32> = p.floats(name)?;
    let lengths: Option<Vec<usize>> = list
        .iter()
        .map(|&l| (l >= 0.0 && l.fract() == 0.0 && l < 1e7).then_some(l as usize))
        .collect();
    lengths.ok_or_else(|| p.invalid(name, format!("not whole numbers from 0: {raw:?}")))
}

/// GNU Radio's vector length: every count is in vectors of it.
fn vlen(p: &Params) -> Result<usize, BuildError> {
    match p.usize("vlen")? {
        0 => Err(p.invalid("vlen", "must be at least 1")),
        v => Ok(v),
    }
}

/// `counts` in items: times `vlen`.
fn in_items(p: &Params, counts: Vec<usize>) -> Result<Vec<usize>, BuildError> {
    let v = vlen(p)?;
    counts
        .into_iter()
        .map(|c| {
            c.checked_mul(v)
                .ok_or_else(|| p.refused("a length · vlen is too large"))
        })
        .collect()
}

fn lengths(p: &Params) -> Result<Vec<usize>, BuildError> {
    let lengths = lengths_of(p, "lengths")?;
    check_lengths(&lengths).map_err(|e| p.invalid("lengths", e))?;
    in_items(p, lengths)
}

/// `blocksize` repeated `count` times.
fn blocks(p: &Params) -> Result<Vec<usize>, BuildError> {
    let (count, size) = (p.usize("count")?, p.usize("blocksize")?);
    if count == 0 || size == 0 {
        return Err(p.refused("`count` and `blocksize` must be at least 1"));
    }
    in_items(p, vec![size; count])
}

/// Which side of a turn-taking block has a port per turn: the inputs of
/// a [`StreamMux`], the outputs of a [`StreamDemux`].
#[derive(Clone, Copy)]
enum Many {
    Inputs,
    Outputs,
}

/// The entry of a [`StreamMux`] (`Many::Inputs`) or [`StreamDemux`] of
/// the turn lengths `turns` reads, for any item type, with one port per
/// entry of parameter `count` on the `many` side; the caller adds the
/// documentation and the parameters after `type`.
fn turns_spec(
    name: &'static str,
    summary: &'static str,
    many: Many,
    turns: fn(&Params) -> Result<Vec<usize>, BuildError>,
    count: &'static str,
) -> BlockSpec {
    let spec = BlockSpec::new(name, "Stream Operators", summary, move |p: &Params| {
        let l = turns(p)?;
        match many {
            Many::Inputs => {
                super::any_item!(p, T => StreamMux::<T>::new(l).map_err(|e| p.refused(e))?)
            }
            Many::Outputs => {
                super::any_item!(p, T => StreamDemux::<T>::new(l).map_err(|e| p.refused(e))?)
            }
        }
    })
    .param(ParamSpec::item_type(&ItemKind::ALL));
    let (one_in, one_out) = (
        PortSpec::new("in", PortItem::OfType),
        PortSpec::new("out", PortItem::OfType),
    );
    match many {
        Many::Inputs => spec.input(one_in.repeated(count)).output(one_out),
        Many::Outputs => spec.input(one_in).output(one_out.repeated(count)),
    }
}

/// GNU Radio's `vlen` parameter, with `doc`.
fn vlen_param(doc: &'static str) -> ParamSpec {
    ParamSpec::uint("vlen").default(1u64).doc(doc)
}

const VLEN_COUNTS: &str = "GNU Radio vector length: lengths count vectors";

/// `stream_mux`: GNU Radio's `blocks_stream_mux`.
pub(crate) fn stream_mux_spec() -> BlockSpec {
    turns_spec(
        "stream_mux",
        "N streams into one, `lengths[k]` items of input k in turn.",
        Many::Inputs,
        lengths,
        "lengths",
    )
    .doc("Copies `lengths[0]·vlen` items from `in0`, then `lengths[1]·vlen` from `in1`, …, then starts again at `in0`; one input per entry of `lengths`, which must be whole numbers ≥ 0 with at least one above 0 (an input of length 0 is never read). It waits on the input whose turn it is, so a stalled or finished input stops the output. Tags move with their items. Any item type. GNU Radio's `blocks_stream_mux`.")
    .param(vlen_param(VLEN_COUNTS))
    .param(
        ParamSpec::floats("lengths")
            .default(vec![1.0f32, 1.0])
            .doc("items per turn of each input; their count is the number of inputs"),
    )
}

/// `patterned_interleaver`: GNU Radio's `blocks_patterned_interleaver`.
pub(crate) fn patterned_interleaver_spec() -> BlockSpec {
    BlockSpec::new(
        "patterned_interleaver",
        "Stream Operators",
        "One item of input `pattern[k]` in turn k, round and round.",
        |p: &Params| {
            let pattern = lengths_of(p, "pattern")?;
            if pattern.is_empty() {
                return Err(p.invalid("pattern", "is empty"));
            }
            let v = vlen(p)?;
            super::any_item!(p, T => StreamMux::<T>::pattern(pattern.clone(), v).map_err(|e| p.refused(e))?)
        },
    )
    .doc("The inputs are `in0` … `in{max(pattern)}`; every input should appear in the pattern.")
    .param(ParamSpec::item_type(&ItemKind::ALL))
    .param(vlen_param(VLEN_COUNTS))
    .param(
        ParamSpec::floats("pattern")
            .default(vec![0.0f32, 1.0])
            .doc("the input of each turn"),
    )
    .input(PortSpec::new("in", PortItem::OfType).repeated("pattern"))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// One turn of a single item (or vector) per port, `count` ports.
fn singles(p: &Params) -> Result<Vec<usize>, BuildError> {
    let count = p.usize("count")?;
    if count == 0 {
        return Err(p.invalid("count", "must be at least 1"));
    }
    in_items(p, vec![1; count])
}

/// One interleaving of `count` streams, an item (or vector) of each in
/// turn: GNU Radio's `streams_to_stream` and `streams_to_vector`.
fn join_spec(name: &'static str, summary: &'static str) -> BlockSpec {
    turns_spec(name, summary, Many::Inputs, singles, "count")
        .doc("An item (or GNU Radio vector of `vlen`) of `in0`, `in1`, … in turn: a flat stream, as GNU Radio's vectors are here.")
        .param(vlen_param("GNU Radio vector length of the inputs"))
        .param(ParamSpec::uint("count").default(2u64).doc("number of inputs"))
}

/// The reverse: GNU Radio's `stream_to_streams` and `vector_to_streams`.
fn split_spec(name: &'static str, summary: &'static str) -> BlockSpec {
    turns_spec(name, summary, Many::Outputs, singles, "count")
        .doc("Item (or GNU Radio vector of `vlen`) k goes to output `k mod count`.")
        .param(vlen_param("GNU Radio vector length of the outputs"))
        .param(
            ParamSpec::uint("count")
                .default(2u64)
                .doc("number of outputs"),
        )
}

/// `streams_to_stream`: GNU Radio's `blocks_streams_to_stream`.
pub(crate) fn streams_to_stream_spec() -> BlockSpec {
    join_spec(
        "streams_to_stream",
        "N streams into one, an item of each in turn.",
    )
}

/// `streams_to_vector`: GNU Radio's `blocks_streams_to_vector`.
pub(crate) fn streams_to_vector_spec() -> BlockSpec {
    join_spec(
        "streams_to_vector",
        "N streams into vectors of N: flat, an item of each in turn.",
    )
}

/// `stream_to_streams`: GNU Radio's `blocks_stream_to_streams`.
pub(crate) fn stream_to_streams_spec() -> BlockSpec {
    split_spec(
        "stream_to_streams",
        "One stream into N, item k to output k mod N.",
    )
}

/// `vector_to_streams`: GNU Radio's `blocks_vector_to_streams`.
pub(crate) fn vector_to_streams_spec() -> BlockSpec {
    split_spec(
        "vector_to_streams",
        "Vectors of N into N streams: entry k to output k.",
    )
}

/// `stream_demux`: GNU Radio's `blocks_stream_demux`.
pub(crate) fn stream_demux_spec() -> BlockSpec {
    turns_spec(
        "stream_demux",
        "One stream into N, `lengths[k]` items to output k in turn.",
        Many::Outputs,
        lengths,
        "lengths",
    )
    .doc("The reverse of `stream_mux`: `lengths[0]·vlen` items to `out0`, then `lengths[1]·vlen` to `out1`, …, then `out0` again; one output per entry of `lengths`, which must be whole numbers ≥ 0 with at least one above 0 (an output of length 0 gets nothing). It waits while the output whose turn it is has no room. Tags move with their items. Any item type. GNU Radio's `blocks_stream_demux`.")
    .param(vlen_param(VLEN_COUNTS))
    .param(
        ParamSpec::floats("lengths")
            .default(vec![1.0f32, 1.0])
            .doc("items per turn of each output; their count is the number of outputs"),
    )
}

/// `interleave` (`Many::Inputs`) or `deinterleave`: `count` ports,
/// `blocksize` items each in turn.
fn blocks_spec(name: &'static str, summary: &'static str, many: Many) -> BlockSpec {
    let ports = match many {
        Many::Inputs => "number of inputs",
        Many::Outputs => "number of outputs",
    };
    turns_spec(name, summary, many, blocks, "count")
        .param(vlen_param(VLEN_COUNTS))
        .param(ParamSpec::uint("count").default(2u64).doc(ports))
        .param(
            ParamSpec::uint("blocksize")
                .default(1u64)
                .doc("items per turn"),
        )
}

/// `interleave`: GNU Radio's `blocks_interleave`.
pub(crate) fn interleave_spec() -> BlockSpec {
    blocks_spec(
        "interleave",
        "N streams into one, `blocksize` items of each in turn.",
        Many::Inputs,
    )
    .doc("`blocksize·vlen` items of `in0`, then as many of `in1`, … up to `in{count−1}`, round and round: `stream_mux` with equal lengths. It waits on the input whose turn it is. `count`, `blocksize` and `vlen` must be at least 1. Tags move with their items. Any item type; GNU Radio vectors are flat streams here. GNU Radio's `blocks_interleave`.")
}

/// `deinterleave`: GNU Radio's `blocks_deinterleave`.
pub(crate) fn deinterleave_spec() -> BlockSpec {
    blocks_spec(
        "deinterleave",
        "One stream into N, `blocksize` items to each in turn.",
        Many::Outputs,
    )
    .doc("Item blocks of `blocksize·vlen` go to `out0`, `out1`, … `out{count−1}` in turn, round and round: `stream_demux` with equal lengths. `count`, `blocksize` and `vlen` must be at least 1. Tags move with their items. Any item type; GNU Radio vectors are flat streams here. GNU Radio's `blocks_deinterleave`.")
}
