//! `protocol_formatter`: the header of every packet of a tagged byte
//! stream (GNU Radio's `digital_protocol_formatter_bb`), as
//! [`ProtocolFormatter`] with its registry entry.

use super::header_format::{HeaderFormatParams, HeaderFormatter};
use crate::message::PacketIo;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, ParamSet, Ports, TagPolicy, WorkIo};

/// The parameters of [`ProtocolFormatter`] (`protocol_formatter`, GNU
/// Radio's `digital_protocol_formatter_bb`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct ProtocolFormatterParams {
    /// the header format
    #[param(flatten)]
    pub header: HeaderFormatParams,
    /// the key of the length tags
    #[param(default = "packet_len")]
    pub len_tag_key: String,
}

/// Writes, for every packet of a tagged byte stream, the header that the
/// header format gives a payload of its length, as a packet of its own
/// (tagged with the header's length); the payload itself is not written,
/// nor are the input's other tags. As GNU Radio's
/// `digital_protocol_formatter_bb`, whose output is usually muxed with
/// the payload (`tagged_stream_mux`).
///
/// # Parameters
/// [`ProtocolFormatterParams`].
///
/// # Stream Inputs
/// - `in`: `u8`, a tagged stream of payloads.
///
/// # Stream Outputs
/// - `out`: `u8`, a tagged stream of headers.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::message::{StreamToTaggedStream, StreamToTaggedStreamParams};
/// use rfgraph_blocks::packet::{ProtocolFormatter, ProtocolFormatterParams};
/// use rfgraph_blocks::{VectorSink, VectorSource};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0u8; 10]));
/// let tagger = fg.add(StreamToTaggedStream::<u8>::new(StreamToTaggedStreamParams {
///     packet_len: 5,
///     ..Default::default()
/// })?);
/// let format = fg.add(ProtocolFormatter::new(ProtocolFormatterParams::default())?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.chain(&[src, tagger, format, sink])?;
/// let done = fg.run(Tpb::new())?;
/// let headers = done.block::<VectorSink<u8>>(sink).unwrap().items().to_vec();
/// // Two headers: the access code, then the length 5 twice.
/// assert_eq!(headers.len(), 2 * 12);
/// assert_eq!(headers[8..12], [0, 5, 0, 5]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ProtocolFormatter {
    io: PacketIo<u8>,
    formatter: HeaderFormatter,
    params: ProtocolFormatterParams,
}

impl ProtocolFormatter {
    /// A formatter of `params.header`'s format.
    ///
    /// Errors: an access code that is not 1 to 64 characters `0` and `1`.
    pub fn new(params: ProtocolFormatterParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            io: PacketIo::new(),
            formatter: HeaderFormatter::new(params.header.clone())?,
            params,
        })
    }
}

impl Block for ProtocolFormatter {
    fn ports(&mut self) -> Ports<'_> {
        self.io.ports()
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let formatter = &mut self.formatter;
        self.io.work(&self.params.len_tag_key, |items, _tags| {
            Some((formatter.format(items.len()), Vec::new()))
        });
        Ok(())
    }
}

/// `protocol_formatter`: GNU Radio's `digital_protocol_formatter_bb`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<ProtocolFormatterParams>(
        "protocol_formatter",
        "Packet Operators",
        "The header of every packet of a tagged byte stream.",
        |p| Ok(Box::new(ProtocolFormatter::new(p)?)),
    )
    .doc("For every packet on `in`, writes the header the header format (`format`, `access_code`, `threshold`, `bps`, `len_key_name`, `num_key_name`, and for `ofdm` `occupied_carriers`, `n_syms`, `frame_key_name`, `bits_per_header_sym`, `bits_per_payload_sym`, `scramble_header`, as GNU Radio's `header_format_*` objects) gives a payload of its length, as a packet of its own tagged with the header's length. The payload is not written (mux it after the header with `tagged_stream_mux`), nor are the input's other tags. `counter`, `crc` and `ofdm` number their headers from 0; `ofdm` pads the `crc` header with zero bytes to its bits / 8. GNU Radio's `digital_protocol_formatter_bb`.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}
