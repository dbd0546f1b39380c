//! [`TaggedStreamMux`]: one packet of every tagged input stream joined
//! into one packet (GNU Radio's `tagged_stream_mux`), and
//! [`MultiplyLength`], scaling length tags
//! (`tagged_stream_multiply_length`). With their registry entries.

use super::tagged_packets::{PacketReader, PacketWriter};
use crate::stream::pass_through;
use crate::wav::ports::channel_port;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, Item, ParamError, ParamSet, Pmt, Ports, StreamInput, StreamOutput, Tag,
    TagPolicy, WorkIo,
};

/// The parameters of [`TaggedStreamMux`] (`tagged_stream_mux`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct TaggedStreamMuxParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// number of inputs
    #[param(default = 2, min = 1, max = limits::MAX_PORTS, alias = "ninputs")]
    pub inputs: usize,
    /// the key of the length tags
    #[param(default = "packet_len", alias = "lengthtagname")]
    pub len_tag_key: String,
    /// the input whose head tags stay at the head (below `inputs`)
    #[param(default = 0, alias = "tag_preserve_head_pos")]
    pub preserve_head: usize,
}

impl TaggedStreamMuxParams {
    /// `preserve_head` names an input.
    fn check(&self) -> Result<(), ParamError> {
        if self.preserve_head >= self.inputs {
            return Err(ParamError::new(
                "tagged_stream_mux",
                "preserve_head",
                format!(
                    "must name an input, below inputs ({} ≥ {})",
                    self.preserve_head, self.inputs
                ),
            ));
        }
        Ok(())
    }
}

/// Joins the next packet of every input, in input order, into one output
/// packet whose length tag is their total. The packets' other tags keep
/// their place in the joined packet (tags on the first item of input
/// `preserve_head` move to the joined packet's first item). Items outside
/// packets are dropped.
///
/// # Stream Inputs
/// - `in0`, `in1`, …: `T`, tagged streams.
///
/// # Stream Outputs
/// - `out`: `T`, a tagged stream.
///
/// # Parameters
/// [`TaggedStreamMuxParams`].
///
/// # Usage
/// ```
/// use rfgraph_blocks::message::{TaggedStreamMux, TaggedStreamMuxParams};
/// let mux = TaggedStreamMux::<u8>::new(TaggedStreamMuxParams {
///     inputs: 3,
///     ..Default::default()
/// })?;
/// # let _ = mux;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct TaggedStreamMux<T: Item> {
    inputs: Vec<StreamInput<T>>,
    output: StreamOutput<T>,
    params: TaggedStreamMuxParams,
    gather: Vec<PacketReader<T>>,
    /// Joined packets not yet written.
    ready: PacketWriter<T>,
}

impl<T: Item> TaggedStreamMux<T> {
    /// Joins packets of `params.inputs` streams (the item type is `T`'s;
    /// `params.item` is what the registry builds from).
    ///
    /// Errors: no inputs, more than [`limits::MAX_PORTS`], or a
    /// `preserve_head` that names no input.
    pub fn new(params: TaggedStreamMuxParams) -> Result<Self, ParamError> {
        params.validate()?;
        let inputs = params.inputs;
        Ok(Self {
            inputs: (0..inputs)
                .map(|i| StreamInput::new(channel_port("in", i)))
                .collect(),
            output: StreamOutput::new("out"),
            params,
            gather: (0..inputs).map(|_| PacketReader::new()).collect(),
            ready: PacketWriter::new(),
        })
    }
}

