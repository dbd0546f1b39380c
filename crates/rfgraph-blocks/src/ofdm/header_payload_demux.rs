//! `header_payload_demux`: bursts cut into a header, passed on to be
//! demodulated, and a payload whose length the header's demodulator
//! sends back as a message (GNU Radio's `digital_header_payload_demux`).

use super::packets::{MAX_PACKET_ITEMS, Outbox, length_of};
use rfgraph::params::{ItemKind, ParamType, ParamValue, PmtTypeError, describe, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, Item, ParamError, ParamSet, Pmt, Ports, StreamInput, StreamOutput, Tag,
    TagPolicy, WorkIo,
};
use std::time::{Duration, Instant};

/// Tag keys, as a list of strings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagKeys(pub Vec<String>);

impl ParamValue for TagKeys {
    const TYPE: ParamType = ParamType::Any;

    fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
        let bad = |p: &Pmt| PmtTypeError {
            param: None,
            expected: ParamType::Any,
            found: format!("{} (expected a list of tag keys)", describe(p)),
        };
        match &pmt {
            Pmt::Null => Ok(Self::default()),
            Pmt::VecF32(v) if v.is_empty() => Ok(Self::default()),
            Pmt::List(keys) | Pmt::Tuple(keys) if keys.len() <= limits::MAX_PORTS => keys
                .iter()
                .map(|k| k.as_str().map(str::to_string).ok_or_else(|| bad(&pmt)))
                .collect::<Result<_, _>>()
                .map(Self),
            other => Err(bad(other)),
        }
    }

    fn to_pmt(&self) -> Pmt {
        Pmt::List(self.0.iter().map(|k| Pmt::from(k.as_str())).collect())
    }
}

/// The parameters of `header_payload_demux` (GNU Radio's
/// `digital_header_payload_demux`); the defaults are those
/// `ofdm_txrx.py`'s receiver uses.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct HeaderPayloadDemuxParams {
    /// stream item type
    #[param(name = "type", kinds(C32, F32, I32, I16, U8))]
    pub item: ItemKind,
    /// header length in symbols
    #[param(default = 3, min = 1, max = limits::MAX_ELEMENTS)]
    pub header_len: usize,
    /// items before and after the header passed on with it (the
    /// uncertainty of the trigger)
    #[param(default = 0, max = limits::MAX_ELEMENTS)]
    pub header_padding: usize,
    /// items per symbol (guard interval not counted)
    #[param(default = 64, min = 1, max = limits::MAX_FFT)]
    pub items_per_symbol: usize,
    /// items of guard interval before every symbol, dropped
    #[param(default = 16, max = limits::MAX_FFT)]
    pub guard_interval: usize,
    /// the key of the payload's length tag and of the length in the
    /// header's message
    #[param(default = "frame_length")]
    pub length_tag_key: String,
    /// the key of the tags that mark a burst's start; empty: only the
    /// `trigger` input does
    #[param(default = "")]
    pub trigger_tag_key: String,
    /// GNU Radio writes symbols (vectors of `items_per_symbol`); here the
    /// items are the same, only the tags land on symbol starts
    #[param(default = true)]
    pub output_symbols: bool,
    /// the key of the time tags (`(seconds, fraction)`) whose time the
    /// header gets, moved to its start; empty: none
    #[param(default = "")]
    pub timing_tag_key: String,
    /// sample rate, to move the time tags
    #[param(default = 1.0, above = 0.0, unit = "Hz")]
    pub samp_rate: f64,
    /// tag keys whose last value before a header is tagged on it
    #[param(default = TagKeys::default())]
    pub special_tags: TagKeys,
}

impl HeaderPayloadDemuxParams {
    fn error(param: &'static str, why: String) -> ParamError {
        ParamError::new("header_payload_demux", param, why)
    }

    fn symbol(&self) -> usize {
        self.items_per_symbol + self.guard_interval
    }

    /// Input items a header needs at once (padding on both sides).
    fn header_in(&self) -> Option<usize> {
        let pad_symbols = self.header_padding / self.items_per_symbol;
        let pad_items = self.header_padding % self.items_per_symbol;
        let checked = self
            .header_len
            .checked_mul(self.symbol())?
            .checked_add(self.header_padding.checked_mul(2)?)?;
        let read = (self.header_len + 2 * pad_symbols)
            .checked_mul(self.symbol())?
            .checked_add(2 * pad_items)?;
        Some(checked.max(read))
    }

