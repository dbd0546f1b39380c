//! Tagged streams as GNU Radio's `tagged_stream_block` reads and writes
//! them, for the OFDM blocks that work on whole frames: [`Gather`] cuts
//! an input into [`Packet`]s at its length tags (a length counts GNU
//! Radio items of `vlen` stream items), and [`Outbox`] writes finished
//! packets with their tags as the output gains room. Owns no arithmetic.
//!
//! As in GNU Radio, the length tag that starts a packet is taken off it
//! (the block writes its own). Items before a length tag are dropped with
//! their tags (GNU Radio stops with "Missing length tag" there), and so
//! is a packet whose length is zero or larger than [`MAX_PACKET_ITEMS`].

use rfgraph::{Item, Pmt, StreamInput, StreamOutput, Tag, WorkIo};
use std::collections::VecDeque;

/// The most stream items one packet may have: a length tag asking for
/// more (a corrupt or hostile one) drops its packet rather than have the
/// block gather without bound.
pub const MAX_PACKET_ITEMS: usize = 1 << 24;

/// One packet: its items and the tags on them, each `index` relative to
/// the packet's first item (the length tag that started it removed).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Packet<T> {
    pub items: Vec<T>,
    pub tags: Vec<Tag>,
}

impl<T> Packet<T> {
    /// The tags on item `i` (relative), in arrival order.
    pub fn tags_on(&self, i: u64) -> impl Iterator<Item = &Tag> {
        self.tags.iter().filter(move |t| t.index == i)
    }

    /// The tags on items `range` (relative), in arrival order.
    pub fn tags_in(&self, range: std::ops::Range<u64>) -> impl Iterator<Item = &Tag> {
        self.tags.iter().filter(move |t| range.contains(&t.index))
    }
}

/// What the gatherer is doing with the items it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Looking for a length tag; items meanwhile are dropped.
    Seeking,
    /// Gathering a packet: this many items still missing.
    Gathering(usize),
    /// Dropping a packet too large to keep: this many items still to go.
    Skipping(usize),
}

/// Reads packets off a tagged stream whose length tags (`key`) count
/// GNU Radio items of `vlen` stream items each.
pub(crate) struct Gather<T> {
    key: String,
    vlen: usize,
    /// Packets of this many items, whatever the tags say.
    fixed: Option<usize>,
    state: State,
    packet: Packet<T>,
    /// The input's tags as last read (boxed: blocks keep a gatherer in
    /// an enum beside a variant of nothing).
    cache: Box<TagCache>,
}

/// The tags of an input's window, and the end of the window they were
/// read for: read again only when the window grows (reading them clones
/// every tag in it, which a window of many frames makes costly to do for
/// each packet).
#[derive(Default)]
struct TagCache {
    tags: Vec<Tag>,
    end: Option<u64>,
}

/// The length a tag value gives, as GNU Radio's `pmt::to_long` reads it.
pub(crate) fn length_of(value: &Pmt) -> Option<u64> {
    match *value {
        Pmt::U64(v) => Some(v),
        Pmt::I64(v) => u64::try_from(v).ok(),
        _ => None,
    }
}

impl<T: Item> Gather<T> {
    /// A gatherer for length tags `key` counting vectors of `vlen` items.
    pub fn new(key: &str, vlen: usize) -> Self {
        Self {
            key: key.to_string(),
            vlen: vlen.max(1),
            fixed: None,
            state: State::Seeking,
            packet: Packet {
                items: Vec::new(),
                tags: Vec::new(),
            },
            cache: Box::default(),
        }
    }

    /// A gatherer of packets of `items` items each, one after another,
    /// with every tag on them (length tags too).
    pub fn fixed(items: usize) -> Self {
        Self {
            fixed: Some(items.clamp(1, MAX_PACKET_ITEMS)),
            ..Self::new("", 1)
        }
    }

    /// The length key.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Takes back a packet [`next`](Self::next) returned, to gather the
    /// next one into its memory.
    pub fn recycle(&mut self, mut packet: Packet<T>) {
        if self.packet.items.is_empty() && self.packet.tags.is_empty() {
            packet.items.clear();
            packet.tags.clear();
            self.packet = packet;
        }
    }

