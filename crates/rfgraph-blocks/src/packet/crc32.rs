//! `crc32`: appends or checks a CRC-32 on every packet of a tagged byte
//! stream (GNU Radio's `digital_crc32_bb`), as [`Crc32`] with its
//! registry entry.

use super::crc::crc32;
use crate::message::PacketIo;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, ParamSet, Ports, Tag, TagPolicy, WorkIo};

/// The parameters of [`Crc32`] (`crc32`, GNU Radio's `digital_crc32_bb`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct Crc32Params {
    /// check and strip the CRC, dropping packets whose CRC fails (instead
    /// of appending one)
    #[param(default = false)]
    pub check: bool,
    /// the key of the length tags
    #[param(default = "packet_len", alias = "lengthtagname")]
    pub len_tag_key: String,
    /// bytes hold 8 bits each and the CRC is 4 bytes (little-endian);
    /// otherwise each byte holds one bit and the CRC is 32 bits, least
    /// significant first
    #[param(default = true)]
    pub packed: bool,
}

/// CRC items: 4 bytes packed, 32 bits unpacked.
fn crc_len(packed: bool) -> usize {
    if packed { 4 } else { 32 }
}

/// The CRC-32 of a packet: of its bytes, or, unpacked, of its bits
/// packed least significant first into bytes (each item shifted to its
/// place and cut to 8 bits, as GNU Radio packs them).
fn packet_crc(items: &[u8], packed: bool) -> u32 {
    if packed {
        return crc32(items);
    }
    let mut bytes = vec![0u8; items.len().div_ceil(8)];
    for (bit, &x) in items.iter().enumerate() {
        bytes[bit / 8] |= ((x as u32) << (bit % 8)) as u8;
    }
    crc32(&bytes)
}

/// What [`Crc32`] makes of one packet (its items and tags, indices from
/// its first item): the packet with its CRC appended, or checked and
/// stripped; `None` drops it.
pub(crate) fn crc_packet(
    params: &Crc32Params,
    mut items: Vec<u8>,
    mut tags: Vec<Tag>,
) -> Option<(Vec<u8>, Vec<Tag>)> {
    let n = crc_len(params.packed);
    if !params.check {
        let crc = packet_crc(&items, params.packed);
        if params.packed {
            items.extend_from_slice(&crc.to_le_bytes());
        } else {
            items.extend((0..32).map(|i| ((crc >> i) & 1) as u8));
        }
        return Some((items, tags));
    }
    if items.len() <= n {
        return None;
    }
    let len = items.len() - n;
    let crc = packet_crc(&items[..len], params.packed);
    let ok = if params.packed {
        items[len..] == crc.to_le_bytes()
    } else {
        (0..32).all(|i| ((crc >> i) & 1) as u8 == items[len + i])
    };
    if !ok {
        return None;
    }
    items.truncate(len);
    // GNU Radio moves the tags on the CRC but its first item to the last
    // item; one on the first CRC item goes to the item after the packet.
    for t in &mut tags {
        if t.index > len as u64 {
            t.index = len as u64 - 1;
        }
    }
    Some((items, tags))
}

/// Appends a CRC-32 to every packet of a tagged byte stream and grows its
/// length tag by the CRC's length, or (`check`) verifies and strips it,
/// dropping the packets whose CRC fails, as GNU Radio's
/// `digital_crc32_bb`. The CRC is zlib's CRC-32 ([`crc32`](super::crc32))
/// written as 4 little-endian bytes, or, `packed = false`, over the bits
/// (one per byte) packed least significant first, written as 32 bits
/// least significant first.
///
/// A packet's tags keep their place; a checked packet's tags on its CRC
/// move to its last item, but one on the CRC's first item, which GNU
/// Radio puts on the item after the packet. Checking drops packets no
/// longer than the CRC. Length tags of 0 mark no packet (GNU Radio
/// stops there).
///
/// # Parameters
/// [`Crc32Params`].
///
/// # Stream Inputs
/// - `in`: `u8`, a tagged stream.
///
/// # Stream Outputs
/// - `out`: `u8`, a tagged stream.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::message::{StreamToTaggedStream, StreamToTaggedStreamParams};
/// use rfgraph_blocks::packet::{Crc32, Crc32Params};
/// use rfgraph_blocks::{VectorSink, VectorSource};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(b"123456789".to_vec()));
/// let tagger = fg.add(StreamToTaggedStream::<u8>::new(StreamToTaggedStreamParams {
///     packet_len: 9,
///     ..Default::default()
/// })?);
/// let crc = fg.add(Crc32::new(Crc32Params::default())?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.chain(&[src, tagger, crc, sink])?;
/// let done = fg.run(Tpb::new())?;
/// assert_eq!(&done.block::<VectorSink<u8>>(sink).unwrap().items()[9..], [0x26, 0x39, 0xF4, 0xCB]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Crc32 {
    io: PacketIo<u8>,
    params: Crc32Params,
}

impl Crc32 {
    /// A CRC generator or checker as `params` say.
    pub fn new(params: Crc32Params) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            io: PacketIo::new(),
            params,
        })
    }
}

impl Block for Crc32 {
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
        let params = &self.params;
        self.io.work(&params.len_tag_key, |items, tags| {
            crc_packet(params, items, tags)
        });
        Ok(())
    }
}

/// `crc32`: GNU Radio's `digital_crc32_bb`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<Crc32Params>(
        "crc32",
        "Packet Operators",
        "Appends or checks a CRC-32 on every packet of a tagged byte stream.",
        |p| Ok(Box::new(Crc32::new(p)?)),
    )
    .doc("Generating, each packet gets zlib's CRC-32 of its bytes appended as 4 little-endian bytes and its length tag grows by 4. Checking (`check`), the last 4 bytes must be the CRC of the rest: they are stripped, and packets whose CRC fails (or no longer than the CRC) are dropped. Unpacked (`packed = false`), items are bits (one per byte, packed least significant first for the CRC) and the CRC is 32 bits, least significant first. Tags keep their place; a checked packet's tags on the CRC move to its last item, but one on the CRC's first item, which goes to the next item written (as in GNU Radio). GNU Radio's `digital_crc32_bb`.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}