    fn check(&self) -> Result<(), ParamError> {
        if (self.output_symbols || self.guard_interval > 0)
            && !self.header_padding.is_multiple_of(self.items_per_symbol)
        {
            return Err(Self::error(
                "header_padding",
                "must be a multiple of items_per_symbol with output_symbols or a guard interval"
                    .into(),
            ));
        }
        match self.header_in() {
            Some(n) if n <= MAX_PACKET_ITEMS => Ok(()),
            _ => Err(Self::error(
                "header_len",
                format!("headers of more than {MAX_PACKET_ITEMS} items"),
            )),
        }
    }
}

/// GNU Radio's states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    FindTrigger,
    Header,
    WaitForMsg,
    HeaderRxSuccess,
    HeaderRxFail,
    Payload,
}

/// GNU Radio's `copy_n_symbols`: `symbols` symbols of `input` (each
/// `items_per_symbol` items after its guard interval) and `extra` items
/// more, with the tags on them (relative indices; the trigger tags left
/// out) where GNU Radio puts them.
fn symbols_of<T: Item>(
    p: &HeaderPayloadDemuxParams,
    input: &[T],
    tags: &[Tag],
    symbols: usize,
    extra: usize,
) -> (Vec<T>, Vec<Tag>) {
    let (ips, gi) = (p.items_per_symbol, p.guard_interval);
    let sym = ips + gi;
    let items = if gi > 0 {
        (0..symbols)
            .flat_map(|s| input[s * sym + gi..s * sym + gi + ips].iter().copied())
            .collect()
    } else {
        input[..symbols * ips + extra].to_vec()
    };
    let end = (symbols * sym + extra) as u64;
    let moved = tags
        .iter()
        .filter(|t| t.index < end && t.key != p.trigger_tag_key)
        .map(|t| {
            let rel = t.index as usize;
            let at = if p.output_symbols {
                rel / sym * ips
            } else if gi > 0 {
                rel / sym + (rel % sym).saturating_sub(gi)
            } else {
                rel
            };
            Tag {
                index: at as u64,
                ..t.clone()
            }
        })
        .collect();
    (items, moved)
}

/// Splits bursts into header and payload (GNU Radio's
/// `digital_header_payload_demux`, value for value): from a trigger (a
/// non-zero item on `trigger`, or a `trigger_tag_key` tag) the next
/// `header_len` symbols (`items_per_symbol` items after a guard interval
/// of `guard_interval` items each, padded by `header_padding` items on
/// both sides) go to `out_hdr`; then the block waits for a message on
/// `header_data`: a length (an integer) or a map with the key
/// `length_tag_key` (and optionally `payload_offset`, which moves the
/// payload by that many items within the padding), whose entries become
/// tags on the payload's first item. That many symbols after the header
/// go to `out_payload`; `false`, null or anything else drops the burst
/// (the search for a trigger goes on one item later). Tags move with
/// their items as GNU Radio moves them (trigger tags excepted); the
/// header also gets the last value of each `special_tags` key seen
/// before it, and the time of its first item from the last
/// `timing_tag_key` tag.
///
/// A header waits for its message; once the input has ended, at most
/// [`MESSAGE_GRACE`] (GNU Radio's block ends with its input, losing the
/// last burst if the message comes late).
///
/// GNU Radio needs a payload whole in its buffer and drops one longer
/// than half of it; here a payload is gathered in the block, and one of
/// more than [`MAX_PACKET_ITEMS`](super::MAX_PACKET_ITEMS) items is
/// dropped, as is a payload of length 0 (which GNU Radio cannot handle).
///
/// # Parameters
/// [`HeaderPayloadDemuxParams`].
///
/// # Stream Inputs
/// - `in`: `T`, the samples.
/// - `trigger` (optional): `u8`, non-zero where a burst starts.
///
/// # Stream Outputs
/// - `out_hdr`: `T`, the headers.
/// - `out_payload`: `T`, the payloads.
///
/// # Message Inputs
/// - `header_data`: the payload length of the last header, or its
///   failure.
///
/// # Usage
/// ```
/// use num_complex::Complex32;
/// use rfgraph_blocks::ofdm::{HeaderPayloadDemux, HeaderPayloadDemuxParams};
/// // ofdm_txrx.py's receiver: two sync symbols and one header symbol.
/// let hpd = HeaderPayloadDemux::<Complex32>::new(HeaderPayloadDemuxParams::default())?;
/// # let _ = hpd;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct HeaderPayloadDemux<T: Item> {
    input: StreamInput<T>,
    trigger: StreamInput<u8>,
    header: StreamOutput<T>,
    payload: StreamOutput<T>,
    params: HeaderPayloadDemuxParams,
    state: State,
    payload_len: usize,
    payload_offset: i64,
    payload_tags: Vec<(String, Pmt)>,
    /// The payload gathered so far, with its tags (relative indices).
    gathered: Vec<T>,
    gathered_tags: Vec<Tag>,
    headers: Outbox<T>,
    payloads: Outbox<T>,
    /// The last value of each special tag.
    special: Vec<Pmt>,
    /// The last time tag: seconds, fraction, and the item it was on.
    time: (u64, f64, u64),
    /// Since when a header waits for its message.
    waiting_since: Option<Instant>,
}

