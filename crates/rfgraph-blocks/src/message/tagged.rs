//! Tagged streams (packets marked by a length tag on their first item)
//! and PDUs: [`StreamToTaggedStream`] (GNU Radio's
//! `stream_to_tagged_stream`), [`TaggedStreamToPdu`] and
//! [`PduToTaggedStream`] (its `pdu` module's blocks), with their registry
//! entries. Length tags carry the packet length as a `U64`.

use super::pdu::{PduItem, parse, pdu};
use num_complex::Complex32;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, Item, MessageOutput, Pmt, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};
use std::collections::{BTreeMap, VecDeque};

/// Passes a stream through and tags every `packet_len · vlen`-th item
/// with `len_tag_key = packet_len`, cutting it into packets of
/// `packet_len` GNU Radio vectors (a last short packet keeps its tag).
///
/// # Stream Inputs
/// - `in`: `T`.
///
/// # Stream Outputs
/// - `out`: `T`, the same items.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, Pmt, Tag, scheduler::Tpb};
/// use rfgraph_blocks::{VectorSink, VectorSource, message::StreamToTaggedStream};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0u8; 5]));
/// let tagger = fg.add(StreamToTaggedStream::<u8>::new(2, 1, "packet_len")?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.chain(&[src, tagger, sink])?;
/// let done = fg.run(Tpb::new())?;
/// let tags: Vec<u64> = done.block::<VectorSink<u8>>(sink).unwrap().tags().iter().map(|t| t.index).collect();
/// assert_eq!(tags, [0, 2, 4]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct StreamToTaggedStream<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    packet_len: u64,
    stride: u64,
    key: String,
}

impl<T: Item> StreamToTaggedStream<T> {
    /// Packets of `packet_len` vectors of `vlen` items, tagged `key`.
    ///
    /// Errors: a length or `vlen` of 0.
    pub fn new(packet_len: u64, vlen: u64, key: impl Into<String>) -> Result<Self, String> {
        let stride = packet_len
            .checked_mul(vlen)
            .filter(|&s| s > 0)
            .ok_or("packet_len and vlen must be at least 1, and their product fit 64 bits")?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            packet_len,
            stride,
            key: key.into(),
        })
    }
}

impl<T: Item> Block for StreamToTaggedStream<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let start = self.input.position();
        let i = self.input.slice();
        let o = self.output.slice();
        let n = i.len().min(o.len());
        rfgraph::copy_items(&mut o[..n], &i[..n]);
        let mut at = start.div_ceil(self.stride) * self.stride;
        while at < start + n as u64 {
            self.output
                .add_tag((at - start) as usize, &self.key, Pmt::U64(self.packet_len));
            at += self.stride;
        }
        self.input.consume(n);
        self.output.produce(n);
        Ok(())
    }
}

/// The packet being gathered.
struct Packet<T> {
    left: usize,
    items: Vec<T>,
    meta: BTreeMap<String, Pmt>,
}

/// Gathers each packet of a tagged stream into a PDU: its items are the
/// data, the tags on them (but the length tag) the metadata. Items before
/// the first length tag, or between a packet's end and the next length
/// tag, are dropped (GNU Radio fails there).
///
/// # Stream Inputs
/// - `in`: `T` (`u8`, `f32` or `Complex32`).
///
/// # Message Outputs
/// - `pdus`: one PDU per packet.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::{MessageSink, VectorSource};
/// use rfgraph_blocks::message::{StreamToTaggedStream, TaggedStreamToPdu};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8, 2, 3, 4]));
/// let tagger = fg.add(StreamToTaggedStream::<u8>::new(2, 1, "packet_len")?);
/// let to_pdu = fg.add(TaggedStreamToPdu::<u8>::new("packet_len"));
/// let sink = fg.add(MessageSink::new());
/// fg.chain(&[src, tagger, to_pdu])?;
/// fg.connect_message(to_pdu, "pdus", sink, "in")?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(done.block::<MessageSink>(sink).unwrap().received(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TaggedStreamToPdu<T: PduItem> {
    input: StreamInput<T>,
    output: MessageOutput,
    key: String,
    packet: Option<Packet<T>>,
}

impl<T: PduItem> TaggedStreamToPdu<T> {
    /// Packets marked by length tags `key`.
    pub fn new(key: impl Into<String>) -> Self {
        Self {
            input: StreamInput::new("in"),
            output: MessageOutput::new("pdus"),
            key: key.into(),
            packet: None,
        }
    }
}

