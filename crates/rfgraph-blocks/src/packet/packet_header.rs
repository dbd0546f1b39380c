//! GNU Radio's `digital.packet_header_default`: a fixed-length header
//! of a 12-bit length, a 12-bit header number and a CRC-8, spread over
//! `header_len` bytes of `bits_per_byte` bits each, least significant
//! first; and its OFDM variant `digital.packet_header_ofdm` (see
//! [`PacketHeaderKind`]). Declared once as [`PacketHeaderParams`] for
//! the blocks that write and read it to flatten in; [`PacketHeader`]
//! writes and reads it as GNU Radio does.

use super::header_format::crc_of;
use super::packet_header_ofdm::{self as ofdm, PacketHeaderKind};
use crate::ofdm::CarrierSets;
use rfgraph::{ParamError, ParamSet, Pmt, Tag};
use std::collections::BTreeMap;

/// GNU Radio's masks by bits per byte (its entry for 6 bits is `0x2F`,
/// not `0x3F`: kept, so that headers match).
const MASK_LUT: [u32; 9] = [0x00, 0x01, 0x03, 0x07, 0x0F, 0x1F, 0x2F, 0x7F, 0xFF];

/// The settings of GNU Radio's `packet_header_default` and
/// `packet_header_ofdm` objects, flattened into the parameters of the
/// blocks that write and read their headers (`#[param(flatten)]`). The
/// OFDM settings (`occupied_carriers` to `scramble_header`) are read by
/// `ofdm` headers only; their `bits_per_byte` is GNU Radio's
/// `bits_per_header_sym`.
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct PacketHeaderParams {
    /// the header object: `default` (`packet_header_default`) or `ofdm`
    /// (`packet_header_ofdm`)
    #[param(default = PacketHeaderKind::Default)]
    pub header_format: PacketHeaderKind,
    /// header length in bytes (items); an `ofdm` header's is the number
    /// of carriers of its first `n_syms` OFDM symbols, this is not read
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
    /// the OFDM carriers carrying data, one list per OFDM symbol used in
    /// turn (`ofdm`)
    #[param(default = CarrierSets::txrx_occupied())]
    pub occupied_carriers: CarrierSets,
    /// how many OFDM symbols the header fills (`ofdm`)
    #[param(default = 1, min = 1)]
    pub n_syms: usize,
    /// the key of the frame length (payload OFDM symbols) a parser adds
    /// (`ofdm`)
    #[param(default = "frame_len")]
    pub frame_len_tag_key: String,
    /// payload bits per complex symbol: a parser gives the payload
    /// length in complex symbols (`ofdm`)
    #[param(default = 1, min = 1, max = 8)]
    pub bits_per_payload_sym: u8,
    /// whether the header is scrambled (`ofdm`)
    #[param(default = false)]
    pub scramble_header: bool,
}

impl PacketHeaderParams {
    /// An `ofdm` header fills at least one carrier of OFDM symbols
    /// its carriers have.
    fn check(&self) -> Result<(), ParamError> {
        if self.header_format != PacketHeaderKind::Ofdm {
            return Ok(());
        }
        let bad =
            |param: &str, message: String| Err(ParamError::new("packet header", param, message));
        match ofdm::header_len(&self.occupied_carriers, self.n_syms) {
            None => bad(
                "n_syms",
                format!(
                    "{} OFDM symbols, but occupied_carriers has {} lists",
                    self.n_syms,
                    self.occupied_carriers.0.len()
                ),
            ),
            Some(0) => bad(
                "occupied_carriers",
                format!("the first {} lists hold no carrier", self.n_syms),
            ),
            Some(n) if n > 65_536 => bad(
                "occupied_carriers",
                format!("{n} header carriers (at most 65536)"),
            ),
            Some(_) => Ok(()),
        }
    }

    /// The header's length in bytes: `header_len`, or for `ofdm` the
    /// carriers of the first `n_syms` OFDM symbols.
    pub fn header_bytes(&self) -> usize {
        match self.header_format {
            PacketHeaderKind::Default => self.header_len,
            PacketHeaderKind::Ofdm => {
                ofdm::header_len(&self.occupied_carriers, self.n_syms).unwrap_or(0)
            }
        }
    }
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
    /// The header's length in bytes.
    len: usize,
    /// XORed onto the header's bytes (`ofdm` headers scrambled), else
    /// empty.
    scramble: Vec<u8>,
    /// The next header's number.
    number: u32,
}

