//! Small PDU operators, with their registry entries: [`PduOperator`]
//! for GNU Radio's `pdu_remove` ([`PduRemove`]), `pdu_filter`
//! ([`PduFilter`]), `add_system_time` ([`AddSystemTime`]) and
//! `time_delta` ([`TimeDelta`]); [`PduSplit`] (`pdu_split`); and
//! [`PduMap`], any function of a PDU as a block.

use super::pdu::{parse, pdu};
use rfgraph::registry::BlockSpec;
use rfgraph::{Block, BoxError, MessageOutput, ParamError, ParamSet, Pmt, Ports, WorkIo};
use std::collections::BTreeMap;

type MapFn = dyn FnMut(BTreeMap<String, Pmt>, Pmt) -> Option<Pmt> + Send;

/// Applies a function to the metadata and data of every PDU arriving on
/// its input and posts what it returns (nothing for `None`) on its
/// output; a message that is no PDU is an error.
///
/// # Message Inputs
/// - named by the constructor (`pdus` or GNU Radio's `pdu`).
///
/// # Message Outputs
/// - named like the input.
///
/// # Usage
/// ```
/// use rfgraph_blocks::message::{PduMap, pdu};
/// // Drops the key `snr` from every PDU.
/// let remove = PduMap::new("pdus", |mut meta, data| {
///     meta.remove("snr");
///     Some(pdu(meta, data))
/// });
/// # let _ = remove;
/// ```
pub struct PduMap {
    input: &'static str,
    output: MessageOutput,
    f: Box<MapFn>,
}

impl PduMap {
    /// Maps PDUs arriving on `port` to the output of the same name with `f`.
    pub fn new(
        port: &'static str,
        f: impl FnMut(BTreeMap<String, Pmt>, Pmt) -> Option<Pmt> + Send + 'static,
    ) -> Self {
        Self {
            input: port,
            output: MessageOutput::new(port),
            f: Box::new(f),
        }
    }
}

impl Block for PduMap {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input(self.input)
            .message_output(&mut self.output)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let (meta, data) = parse(&msg).ok_or("expected a PDU ([metadata map, vector])")?;
        if let Some(out) = (self.f)(meta, data.clone()) {
            self.output.post(out);
        }
        Ok(Pmt::Null)
    }
}

/// What a [`PduOperator`] does to each PDU, given by its parameters:
/// the PDU to post for one arriving (`None`: drop it).
pub trait PduRule: ParamSet + Clone {
    /// The name of the message input and output (`pdus`, or GNU Radio's
    /// `pdu`).
    const PORT: &'static str;
    /// The PDU to post for the one of `meta` and `data`.
    fn apply(&self, meta: BTreeMap<String, Pmt>, data: Pmt) -> Option<Pmt>;
}

/// Applies its [`PduRule`] to every PDU arriving on its input and posts
/// what it gives on its output; a message that is no PDU is an error.
/// Settable parameters apply from the next PDU on.
///
/// # Parameters
/// The rule's: [`PduRemoveParams`], [`PduFilterParams`],
/// [`AddSystemTimeParams`] or [`TimeDeltaParams`].
///
/// # Message Inputs
/// - the rule's [`PduRule::PORT`]: PDUs.
///
/// # Message Outputs
/// - the rule's [`PduRule::PORT`]: the PDUs it gives.
///
/// # Usage
/// ```
/// use rfgraph_blocks::message::{PduRemove, PduRemoveParams};
/// let remove = PduRemove::new(PduRemoveParams { key: "snr".into() })?;
/// # let _ = remove;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct PduOperator<P: PduRule> {
    output: MessageOutput,
    params: P,
}

impl<P: PduRule> PduOperator<P> {
    /// The operator of `params`.
    pub fn new(params: P) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            output: MessageOutput::new(P::PORT),
            params,
        })
    }
}

impl<P: PduRule> Block for PduOperator<P> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input(P::PORT)
            .message_output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let (meta, data) = parse(&msg).ok_or("expected a PDU ([metadata map, vector])")?;
        if let Some(out) = self.params.apply(meta, data.clone()) {
            self.output.post(out);
        }
        Ok(Pmt::Null)
    }
}

/// The parameters of [`PduRemove`] (`pdu_remove`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct PduRemoveParams {
    /// the metadata key removed (GNU Radio's `set_key`: from the next PDU on)
    #[param(default = "key", alias = "k", settable)]
    pub key: String,
}

