//! The packets of a tagged stream, read and written whole: what GNU
//! Radio's `tagged_stream_block` does for its blocks. [`PacketReader`]
//! gathers one packet of an input (the items from a length tag on, as
//! many as it says, with the tags on them); [`PacketWriter`] writes whole
//! packets to an output as room allows, each led by its length tag.
//! Blocks that turn packets into packets (`tagged_stream_mux`, `crc32`,
//! `protocol_formatter`, ...) are a reader, a per-packet function and a
//! writer.

use rfgraph::{Item, Pmt, Ports, StreamInput, StreamOutput, Tag};
use std::collections::VecDeque;

/// One packet of a tagged stream being gathered: its items and the tags
/// on them (indices relative to the packet's first item; the length tags
/// left out). Items before a length tag are dropped (GNU Radio fails
/// there); a packet whose input ends early is never whole.
pub(crate) struct PacketReader<T> {
    /// Items still missing; `None` before the length tag.
    left: Option<usize>,
    items: Vec<T>,
    tags: Vec<Tag>,
}

impl<T: Item> PacketReader<T> {
    pub(crate) fn new() -> Self {
        Self {
            left: None,
            items: Vec::new(),
            tags: Vec::new(),
        }
    }

    /// True when a whole packet waits to be [`take`](Self::take)n.
    pub(crate) fn is_whole(&self) -> bool {
        self.left == Some(0)
    }

    /// Reads `input` up to the end of the packet under way (length tags
    /// of key `key` with a positive integer value start packets);
    /// true when the packet is whole. Reads nothing while a whole packet
    /// waits.
    pub(crate) fn read(&mut self, input: &mut StreamInput<T>, key: &str) -> bool {
        let start = input.position();
        // The tags cover this slice only: items arriving later wait.
        let len = input.slice().len();
        let tags = sorted_tags(input);
        let used = self.feed(&input.slice()[..len], start, &tags, key);
        input.consume(used);
        self.is_whole()
    }

    /// Takes `items` (the first at absolute index `start`; `tags` the
    /// tags on them, sorted by index) up to the end of the packet under
    /// way; gives the number of items used.
    fn feed(&mut self, items: &[T], start: u64, tags: &[Tag], key: &str) -> usize {
        let len = items.len();
        let mut at = 0;
        while at < len && !self.is_whole() {
            let pos = start + at as u64;
            let tags = &tags[tags.partition_point(|t| t.index < pos)..];
            if self.left.is_none() {
                // The last length tag on the first item at or after `pos`
                // that has one, as GNU Radio reads several on one item.
                let length = |t: &&Tag| t.key == key && packet_len(t).is_some();
                let Some(first) = tags.iter().find(length).map(|t| t.index) else {
                    at = len;
                    break;
                };
                if first > pos {
                    at = (first - start) as usize;
                    continue;
                }
                self.left = tags
                    .iter()
                    .take_while(|t| t.index == pos)
                    .filter(length)
                    .last()
                    .and_then(packet_len);
            }
            let left = self.left.unwrap_or(0);
            let n = left.min(len - at);
            let base = self.items.len() as u64;
            self.items.extend_from_slice(&items[at..at + n]);
            let end = pos + n as u64;
            for t in tags.iter().take_while(|t| t.index < end) {
                if t.key != key {
                    self.tags.push(Tag {
                        index: base + t.index - pos,
                        ..t.clone()
                    });
                }
            }
            self.left = Some(left - n);
            at += n;
        }
        at
    }

    /// The whole packet's items and tags, the reader then waiting for the
    /// next length tag; `None` while the packet is not whole.
    pub(crate) fn take(&mut self) -> Option<(Vec<T>, Vec<Tag>)> {
        if !self.is_whole() {
            return None;
        }
        self.left = None;
        Some((
            std::mem::take(&mut self.items),
            std::mem::take(&mut self.tags),
        ))
    }
}

/// The tags on the items of `input`'s last slice, sorted by index
/// (stable: tags on one item keep their order).
fn sorted_tags<T: Item>(input: &StreamInput<T>) -> Vec<Tag> {
    let mut tags = input.tags();
    tags.sort_by_key(|t| t.index);
    tags
}

/// The length a length tag gives: a positive integer. A length of 0
/// marks no packet (GNU Radio stops there with an error).
fn packet_len(tag: &Tag) -> Option<usize> {
    tag.value
        .as_u64()
        .filter(|&l| l > 0)
        .and_then(|l| usize::try_from(l).ok())
}

