//! [`TagsToPdu`]: PDUs of the items between a start-of-burst and an
//! end-of-burst tag, stamped with their time (GNU Radio's
//! `pdu_tags_to_pdu_x`), with its registry entry.

use super::pdu::{PduItem, pdu};
use num_complex::Complex32;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, MessageOutput, ParamError, ParamSet, Pmt, Ports, StreamInput, Tag, TagPolicy,
    WorkIo,
};
use std::collections::BTreeMap;

/// The parameters of [`TagsToPdu`] (`tags_to_pdu`). All but the item type
/// and `pub_det` may change while it runs.
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct TagsToPduParams {
    /// stream item type
    #[param(name = "type", kinds(C32, F32, U8))]
    pub item: ItemKind,
    /// the key of the tags that start a burst
    #[param(default = "SOB", max_len = 4096, settable)]
    pub start_tag: String,
    /// the key of the tags that end a burst (their item not included)
    #[param(default = "EOB", max_len = 4096, settable)]
    pub end_tag: String,
    /// the most items of a PDU: a longer burst is cut there and sent
    #[param(default = 1024, min = 1, max = limits::MAX_ELEMENTS, unit = "items", settable)]
    pub max_pdu_size: u64,
    /// items per second, for the bursts' times
    #[param(default = 1.0, above = 0.0, unit = "Hz", alias = "rate", settable)]
    pub samp_rate: f64,
    /// items put before each burst's own (real numbers, or `[re, im]`
    /// pairs for complex items)
    #[param(default = Vec::new(), max_len = limits::MAX_ELEMENTS, settable)]
    pub prepend: Vec<Complex32>,
    /// post each burst's start item index on `detects`
    #[param(default = false, alias = "pub_det")]
    pub pub_start_msg: bool,
    /// a burst of no more items than this is not sent
    #[param(default = 0, max = u32::MAX as u64, unit = "items", settable)]
    pub tail_size: u64,
    /// the time of item 0, in seconds (until an `rx_time` tag)
    #[param(default = 0.0, min = 0.0, unit = "s")]
    pub start_time: f64,
    /// pad an ended burst with zeros to `eob_offset` plus a multiple of
    /// this
    #[param(default = 1, min = 1, max = u32::MAX as u64, settable)]
    pub eob_alignment: u64,
    /// see `eob_alignment`
    #[param(default = 0, max = u32::MAX as u64, settable)]
    pub eob_offset: u64,
    /// add the wall-clock time of sending (`sys_time`) to each PDU's
    /// metadata (GNU Radio's `enable_time_debug`)
    #[param(default = false, alias = "boost_time")]
    pub time_debug: bool,
}

/// An item type this block sends: `u8`, `f32` or `Complex32`, with the
/// prepended items given as numbers.
pub trait TagsPduItem: PduItem {
    /// A prepend entry as an item (real types take the real part; bytes
    /// saturate).
    fn from_number(x: Complex32) -> Self;
}

impl TagsPduItem for u8 {
    fn from_number(x: Complex32) -> Self {
        x.re as u8
    }
}

impl TagsPduItem for f32 {
    fn from_number(x: Complex32) -> Self {
        x.re
    }
}

impl TagsPduItem for Complex32 {
    fn from_number(x: Complex32) -> Self {
        x
    }
}

