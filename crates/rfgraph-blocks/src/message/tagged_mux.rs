//! [`TaggedStreamMux`]: one packet of every tagged input stream joined
//! into one packet (GNU Radio's `tagged_stream_mux`), and
//! [`multiply_length_spec`]'s block scaling length tags
//! (`tagged_stream_multiply_length`). With their registry entries.

use crate::stream::{any_item, pass_through};
use crate::wav::ports::channel_port;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, Item, Pmt, Ports, Setting, Settings, StreamInput, StreamOutput, Tag,
    TagPolicy, WorkIo,
};
use std::collections::VecDeque;

/// One input's packet being gathered: items and tags (offsets relative
/// to the packet's start); `left` items still missing.
struct Gather<T> {
    left: Option<usize>,
    items: Vec<T>,
    tags: Vec<Tag>,
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
/// # Usage
/// ```
/// use rfgraph_blocks::message::TaggedStreamMux;
/// let mux = TaggedStreamMux::<u8>::new(2, "packet_len", 0)?;
/// # let _ = mux;
/// # Ok::<(), String>(())
/// ```
pub struct TaggedStreamMux<T: Item> {
    inputs: Vec<StreamInput<T>>,
    output: StreamOutput<T>,
    key: String,
    preserve_head: usize,
    gather: Vec<Gather<T>>,
    /// Joined packets not yet written: items, tags, items written.
    ready: VecDeque<(Vec<T>, Vec<Tag>, usize)>,
}

impl<T: Item> TaggedStreamMux<T> {
    /// Joins packets of `inputs` streams tagged `key`.
    ///
    /// Errors: no inputs.
    pub fn new(
        inputs: usize,
        key: impl Into<String>,
        preserve_head: usize,
    ) -> Result<Self, String> {
        if inputs == 0 {
            return Err("needs at least one input".into());
        }
        Ok(Self {
            inputs: (0..inputs)
                .map(|i| StreamInput::new(channel_port("in", i)))
                .collect(),
            output: StreamOutput::new("out"),
            key: key.into(),
            preserve_head,
            gather: (0..inputs)
                .map(|_| Gather {
                    left: None,
                    items: Vec::new(),
                    tags: Vec::new(),
                })
                .collect(),
            ready: VecDeque::new(),
        })
    }

    /// Reads input `k` into its gatherer, up to the end of its packet.
    fn read(&mut self, k: usize) {
        let input = &mut self.inputs[k];
        let g = &mut self.gather[k];
        let start = input.position();
        let len = input.slice().len();
        let mut tags = input.tags();
        tags.sort_by_key(|t| t.index);
        let mut at = 0;
        while at < len && g.left != Some(0) {
            let pos = start + at as u64;
            if g.left.is_none() {
                let next = tags
                    .iter()
                    .find(|t| t.index >= pos && t.key == self.key && t.value.as_u64().is_some());
                match next {
                    Some(t) if t.index == pos => {
                        g.left = t.value.as_u64().map(|l| l as usize);
                    }
                    Some(t) => {
                        at = (t.index - start) as usize;
                        continue;
                    }
                    None => {
                        at = len;
                        break;
                    }
                }
            }
            let left = g.left.unwrap_or(0);
            let n = left.min(len - at);
            let base = g.items.len() as u64;
            g.items.extend_from_slice(&input.slice()[at..at + n]);
            for t in &tags {
                if t.index >= pos && t.index < pos + n as u64 && t.key != self.key {
                    g.tags.push(Tag {
                        index: base + t.index - pos,
                        ..t.clone()
                    });
                }
            }
            g.left = Some(left - n);
            at += n;
        }
        input.consume(at);
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

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        // Gather only while nothing waits for room: memory stays bounded.
        if self.ready.is_empty() {
            for k in 0..self.inputs.len() {
                self.read(k);
            }
            if self.gather.iter().all(|g| g.left == Some(0)) {
                let mut items = Vec::new();
                let mut tags = Vec::new();
                for (k, g) in self.gather.iter_mut().enumerate() {
                    let base = items.len() as u64;
                    for t in g.tags.drain(..) {
                        let index = if k == self.preserve_head && t.index == 0 {
                            0
                        } else {
                            base + t.index
                        };
                        tags.push(Tag { index, ..t });
                    }
                    items.append(&mut g.items);
                    g.left = None;
                }
                tags.insert(
                    0,
                    Tag::new(0, self.key.clone(), Pmt::U64(items.len() as u64)),
                );
                if !items.is_empty() {
                    self.ready.push_back((items, tags, 0));
                }
            }
        }
        let o = self.output.slice();
        let mut written = 0;
        let mut out_tags = Vec::new();
        while let Some((items, tags, done)) = self.ready.front_mut() {
            let n = (items.len() - *done).min(o.len() - written);
            if n == 0 {
                break;
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
                self.ready.pop_front();
            }
        }
        for (offset, key, value) in out_tags {
            self.output.add_tag(offset, &key, value);
        }
        self.output.produce(written);
        Ok(())
    }
}

/// Passes a stream and multiplies the value of every length tag by a
/// settable `scalar` (truncated to an integer, as GNU Radio does).
struct MultiplyLength<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    key: String,
    scalar: f64,
    settings: Settings<Self>,
}

