//! Small PDU operators, with their registry entries: [`PduMap`] under
//! GNU Radio's `pdu_remove`, `pdu_filter`, `add_system_time` and
//! `time_delta`, and
//! [`PduSplit`] (`pdu_split`).

use super::pdu::{parse, pdu};
use rfgraph::registry::{BlockSpec, ParamSpec, Params};
use rfgraph::{Block, BoxError, MessageOutput, Pmt, Ports, WorkIo};
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

/// Posts the metadata of every PDU on `dict` and its data on `vec`;
/// empty metadata or data are posted only with `pass_empty`. Messages
/// that are no PDU are dropped, as GNU Radio does.
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
/// use rfgraph_blocks::message::PduSplit;
/// let split = PduSplit::new(false);
/// # let _ = split;
/// ```
pub struct PduSplit {
    dict: MessageOutput,
    vec: MessageOutput,
    pass_empty: bool,
}

impl PduSplit {
    /// A splitter; `pass_empty` posts empty parts too.
    pub fn new(pass_empty: bool) -> Self {
        Self {
            dict: MessageOutput::new("dict"),
            vec: MessageOutput::new("vec"),
            pass_empty,
        }
    }
}

impl Block for PduSplit {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input("pdu")
            .message_output(&mut self.dict)
            .message_output(&mut self.vec)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        if let Some((meta, data)) = parse(&msg) {
            if !meta.is_empty() || self.pass_empty {
                self.dict.post(Pmt::Map(meta));
            }
            let empty = match data {
                Pmt::Blob(v) => v.is_empty(),
                Pmt::VecF32(v) => v.is_empty(),
                Pmt::VecComplexF32(v) => v.is_empty(),
                _ => true,
            };
            if !empty || self.pass_empty {
                self.vec.post(data.clone());
            }
        }
        Ok(Pmt::Null)
    }
}

/// `pdu_remove`: GNU Radio's `pdu_pdu_remove`.
pub(crate) fn remove_spec() -> BlockSpec {
    BlockSpec::new(
        "pdu_remove",
        "Packet Operators",
        "Removes one metadata key from every PDU.",
        |p: &Params| {
            let key = p.string("key")?;
            Ok(Box::new(PduMap::new("pdus", move |mut meta, data| {
                meta.remove(&key);
                Some(pdu(meta, data))
            })))
        },
    )
    .doc("Posts every PDU arriving on `pdus` on `pdus` with metadata `key` deleted; PDUs without it pass unchanged, and the data is untouched. GNU Radio's empty metadata (`()`) is read as an empty map. A message that is no PDU (`[metadata map, u8/f32/c32 vector]`) is an error. GNU Radio's `pdu_pdu_remove`.")
    .param(
        ParamSpec::string("key")
            .default("key")
            .doc("the metadata key"),
    )
    .message_input("pdus")
    .message_output("pdus")
}

/// `pdu_filter`: GNU Radio's `pdu_pdu_filter`.
pub(crate) fn filter_spec() -> BlockSpec {
    BlockSpec::new(
        "pdu_filter",
        "Packet Operators",
        "Passes only PDUs whose metadata has `key = value` (or only the others).",
        |p: &Params| {
            let (key, value, invert) =
                (p.string("key")?, p.raw("value")?.clone(), p.bool("invert")?);
            Ok(Box::new(PduMap::new("pdus", move |meta, data| {
                let matches = meta.get(&key) == Some(&value);
                (matches != invert).then(|| pdu(meta, data))
            })))
        },
    )
    .doc("Reposts a PDU from `pdus` on `pdus` only if its metadata has `key` equal to `value` (equal in type too: integer 1 and float 1.0 differ); with `invert`, only the PDUs that do not (a missing key counts as not equal). Others are dropped. A message that is no PDU is an error. GNU Radio's `pdu_pdu_filter`.")
    .param(
        ParamSpec::string("key")
            .default("key")
            .doc("the metadata key"),
    )
    .param(
        ParamSpec::any("value")
            .default(Pmt::Bool(true))
            .doc("the value it must have"),
    )
    .param(
        ParamSpec::bool("invert")
            .default(false)
            .doc("pass the others instead"),
    )
    .message_input("pdus")
    .message_output("pdus")
}

/// `add_system_time`: GNU Radio's `pdu_add_system_time`.
pub(crate) fn add_system_time_spec() -> BlockSpec {
    BlockSpec::new(
        "add_system_time",
        "Packet Operators",
        "Adds the system time (s since the Unix epoch) to every PDU's metadata.",
        |p: &Params| {
            let key = p.string("key")?;
            Ok(Box::new(PduMap::new("pdu", move |mut meta, data| {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0.0, |d| d.as_secs_f64());
                meta.insert(key.clone(), Pmt::F64(now));
                Some(pdu(meta, data))
            })))
        },
    )
    .doc("Reposts every PDU from `pdu` on `pdu` with metadata `key` set (replaced if present) to the wall-clock time it was handled, an `f64` in seconds since the Unix epoch (0 if the clock is before it); the data is untouched. `time_delta` reads it back. A message that is no PDU is an error. GNU Radio's `pdu_add_system_time`.")
    .param(
        ParamSpec::string("key")
            .default("system_time")
            .doc("the metadata key"),
    )
    .message_input("pdu")
    .message_output("pdu")
}

/// `time_delta`: GNU Radio's `pdu_time_delta`.
pub(crate) fn time_delta_spec() -> BlockSpec {
    BlockSpec::new(
        "time_delta",
        "Packet Operators",
        "Adds the time since a PDU's `time_key` (ms) to its metadata.",
        |p: &Params| {
            let (delta, time) = (p.string("delta_key")?, p.string("time_key")?);
            Ok(Box::new(PduMap::new("pdu", move |mut meta, data| {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0.0, |d| d.as_secs_f64());
                if let Some(t) = meta.get(&time).and_then(Pmt::as_f64) {
                    meta.insert(delta.clone(), Pmt::F64((now - t) * 1000.0));
                }
                Some(pdu(meta, data))
            })))
        },
    )
    .doc("`delta_key = (now − time_key) · 1000`, with `time_key` in s since the Unix epoch (as `add_system_time` writes it); PDUs without it pass unchanged. GNU Radio's running statistics are not kept.")
    .param(ParamSpec::string("delta_key").default("time_delta_ms").doc("the key written"))
    .param(ParamSpec::string("time_key").default("system_time").doc("the key read"))
    .message_input("pdu")
    .message_output("pdu")
}

/// `pdu_split`: GNU Radio's `pdu_pdu_split`.
pub(crate) fn split_spec() -> BlockSpec {
    BlockSpec::new(
        "pdu_split",
        "Packet Operators",
        "Metadata of each PDU on `dict`, data on `vec`.",
        |p: &Params| Ok(Box::new(PduSplit::new(p.bool("pass_empty")?))),
    )
    .doc("For every PDU on `pdu`, posts its metadata map on `dict` and its data vector on `vec`. An empty map or an empty vector is not posted unless `pass_empty`. Messages that are no PDU are dropped silently, as GNU Radio does. GNU Radio's `pdu_pdu_split`.")
    .param(
        ParamSpec::bool("pass_empty")
            .default(false)
            .doc("post empty metadata and data too"),
    )
    .message_input("pdu")
    .message_output("dict")
    .message_output("vec")
}
