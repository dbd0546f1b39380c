//! `protocol_formatter_async`: a header PDU and a payload PDU for every
//! byte PDU (GNU Radio's `digital_protocol_formatter_async`), as
//! [`ProtocolFormatterAsync`] with its registry entry.

use super::header_format::{HeaderFormatParams, HeaderFormatter};
use crate::message::{parse, pdu};
use rfgraph::registry::BlockSpec;
use rfgraph::{Block, BoxError, MessageOutput, ParamError, ParamSet, Pmt, Ports, WorkIo};

/// The parameters of [`ProtocolFormatterAsync`]
/// (`protocol_formatter_async`, GNU Radio's
/// `digital_protocol_formatter_async`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct ProtocolFormatterAsyncParams {
    /// the header format
    #[param(flatten)]
    pub header: HeaderFormatParams,
}

/// For every byte PDU arriving on `in`, posts the header the header
/// format gives its payload on `header`, then the payload on `payload`,
/// both with the PDU's metadata, as GNU Radio's
/// `digital_protocol_formatter_async`. A message that is no PDU of bytes
/// is an error.
///
/// # Parameters
/// [`ProtocolFormatterAsyncParams`].
///
/// # Message Inputs
/// - `in`: byte PDUs.
///
/// # Message Outputs
/// - `header`: the header of each PDU, as a PDU with its metadata.
/// - `payload`: each PDU, unchanged.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, Pmt, scheduler::Tpb};
/// use rfgraph_blocks::message::pdu;
/// use rfgraph_blocks::packet::{
///     HeaderFormat, HeaderFormatParams, ProtocolFormatterAsync, ProtocolFormatterAsyncParams,
/// };
/// use rfgraph_blocks::{MessageBurst, MessageSink};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(MessageBurst::new(pdu(Default::default(), Pmt::Blob(vec![7; 5])), 1));
/// let format = fg.add(ProtocolFormatterAsync::new(ProtocolFormatterAsyncParams {
///     header: HeaderFormatParams { format: HeaderFormat::Crc, ..Default::default() },
/// })?);
/// let headers = fg.add(MessageSink::new());
/// fg.connect_message(src, "out", format, "in")?;
/// fg.connect_message(format, "header", headers, "in")?;
/// let done = fg.run(Tpb::new())?;
/// let header = &done.block::<MessageSink>(headers).unwrap().messages()[0];
/// assert_eq!(*header, pdu(Default::default(), Pmt::Blob(vec![5, 0, 0, 159])));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ProtocolFormatterAsync {
    header: MessageOutput,
    payload: MessageOutput,
    formatter: HeaderFormatter,
    params: ProtocolFormatterAsyncParams,
}

impl ProtocolFormatterAsync {
    /// A formatter of `params.header`'s format.
    ///
    /// Errors: an access code that is not 1 to 64 characters `0` and `1`.
    pub fn new(params: ProtocolFormatterAsyncParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            header: MessageOutput::new("header"),
            payload: MessageOutput::new("payload"),
            formatter: HeaderFormatter::new(params.header.clone())?,
            params,
        })
    }
}

impl Block for ProtocolFormatterAsync {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input("in")
            .message_output(&mut self.header)
            .message_output(&mut self.payload)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let (meta, data) = parse(&msg).ok_or("expected a PDU ([metadata map, vector])")?;
        let Pmt::Blob(bytes) = data else {
            return Err("protocol_formatter_async: the PDU's data is not a byte vector".into());
        };
        let header = self.formatter.format(bytes.len());
        self.header.post(pdu(meta.clone(), Pmt::Blob(header)));
        self.payload.post(pdu(meta, data.clone()));
        Ok(Pmt::Null)
    }
}

/// `protocol_formatter_async`: GNU Radio's `digital_protocol_formatter_async`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<ProtocolFormatterAsyncParams>(
        "protocol_formatter_async",
        "Packet Operators",
        "A header PDU and a payload PDU for every byte PDU.",
        |p| Ok(Box::new(ProtocolFormatterAsync::new(p)?)),
    )
    .doc("For every byte PDU on `in`, posts the header the header format (`format`, `access_code`, `threshold`, `bps`, `len_key_name`, `num_key_name`, and for `ofdm` `occupied_carriers`, `n_syms`, `frame_key_name`, `bits_per_header_sym`, `bits_per_payload_sym`, `scramble_header`, as GNU Radio's `header_format_*` objects) gives a payload of its length on `header`, then the PDU unchanged on `payload`; both keep its metadata. `counter`, `crc` and `ofdm` number their headers from 0; `ofdm` pads the `crc` header with zero bytes to its bits / 8. A message that is no PDU of bytes is an error. GNU Radio's `digital_protocol_formatter_async`.")
    .message_input("in")
    .message_output("header")
    .message_output("payload")
}