/// Gathers bursts of a stream into PDUs, as GNU Radio's `tags_to_pdu`: a
/// `start_tag` tag starts a burst at its item (after the `prepend`
/// items), an `end_tag` tag ends it before its item, padded with zeros
/// to `eob_offset` plus a multiple of `eob_alignment` items; a burst
/// reaching `max_pdu_size` items is cut there and sent. A PDU's metadata
/// is `rx_time` (a tuple of uint64 seconds and double fraction: the time
/// of the start item, from the last `rx_time` tag or `start_time`, and
/// `samp_rate`), `sample_rate`, `pdu_num` (counting bursts, the dropped
/// ones too) and, with `time_debug`, `sys_time`. A burst of no more than
/// `tail_size` items is not sent; a start tag inside a burst drops the
/// burst and starts anew.
///
/// The item windows follow GNU Radio's calls: each ends at the first
/// start or end tag, and an `rx_time` tag after it in the same window
/// counts only from the next. A `conf` message (a dict with
/// `eob_offset` and/or `eob_alignment`) sets those two, as GNU Radio's.
/// GNU Radio's `int` and `short` variants are not offered.
///
/// # Parameters
/// [`TagsToPduParams`].
///
/// # Stream Inputs
/// - `in`: `T` (`u8`, `f32` or `Complex32`).
///
/// # Message Inputs
/// - `conf`: a dict of `eob_offset`, `eob_alignment`.
///
/// # Message Outputs
/// - `pdus`: the bursts.
/// - `detects`: each burst's start item index (`u64`), with
///   `pub_start_msg`.
///
/// # Usage
/// ```
/// use rfgraph_blocks::message::{TagsToPdu, TagsToPduParams};
/// let to_pdu = TagsToPdu::<f32>::new(TagsToPduParams {
///     samp_rate: 1e6,
///     ..Default::default()
/// })?;
/// # let _ = to_pdu;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct TagsToPdu<T: TagsPduItem> {
    input: StreamInput<T>,
    pdus: MessageOutput,
    detects: MessageOutput,
    params: TagsToPduParams,
    triggered: bool,
    bursts: u64,
    sob_offset: u64,
    /// The known time: whole and fractional seconds at an item.
    known: (u64, f64, u64),
    meta: BTreeMap<String, Pmt>,
    items: Vec<T>,
}

enum Found {
    Start(u64),
    End(u64),
}

impl<T: TagsPduItem> TagsToPdu<T> {
    /// The block `params` describe (the item type is `T`'s).
    ///
    /// Errors: a parameter out of its range.
    pub fn new(params: TagsToPduParams) -> Result<Self, ParamError> {
        params.validate()?;
        let sec = params.start_time as u64;
        let known = (sec, params.start_time - sec as f64, 0);
        Ok(Self {
            input: StreamInput::new("in"),
            pdus: MessageOutput::new("pdus"),
            detects: MessageOutput::new("detects"),
            params,
            triggered: false,
            bursts: 0,
            sob_offset: 0,
            known,
            meta: BTreeMap::new(),
            items: Vec::new(),
        })
    }

    /// GNU Radio's `publish_message`.
    fn publish(&mut self) {
        let (secs, frac, at) = self.known;
        let mut delta =
            (self.sob_offset as i64).wrapping_sub(at as i64) as f64 / self.params.samp_rate;
        let whole = delta as i32;
        delta -= f64::from(whole);
        let mut int_seconds = secs.wrapping_add_signed(i64::from(whole));
        let mut frac_seconds = frac + delta;
        if frac_seconds >= 1.0 {
            frac_seconds -= 1.0;
            int_seconds = int_seconds.wrapping_add(1);
        }
        let time = Pmt::Tuple(vec![Pmt::U64(int_seconds), Pmt::F64(frac_seconds)]);
        self.meta.insert("rx_time".into(), time);
        self.meta
            .insert("sample_rate".into(), Pmt::F64(self.params.samp_rate));
        self.meta.insert("pdu_num".into(), Pmt::U64(self.bursts));
        if self.params.time_debug {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0.0, |d| d.as_secs_f64());
            self.meta.insert("sys_time".into(), Pmt::F64(now));
        }
        let items = std::mem::take(&mut self.items);
        if items.len() as u64 > self.params.tail_size {
            self.pdus.post(pdu(self.meta.clone(), T::to_data(items)));
        }
        self.bursts += 1;
        self.triggered = false;
    }

    /// GNU Radio's `work` on the first `n` items of the input (with their
    /// `tags`): the items it consumes.
    fn step(&mut self, n: usize, tags: &[Tag]) -> Result<usize, BoxError> {
        let start = self.input.position();
        let end = start + n as u64;
        let mut consumed = n;
        let mut found = None;
        for t in tags.iter().filter(|t| t.index >= start && t.index < end) {
            if t.key == self.params.start_tag {
                found = Some(Found::Start(t.index));
                consumed = (t.index - start + 1) as usize;
                break;
            } else if t.key == self.params.end_tag {
                found = Some(Found::End(t.index));
                consumed = (t.index - start + 1) as usize;
                break;
            } else if t.key == "rx_time" {
                let time = match &t.value {
                    Pmt::Tuple(v) | Pmt::List(v) if v.len() == 2 => {
                        v[0].as_u64().zip(v[1].as_f64())
                    }
                    _ => None,
                };
                let (secs, frac) = time.ok_or_else(|| {
                    format!("tags_to_pdu: an `rx_time` of {:?} is no time", t.value)
                })?;
                self.known = (secs, frac, t.index);
            }
        }
        let input = &self.input.slice()[..n];
        if self.triggered {
            let size = self.items.len() as u64;
            let last = self
                .params
                .max_pdu_size
                .wrapping_sub(size)
                .wrapping_add(start)
                .wrapping_sub(1);
            match found {
                Some(Found::End(at)) if at <= last => {
                    self.items.extend_from_slice(&input[..consumed - 1]);
                    let len = self.items.len() as u64;
                    let align = self.params.eob_alignment;
                    let needed = len.wrapping_sub(self.params.eob_offset) % align;
                    if needed != 0 {
                        let pad = (align - needed) as usize;
                        self.items.extend(std::iter::repeat_n(T::zeroed(), pad));
                    }
                    self.publish();
                }
                Some(Found::Start(at)) if at <= last => {
                    // A start inside a burst: the burst is dropped, and
                    // the start item handled by the next call.
                    self.bursts += 1;
                    self.triggered = false;
                    self.items.clear();
                    consumed -= 1;
                }
                _ => {
                    consumed -= 1;
                    self.items.extend_from_slice(&input[..consumed]);
                    let max = self.params.max_pdu_size as usize;
                    if self.items.len() >= max {
                        self.items.truncate(max);
                        self.publish();
                    }
                }
            }
        } else if let Some(Found::Start(at)) = found {
            self.sob_offset = at;
            self.items
                .extend(self.params.prepend.iter().map(|&x| T::from_number(x)));
            self.items.push(input[consumed - 1]);
            self.triggered = true;
            if self.params.pub_start_msg {
                self.detects.post(Pmt::U64(at));
            }
        }
        Ok(consumed)
    }
}

