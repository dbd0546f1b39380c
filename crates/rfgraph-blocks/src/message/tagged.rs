//! Tagged streams (packets marked by a length tag on their first item)
//! and PDUs: [`StreamToTaggedStream`] (GNU Radio's
//! `stream_to_tagged_stream`), [`TaggedStreamToPdu`] and
//! [`PduToTaggedStream`] (its `pdu` module's blocks), with their registry
//! entries. Length tags carry the packet length as a `U64`.

use super::pdu::{PduItem, parse, pdu};
use num_complex::Complex32;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, Item, MessageOutput, ParamChoice, ParamError, ParamSet, Pmt, Ports,
    StreamInput, StreamOutput, TagPolicy, WorkIo,
};
use std::collections::{BTreeMap, VecDeque};

/// The parameters of [`StreamToTaggedStream`] (`stream_to_tagged_stream`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct StreamToTaggedStreamParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// vectors per packet; a change applies from the next packet on (GNU
    /// Radio's `set_packet_len`)
    #[param(default = 64, min = 1, settable)]
    pub packet_len: u64,
    /// items per GNU Radio vector
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
    /// the key of the length tags
    #[param(default = "packet_len")]
    pub len_tag_key: String,
}

impl StreamToTaggedStreamParams {
    /// Items per packet.
    fn stride(&self) -> Option<u64> {
        self.packet_len.checked_mul(self.vlen as u64)
    }

    /// A packet's items must fit 64 bits.
    fn check(&self) -> Result<(), ParamError> {
        if self.stride().is_none() {
            return Err(ParamError::new(
                "stream_to_tagged_stream",
                "packet_len",
                format!(
                    "{} vectors of {} items do not fit 64 bits",
                    self.packet_len, self.vlen
                ),
            ));
        }
        Ok(())
    }
}

/// Passes a stream through and tags the first item of every packet of
/// `packet_len · vlen` items with `len_tag_key = packet_len`, cutting it
/// into packets of `packet_len` GNU Radio vectors (a last short packet
/// keeps its tag). A new `packet_len` applies from the next packet on, as
/// in GNU Radio: the packet under way keeps its length.
///
/// # Parameters
/// [`StreamToTaggedStreamParams`]; `packet_len` has a message input of
/// its name.
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
/// use rfgraph_blocks::{VectorSink, VectorSource};
/// use rfgraph_blocks::message::{StreamToTaggedStream, StreamToTaggedStreamParams};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0u8; 5]));
/// let tagger = fg.add(StreamToTaggedStream::<u8>::new(StreamToTaggedStreamParams {
///     packet_len: 2,
///     ..Default::default()
/// })?);
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
    params: StreamToTaggedStreamParams,
    /// Where the next packet starts.
    next_tag: u64,
}

impl<T: Item> StreamToTaggedStream<T> {
    /// A tagger with `params` (the item type is `T`'s; `params.item` is
    /// what the registry builds from).
    ///
    /// Errors: a length or `vlen` of 0, or a packet of more than 2^64
    /// items.
    pub fn new(params: StreamToTaggedStreamParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            params,
            next_tag: 0,
        })
    }
}

impl<T: Item> Block for StreamToTaggedStream<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let start = self.input.position();
        let i = self.input.slice();
        let o = self.output.slice();
        let n = i.len().min(o.len());
        rfgraph::copy_items(&mut o[..n], &i[..n]);
        // The check keeps the stride within 64 bits and above 0.
        let stride = self.params.stride().unwrap_or(u64::MAX).max(1);
        while self.next_tag < start + n as u64 {
            let len = Pmt::U64(self.params.packet_len);
            self.output.add_tag(
                (self.next_tag - start) as usize,
                &self.params.len_tag_key,
                len,
            );
            self.next_tag = self.next_tag.saturating_add(stride);
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

/// The parameters of [`TaggedStreamToPdu`] (`tagged_stream_to_pdu`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct TaggedStreamToPduParams {
    /// stream item type
    #[param(name = "type", kinds(U8, F32, C32))]
    pub item: ItemKind,
    /// the key of the length tags
    #[param(default = "packet_len", alias = "tag")]
    pub len_tag_key: String,
}