    /// Reads `input` until a packet is complete and returns it (the items
    /// after it stay unread), or consumes all it holds and returns `None`.
    pub fn next(&mut self, input: &mut StreamInput<T>) -> Option<Packet<T>> {
        loop {
            let start = input.position();
            let available = input.slice().len();
            if available == 0 {
                return None;
            }
            let end = start + available as u64;
            if self.cache.end != Some(end) {
                // Tags on items already consumed are skipped below.
                self.cache.tags = input.tags();
                self.cache.end = Some(end);
            }
            let tags = &self.cache.tags;
            match self.state {
                State::Seeking if self.fixed.is_some() => {
                    self.state = State::Gathering(self.fixed.unwrap_or(1));
                }
                State::Seeking => {
                    // The first item with a length tag starts a packet;
                    // GNU Radio takes the last of several on one item.
                    let first = tags
                        .iter()
                        .filter(|t| t.key == self.key && t.index >= start)
                        .map(|t| t.index)
                        .min();
                    let Some(at) = first.filter(|&i| i < start + available as u64) else {
                        input.consume(available);
                        return None;
                    };
                    let len = tags
                        .iter()
                        .filter(|t| t.index == at && t.key == self.key)
                        .filter_map(|t| length_of(&t.value))
                        .next_back();
                    input.consume((at - start) as usize);
                    let items = len
                        .and_then(|l| usize::try_from(l).ok())
                        .and_then(|l| l.checked_mul(self.vlen));
                    self.state = match items {
                        Some(n) if n > 0 && n <= MAX_PACKET_ITEMS => {
                            self.packet.items.reserve(n.min(1 << 16));
                            State::Gathering(n)
                        }
                        // Zero, too long, or no number: dropped, but its
                        // item must not start a packet again.
                        Some(0) | None => {
                            input.consume(1);
                            State::Seeking
                        }
                        Some(n) => State::Skipping(n),
                    };
                }
                State::Skipping(left) => {
                    let n = left.min(available);
                    input.consume(n);
                    self.state = if n == left {
                        State::Seeking
                    } else {
                        State::Skipping(left - n)
                    };
                }
                State::Gathering(left) => {
                    let n = left.min(available);
                    let base = self.packet.items.len() as u64;
                    let first = start - base;
                    self.packet.items.extend_from_slice(&input.slice()[..n]);
                    let end = start + n as u64;
                    self.packet.tags.extend(
                        tags.iter()
                            .filter(|t| t.index >= start && t.index < end)
                            .filter(|t| {
                                self.fixed.is_some() || !(t.index == first && t.key == self.key)
                            })
                            .map(|t| Tag {
                                index: t.index - first,
                                ..t.clone()
                            }),
                    );
                    input.consume(n);
                    if n == left {
                        self.state = State::Seeking;
                        let done = Packet {
                            items: std::mem::take(&mut self.packet.items),
                            tags: std::mem::take(&mut self.packet.tags),
                        };
                        return Some(done);
                    }
                    self.state = State::Gathering(left - n);
                }
            }
        }
    }
}

/// Packets made, waiting for output room: items, tags (relative to the
/// packet's first item) and how many items went out.
pub(crate) struct Outbox<T> {
    queue: VecDeque<(Vec<T>, Vec<Tag>, usize)>,
    /// Item vectors written out, kept (empty) to make the next packets in.
    spare: Vec<Vec<T>>,
}

/// The most item vectors an [`Outbox`] keeps for reuse.
const SPARE: usize = 4;

impl<T: Item> Outbox<T> {
    /// Nothing waiting.
    pub fn new() -> Self {
        Self {
            queue: VecDeque::new(),
            spare: Vec::new(),
        }
    }

    /// An empty vector to make a packet's items in (the memory of one
    /// written out before, when there is one).
    pub fn spare(&mut self) -> Vec<T> {
        self.spare.pop().unwrap_or_default()
    }

    /// Queues a packet.
    pub fn push(&mut self, items: Vec<T>, tags: Vec<Tag>) {
        if !items.is_empty() {
            self.queue.push_back((items, tags, 0));
        }
    }

    /// Writes what `output` has room for, tags included; true when
    /// nothing waits any more.
    pub fn drain(&mut self, output: &mut StreamOutput<T>) -> bool {
        while let Some((items, tags, sent)) = self.queue.front_mut() {
            let o = output.slice();
            let n = o.len().min(items.len() - *sent);
            if n == 0 {
                return false;
            }
            rfgraph::copy_items(&mut o[..n], &items[*sent..*sent + n]);
            // Tags past the packet's end (GNU Radio's offsets may point
            // there) go out with its last items, at their place.
            let end = if *sent + n == items.len() {
                u64::MAX
            } else {
                (*sent + n) as u64
            };
            let range = *sent as u64..end;
            for t in tags.iter().filter(|t| range.contains(&t.index)) {
                let offset = usize::try_from(t.index - range.start).unwrap_or(usize::MAX);
                output.add_tag(offset, &t.key, t.value.clone());
            }
            output.produce(n);
            *sent += n;
            if *sent == items.len()
                && let Some((mut items, _, _)) = self.queue.pop_front()
                && self.spare.len() < SPARE
            {
                items.clear();
                self.spare.push(items);
            }
        }
        true
    }
}

/// One `work` call of a block that turns whole packets into whole
/// packets: writes what waits, then reads packets from `input` and queues
/// what `frame` makes of each (given the length key and an empty vector
/// it may make its items in; `None` drops the packet) while `output`
/// keeps up. Reports the packets still waiting to
/// `io` as in flight.
pub(crate) fn work_frames<I: Item, O: Item>(
    gather: &mut Gather<I>,
    outbox: &mut Outbox<O>,
    input: &mut StreamInput<I>,
    output: &mut StreamOutput<O>,
    io: &mut WorkIo,
    mut frame: impl FnMut(&Packet<I>, &str, Vec<O>) -> Option<(Vec<O>, Vec<Tag>)>,
) {
    loop {
        if !outbox.drain(output) {
            io.in_flight();
            return;
        }
        let Some(packet) = gather.next(input) else {
            return;
        };
        if let Some((items, tags)) = frame(&packet, gather.key(), outbox.spare()) {
            outbox.push(items, tags);
        }
        gather.recycle(packet);
    }
}

impl<T: Item> Default for Outbox<T> {
    fn default() -> Self {
        Self::new()
    }
}
