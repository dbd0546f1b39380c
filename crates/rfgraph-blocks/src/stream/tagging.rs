//! Blocks that add or remove tags, with their registry entries:
//! [`TagGate`] (GNU Radio's `tag_gate`), [`TagsStrobe`] (`tags_strobe`)
//! and [`BurstTagger`] (`burst_tagger`).

use super::tags::pass_through;
use crate::limit::Limit;
use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, Item, Pmt, Ports, Setting, Settings, StreamInput, StreamOutput, TagPolicy,
    WorkIo,
};

/// Passes items and stops tags: all of them, or only those with key
/// `single_key` when it is set; with `propagate` on, every tag passes.
///
/// # Stream Inputs
/// - `in`: `T`.
///
/// # Stream Outputs
/// - `out`: `T`, the same items.
///
/// # Message Inputs
/// - `propagate`: `true` lets tags through.
///
/// # Usage
/// ```
/// use rfgraph_blocks::stream::TagGate;
/// let gate = TagGate::<f32>::new(false, "");
/// # let _ = gate;
/// ```
pub struct TagGate<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    propagate: bool,
    single_key: String,
    settings: Settings<Self>,
}

impl<T: Item> TagGate<T> {
    /// A gate stopping every tag (or those keyed `single_key`, when not
    /// empty) unless `propagate`.
    pub fn new(propagate: bool, single_key: impl Into<String>) -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            propagate,
            single_key: single_key.into(),
            settings: Settings::new().with(
                Setting::new("propagate", |g: &mut Self, on: bool| g.propagate = on)
                    .doc("let tags through"),
            ),
        }
    }
}

impl<T: Item> Block for TagGate<T> {
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
        let (propagate, single) = (self.propagate, &self.single_key);
        pass_through(&mut self.input, &mut self.output, |key, value| {
            (propagate || (!single.is_empty() && key != single)).then_some(value)
        });
        Ok(())
    }
}

/// Writes zeros with a tag `key = value` on every `interval`-th item
/// (items `interval`, `2·interval`, …, as GNU Radio does), until `items`
/// items (default: never).
///
/// # Stream Outputs
/// - `out`: `T`, zeros.
///
/// # Usage
/// ```
/// use rfgraph::Pmt;
/// use rfgraph_blocks::stream::TagsStrobe;
/// let strobe = TagsStrobe::<f32>::new(Pmt::U64(5), 1000, "strobe")?.items(10_000);
/// # let _ = strobe;
/// # Ok::<(), String>(())
/// ```
pub struct TagsStrobe<T: Item> {
    output: StreamOutput<T>,
    value: Pmt,
    interval: u64,
    key: String,
    limit: Limit,
}

impl<T: Item> TagsStrobe<T> {
    /// Tags `key = value` every `interval` items.
    ///
    /// Errors: an interval of 0.
    pub fn new(value: Pmt, interval: u64, key: impl Into<String>) -> Result<Self, String> {
        if interval == 0 {
            return Err("the interval must be at least 1 item".into());
        }
        Ok(Self {
            output: StreamOutput::new("out"),
            value,
            interval,
            key: key.into(),
            limit: Limit::unlimited(),
        })
    }

    /// Finishes after `n` items.
    pub fn items(mut self, n: u64) -> Self {
        self.limit = Limit::of(n);
        self
    }
}

impl<T: Item> Block for TagsStrobe<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let start = self.output.position();
        let o = self.output.slice();
        let n = self.limit.allow(o.len());
        o[..n].fill(T::zeroed());
        let mut at = start.div_ceil(self.interval).max(1) * self.interval;
        while at < start + n as u64 {
            self.output
                .add_tag((at - start) as usize, &self.key, self.value.clone());
            at += self.interval;
        }
        self.output.produce(n);
        self.limit.spend(n, io);
        Ok(())
    }
}

/// Passes `in0` and tags where the trigger `in1` (`i16`) turns positive
/// (`burst = true`) and where it stops being positive (`burst = false`).
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
    on: bool,
}

impl<T: Item> BurstTagger<T> {
    /// A tagger, starting outside a burst.
    pub fn new() -> Self {
        Self {
            data: StreamInput::new("in0"),
            trigger: StreamInput::new("in1"),
            output: StreamOutput::new("out"),
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
                self.output.add_tag(k, "burst", Pmt::Bool(self.on));
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
    BlockSpec::new(
        "tag_gate",
        "Stream Tag Tools",
        "Passes items and stops their tags (all, or one key).",
        |p: &Params| {
            let (on, key) = (p.bool("propagate")?, p.string("single_key")?);
            super::any_item!(p, T => TagGate::<T>::new(on, key.clone()))
        },
    )
    .doc("Copies the items of any type unchanged and controls their tags: with `propagate` on, every tag passes with its item; off, with `single_key` empty, no tag passes; off, with `single_key` set, only tags with that key are stopped. `propagate` can be changed while running (its message port); it applies to the items copied after the change. GNU Radio's `blocks_tag_gate`.")
    .param(ParamSpec::item_type(&ItemKind::ALL))
    .param(
        ParamSpec::bool("propagate")
            .default(false)
            .settable()
            .doc("let tags through"),
    )
    .param(
        ParamSpec::string("single_key")
            .default("")
            .doc("stop only this key (empty: all)"),
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `tags_strobe`: GNU Radio's `blocks_tags_strobe`.
pub(crate) fn tags_strobe_spec() -> BlockSpec {
    BlockSpec::new(
        "tags_strobe",
        "Stream Tag Tools",
        "Zeros with a tag every `interval` items.",
        |p: &Params| {
            let (value, interval, key, items) = (
                p.raw("value")?.clone(),
                p.u64("interval")?,
                p.string("key")?,
                crate::spec_util::items(p)?,
            );
            super::any_item!(p, T => {
                let s = TagsStrobe::<T>::new(value.clone(), interval, key.clone()).map_err(|e| p.refused(e))?;
                match items { Some(n) => s.items(n), None => s }
            })
        },
    )
    .doc("Tags items `interval`, `2·interval`, … with `key = value`.")
    .param(ParamSpec::item_type(&ItemKind::ALL))
    .param(ParamSpec::any("value").default(Pmt::Null).doc("the tags' value"))
    .param(ParamSpec::uint("interval").default(1000u64).unit("items").doc("items between two tags"))
    .param(ParamSpec::string("key").default("strobe").doc("the tags' key"))
    .param(crate::spec_util::items_param())
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `burst_tagger`: GNU Radio's `blocks_burst_tagger`.
pub(crate) fn burst_tagger_spec() -> BlockSpec {
    BlockSpec::new(
        "burst_tagger",
        "Stream Tag Tools",
        "Tags where an `i16` trigger turns positive and back.",
        |p: &Params| super::any_item!(p, T => BurstTagger::<T>::new()),
    )
    .doc("`burst = true` on the first item whose trigger is above 0, `burst = false` on the first one after that is not.")
    .param(ParamSpec::item_type(&ItemKind::ALL))
    .input(PortSpec::new("in0", PortItem::OfType).doc("data"))
    .input(PortSpec::new("in1", PortItem::Fixed(ItemKind::I16)).doc("trigger"))
    .output(PortSpec::new("out", PortItem::OfType))
}