/// How long a header waits for its message once nothing else is left to
/// do: the input may have ended, and the header's demodulator answers
/// within this time.
pub const MESSAGE_GRACE: Duration = Duration::from_secs(2);

impl<T: Item> HeaderPayloadDemux<T> {
    /// The demultiplexer `params` describe (the item type is `T`'s;
    /// `params.item` is what the registry builds from).
    ///
    /// Errors: padding that is not a multiple of a symbol with symbols
    /// out or a guard interval, or headers too long.
    pub fn new(params: HeaderPayloadDemuxParams) -> Result<Self, ParamError> {
        params.validate()?;
        let header_in = params.header_in().unwrap_or(1);
        Ok(Self {
            input: StreamInput::new("in").with_min_items(header_in),
            trigger: StreamInput::optional("trigger").with_min_items(header_in),
            header: StreamOutput::new("out_hdr"),
            payload: StreamOutput::new("out_payload"),
            special: vec![Pmt::Null; params.special_tags.0.len()],
            params,
            state: State::FindTrigger,
            payload_len: 0,
            payload_offset: 0,
            payload_tags: Vec::new(),
            gathered: Vec::new(),
            gathered_tags: Vec::new(),
            headers: Outbox::new(),
            payloads: Outbox::new(),
            time: (0, 0.0, 0),
            waiting_since: None,
        })
    }

    /// Items readable on every connected input.
    fn available(&mut self) -> usize {
        let n = self.input.slice().len();
        if self.trigger.is_connected() {
            n.min(self.trigger.slice().len())
        } else {
            n
        }
    }

    /// The tags on the first `n` readable items, indices relative to the
    /// input's position, in item order.
    fn tags_ahead(&mut self, n: usize) -> Vec<Tag> {
        let start = self.input.position();
        let _ = self.input.slice();
        let mut tags: Vec<Tag> = self
            .input
            .tags()
            .into_iter()
            .filter(|t| t.index >= start && t.index < start + n as u64)
            .map(|t| Tag {
                index: t.index - start,
                ..t
            })
            .collect();
        tags.sort_by_key(|t| t.index);
        tags
    }

    /// Consumes `n` items of every input, noting the special and time
    /// tags on them (GNU Radio's `update_special_tags`).
    fn consume(&mut self, n: usize) {
        let start = self.input.position();
        for t in self.tags_ahead(n) {
            if !self.params.timing_tag_key.is_empty()
                && t.key == self.params.timing_tag_key
                && let Some((s, f)) = time_of(&t.value)
            {
                self.time = (s, f, start + t.index);
            }
            for (k, key) in self.params.special_tags.0.iter().enumerate() {
                if t.key == *key {
                    self.special[k] = t.value.clone();
                }
            }
        }
        self.input.consume(n);
        if self.trigger.is_connected() {
            self.trigger.consume(n);
        }
    }