/// Gathers each packet of a tagged stream into a PDU: its items are the
/// data, the tags on them (but the length tag) the metadata. Items before
/// the first length tag, or between a packet's end and the next length
/// tag, are dropped (GNU Radio fails there).
///
/// # Parameters
/// [`TaggedStreamToPduParams`].
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
/// use rfgraph_blocks::message::{
///     StreamToTaggedStream, StreamToTaggedStreamParams, TaggedStreamToPdu,
/// };
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8, 2, 3, 4]));
/// let tagger = fg.add(StreamToTaggedStream::<u8>::new(StreamToTaggedStreamParams {
///     packet_len: 2,
///     ..Default::default()
/// })?);
/// let to_pdu = fg.add(TaggedStreamToPdu::<u8>::new(Default::default())?);
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
    params: TaggedStreamToPduParams,
    packet: Option<Packet<T>>,
}

impl<T: PduItem> TaggedStreamToPdu<T> {
    /// Packets marked by length tags `params.len_tag_key` (the item type
    /// is `T`'s; `params.item` is what the registry builds from).
    pub fn new(params: TaggedStreamToPduParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: MessageOutput::new("pdus"),
            params,
            packet: None,
        })
    }
}

impl<T: PduItem> Block for TaggedStreamToPdu<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .message_output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let key = &self.params.len_tag_key;
        let start = self.input.position();
        // Tags are those of the last slice: form it first, and read no
        // further than it (a later slice may hold items whose tags these
        // are not).
        let available = self.input.slice().len();
        let mut tags = self.input.tags();
        tags.sort_by_key(|t| t.index);
        let items = &self.input.slice()[..available];
        let mut k = 0;
        while k < items.len() {
            let at = start + k as u64;
            if self.packet.is_none() {
                // The next length tag at or after `at`.
                let next = tags
                    .iter()
                    .find(|t| t.index >= at && t.key == *key && t.value.as_u64().is_some());
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
                if t.index >= at && t.index < at + n as u64 && t.key != *key {
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

/// PDUs waiting to be written: metadata, items, items written.
struct PduQueue<T>(VecDeque<(BTreeMap<String, Pmt>, Vec<T>, usize)>);

/// How the packets of a [`PduQueue`] are marked.
enum Framing<'a> {
    /// A length tag of this key and the metadata as tags on the first item.
    Length(&'a str),
    /// `tx_sob` on the first item, `tx_eob` on the last.
    Burst,
}

impl<T: PduItem> PduQueue<T> {
    fn new() -> Self {
        Self(VecDeque::new())
    }

    /// The metadata and items of a PDU of `T`.
    fn unpack(msg: &Pmt) -> Result<(BTreeMap<String, Pmt>, Vec<T>), BoxError> {
        let (meta, data) = parse(msg).ok_or("expected a PDU ([metadata map, vector])")?;
        let items = T::from_data(data).ok_or_else(|| {
            format!(
                "the PDU's data is not a vector of {}",
                std::any::type_name::<T>()
            )
        })?;
        Ok((meta, items))
    }

    /// Queues a PDU; empty ones write nothing.
    fn push(&mut self, meta: BTreeMap<String, Pmt>, items: Vec<T>) {
        if !items.is_empty() {
            self.0.push_back((meta, items, 0));
        }
    }

    /// Items received and not yet written.
    fn queued(&self) -> usize {
        self.0.iter().map(|(_, v, w)| v.len() - w).sum()
    }

    /// Writes as much as `output` has room for, marked by `framing`.
    fn write(&mut self, output: &mut StreamOutput<T>, framing: Framing<'_>) {
        let o = output.slice();
        let mut written = 0;
        // Tags of the packets started in this call: (offset, key, value).
        let mut tags = Vec::new();
        while let Some((meta, items, done)) = self.0.front_mut() {
            if written == o.len() {
                break;
            }
            let n = (items.len() - *done).min(o.len() - written);
            match framing {
                Framing::Length(key) if *done == 0 => {
                    tags.push((written, key.to_string(), Pmt::U64(items.len() as u64)));
                    for (k, v) in std::mem::take(meta) {
                        tags.push((written, k, v));
                    }
                }
                Framing::Length(_) => {}
                Framing::Burst => {
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
                self.0.pop_front();
            }
        }
        for (offset, key, value) in tags {
            output.add_tag(offset, &key, value);
        }
        output.produce(written);
    }
}

/// The parameters of [`PduToTaggedStream`] (`pdu_to_tagged_stream`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct PduToTaggedStreamParams {
    /// stream item type
    #[param(name = "type", kinds(U8, F32, C32))]
    pub item: ItemKind,
    /// the key of the length tags
    #[param(default = "packet_len", alias = "tag")]
    pub len_tag_key: String,
}

/// Writes the data of each PDU as a packet of a tagged stream: the first
/// item carries the length tag `len_tag_key = len` and the PDU's metadata
/// as tags. Empty PDUs write nothing; a PDU of another item type or a
/// message that is no PDU is an error.
///
/// # Parameters
/// [`PduToTaggedStreamParams`].
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
/// let mut block = PduToTaggedStream::<u8>::new(Default::default())?;
/// block.handle_message("pdus", pdu(Default::default(), Pmt::Blob(vec![1, 2])), &mut WorkIo::default())?;
/// assert_eq!(block.queued(), 2);
/// # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
/// ```
pub struct PduToTaggedStream<T: PduItem> {
    output: StreamOutput<T>,
    params: PduToTaggedStreamParams,
    queue: PduQueue<T>,
}

impl<T: PduItem> PduToTaggedStream<T> {
    /// Packets tagged with length tags `params.len_tag_key` (the item
    /// type is `T`'s; `params.item` is what the registry builds from).
    pub fn new(params: PduToTaggedStreamParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            output: StreamOutput::new("out"),
            params,
            queue: PduQueue::new(),
        })
    }

    /// Items received and not yet written.
    pub fn queued(&self) -> usize {
        self.queue.queued()
    }
}

impl<T: PduItem> Block for PduToTaggedStream<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("pdus").output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let (meta, items) = PduQueue::unpack(&msg)?;
        self.queue.push(meta, items);
        Ok(Pmt::Null)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let framing = Framing::Length(&self.params.len_tag_key);
        self.queue.write(&mut self.output, framing);
        Ok(())
    }
}

