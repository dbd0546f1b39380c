//! `pdu_set`: sets one metadata key of every PDU passing through (GNU
//! Radio's `pdu_pdu_set`), as [`PduSet`] with its registry entry.

use super::pdu::{parse, pdu};
use rfgraph::registry::{BlockSpec, ParamSpec, Params};
use rfgraph::{Block, BoxError, MessageOutput, Pmt, Ports, WorkIo};

/// Sets metadata `key` to `value` in every PDU arriving on `pdus` and
/// posts it on `pdus`; a message that is no PDU is an error.
///
/// # Message Inputs
/// - `pdus`: PDUs.
///
/// # Message Outputs
/// - `pdus`: the same PDUs with `key` set.
///
/// # Usage
/// ```
/// use rfgraph::Pmt;
/// use rfgraph_blocks::message::PduSet;
/// let set = PduSet::new("channel", Pmt::U64(3));
/// # let _ = set;
/// ```
pub struct PduSet {
    output: MessageOutput,
    key: String,
    value: Pmt,
}

impl PduSet {
    /// Sets `key` to `value`.
    pub fn new(key: impl Into<String>, value: Pmt) -> Self {
        Self {
            output: MessageOutput::new("pdus"),
            key: key.into(),
            value,
        }
    }
}

impl Block for PduSet {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input("pdus")
            .message_output(&mut self.output)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let (mut meta, data) = parse(&msg).ok_or("expected a PDU ([metadata map, vector])")?;
        meta.insert(self.key.clone(), self.value.clone());
        self.output.post(pdu(meta, data.clone()));
        Ok(Pmt::Null)
    }
}

/// `pdu_set`: GNU Radio's `pdu_pdu_set`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new(
        "pdu_set",
        "Packet Operators",
        "Sets one metadata key of every PDU.",
        |p: &Params| {
            Ok(Box::new(PduSet::new(
                p.string("key")?,
                p.raw("value")?.clone(),
            )))
        },
    )
    .doc("Reposts every PDU from `pdus` on `pdus` with metadata `key` set to `value` (any message value, replacing an existing one); the data is untouched. GNU Radio's empty metadata (`()`) is read as an empty map. A message that is no PDU (`[metadata map, u8/f32/c32 vector]`) is an error. GNU Radio's `pdu_pdu_set`.")
    .param(
        ParamSpec::string("key")
            .default("key")
            .doc("the metadata key"),
    )
    .param(
        ParamSpec::any("value")
            .default(Pmt::Bool(true))
            .doc("its value"),
    )
    .message_input("pdus")
    .message_output("pdus")
}