    /// The first trigger at or after `skip` among the first `n` items.
    fn find_trigger(&mut self, skip: usize, n: usize) -> Option<usize> {
        let mut found = None;
        if self.trigger.is_connected() {
            found = self.trigger.slice()[skip..n]
                .iter()
                .position(|&t| t != 0)
                .map(|i| i + skip);
        }
        if !self.params.trigger_tag_key.is_empty() {
            let key = self.params.trigger_tag_key.clone();
            let tag = self
                .tags_ahead(n)
                .into_iter()
                .filter(|t| t.key == key && t.index as usize >= skip)
                .map(|t| t.index as usize)
                .next();
            found = match (found, tag) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        found
    }

    /// The time and special tags on a header's first item.
    fn special_tags(&self) -> Vec<Tag> {
        let mut tags = Vec::new();
        if !self.params.timing_tag_key.is_empty() {
            let (secs, frac, at) = self.time;
            let diff = self.input.position().wrapping_sub(at) as f64 / self.params.samp_rate;
            let whole = diff.trunc();
            let value = Pmt::Tuple(vec![
                Pmt::U64(secs.wrapping_add(whole as u64)),
                Pmt::F64(frac + (diff - whole)),
            ]);
            tags.push(Tag::new(0, &self.params.timing_tag_key, value));
        }
        for (key, value) in self.params.special_tags.0.iter().zip(&self.special) {
            tags.push(Tag::new(0, key, value.clone()));
        }
        tags
    }

    /// One step of GNU Radio's state machine; true when it moved.
    fn step(&mut self, io: &mut WorkIo) -> bool {
        let (headers, payloads) = (
            self.headers.drain(&mut self.header),
            self.payloads.drain(&mut self.payload),
        );
        if !headers || !payloads {
            // Items taken wait for room.
            io.in_flight();
            return false;
        }
        let p = &self.params;
        let (ips, sym) = (p.items_per_symbol, p.symbol());
        let (padding, header_len) = (p.header_padding, p.header_len);
        let header_in = p.header_in().unwrap_or(usize::MAX);
        match self.state {
            State::WaitForMsg => {
                // Only the header's message moves on. Should the input
                // end meanwhile, the block waits up to `MESSAGE_GRACE`
                // for it (GNU Radio's ends at once, and loses the burst
                // when the message is late).
                let since = *self.waiting_since.get_or_insert_with(Instant::now);
                if since.elapsed() < MESSAGE_GRACE {
                    io.call_again_at(since + MESSAGE_GRACE);
                }
                false
            }
            State::HeaderRxFail => {
                if self.available() == 0 {
                    return false;
                }
                self.consume(1);
                self.state = State::FindTrigger;
                true
            }
            State::FindTrigger => {
                let n = self.available();
                if n <= padding {
                    return false;
                }
                match self.find_trigger(padding, n) {
                    Some(t) => {
                        self.consume(t - padding);
                        self.state = State::Header;
                    }
                    None => self.consume(n - padding),
                }
                true
            }
            State::Header => {
                let need = header_in;
                if self.available() < need {
                    return false;
                }
                let symbols = header_len + 2 * (padding / ips);
                let extra = 2 * (padding % ips);
                let mut tags = self.special_tags();
                let ahead = self.tags_ahead(need);
                let (items, moved) = symbols_of(
                    &self.params,
                    &self.input.slice()[..need],
                    &ahead,
                    symbols,
                    extra,
                );
                tags.extend(moved);
                self.headers.push(items, tags);
                self.state = State::WaitForMsg;
                true
            }
            State::HeaderRxSuccess => {
                let skip = (header_len * sym + padding) as i64 + self.payload_offset;
                let skip = usize::try_from(skip).unwrap_or(0);
                if self.available() < skip {
                    return false;
                }
                self.consume(skip);
                self.payload_offset = 0;
                self.gathered.clear();
                self.gathered_tags.clear();
                self.state = State::Payload;
                true
            }
            State::Payload => {
                let total = self.payload_len * sym;
                // GNU Radio keeps the last `max(padding, 1)` items for the
                // next search.
                let keep = total.saturating_sub(padding.max(1));
                let have = self.gathered.len();
                let avail = self.available();
                if have < keep {
                    let n = avail.min(keep - have);
                    if n == 0 {
                        return false;
                    }
                    for t in self.tags_ahead(n) {
                        self.gathered_tags.push(Tag {
                            index: t.index + have as u64,
                            ..t
                        });
                    }
                    self.gathered.extend_from_slice(&self.input.slice()[..n]);
                    self.consume(n);
                    return true;
                }
                let rest = total - have;
                if avail < rest {
                    return false;
                }
                for t in self.tags_ahead(rest) {
                    self.gathered_tags.push(Tag {
                        index: t.index + have as u64,
                        ..t
                    });
                }
                self.gathered.extend_from_slice(&self.input.slice()[..rest]);
                let mut tags: Vec<Tag> = self
                    .payload_tags
                    .iter()
                    .map(|(k, v)| Tag::new(0, k, v.clone()))
                    .collect();
                let (items, moved) = symbols_of(
                    &self.params,
                    &self.gathered,
                    &self.gathered_tags,
                    self.payload_len,
                    0,
                );
                tags.extend(moved);
                self.payloads.push(items, tags);
                self.gathered = Vec::new();
                self.gathered_tags.clear();
                self.state = State::FindTrigger;
                true
            }
        }
    }

    /// GNU Radio's `parse_header_data_msg`.
    fn header_data(&mut self, msg: &Pmt) {
        self.waiting_since = None;
        self.payload_tags.clear();
        self.state = State::HeaderRxFail;
        let key = &self.params.length_tag_key;
        let mut len: Option<i64> = None;
        match msg {
            Pmt::I64(_) | Pmt::U64(_) => {
                len = integer(msg);
                self.payload_tags.push((key.clone(), msg.clone()));
            }
            Pmt::Map(entries) => {
                for (k, v) in entries {
                    self.payload_tags.push((k.clone(), v.clone()));
                    if k == key {
                        len = integer(v);
                        if len.is_none() {
                            return;
                        }
                    }
                    if k == "payload_offset" {
                        match integer(v) {
                            Some(o) if o.unsigned_abs() <= self.params.header_padding as u64 => {
                                self.payload_offset = o;
                            }
                            _ => return,
                        }
                    }
                }
            }
            _ => return,
        }
        let Some(len) = len.and_then(|l| usize::try_from(l).ok()) else {
            return;
        };
        if len == 0 || len.saturating_mul(self.params.symbol()) > MAX_PACKET_ITEMS {
            return;
        }
        self.payload_len = len;
        self.state = State::HeaderRxSuccess;
    }
}

/// An integer value, as GNU Radio's `pmt::to_long` reads it.
fn integer(p: &Pmt) -> Option<i64> {
    match *p {
        Pmt::I64(v) => Some(v),
        Pmt::U64(v) => i64::try_from(v).ok(),
        _ => None,
    }
}

/// A time tag's `(seconds, fraction)`.
fn time_of(p: &Pmt) -> Option<(u64, f64)> {
    match p {
        Pmt::Tuple(v) | Pmt::List(v) if v.len() == 2 => Some((length_of(&v[0])?, v[1].as_f64()?)),
        _ => None,
    }
}

impl<T: Item> Block for HeaderPayloadDemux<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .input(&mut self.trigger)
            .message_input("header_data")
            .output(&mut self.header)
            .output(&mut self.payload)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        self.header_data(&msg);
        Ok(Pmt::Null)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        while self.step(io) {}
        Ok(())
    }
}

/// `header_payload_demux`: GNU Radio's `digital_header_payload_demux`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<HeaderPayloadDemuxParams>(
        "header_payload_demux",
        "Packet Operators",
        "Cuts bursts into a header and a payload whose length the header's message gives.",
        |p| crate::spec_util::for_any_item!(kind = p.item, T => HeaderPayloadDemux::<T>::new(p)?),
    )
    .doc(
        "GNU Radio's `digital_header_payload_demux`: from each trigger (a non-zero `trigger` \
         item or a `trigger_tag_key` tag), `header_len` symbols go to `out_hdr`; the message on \
         `header_data` (a length, or a map with `length_tag_key`) then sends that many symbols \
         to `out_payload`, guard intervals removed, the message's entries tagged on the \
         payload's start.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .input(
        PortSpec::new("trigger", PortItem::Fixed(ItemKind::U8))
            .optional()
            .doc("non-zero where a burst starts"),
    )
    .message_input("header_data")
    .output(PortSpec::new("out_hdr", PortItem::OfType))
    .output(PortSpec::new("out_payload", PortItem::OfType))
}