/// What [`PduToStream`] does with a PDU that arrives while a burst is
/// being written; GNU Radio's `pdu.EARLY_BURST_*` in lower case.
#[derive(ParamChoice, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EarlyBehavior {
    /// Queue it (up to `depth` PDUs; later ones are dropped).
    Append,
    /// Drop it.
    Drop,
    /// Drop it (GNU Radio's `balk`).
    Balk,
}

/// The parameters of [`PduToStream`] (`pdu_to_stream`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct PduToStreamParams {
    /// stream item type
    #[param(name = "type", kinds(U8, F32, C32))]
    pub item: ItemKind,
    /// what happens to a PDU arriving during a burst
    #[param(default = EarlyBehavior::Append)]
    pub early_behavior: EarlyBehavior,
    /// PDUs that may wait, the one being written included; a change
    /// applies to the next PDU that arrives (those waiting stay), as GNU
    /// Radio's `set_max_queue_size`
    #[param(default = 64, min = 1, max = limits::MAX_ELEMENTS, settable)]
    pub depth: usize,
}

/// GNU Radio's `pdu_to_stream`: writes each PDU's data as a burst whose
/// first item is tagged `tx_sob = true` and last `tx_eob = true` (no
/// length or metadata tags). At most `depth` PDUs wait; with `drop` or
/// `balk`, a PDU arriving while a burst is being written is dropped
/// instead of queued. A PDU of another item type or a message that is no
/// PDU is an error.
///
/// # Parameters
/// [`PduToStreamParams`]; `depth` has a message input of its name.
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
/// use rfgraph_blocks::message::{PduToStream, PduToStreamParams, pdu};
///
/// let mut block = PduToStream::<u8>::new(PduToStreamParams {
///     depth: 1,
///     ..Default::default()
/// })?;
/// let two = pdu(Default::default(), Pmt::Blob(vec![1, 2]));
/// block.handle_message("pdus", two.clone(), &mut WorkIo::default())?;
/// block.handle_message("pdus", two, &mut WorkIo::default())?;
/// assert_eq!(block.queued(), 2, "the second PDU found the queue full");
/// # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
/// ```
pub struct PduToStream<T: PduItem> {
    output: StreamOutput<T>,
    params: PduToStreamParams,
    queue: PduQueue<T>,
}