impl<T: Item> Block for TaggedStreamMux<T> {
    fn ports(&mut self) -> Ports<'_> {
        let mut ports = Ports::new();
        for input in &mut self.inputs {
            ports = ports.input(input);
        }
        ports.output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        // Gather only while nothing waits for room: memory stays bounded.
        if self.ready.is_empty() {
            let key = &self.params.len_tag_key;
            for (g, input) in self.gather.iter_mut().zip(&mut self.inputs) {
                g.read(input, key);
            }
            if self.gather.iter().all(PacketReader::is_whole) {
                let mut items = Vec::new();
                let mut tags = Vec::new();
                for (k, g) in self.gather.iter_mut().enumerate() {
                    let Some((mut part, part_tags)) = g.take() else {
                        continue;
                    };
                    let base = items.len() as u64;
                    for t in part_tags {
                        let index = if k == self.params.preserve_head && t.index == 0 {
                            0
                        } else {
                            base + t.index
                        };
                        tags.push(Tag { index, ..t });
                    }
                    items.append(&mut part);
                }
                self.ready.push(key, items, tags);
            }
        }
        self.ready.write(&mut self.output);
        Ok(())
    }
}

/// The parameters of [`MultiplyLength`] (`tagged_stream_multiply_length`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct MultiplyLengthParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// the key of the length tags
    #[param(default = "packet_len", alias = "lengthtagname")]
    pub len_tag_key: String,
    /// the factor; a change applies to the length tags passing from then
    /// on (GNU Radio's `set_scalar`)
    #[param(default = 1.0, min = 0.0, alias = "c", settable)]
    pub scalar: f64,
}

/// Passes a stream and multiplies the value of every length tag by
/// `scalar` (truncated to an integer, as GNU Radio does).
///
/// # Parameters
/// [`MultiplyLengthParams`]; `scalar` has a message input of its name
/// (and of its alias `c`).
///
/// # Stream Inputs
/// - `in`: `T`, a tagged stream.
///
/// # Stream Outputs
/// - `out`: `T`, the same items and tags, the length tags scaled.
///
/// # Usage
/// ```
/// use rfgraph_blocks::message::{MultiplyLength, MultiplyLengthParams};
/// let scale = MultiplyLength::<f32>::new(MultiplyLengthParams {
///     scalar: 2.0,
///     ..Default::default()
/// })?;
/// # let _ = scale;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct MultiplyLength<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    params: MultiplyLengthParams,
}

impl<T: Item> MultiplyLength<T> {
    /// Scales length tags by `params.scalar` (the item type is `T`'s;
    /// `params.item` is what the registry builds from).
    pub fn new(params: MultiplyLengthParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            params,
        })
    }
}

impl<T: Item> Block for MultiplyLength<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let (length_key, scalar) = (&self.params.len_tag_key, self.params.scalar);
        pass_through(&mut self.input, &mut self.output, |key, value| {
            Some(match (key == length_key, value.as_f64()) {
                (true, Some(len)) => Pmt::U64((len * scalar).max(0.0) as u64),
                _ => value,
            })
        });
        Ok(())
    }
}

/// `tagged_stream_mux`: GNU Radio's `blocks_tagged_stream_mux`.
pub(crate) fn tagged_stream_mux_spec() -> BlockSpec {
    BlockSpec::of::<TaggedStreamMuxParams>(
        "tagged_stream_mux",
        "Packet Operators",
        "Joins one packet of every tagged input into one packet.",
        |p| crate::spec_util::for_any_item!(kind = p.item, T => TaggedStreamMux::<T>::new(p)?),
    )
    .doc("The joined packet holds the packets of `in0`, `in1`, … in that order, with a length tag of their total; their other tags keep their place (those on the first item of input `preserve_head` go to the joined packet's first item).")
    .input(PortSpec::new("in", PortItem::OfType).repeated("inputs"))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `tagged_stream_multiply_length`: GNU Radio's `blocks_tagged_stream_multiply_length`.
pub(crate) fn multiply_length_spec() -> BlockSpec {
    BlockSpec::of::<MultiplyLengthParams>(
        "tagged_stream_multiply_length",
        "Packet Operators",
        "Multiplies the length tags of a stream by a settable scalar.",
        |p| crate::spec_util::for_any_item!(kind = p.item, T => MultiplyLength::<T>::new(p)?),
    )
    .doc("Items pass unchanged; each length tag's value becomes `value · scalar`, truncated to an integer. `scalar` may change while running (GNU Radio's `set_scalar`): from the next length tag on.")
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