impl PduRule for PduRemoveParams {
    const PORT: &'static str = "pdus";
    fn apply(&self, mut meta: BTreeMap<String, Pmt>, data: Pmt) -> Option<Pmt> {
        meta.remove(&self.key);
        Some(pdu(meta, data))
    }
}

/// Removes one metadata key from every PDU: GNU Radio's `pdu_remove`.
pub type PduRemove = PduOperator<PduRemoveParams>;

/// The parameters of [`PduFilter`] (`pdu_filter`). Each may change while
/// the block runs (GNU Radio's `set_key`, `set_val`, `set_inversion`):
/// the next PDU is judged by the new rule.
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct PduFilterParams {
    /// the metadata key
    #[param(default = "key", alias = "k", settable)]
    pub key: String,
    /// the value it must have (any message value)
    #[param(default = Pmt::Bool(true), alias = "v", settable)]
    pub value: Pmt,
    /// pass the others instead
    #[param(default = false, settable)]
    pub invert: bool,
}

impl PduRule for PduFilterParams {
    const PORT: &'static str = "pdus";
    fn apply(&self, meta: BTreeMap<String, Pmt>, data: Pmt) -> Option<Pmt> {
        let matches = meta.get(&self.key) == Some(&self.value);
        (matches != self.invert).then(|| pdu(meta, data))
    }
}

/// Passes only the PDUs whose metadata has `key = value` (or only the
/// others): GNU Radio's `pdu_filter`.
pub type PduFilter = PduOperator<PduFilterParams>;

/// Seconds since the Unix epoch (0 if the clock is before it).
fn unix_time() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// The parameters of [`AddSystemTime`] (`add_system_time`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct AddSystemTimeParams {
    /// the metadata key
    #[param(default = "system_time")]
    pub key: String,
}

impl PduRule for AddSystemTimeParams {
    const PORT: &'static str = "pdu";
    fn apply(&self, mut meta: BTreeMap<String, Pmt>, data: Pmt) -> Option<Pmt> {
        meta.insert(self.key.clone(), Pmt::F64(unix_time()));
        Some(pdu(meta, data))
    }
}

/// Adds the system time to every PDU's metadata: GNU Radio's
/// `add_system_time`.
pub type AddSystemTime = PduOperator<AddSystemTimeParams>;

/// The parameters of [`TimeDelta`] (`time_delta`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct TimeDeltaParams {
    /// the key written
    #[param(default = "time_delta_ms")]
    pub delta_key: String,
    /// the key read
    #[param(default = "system_time")]
    pub time_key: String,
}

impl PduRule for TimeDeltaParams {
    const PORT: &'static str = "pdu";
    fn apply(&self, mut meta: BTreeMap<String, Pmt>, data: Pmt) -> Option<Pmt> {
        if let Some(t) = meta.get(&self.time_key).and_then(Pmt::as_f64) {
            meta.insert(self.delta_key.clone(), Pmt::F64((unix_time() - t) * 1000.0));
        }
        Some(pdu(meta, data))
    }
}

/// Adds the time since a PDU's `time_key` to its metadata: GNU Radio's
/// `time_delta`.
pub type TimeDelta = PduOperator<TimeDeltaParams>;

/// The parameters of [`PduSplit`] (`pdu_split`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct PduSplitParams {
    /// post empty metadata and data too
    #[param(default = false)]
    pub pass_empty: bool,
}

/// Posts the metadata of every PDU on `dict` and its data on `vec`;
/// empty metadata or data are posted only with `pass_empty`. Messages
/// that are no PDU are dropped, as GNU Radio does.
///
/// # Parameters
/// [`PduSplitParams`].
///
/// # Message Inputs
/// - `pdu`: PDUs.
///
/// # Message Outputs
/// - `dict`: the metadata maps.
/// - `vec`: the data vectors.
///
/// # Usage
/// ```
/// use rfgraph_blocks::message::{PduSplit, PduSplitParams};
/// let split = PduSplit::new(PduSplitParams { pass_empty: false })?;
/// # let _ = split;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct PduSplit {
    dict: MessageOutput,
    vec: MessageOutput,
    params: PduSplitParams,
}

impl PduSplit {
    /// A splitter; `params.pass_empty` posts empty parts too.
    pub fn new(params: PduSplitParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            dict: MessageOutput::new("dict"),
            vec: MessageOutput::new("vec"),
            params,
        })
    }
}