impl<T: Item> Block for MultiplyLength<T> {
    fn ports(&mut self) -> Ports<'_> {
        self.settings
            .message_inputs(Ports::new().input(&mut self.input).output(&mut self.output))
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
        let (length_key, scalar) = (&self.key, self.scalar);
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
    BlockSpec::new(
        "tagged_stream_mux",
        "Packet Operators",
        "Joins one packet of every tagged input into one packet.",
        |p: &Params| {
            let (n, key, head) = (p.usize("inputs")?, p.string("len_tag_key")?, p.usize("preserve_head")?);
            any_item!(p, T => TaggedStreamMux::<T>::new(n, key, head).map_err(|e| p.refused(e))?)
        },
    )
    .doc("The joined packet holds the packets of `in0`, `in1`, … in that order, with a length tag of their total; their other tags keep their place (those on the first item of input `preserve_head` go to the joined packet's first item).")
    .param(ParamSpec::item_type(&ItemKind::ALL))
    .param(ParamSpec::uint("inputs").default(2u64).doc("number of inputs"))
    .param(ParamSpec::string("len_tag_key").default("packet_len").doc("the key of the length tags"))
    .param(ParamSpec::uint("preserve_head").default(0u64).doc("the input whose head tags stay at the head"))
    .input(PortSpec::new("in", PortItem::OfType).repeated("inputs"))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `tagged_stream_multiply_length`: GNU Radio's `blocks_tagged_stream_multiply_length`.
pub(crate) fn multiply_length_spec() -> BlockSpec {
    BlockSpec::new(
        "tagged_stream_multiply_length",
        "Packet Operators",
        "Multiplies the length tags of a stream by a settable scalar.",
        |p: &Params| {
            let (key, scalar) = (p.string("len_tag_key")?, p.f64("scalar")?);
            any_item!(p, T => MultiplyLength::<T> {
                input: StreamInput::new("in"),
                output: StreamOutput::new("out"),
                key,
                scalar,
                settings: Settings::new().with(
                    Setting::new("scalar", |b: &mut MultiplyLength<T>, s: f64| b.scalar = s)
                        .doc("the factor"),
                ),
            })
        },
    )
    .doc("Items pass unchanged; each length tag's value becomes `value · scalar`, truncated to an integer.")
    .param(ParamSpec::item_type(&ItemKind::ALL))
    .param(ParamSpec::string("len_tag_key").default("packet_len").doc("the key of the length tags"))
    .param(ParamSpec::float("scalar").default(1.0).settable().doc("the factor"))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
