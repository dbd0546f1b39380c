//! Blocks that add or remove tags, with their registry entries:
//! [`TagGate`] (GNU Radio's `tag_gate`), [`TagsStrobe`] (`tags_strobe`)
//! and [`BurstTagger`] (`burst_tagger`).

use super::tags::pass_through;
use crate::limit::Limit;
use crate::spec_util::{for_any_item, kind_of};
use rfgraph::params::{ItemKind, ParamSet};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, Item, ParamError, Pmt, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};

/// The longest tag key, in characters.
const MAX_KEY: usize = 4096;

/// The parameters of [`TagGate`] (`tag_gate`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct TagGateParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// let every tag through
    #[param(default = false, alias = "propagate_tags", settable)]
    pub propagate: bool,
    /// while not propagating, stop only tags of this key (empty: all)
    #[param(default = "", max_len = MAX_KEY, settable)]
    pub single_key: String,
}

/// Passes items and stops tags: all of them, or only those with key
/// `single_key` when it is set; with `propagate` on, every tag passes.
/// Both may change while it runs, for the items copied after the change.
///
/// # Parameters
/// [`TagGateParams`].
///
/// # Stream Inputs
/// - `in`: `T`.
///
/// # Stream Outputs
/// - `out`: `T`, the same items.
///
/// # Usage
/// ```
/// use rfgraph_blocks::stream::{TagGate, TagGateParams};
/// let gate = TagGate::<f32>::new(TagGateParams::default())?;
/// # let _ = gate;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct TagGate<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    params: TagGateParams,
}

impl<T: Item> TagGate<T> {
    /// The gate `params` describe (the item type is `T`'s).
    ///
    /// Errors: a key longer than 4096 characters.
    pub fn new(mut params: TagGateParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            params,
        })
    }
}

impl<T: Item> Block for TagGate<T> {
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
        let (propagate, single) = (self.params.propagate, &self.params.single_key);
        pass_through(&mut self.input, &mut self.output, |key, value| {
            (propagate || (!single.is_empty() && key != single)).then_some(value)
        });
        Ok(())
    }
}

/// The parameters of [`TagsStrobe`] (`tags_strobe`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct TagsStrobeParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// the tags' value
    #[param(default = Pmt::Null, settable)]
    pub value: Pmt,
    /// items from one tag to the next; a change applies from the last tag
    /// on, as GNU Radio's `set_nsamps`
    #[param(default = 1000, min = 1, unit = "items", alias = "nsamps", settable)]
    pub interval: u64,
    /// the tags' key
    #[param(default = "strobe", max_len = MAX_KEY, settable)]
    pub key: String,
    /// stop after this many items (endless when not set)
    #[param(unit = "items")]
    pub items: Option<u64>,
}

/// Writes zeros with a tag `key = value` every `interval` items (items
/// `interval`, `2·interval`, …, as GNU Radio does), until `items` items
/// (default: never). `value`, `interval` and `key` may change while it
/// runs: the next tag goes `interval` items after the last one.
///
/// # Parameters
/// [`TagsStrobeParams`].
///
/// # Stream Outputs
/// - `out`: `T`, zeros.
///
/// # Usage
/// ```
/// use rfgraph::Pmt;
/// use rfgraph_blocks::stream::{TagsStrobe, TagsStrobeParams};
/// let strobe = TagsStrobe::<f32>::new(TagsStrobeParams {
///     value: Pmt::U64(5),
///     items: Some(10_000),
///     ..Default::default()
/// })?;
/// # let _ = strobe;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct TagsStrobe<T: Item> {
    output: StreamOutput<T>,
    params: TagsStrobeParams,
    /// The index of the last tag (0 before the first; GNU Radio's
    /// `d_offset`).
    last: u64,
    limit: Limit,
}

impl<T: Item> TagsStrobe<T> {
    /// The strobe `params` describe (the item type is `T`'s).
    ///
    /// Errors: an interval of 0, a key longer than 4096 characters.
    pub fn new(mut params: TagsStrobeParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        Ok(Self {
            output: StreamOutput::new("out"),
            limit: Limit::new(params.items),
            params,
            last: 0,
        })
    }
}

impl<T: Item> Block for TagsStrobe<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let start = self.output.position();
        let o = self.output.slice();
        let n = self.limit.allow(o.len());
        o[..n].fill(T::zeroed());
        let (end, interval) = (start + n as u64, self.params.interval);
        // GNU Radio's loop: each tag `interval` after the last. A tag a
        // shorter new interval puts before this call's items is lost, as
        // one GNU Radio adds behind its readers.
        if self.last.saturating_add(interval) < start {
            self.last += (start - self.last - 1) / interval * interval;
        }
        while let Some(at) = self.last.checked_add(interval).filter(|&at| at < end) {
            self.last = at;
            if at >= start {
                self.output.add_tag(
                    (at - start) as usize,
                    &self.params.key,
                    self.params.value.clone(),
                );
            }
        }
        self.output.produce(n);
        self.limit.spend(n, io);
        Ok(())
    }
}

/// The parameters of [`BurstTagger`] (`burst_tagger`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct BurstTaggerParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// the key of the tag where a burst starts
    #[param(default = "burst", max_len = MAX_KEY, settable)]
    pub true_key: String,
    /// the value of the tag where a burst starts
    #[param(default = true, settable)]
    pub true_value: bool,
    /// the key of the tag where a burst ends
    #[param(default = "burst", max_len = MAX_KEY, settable)]
    pub false_key: String,
    /// the value of the tag where a burst ends
    #[param(default = false, settable)]
    pub false_value: bool,
}

