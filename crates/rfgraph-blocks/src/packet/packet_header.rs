//! GNU Radio's `digital.packet_header_default`: a fixed-length header
//! of a 12-bit length, a 12-bit header number and a CRC-8, spread over
//! `header_len` bytes of `bits_per_byte` bits each, least significant
//! first. Declared once as [`PacketHeaderParams`] for the blocks that
//! write and read it to flatten in; [`PacketHeader`] writes and reads it
//! as GNU Radio does.

use super::header_format::crc_of;
use rfgraph::{ParamError, ParamSet, Pmt, Tag};
use std::collections::BTreeMap;

/// GNU Radio's masks by bits per byte (its entry for 6 bits is `0x2F`,
/// not `0x3F`: kept, so that headers match).
const MASK_LUT: [u32; 9] = [0x00, 0x01, 0x03, 0x07, 0x0F, 0x1F, 0x2F, 0x7F, 0xFF];

/// The settings of GNU Radio's `packet_header_default` object, flattened
/// into the parameters of the blocks that write and read its headers
/// (`#[param(flatten)]`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct PacketHeaderParams {
    /// header length in bytes (items)
    #[param(default = 32, min = 1, max = 65_536)]
    pub header_len: usize,
    /// the key of the length tags (the packets' on a generator's input,
    /// the payload length's in a parser's output)
    #[param(default = "packet_len")]
    pub len_tag_key: String,
    /// the key of the header number in a parser's output; empty: the
    /// number is not read
    #[param(default = "packet_num")]
    pub num_tag_key: String,
    /// header bits per byte (1 to 8)
    #[param(default = 1, min = 1, max = 8)]
    pub bits_per_byte: u8,
}

/// Writes and reads `packet_header_default` headers: each field spread
/// over bytes of `bits_per_byte` bits, least significant first: 12 bits
/// of payload length, 12 bits of header number, the CRC-8 of both (each
/// as two little-endian bytes); cut to `header_len` bytes, zero-padded.
///
/// ```
/// use rfgraph_blocks::packet::{PacketHeader, PacketHeaderParams};
/// let mut h = PacketHeader::new(PacketHeaderParams { header_len: 8, bits_per_byte: 4, ..Default::default() })?;
/// let header = h.format(0x123);
/// assert_eq!(header[..3], [3, 2, 1]);
/// let (ok, info) = h.parse(&header, Vec::new());
/// assert!(ok);
/// assert_eq!(info["packet_len"], rfgraph::Pmt::I64(0x123));
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct PacketHeader {
    params: PacketHeaderParams,
    mask: u32,
    /// The next header's number.
    number: u32,
}

impl PacketHeader {
    /// A header writer and reader, its number at 0.
    ///
    /// Errors: a `header_len` or `bits_per_byte` out of range.
    pub fn new(params: PacketHeaderParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            mask: MASK_LUT[params.bits_per_byte as usize],
            params,
            number: 0,
        })
    }

    /// The settings.
    pub fn params(&self) -> &PacketHeaderParams {
        &self.params
    }

    /// The header of a payload of `len` items, numbered by the headers
    /// written before (GNU Radio's `header_formatter`).
    pub fn format(&mut self, len: usize) -> Vec<u8> {
        let len = (len & 0x0FFF) as u32;
        let crc = crc_of(len, self.number) as u32;
        let step = self.params.bits_per_byte as usize;
        let mut out = vec![0u8; self.params.header_len];
        let fields = [(len, 12), (self.number, 12), (crc, 8)];
        let spread = fields
            .iter()
            .flat_map(|&(value, bits)| (0..bits).step_by(step).map(move |i| value >> i));
        for (o, v) in out.iter_mut().zip(spread) {
            *o = (v & self.mask) as u8;
        }
        self.number = (self.number + 1) & 0x0FFF;
        out
    }

    /// Reads a header (its first `header_len` bytes): whether it is
    /// valid, and the metadata GNU Radio's `packet_headerparser_b` posts
    /// for it: `tags` (the tags on the header's items, later ones
    /// winning), then the length and header number under their keys
    /// (`I64`). The CRC is checked as far as the header holds it.
    pub fn parse(&self, header: &[u8], tags: Vec<Tag>) -> (bool, BTreeMap<String, Pmt>) {
        let n = self.params.header_len.min(header.len());
        let step = self.params.bits_per_byte as usize;
        let mut info: BTreeMap<String, Pmt> = tags.into_iter().map(|t| (t.key, t.value)).collect();
        let mut k = 0;
        let field = |k: &mut usize, bits: usize| {
            let mut value = 0u32;
            for i in (0..bits).step_by(step) {
                if *k >= n {
                    break;
                }
                value |= (header[*k] as u32 & self.mask) << i;
                *k += 1;
            }
            value
        };
        let len = field(&mut k, 12);
        info.insert(self.params.len_tag_key.clone(), Pmt::I64(len as i64));
        if k >= n {
            return (true, info);
        }
        let mut num = 0;
        if self.params.num_tag_key.is_empty() {
            // GNU Radio skips 12 items here, whatever the bits per byte.
            k += 12;
        } else {
            num = field(&mut k, 12);
            info.insert(self.params.num_tag_key.clone(), Pmt::I64(num as i64));
        }
        let crc = crc_of(len, num) as u32;
        let ok = (0..8)
            .step_by(step)
            .zip(k..n)
            .all(|(i, k)| header[k] as u32 & self.mask == (crc >> i) & self.mask);
        (ok, info)
    }
}