/// Packets waiting to be written: items, tags (indices relative to the
/// packet's first item), items written. Tags at or past a packet's end
/// go to the next item written after it, where GNU Radio's tagged-stream
/// blocks put them (its `crc32_bb` moves a tag so); they are lost if no
/// item follows.
pub(crate) struct PacketWriter<T> {
    ready: VecDeque<(Vec<T>, Vec<Tag>, usize)>,
    /// Tags for the next item written: (key, value).
    carry: Vec<(String, Pmt)>,
}

impl<T: Item> PacketWriter<T> {
    pub(crate) fn new() -> Self {
        Self {
            ready: VecDeque::new(),
            carry: Vec::new(),
        }
    }

    /// True when every packet pushed was written.
    pub(crate) fn is_empty(&self) -> bool {
        self.ready.is_empty()
    }

    /// Queues a packet, led by a length tag `key` of its length (a `U64`)
    /// before its other `tags`. An empty packet has no item to carry a
    /// tag: only its tags pass, to the next item written.
    pub(crate) fn push(&mut self, key: &str, items: Vec<T>, mut tags: Vec<Tag>) {
        if items.is_empty() {
            self.carry
                .extend(tags.into_iter().map(|t| (t.key, t.value)));
            return;
        }
        tags.insert(0, Tag::new(0, key, Pmt::U64(items.len() as u64)));
        self.ready.push_back((items, tags, 0));
    }

    /// Writes as much as `output` has room for.
    pub(crate) fn write(&mut self, output: &mut StreamOutput<T>) {
        let o = output.slice();
        let mut written = 0;
        let mut out_tags = Vec::new();
        while let Some((items, tags, done)) = self.ready.front_mut() {
            let n = (items.len() - *done).min(o.len() - written);
            if n == 0 {
                break;
            }
            if *done == 0 {
                for (key, value) in self.carry.drain(..) {
                    out_tags.push((written, key, value));
                }
            }
            rfgraph::copy_items(&mut o[written..written + n], &items[*done..*done + n]);
            for t in tags.iter() {
                let i = t.index as usize;
                if i >= *done && i < *done + n {
                    out_tags.push((written + i - *done, t.key.clone(), t.value.clone()));
                }
            }
            *done += n;
            written += n;
            if *done == items.len() {
                let len = items.len();
                for t in tags.drain(..).filter(|t| t.index as usize >= len) {
                    self.carry.push((t.key, t.value));
                }
                self.ready.pop_front();
            }
        }
        for (offset, key, value) in out_tags {
            output.add_tag(offset, &key, value);
        }
        output.produce(written);
    }
}

/// A block's tagged input and output with the reader and writer between
/// them: [`work`](Self::work) turns each whole input packet into at most
/// one output packet.
pub(crate) struct PacketIo<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    reader: PacketReader<T>,
    writer: PacketWriter<T>,
}

impl<T: Item> PacketIo<T> {
    /// Ports `in` and `out`.
    pub(crate) fn new() -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            reader: PacketReader::new(),
            writer: PacketWriter::new(),
        }
    }

    /// The ports, for [`Block::ports`](rfgraph::Block::ports).
    pub(crate) fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    /// Writes what waits, then reads packets (length tags `key`) while
    /// the output keeps up: `map` makes each packet's output (items and
    /// tags relative to its first item), or drops it with `None`. Only
    /// one mapped packet waits at a time, so memory stays bounded.
    pub(crate) fn work(
        &mut self,
        key: &str,
        mut map: impl FnMut(Vec<T>, Vec<Tag>) -> Option<(Vec<T>, Vec<Tag>)>,
    ) {
        // One look at the input and its tags per call: items arriving
        // meanwhile wait for the next call, with their tags.
        let start = self.input.position();
        let len = self.input.slice().len();
        let tags = sorted_tags(&self.input);
        let mut used = 0;
        loop {
            self.writer.write(&mut self.output);
            if !self.writer.is_empty() {
                break;
            }
            let items = &self.input.slice()[used..len];
            used += self.reader.feed(items, start + used as u64, &tags, key);
            let Some((items, tags)) = self.reader.take() else {
                break;
            };
            if let Some((items, tags)) = map(items, tags) {
                self.writer.push(key, items, tags);
            }
        }
        self.input.consume(used);
    }
}