impl<T: PduItem> PduToStream<T> {
    /// Bursts as `params` describe them (the item type is `T`'s;
    /// `params.item` is what the registry builds from).
    pub fn new(params: PduToStreamParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            output: StreamOutput::new("out"),
            params,
            queue: PduQueue::new(),
        })
    }

    /// Items received and not yet written.
    pub fn queued(&self) -> usize {
        self.queue.queued()
    }
}

impl<T: PduItem> Block for PduToStream<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("pdus").output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let (meta, items) = PduQueue::unpack(&msg)?;
        let waiting = self.queue.0.len();
        let early = self.params.early_behavior != EarlyBehavior::Append;
        if waiting >= self.params.depth || (early && waiting > 0) {
            return Ok(Pmt::Null);
        }
        self.queue.push(meta, items);
        Ok(Pmt::Null)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        self.queue.write(&mut self.output, Framing::Burst);
        Ok(())
    }
}

/// `stream_to_tagged_stream`: GNU Radio's `blocks_stream_to_tagged_stream`.
pub(crate) fn stream_to_tagged_stream_spec() -> BlockSpec {
    BlockSpec::of::<StreamToTaggedStreamParams>(
        "stream_to_tagged_stream",
        "Packet Operators",
        "Cuts a stream into packets of `packet_len` by length tags.",
        |p| crate::spec_util::for_any_item!(kind = p.item, T => StreamToTaggedStream::<T>::new(p)?),
    )
    .doc("Copies `in` to `out` unchanged and tags the first item of every packet of `packet_len·vlen` items with `len_tag_key = packet_len` (a `U64`, counted in GNU Radio vectors), making a tagged stream of fixed-size packets for any item type. A last short packet at the end of the stream still carries the full length. `packet_len` and `vlen` must be at least 1. `packet_len` may change while running (GNU Radio's `set_packet_len`): the packet under way keeps its length, the next ones have the new one. GNU Radio's `blocks_stream_to_tagged_stream`.")
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `tagged_stream_to_pdu`: GNU Radio's `pdu_tagged_stream_to_pdu`.
pub(crate) fn tagged_stream_to_pdu_spec() -> BlockSpec {
    BlockSpec::of::<TaggedStreamToPduParams>(
        "tagged_stream_to_pdu",
        "Packet Operators",
        "One PDU per packet of a tagged stream.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { U8 => u8, F32 => f32, C32 => Complex32 } as T
                => TaggedStreamToPdu::<T>::new(p)?)
        },
    )
    .doc("A PDU's data is the packet's items, its metadata the packet's other tags. Items outside packets are dropped.")
    .input(PortSpec::new("in", PortItem::OfType))
    .message_output("pdus")
}

/// `pdu_to_stream`: GNU Radio's `pdu_pdu_to_stream_x`.
pub(crate) fn pdu_to_stream_spec() -> BlockSpec {
    BlockSpec::of::<PduToStreamParams>(
        "pdu_to_stream",
        "Packet Operators",
        "Writes each PDU's data as a burst tagged `tx_sob`/`tx_eob`.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { U8 => u8, F32 => f32, C32 => Complex32 } as T
                => PduToStream::<T>::new(p)?)
        },
    )
    .doc("Bursts follow each other without gaps; nothing is written while no PDU waits. `append` queues PDUs arriving during a burst (up to `depth`, later ones are dropped); `drop` and `balk` drop them. `depth` may change while running (GNU Radio's `set_max_queue_size`): PDUs already waiting stay, the next arrivals meet the new depth.")
    .message_input("pdus")
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `pdu_to_tagged_stream`: GNU Radio's `pdu_pdu_to_tagged_stream`.
pub(crate) fn pdu_to_tagged_stream_spec() -> BlockSpec {
    BlockSpec::of::<PduToTaggedStreamParams>(
        "pdu_to_tagged_stream",
        "Packet Operators",
        "Writes each PDU as a packet of a tagged stream.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { U8 => u8, F32 => f32, C32 => Complex32 } as T
                => PduToTaggedStream::<T>::new(p)?)
        },
    )
    .doc("The first item of each packet carries the length tag and the PDU's metadata as tags. A message that is no PDU of this item type fails the run.")
    .message_input("pdus")
    .output(PortSpec::new("out", PortItem::OfType))
}
