//! `packet_headergenerator`: the `packet_header_default` header of every
//! packet of a tagged byte stream (GNU Radio's
//! `digital_packet_headergenerator_bb`), as [`PacketHeaderGenerator`]
//! with its registry entry.

use super::packet_header::{PacketHeader, PacketHeaderParams};
use crate::message::PacketIo;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, ParamSet, Ports, TagPolicy, WorkIo};

/// The parameters of [`PacketHeaderGenerator`] (`packet_headergenerator`,
/// GNU Radio's `digital_packet_headergenerator_bb`): the header's; its
/// `len_tag_key` is the input's length tag key.
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct PacketHeaderGeneratorParams {
    /// the header
    #[param(flatten)]
    pub header: PacketHeaderParams,
}

/// Writes, for every packet of a tagged byte stream (length tags
/// `len_tag_key`), its `packet_header_default` header (see
/// [`PacketHeader`]) as a packet of `header_len` bytes of its own; the
/// payload and the input's other tags are not written. Headers are
/// numbered from 0. As GNU Radio's `digital_packet_headergenerator_bb`
/// (with `packet_header_default` or `packet_header_ofdm`).
///
/// # Parameters
/// [`PacketHeaderGeneratorParams`].
///
/// # Stream Inputs
/// - `in`: `u8`, a tagged stream of payloads.
///
/// # Stream Outputs
/// - `out`: `u8`, a tagged stream of headers.
///
/// # Usage
/// ```
/// use rfgraph_blocks::packet::{PacketHeaderGenerator, PacketHeaderGeneratorParams, PacketHeaderParams};
/// let generator = PacketHeaderGenerator::new(PacketHeaderGeneratorParams {
///     header: PacketHeaderParams { header_len: 16, bits_per_byte: 2, ..Default::default() },
/// })?;
/// # let _ = generator;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct PacketHeaderGenerator {
    io: PacketIo<u8>,
    header: PacketHeader,
    params: PacketHeaderGeneratorParams,
}

impl PacketHeaderGenerator {
    /// A generator of `params.header`'s headers.
    ///
    /// Errors: a `header_len` or `bits_per_byte` out of range.
    pub fn new(params: PacketHeaderGeneratorParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            io: PacketIo::new(),
            header: PacketHeader::new(params.header.clone())?,
            params,
        })
    }
}

impl Block for PacketHeaderGenerator {
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
        let header = &mut self.header;
        self.io
            .work(&self.params.header.len_tag_key, |items, _tags| {
                Some((header.format(items.len()), Vec::new()))
            });
        Ok(())
    }
}

/// `packet_headergenerator`: GNU Radio's `digital_packet_headergenerator_bb`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<PacketHeaderGeneratorParams>(
        "packet_headergenerator",
        "Packet Operators",
        "The packet_header_default header of every packet of a tagged byte stream.",
        |p| Ok(Box::new(PacketHeaderGenerator::new(p)?)),
    )
    .doc("For every packet on `in` (length tags `len_tag_key`), writes a header of `header_len` bytes as a packet of its own: 12 bits of payload length, 12 bits of header number (from 0) and the CRC-8 of both, each spread over bytes of `bits_per_byte` bits, least significant first; zero-padded or cut to `header_len`. The payload and the input's other tags are not written. GNU Radio's `digital_packet_headergenerator_bb` with a `packet_header_default` (also its `_default` variant). With `header_format = ofdm`, GNU Radio's `packet_header_ofdm`: the header has one byte per carrier of the first `n_syms` lists of `occupied_carriers` (`bits_per_byte` is its bits per header symbol), XORed with GNU Radio's scrambling mask when `scramble_header`.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}
