//! `protocol_parser`: the metadata of every header found in a stream of
//! hard bits (GNU Radio's `digital_protocol_parser_b`), as
//! [`ProtocolParser`] with its registry entry.

use super::header_format::HeaderFormatParams;
use super::header_parser::HeaderParser;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, MessageOutput, ParamError, ParamSet, Ports, StreamInput, TagPolicy, WorkIo,
};

/// The parameters of [`ProtocolParser`] (`protocol_parser`, GNU Radio's
/// `digital_protocol_parser_b`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct ProtocolParserParams {
    /// the header format
    #[param(flatten)]
    pub header: HeaderFormatParams,
}

/// Finds headers of the header format in a stream of hard bits (one per
/// byte) and posts each one's metadata on `info`, as GNU Radio's
/// `digital_protocol_parser_b`: a map (`payload symbols`; `bps` and
/// `counter` for `counter`; the length in bits and header number under
/// `len_key_name` and `num_key_name` for `crc`; for `ofdm` the payload
/// length in complex symbols, the header number and the frame length in
/// OFDM symbols), or `false` for a header
/// that fails its check. See [`HeaderParser`] for the search. The bits
/// are only read: payloads are not skipped.
///
/// GNU Radio also posts `false` at the end of every `work` call that
/// found no header, which depends on how its scheduler cuts the stream:
/// rfgraph posts `false` for failed headers only.
///
/// # Parameters
/// [`ProtocolParserParams`].
///
/// # Stream Inputs
/// - `in`: `u8`, one bit per byte.
///
/// # Message Outputs
/// - `info`: one message per header.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, Pmt, scheduler::Tpb};
/// use rfgraph_blocks::packet::{HeaderFormatter, ProtocolParser, ProtocolParserParams};
/// use rfgraph_blocks::{MessageSink, VectorSource};
///
/// let params = ProtocolParserParams::default();
/// let header = HeaderFormatter::new(params.header.clone())?.format(3);
/// let bits: Vec<u8> = header.iter().flat_map(|b| (0..8).rev().map(move |k| (b >> k) & 1)).collect();
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(bits));
/// let parser = fg.add(ProtocolParser::new(params)?);
/// let sink = fg.add(MessageSink::new());
/// fg.connect(src, "out", parser, "in")?;
/// fg.connect_message(parser, "info", sink, "in")?;
/// let done = fg.run(Tpb::new())?;
/// let Pmt::Map(info) = &done.block::<MessageSink>(sink).unwrap().messages()[0] else { panic!() };
/// assert_eq!(info["payload symbols"], Pmt::I64(24));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ProtocolParser {
    input: StreamInput<u8>,
    output: MessageOutput,
    parser: HeaderParser,
    params: ProtocolParserParams,
}

impl ProtocolParser {
    /// A parser of `params.header`'s format.
    ///
    /// Errors: an access code that is not 1 to 64 characters `0` and `1`.
    pub fn new(params: ProtocolParserParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: MessageOutput::new("info"),
            parser: HeaderParser::new(params.header.clone())?,
            params,
        })
    }
}

impl Block for ProtocolParser {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .message_output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let bits = self.input.slice();
        let n = bits.len();
        for &bit in bits {
            if let Some(parsed) = self.parser.push(bit) {
                self.output.post(parsed.into_pmt());
            }
        }
        self.input.consume(n);
        Ok(())
    }
}

/// `protocol_parser`: GNU Radio's `digital_protocol_parser_b`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<ProtocolParserParams>(
        "protocol_parser",
        "Packet Operators",
        "Posts the metadata of every header found in a stream of bits.",
        |p| Ok(Box::new(ProtocolParser::new(p)?)),
    )
    .doc("Reads hard bits (one per byte) from `in` and posts, for every header of the header format (`format`, `access_code`, `threshold`, `bps`, `len_key_name`, `num_key_name`, and for `ofdm` `occupied_carriers`, `n_syms`, `frame_key_name`, `bits_per_header_sym`, `bits_per_payload_sym`, `scramble_header`, as GNU Radio's `header_format_*` objects) it finds, GNU Radio's metadata dictionary on `info` as a map: `payload symbols` (8·length/bps); for `counter` also `bps` and `counter`; for `crc` the length in bits and the header number under `len_key_name` and `num_key_name`; for `ofdm` the payload length in complex symbols (rounded up), the header number and the frame length in OFDM symbols under `len_key_name`, `num_key_name` and `frame_key_name`. A header that fails its check (the two length copies differ, or the CRC-8) posts `false`. `default` and `counter` search for the access code, allowing `threshold` wrong bits; `crc` reads every 32 bits as a header, `ofdm` every header's bits (one per carrier of its first `n_syms` OFDM symbols; the CRC header is their first 32), descrambled as GNU Radio's parser does when `scramble_header`. Payload bits are searched too, as in GNU Radio. GNU Radio's `digital_protocol_parser_b` (which also posts `false` at the end of every work call without a header; rfgraph does not).")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
    .message_output("info")
}
