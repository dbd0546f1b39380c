//! `pdu_set`: sets one metadata key of every PDU passing through (GNU
//! Radio's `pdu_pdu_set`), as [`PduSet`] with its registry entry.

use super::pdu::{meta_pair, pdu};
use rfgraph::registry::BlockSpec;
use rfgraph::{Block, BoxError, MessageOutput, ParamError, ParamSet, Pmt, Ports, WorkIo};

/// The parameters of [`PduSet`] (`pdu_set`). Both may change while the
/// block runs (GNU Radio's `set_key`, `set_val`): the next PDU gets the
/// new key or value.
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct PduSetParams {
    /// the metadata key
    #[param(default = "key", alias = "k", settable)]
    pub key: String,
    /// its value (any message value)
    #[param(default = Pmt::Bool(true), alias = "v", settable)]
    pub value: Pmt,
}

/// Sets metadata `key` to `value` in every PDU arriving on `pdus` and
/// posts it on `pdus`; a message that is no PDU is an error.
///
/// # Parameters
/// [`PduSetParams`]; each has a message input of its name (and of its
/// alias).
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
/// use rfgraph_blocks::message::{PduSet, PduSetParams};
/// let set = PduSet::new(PduSetParams {
///     key: "channel".into(),
///     value: Pmt::U64(3),
/// })?;
/// # let _ = set;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct PduSet {
    output: MessageOutput,
    params: PduSetParams,
}

impl PduSet {
    /// Sets `params.key` to `params.value`.
    pub fn new(params: PduSetParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            output: MessageOutput::new("pdus"),
            params,
        })
    }
}

impl Block for PduSet {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input("pdus")
            .message_output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let (mut meta, data) = meta_pair(&msg).ok_or("expected a PDU ([metadata map, data])")?;
        meta.insert(self.params.key.clone(), self.params.value.clone());
        self.output.post(pdu(meta, data.clone()));
        Ok(Pmt::Null)
    }
}

/// `pdu_set`: GNU Radio's `pdu_pdu_set`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<PduSetParams>(
        "pdu_set",
        "Packet Operators",
        "Sets one metadata key of every PDU.",
        |p| Ok(Box::new(PduSet::new(p)?)),
    )
    .doc("Reposts every PDU from `pdus` on `pdus` with metadata `key` set to `value` (any message value, replacing an existing one); the data is untouched. GNU Radio's empty metadata (`()`) is read as an empty map. A message that is no pair of a metadata map and data is an error (the data may be any value, as GNU Radio's block allows). `key` and `value` may change while running (GNU Radio's `set_key`, `set_val`): the next PDU gets them. GNU Radio's `pdu_pdu_set`.")
    .message_input("pdus")
    .message_output("pdus")
}
