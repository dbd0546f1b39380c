//! `packet_headerparser`: reads a stream of `packet_header_default`
//! headers and posts each one's metadata (GNU Radio's
//! `digital_packet_headerparser_b`), as [`PacketHeaderParser`] with its
//! registry entry.

use super::packet_header::{PacketHeader, PacketHeaderParams};
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, MessageOutput, ParamError, ParamSet, Pmt, Ports, StreamInput, TagPolicy,
    WorkIo,
};

/// The parameters of [`PacketHeaderParser`] (`packet_headerparser`, GNU
/// Radio's `digital_packet_headerparser_b`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct PacketHeaderParserParams {
    /// the header
    #[param(flatten)]
    pub header: PacketHeaderParams,
}

/// Reads its input `header_len` bytes at a time, each a
/// `packet_header_default` header (see [`PacketHeader`]), and posts on
/// `header_data` the header's metadata as a map (the tags on its bytes,
/// then the payload length under `len_tag_key` and the header number
/// under `num_tag_key`), or `false` when its CRC fails. As GNU Radio's
/// `digital_packet_headerparser_b` (with `packet_header_default` or
/// `packet_header_ofdm`); a last, incomplete header is not
/// read.
///
/// # Parameters
/// [`PacketHeaderParserParams`].
///
/// # Stream Inputs
/// - `in`: `u8`, headers back to back.
///
/// # Message Outputs
/// - `header_data`: one message per header.
///
/// # Usage
/// ```
/// use rfgraph_blocks::packet::{PacketHeaderParser, PacketHeaderParserParams};
/// let parser = PacketHeaderParser::new(PacketHeaderParserParams::default())?;
/// # let _ = parser;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct PacketHeaderParser {
    input: StreamInput<u8>,
    output: MessageOutput,
    header: PacketHeader,
    params: PacketHeaderParserParams,
}

impl PacketHeaderParser {
    /// A parser of `params.header`'s headers.
    ///
    /// Errors: a `header_len` or `bits_per_byte` out of range.
    pub fn new(params: PacketHeaderParserParams) -> Result<Self, ParamError> {
        params.validate()?;
        let len = params.header.header_bytes();
        Ok(Self {
            input: StreamInput::new("in").with_min_items(len),
            output: MessageOutput::new("header_data"),
            header: PacketHeader::new(params.header.clone())?,
            params,
        })
    }
}

impl Block for PacketHeaderParser {
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
        let len = self.header.len();
        let start = self.input.position();
        // Tags are those of the last slice: form it first, and read no
        // further than it (items arriving meanwhile wait, with their tags).
        let available = self.input.slice().len();
        let mut tags = self.input.tags();
        tags.sort_by_key(|t| t.index);
        let items = &self.input.slice()[..available];
        let headers = items.len() / len;
        for h in 0..headers {
            let first = start + (h * len) as u64;
            let on = tags
                .iter()
                .filter(|t| t.index >= first && t.index < first + len as u64)
                .cloned()
                .collect();
            let (ok, info) = self.header.parse(&items[h * len..(h + 1) * len], on);
            self.output
                .post(if ok { Pmt::Map(info) } else { Pmt::Bool(false) });
        }
        self.input.consume(headers * len);
        Ok(())
    }
}

/// `packet_headerparser`: GNU Radio's `digital_packet_headerparser_b`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<PacketHeaderParserParams>(
        "packet_headerparser",
        "Packet Operators",
        "Posts the metadata of every packet_header_default header of a stream.",
        |p| Ok(Box::new(PacketHeaderParser::new(p)?)),
    )
    .doc("Reads `in` `header_len` bytes at a time, each a header of 12 bits of payload length, 12 bits of header number and a CRC-8, spread over bytes of `bits_per_byte` bits, least significant first. Posts on `header_data` a map of the tags on the header's bytes, the length under `len_tag_key` and the number under `num_tag_key` (not read when empty), or `false` when the CRC (as far as the header holds it) fails. A last, incomplete header is not read. GNU Radio's `digital_packet_headerparser_b` with a `packet_header_default` (also its `_default` variant). With `header_format = ofdm`, GNU Radio's `packet_header_ofdm`: the header has one byte per carrier of the first `n_syms` lists of `occupied_carriers`, descrambled first when `scramble_header`; the length is given in payload symbols (`bits_per_payload_sym` bits each, rounded up) and the number of payload OFDM symbols follows under `frame_len_tag_key`.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
    .message_output("header_data")
}