impl<T: PduItem> Block for TaggedStreamToPdu<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .message_output(&mut self.output)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let start = self.input.position();
        // Tags are those of the last slice: form it first.
        self.input.slice();
        let mut tags = self.input.tags();
        tags.sort_by_key(|t| t.index);
        let items = self.input.slice();
        let mut k = 0;
        while k < items.len() {
            let at = start + k as u64;
            if self.packet.is_none() {
                // The next length tag at or after `at`.
                let next = tags
                    .iter()
                    .find(|t| t.index >= at && t.key == self.key && t.value.as_u64().is_some());
                let Some(tag) = next else {
                    k = items.len();
                    break;
                };
                if tag.index > at {
                    k = (tag.index - start) as usize;
                    continue;
                }
                let len = tag.value.as_u64().unwrap_or(0) as usize;
                self.packet = Some(Packet {
                    left: len,
                    items: Vec::with_capacity(len.min(1 << 20)),
                    meta: BTreeMap::new(),
                });
            }
            let Some(p) = &mut self.packet else { break };
            let n = p.left.min(items.len() - k);
            p.items.extend_from_slice(&items[k..k + n]);
            for t in &tags {
                if t.index >= at && t.index < at + n as u64 && t.key != self.key {
                    p.meta.insert(t.key.clone(), t.value.clone());
                }
            }
            p.left -= n;
            k += n;
            if p.left == 0
                && let Some(p) = self.packet.take()
            {
                self.output.post(pdu(p.meta, T::to_data(p.items)));
            }
        }
        self.input.consume(k);
        Ok(())
    }
}

/// Writes the data of each PDU as a packet of a tagged stream: the first
/// item carries the length tag `key = len` and the PDU's metadata as tags.
/// Empty PDUs write nothing; a PDU of another item type or a message that
/// is no PDU is an error.
///
/// # Message Inputs
/// - `pdus`: PDUs.
///
/// # Stream Outputs
/// - `out`: `T` (`u8`, `f32` or `Complex32`).
///
/// # Usage
/// ```
/// use rfgraph::{Block, Pmt, WorkIo};
/// use rfgraph_blocks::message::{PduToTaggedStream, pdu};
///
/// let mut block = PduToTaggedStream::<u8>::new("packet_len");
/// block.handle_message("pdus", pdu(Default::default(), Pmt::Blob(vec![1, 2])), &mut WorkIo::default())?;
/// assert_eq!(block.queued(), 2);
/// # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
/// ```
pub struct PduToTaggedStream<T: PduItem> {
    output: StreamOutput<T>,
    key: String,
    /// Burst framing instead (`pdu_to_stream`): the queue depth, and
    /// whether PDUs arriving during a burst are dropped.
    burst: Option<(usize, bool)>,
    /// PDUs to write: metadata, items, items written.
    queue: VecDeque<(BTreeMap<String, Pmt>, Vec<T>, usize)>,
}

impl<T: PduItem> PduToTaggedStream<T> {
    /// Packets tagged with length tags `key`.
    pub fn new(key: impl Into<String>) -> Self {
        Self {
            output: StreamOutput::new("out"),
            key: key.into(),
            burst: None,
            queue: VecDeque::new(),
        }
    }

    /// GNU Radio's `pdu_to_stream`: each PDU's data is a burst whose
    /// first item is tagged `tx_sob = true` and last `tx_eob = true`
    /// (no length or metadata tags). At most `depth` PDUs wait; with
    /// `drop_early`, a PDU arriving while a burst is being written is
    /// dropped instead of queued.
    pub fn bursts(depth: usize, drop_early: bool) -> Self {
        Self {
            burst: Some((depth.max(1), drop_early)),
            ..Self::new("")
        }
    }

    /// Items received and not yet written.
    pub fn queued(&self) -> usize {
        self.queue.iter().map(|(_, v, w)| v.len() - w).sum()
    }
}

impl<T: PduItem> Block for PduToTaggedStream<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("pdus").output(&mut self.output)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let (meta, data) = parse(&msg).ok_or("expected a PDU ([metadata map, vector])")?;
        let items = T::from_data(data).ok_or_else(|| {
            format!(
                "the PDU's data is not a vector of {}",
                std::any::type_name::<T>()
            )
        })?;
        if let Some((depth, drop_early)) = self.burst
            && (self.queue.len() >= depth || (drop_early && !self.queue.is_empty()))
        {
            return Ok(Pmt::Null);
        }
        if !items.is_empty() {
            self.queue.push_back((meta, items, 0));
        }
        Ok(Pmt::Null)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let o = self.output.slice();
        let mut written = 0;
        // Tags of the packets started in this call: (offset, key, value).
        let mut tags = Vec::new();
        while let Some((meta, items, done)) = self.queue.front_mut() {
            if written == o.len() {
                break;
            }
            let n = (items.len() - *done).min(o.len() - written);
            match self.burst {
                None if *done == 0 => {
                    tags.push((written, self.key.clone(), Pmt::U64(items.len() as u64)));
                    for (k, v) in std::mem::take(meta) {
                        tags.push((written, k, v));
                    }
                }
                None => {}
                Some(_) => {
                    if *done == 0 {
                        tags.push((written, "tx_sob".to_string(), Pmt::Bool(true)));
                    }
                    if *done + n == items.len() {
                        tags.push((written + n - 1, "tx_eob".to_string(), Pmt::Bool(true)));
                    }
                }
            }
            rfgraph::copy_items(&mut o[written..written + n], &items[*done..*done + n]);
            *done += n;
            written += n;
            if *done == items.len() {
                self.queue.pop_front();
            }
        }
        for (offset, key, value) in tags {
            self.output.add_tag(offset, &key, value);
        }
        self.output.produce(written);
        Ok(())
    }
}