impl Block for PduSplit {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input("pdu")
            .message_output(&mut self.dict)
            .message_output(&mut self.vec)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let pass_empty = self.params.pass_empty;
        if let Some((meta, data)) = parse(&msg) {
            if !meta.is_empty() || pass_empty {
                self.dict.post(Pmt::Map(meta));
            }
            let empty = match data {
                Pmt::Blob(v) => v.is_empty(),
                Pmt::VecF32(v) => v.is_empty(),
                Pmt::VecComplexF32(v) => v.is_empty(),
                _ => true,
            };
            if !empty || pass_empty {
                self.vec.post(data.clone());
            }
        }
        Ok(Pmt::Null)
    }
}

/// `pdu_remove`: GNU Radio's `pdu_pdu_remove`.
pub(crate) fn remove_spec() -> BlockSpec {
    BlockSpec::of::<PduRemoveParams>(
        "pdu_remove",
        "Packet Operators",
        "Removes one metadata key from every PDU.",
        |p| Ok(Box::new(PduRemove::new(p)?)),
    )
    .doc("Posts every PDU arriving on `pdus` on `pdus` with metadata `key` deleted; PDUs without it pass unchanged, and the data is untouched. GNU Radio's empty metadata (`()`) is read as an empty map. A message that is no PDU (`[metadata map, u8/f32/c32 vector]`) is an error. `key` may change while running (GNU Radio's `set_key`): from the next PDU on. GNU Radio's `pdu_pdu_remove`.")
    .message_input("pdus")
    .message_output("pdus")
}

/// `pdu_filter`: GNU Radio's `pdu_pdu_filter`.
pub(crate) fn filter_spec() -> BlockSpec {
    BlockSpec::of::<PduFilterParams>(
        "pdu_filter",
        "Packet Operators",
        "Passes only PDUs whose metadata has `key = value` (or only the others).",
        |p| Ok(Box::new(PduFilter::new(p)?)),
    )
    .doc("Reposts a PDU from `pdus` on `pdus` only if its metadata has `key` equal to `value` (equal in type too: integer 1 and float 1.0 differ); with `invert`, only the PDUs that do not (a missing key counts as not equal). Others are dropped. A message that is no PDU is an error. `key`, `value` and `invert` may change while running (GNU Radio's `set_key`, `set_val`, `set_inversion`): from the next PDU on. GNU Radio's `pdu_pdu_filter`.")
    .message_input("pdus")
    .message_output("pdus")
}

/// `add_system_time`: GNU Radio's `pdu_add_system_time`.
pub(crate) fn add_system_time_spec() -> BlockSpec {
    BlockSpec::of::<AddSystemTimeParams>(
        "add_system_time",
        "Packet Operators",
        "Adds the system time (s since the Unix epoch) to every PDU's metadata.",
        |p| Ok(Box::new(AddSystemTime::new(p)?)),
    )
    .doc("Reposts every PDU from `pdu` on `pdu` with metadata `key` set (replaced if present) to the wall-clock time it was handled, an `f64` in seconds since the Unix epoch (0 if the clock is before it); the data is untouched. `time_delta` reads it back. A message that is no PDU is an error. GNU Radio's `pdu_add_system_time`.")
    .message_input("pdu")
    .message_output("pdu")
}

/// `time_delta`: GNU Radio's `pdu_time_delta`.
pub(crate) fn time_delta_spec() -> BlockSpec {
    BlockSpec::of::<TimeDeltaParams>(
        "time_delta",
        "Packet Operators",
        "Adds the time since a PDU's `time_key` (ms) to its metadata.",
        |p| Ok(Box::new(TimeDelta::new(p)?)),
    )
    .doc("`delta_key = (now − time_key) · 1000`, with `time_key` in s since the Unix epoch (as `add_system_time` writes it); PDUs without it pass unchanged. GNU Radio's running statistics are not kept.")
    .message_input("pdu")
    .message_output("pdu")
}

/// `pdu_split`: GNU Radio's `pdu_pdu_split`.
pub(crate) fn split_spec() -> BlockSpec {
    BlockSpec::of::<PduSplitParams>(
        "pdu_split",
        "Packet Operators",
        "Metadata of each PDU on `dict`, data on `vec`.",
        |p| Ok(Box::new(PduSplit::new(p)?)),
    )
    .doc("For every PDU on `pdu`, posts its metadata map on `dict` and its data vector on `vec`. An empty map or an empty vector is not posted unless `pass_empty`. Messages that are no PDU are dropped silently, as GNU Radio does. GNU Radio's `pdu_pdu_split`.")
    .message_input("pdu")
    .message_output("dict")
    .message_output("vec")
}