impl PacketHeader {
    /// A header writer and reader, its number at 0.
    ///
    /// Errors: a `header_len` or `bits_per_byte` out of range, OFDM
    /// carriers that do not fill `n_syms` symbols.
    pub fn new(params: PacketHeaderParams) -> Result<Self, ParamError> {
        params.validate()?;
        let len = params.header_bytes();
        let scramble = if params.header_format == PacketHeaderKind::Ofdm && params.scramble_header {
            ofdm::scramble_mask(len, params.bits_per_byte)
        } else {
            Vec::new()
        };
        Ok(Self {
            mask: MASK_LUT[params.bits_per_byte as usize],
            len,
            scramble,
            params,
            number: 0,
        })
    }

    /// The header's length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether headers are empty (never: a header has a byte at least).
    pub fn is_empty(&self) -> bool {
        self.len == 0
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
        let mut out = vec![0u8; self.len];
        let fields = [(len, 12), (self.number, 12), (crc, 8)];
        let spread = fields
            .iter()
            .flat_map(|&(value, bits)| (0..bits).step_by(step).map(move |i| value >> i));
        for (o, v) in out.iter_mut().zip(spread) {
            *o = (v & self.mask) as u8;
        }
        self.number = (self.number + 1) & 0x0FFF;
        for (o, m) in out.iter_mut().zip(&self.scramble) {
            *o ^= m;
        }
        out
    }

    /// Reads a header (its first `header_len` bytes): whether it is
    /// valid, and the metadata GNU Radio's `packet_headerparser_b` posts
    /// for it: `tags` (the tags on the header's items, later ones
    /// winning), then the length and header number under their keys
    /// (`I64`). The CRC is checked as far as the header holds it. An
    /// `ofdm` header is descrambled first; its length is given in
    /// payload symbols, and the frame length follows (GNU Radio's
    /// `packet_header_ofdm`).
    pub fn parse(&self, header: &[u8], tags: Vec<Tag>) -> (bool, BTreeMap<String, Pmt>) {
        let (ok, list) = self.parse_list(header, tags);
        (ok, list.into_iter().collect())
    }

    /// [`parse`](Self::parse) as GNU Radio's list of tags, in order.
    fn parse_list(&self, header: &[u8], tags: Vec<Tag>) -> (bool, Vec<(String, Pmt)>) {
        let n = self.len.min(header.len());
        let descrambled: Vec<u8>;
        let header = if self.scramble.is_empty() {
            header
        } else {
            descrambled = header
                .iter()
                .zip(&self.scramble)
                .map(|(h, m)| h ^ m)
                .collect();
            &descrambled
        };
        let (ok, mut info) = self.parse_default(header, n, tags);
        if !ok || self.params.header_format != PacketHeaderKind::Ofdm {
            return (ok, info);
        }
        // GNU Radio converts the first tag of the length key: a tag on
        // the header's items of that key comes before the parsed length.
        let key = &self.params.len_tag_key;
        let mut symbols = 0;
        if let Some((_, v)) = info.iter_mut().find(|(k, _)| k == key) {
            let nbytes = match &*v {
                Pmt::I64(i) => *i,
                other => other.as_f64().map_or(0, |f| f as i64),
            };
            symbols = ofdm::payload_symbols(nbytes, self.params.bits_per_payload_sym);
            *v = Pmt::I64(symbols);
        }
        let frames = ofdm::frame_len(&self.params.occupied_carriers, symbols);
        info.push((self.params.frame_len_tag_key.clone(), Pmt::I64(frames)));
        (true, info)
    }

    /// `packet_header_default`'s parser over the first `n` bytes.
    fn parse_default(&self, header: &[u8], n: usize, tags: Vec<Tag>) -> (bool, Vec<(String, Pmt)>) {
        let step = self.params.bits_per_byte as usize;
        let mut info: Vec<(String, Pmt)> = tags.into_iter().map(|t| (t.key, t.value)).collect();
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
        info.push((self.params.len_tag_key.clone(), Pmt::I64(len as i64)));
        if k >= n {
            return (true, info);
        }
        let mut num = 0;
        if self.params.num_tag_key.is_empty() {
            // GNU Radio skips 12 items here, whatever the bits per byte.
            k += 12;
        } else {
            num = field(&mut k, 12);
            info.push((self.params.num_tag_key.clone(), Pmt::I64(num as i64)));
        }
        let crc = crc_of(len, num) as u32;
        let ok = (0..8)
            .step_by(step)
            .zip(k..n)
            .all(|(i, k)| header[k] as u32 & self.mask == (crc >> i) & self.mask);
        (ok, info)
    }
}