impl<T: TagsPduItem> Block for TagsToPdu<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .message_input("conf")
            .message_output(&mut self.pdus)
            .message_output(&mut self.detects)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    /// `conf`: a dict of `eob_offset` and/or `eob_alignment` (an
    /// alignment of 0 is ignored); anything else is ignored, as in GNU
    /// Radio.
    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        if let Pmt::Map(m) = &msg {
            if let Some(v) = m.get("eob_offset").and_then(Pmt::as_u64) {
                self.params.eob_offset = v & u64::from(u32::MAX);
            }
            if let Some(v) = m.get("eob_alignment").and_then(Pmt::as_u64) {
                let v = v & u64::from(u32::MAX);
                if v > 0 {
                    self.params.eob_alignment = v;
                }
            }
        }
        Ok(Pmt::Null)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        loop {
            let n = self.input.slice().len();
            if n == 0 {
                return Ok(());
            }
            let tags = self.input.tags();
            let consumed = self.step(n, &tags)?;
            self.input.consume(consumed);
            if consumed == 0 {
                return Ok(());
            }
        }
    }
}

/// `tags_to_pdu`: GNU Radio's `pdu_tags_to_pdu_x`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<TagsToPduParams>(
        "tags_to_pdu",
        "Packet Operators",
        "PDUs of the items between start and end tags, stamped with their time.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { U8 => u8, F32 => f32, C32 => Complex32 } as T
                => TagsToPdu::<T>::new(p)?)
        },
    )
    .doc(
        "GNU Radio's `pdu_tags_to_pdu_x` (`b`, `f`, `c`): a `start_tag` tag starts a burst at \
         its item (after `prepend`), an `end_tag` tag ends it before its item, zero-padded to \
         `eob_offset` plus a multiple of `eob_alignment`; a burst reaching `max_pdu_size` \
         is cut and sent. Metadata: `rx_time` of the start item (from the last `rx_time` \
         tag or `start_time`, and `samp_rate`), `sample_rate`, `pdu_num`, and with \
         `time_debug` `sys_time`. Bursts of at most `tail_size` items are not sent. \
         `pub_start_msg` posts each start item's index on `detects`; `conf` takes a dict \
         of `eob_offset`/`eob_alignment`.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .message_input("conf")
    .message_output("pdus")
    .message_output("detects")
}