fn key_param() -> ParamSpec {
    ParamSpec::string("len_tag_key")
        .default("packet_len")
        .doc("the key of the length tags")
}

const PDU_KINDS: [ItemKind; 3] = [ItemKind::U8, ItemKind::F32, ItemKind::C32];

/// `stream_to_tagged_stream`: GNU Radio's `blocks_stream_to_tagged_stream`.
pub(crate) fn stream_to_tagged_stream_spec() -> BlockSpec {
    BlockSpec::new(
        "stream_to_tagged_stream",
        "Packet Operators",
        "Cuts a stream into packets of `packet_len` by length tags.",
        |p: &Params| {
            let (len, vlen, key) = (p.u64("packet_len")?, p.u64("vlen")?, p.string("len_tag_key")?);
            crate::stream::any_item!(p, T => StreamToTaggedStream::<T>::new(len, vlen, key).map_err(|e| p.refused(e))?)
        },
    )
    .doc("Copies `in` to `out` unchanged and tags items 0, `packet_len·vlen`, `2·packet_len·vlen`, … with `len_tag_key = packet_len` (a `U64`, counted in GNU Radio vectors), making a tagged stream of fixed-size packets for any item type. A last short packet at the end of the stream still carries the full length. `packet_len` and `vlen` must be at least 1. GNU Radio's `blocks_stream_to_tagged_stream`.")
    .param(ParamSpec::item_type(&ItemKind::ALL))
    .param(ParamSpec::uint("packet_len").default(64u64).doc("vectors per packet"))
    .param(ParamSpec::uint("vlen").default(1u64).doc("items per GNU Radio vector"))
    .param(key_param())
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `tagged_stream_to_pdu`: GNU Radio's `pdu_tagged_stream_to_pdu`.
pub(crate) fn tagged_stream_to_pdu_spec() -> BlockSpec {
    BlockSpec::new(
        "tagged_stream_to_pdu",
        "Packet Operators",
        "One PDU per packet of a tagged stream.",
        |p: &Params| {
            let key = p.string("len_tag_key")?;
            rfgraph::for_item_kinds!(p, p.item_type()?, { U8 => u8, F32 => f32, C32 => Complex32 } as T
                => TaggedStreamToPdu::<T>::new(key))
        },
    )
    .doc("A PDU's data is the packet's items, its metadata the packet's other tags. Items outside packets are dropped.")
    .param(ParamSpec::item_type(&PDU_KINDS))
    .param(key_param())
    .input(PortSpec::new("in", PortItem::OfType))
    .message_output("pdus")
}

/// `pdu_to_stream`: GNU Radio's `pdu_pdu_to_stream_x`.
pub(crate) fn pdu_to_stream_spec() -> BlockSpec {
    BlockSpec::new(
        "pdu_to_stream",
        "Packet Operators",
        "Writes each PDU's data as a burst tagged `tx_sob`/`tx_eob`.",
        |p: &Params| {
            let depth = p.usize("depth")?;
            let drop_early = !p.string("early_behavior")?.eq_ignore_ascii_case("append");
            rfgraph::for_item_kinds!(p, p.item_type()?, { U8 => u8, F32 => f32, C32 => Complex32 } as T
                => PduToTaggedStream::<T>::bursts(depth, drop_early))
        },
    )
    .doc("Bursts follow each other without gaps; nothing is written while no PDU waits. `append` queues PDUs arriving during a burst (up to `depth`, later ones are dropped); `drop` and `balk` drop them.")
    .param(ParamSpec::item_type(&PDU_KINDS))
    .param(
        ParamSpec::string("early_behavior")
            .choices(&["append", "drop", "balk"])
            .default("append")
            .doc("what happens to a PDU arriving during a burst"),
    )
    .param(ParamSpec::uint("depth").default(64u64).doc("PDUs that may wait"))
    .message_input("pdus")
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `pdu_to_tagged_stream`: GNU Radio's `pdu_pdu_to_tagged_stream`.
pub(crate) fn pdu_to_tagged_stream_spec() -> BlockSpec {
    BlockSpec::new(
        "pdu_to_tagged_stream",
        "Packet Operators",
        "Writes each PDU as a packet of a tagged stream.",
        |p: &Params| {
            let key = p.string("len_tag_key")?;
            rfgraph::for_item_kinds!(p, p.item_type()?, { U8 => u8, F32 => f32, C32 => Complex32 } as T
                => PduToTaggedStream::<T>::new(key))
        },
    )
    .doc("The first item of each packet carries the length tag and the PDU's metadata as tags. A message that is no PDU of this item type fails the run.")
    .param(ParamSpec::item_type(&PDU_KINDS))
    .param(key_param())
    .message_input("pdus")
    .output(PortSpec::new("out", PortItem::OfType))
}