/// Passes `in0` and tags where the trigger `in1` (`i16`) turns positive
/// (`true_key = true_value`, by default `burst = true`) and where it stops
/// being positive (`false_key = false_value`, by default `burst =
/// false`). The keys and values may change while it runs, as GNU Radio's
/// `set_true_tag` and `set_false_tag`.
///
/// # Parameters
/// [`BurstTaggerParams`].
///
/// # Stream Inputs
/// - `in0`: `T`, data.
/// - `in1`: `i16`, trigger.
///
/// # Stream Outputs
/// - `out`: `T`, the data.
///
/// # Usage
/// ```
/// use rfgraph_blocks::stream::BurstTagger;
/// let tagger = BurstTagger::<f32>::new();
/// # let _ = tagger;
/// ```
pub struct BurstTagger<T: Item> {
    data: StreamInput<T>,
    trigger: StreamInput<i16>,
    output: StreamOutput<T>,
    params: BurstTaggerParams,
    on: bool,
}

impl<T: Item> BurstTagger<T> {
    /// A tagger of GNU Radio's default tags, starting outside a burst.
    pub fn new() -> Self {
        Self::with(BurstTaggerParams::default())
    }

    /// The tagger `params` describe (the item type is `T`'s).
    ///
    /// Errors: a key longer than 4096 characters.
    pub fn from_params(params: BurstTaggerParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self::with(params))
    }

    fn with(mut params: BurstTaggerParams) -> Self {
        params.item = kind_of::<T>().unwrap_or(params.item);
        Self {
            data: StreamInput::new("in0"),
            trigger: StreamInput::new("in1"),
            output: StreamOutput::new("out"),
            params,
            on: false,
        }
    }
}

impl<T: Item> Default for BurstTagger<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Item> Block for BurstTagger<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.data)
            .input(&mut self.trigger)
            .output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let n = self
            .data
            .available()
            .min(self.trigger.available())
            .min(self.output.free());
        if n == 0 {
            return Ok(());
        }
        let (d, t, o) = (self.data.slice(), self.trigger.slice(), self.output.slice());
        rfgraph::copy_items(&mut o[..n], &d[..n]);
        for (k, &x) in t[..n].iter().enumerate() {
            if (x > 0) != self.on {
                self.on = x > 0;
                let p = &self.params;
                let (key, value) = if self.on {
                    (&p.true_key, p.true_value)
                } else {
                    (&p.false_key, p.false_value)
                };
                self.output.add_tag(k, key, Pmt::Bool(value));
            }
        }
        self.data.consume(n);
        self.trigger.consume(n);
        self.output.produce(n);
        Ok(())
    }
}

/// `tag_gate`: GNU Radio's `blocks_tag_gate`.
pub(crate) fn tag_gate_spec() -> BlockSpec {
    BlockSpec::of::<TagGateParams>(
        "tag_gate",
        "Stream Tag Tools",
        "Passes items and stops their tags (all, or one key).",
        |p| for_any_item!(kind = p.item, T => TagGate::<T>::new(p)?),
    )
    .doc("Copies the items of any type unchanged and controls their tags: with `propagate` on, every tag passes with its item; off, with `single_key` empty, no tag passes; off, with `single_key` set, only tags with that key are stopped. `propagate` and `single_key` can change while running; they apply to the items copied after the change. GNU Radio's `blocks_tag_gate`.")
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `tags_strobe`: GNU Radio's `blocks_tags_strobe`.
pub(crate) fn tags_strobe_spec() -> BlockSpec {
    BlockSpec::of::<TagsStrobeParams>(
        "tags_strobe",
        "Stream Tag Tools",
        "Zeros with a tag every `interval` items.",
        |p| for_any_item!(kind = p.item, T => TagsStrobe::<T>::new(p)?),
    )
    .doc("Tags items `interval`, `2·interval`, … with `key = value`. `value`, `key` and `interval` may change while the flowgraph runs, as GNU Radio's setters: the next tag goes `interval` items after the last one. Endless unless `items` is set. GNU Radio's `blocks_tags_strobe`.")
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `burst_tagger`: GNU Radio's `blocks_burst_tagger`.
pub(crate) fn burst_tagger_spec() -> BlockSpec {
    BlockSpec::of::<BurstTaggerParams>(
        "burst_tagger",
        "Stream Tag Tools",
        "Tags where an `i16` trigger turns positive and back.",
        |p| for_any_item!(kind = p.item, T => BurstTagger::<T>::from_params(p)?),
    )
    .doc("`true_key = true_value` (by default `burst = true`) on the first item whose trigger is above 0, `false_key = false_value` (`burst = false`) on the first one after that is not. The keys and values may change while the flowgraph runs, as GNU Radio's `set_true_tag` and `set_false_tag`. GNU Radio's `blocks_burst_tagger`.")
    .input(PortSpec::new("in0", PortItem::OfType).doc("data"))
    .input(PortSpec::new("in1", PortItem::Fixed(ItemKind::I16)).doc("trigger"))
    .output(PortSpec::new("out", PortItem::OfType))
}
