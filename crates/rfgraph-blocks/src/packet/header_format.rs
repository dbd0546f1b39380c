//! GNU Radio's packet header formats (`digital.header_format_default`,
//! `header_format_counter`, `header_format_crc`, `header_format_ofdm`),
//! declared once as
//! [`HeaderFormatParams`] for every block that formats or parses headers
//! to flatten in, and [`HeaderFormatter`], which writes headers bit for
//! bit as GNU Radio writes them. The parsing side is
//! [`HeaderParser`](super::HeaderParser).

use super::crc::crc8;
use super::header_format_ofdm as ofdm;
use crate::ofdm::CarrierSets;
use rfgraph::{ParamChoice, ParamError, ParamSet};

/// GNU Radio's default access code
/// (`digital.packet_utils.default_access_code`, `0xACDDA4E2F28C20FC`).
pub const DEFAULT_ACCESS_CODE: &str =
    "1010110011011101101001001110001011110010100011000010000011111100";

/// A header format: which of GNU Radio's `header_format_*` objects.
#[derive(ParamChoice, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderFormat {
    /// `header_format_default`: the access code, then the payload's
    /// length in bytes as 16 bits, twice.
    Default,
    /// `header_format_counter`: the default header followed by the bits
    /// per symbol and a packet counter, 16 bits each.
    Counter,
    /// `header_format_crc`: 12 bits of payload length, 12 bits of header
    /// number and a CRC-8 of both (no access code).
    Crc,
    /// `header_format_ofdm`: the `crc` header, zero-padded to one bit per
    /// occupied carrier of the first `n_syms` OFDM symbols; its parser
    /// gives the payload length in complex symbols and the frame length
    /// in OFDM symbols.
    Ofdm,
}

impl HeaderFormat {
    /// Whether headers start with an access code the parser searches
    /// for (`default`, `counter`).
    pub fn has_access_code(self) -> bool {
        matches!(self, HeaderFormat::Default | HeaderFormat::Counter)
    }
}

/// A header format and its settings: the parameters of GNU Radio's
/// `header_format_*` objects, flattened into the parameters of each block
/// that formats or parses headers (`#[param(flatten)]`). Each format
/// reads its own: `default` and `counter` the access code, threshold and
/// bits per symbol; `crc` the two key names; `ofdm` those and the OFDM
/// settings (`occupied_carriers` to `scramble_header`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct HeaderFormatParams {
    /// the header format: `default`, `counter`, `crc` or `ofdm`
    #[param(default = HeaderFormat::Default)]
    pub format: HeaderFormat,
    /// the access code, as up to 64 characters `0` and `1` (`default`,
    /// `counter`)
    #[param(default = DEFAULT_ACCESS_CODE.to_string(), max_len = 64)]
    pub access_code: String,
    /// how many bits of the access code may be wrong (`default`,
    /// `counter`)
    #[param(default = 0)]
    pub threshold: u32,
    /// payload bits per symbol: `payload symbols = 8·length / bps`
    /// (`default`; `counter` writes it into its headers)
    #[param(default = 1, min = 1)]
    pub bps: u16,
    /// the metadata key of the payload's length: in bits (`crc`), in
    /// complex symbols (`ofdm`)
    #[param(default = "packet_len")]
    pub len_key_name: String,
    /// the metadata key of the header number (`crc`, `ofdm`)
    #[param(default = "packet_num")]
    pub num_key_name: String,
    /// the OFDM carriers carrying data, one list per OFDM symbol used in
    /// turn; the header has one bit per carrier of the first `n_syms`
    /// (`ofdm`)
    #[param(default = CarrierSets::txrx_occupied())]
    pub occupied_carriers: CarrierSets,
    /// how many OFDM symbols the header fills (`ofdm`)
    #[param(default = 1, min = 1)]
    pub n_syms: usize,
    /// the metadata key of the frame length in OFDM symbols (`ofdm`)
    #[param(default = "frame_len")]
    pub frame_key_name: String,
    /// header bits per complex symbol: bits of the scrambling mask per
    /// mask byte (`ofdm`)
    #[param(default = 1, min = 1, max = 8)]
    pub bits_per_header_sym: u8,
    /// payload bits per complex symbol: the parser gives the payload
    /// length in complex symbols, rounded up (`ofdm`)
    #[param(default = 1, min = 1)]
    pub bits_per_payload_sym: u16,
    /// whether the parser descrambles the header (GNU Radio 3.10's
    /// formatter never scrambles) (`ofdm`)
    #[param(default = false)]
    pub scramble_header: bool,
}

impl HeaderFormatParams {
    /// The access code: 1 to 64 characters `0` and `1`; an `ofdm`
    /// header: at least 32 bits, of carrier lists it has.
    fn check(&self) -> Result<(), ParamError> {
        if self.format == HeaderFormat::Ofdm {
            ofdm::check(&self.occupied_carriers, self.n_syms)?;
        }
        let code = &self.access_code;
        if code.is_empty() || code.len() > 64 || !code.bytes().all(|b| b == b'0' || b == b'1') {
            return Err(ParamError::new(
                "header format",
                "access_code",
                format!("must be 1 to 64 characters 0 and 1, not {code:?}"),
            ));
        }
        Ok(())
    }

    /// The access code's bits, right-aligned, and its length.
    pub(crate) fn access_code_bits(&self) -> (u64, usize) {
        let code = self
            .access_code
            .bytes()
            .take(64)
            .fold(0u64, |c, b| (c << 1) | (b & 1) as u64);
        (code, self.access_code.len().min(64))
    }

    /// The length of a header in bits, the access code included.
    pub fn header_nbits(&self) -> usize {
        let code = self.access_code_bits().1;
        match self.format {
            HeaderFormat::Default => code + 32,
            HeaderFormat::Counter => code + 64,
            HeaderFormat::Crc => 32,
            HeaderFormat::Ofdm => {
                ofdm::header_nbits(&self.occupied_carriers, self.n_syms).unwrap_or(0)
            }
        }
    }

    /// The length of a header in bytes, as GNU Radio counts it: the bits
    /// divided by 8, rounded down.
    pub fn header_nbytes(&self) -> usize {
        self.header_nbits() / 8
    }
}

/// Writes headers as GNU Radio's header format objects write them (their
/// `format`): MSB first, fields in big-endian byte order. It counts the
/// headers it wrote, for the formats that number them.
///
/// ```
/// use rfgraph_blocks::packet::{HeaderFormat, HeaderFormatParams, HeaderFormatter};
/// let mut f = HeaderFormatter::new(HeaderFormatParams {
///     format: HeaderFormat::Crc,
///     ..Default::default()
/// })?;
/// assert_eq!(f.format(5), [5, 0, 0, 159]);
/// assert_eq!(f.format(0), [0, 0x10, 0, 196]);
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct HeaderFormatter {
    params: HeaderFormatParams,
    /// `header_format_counter`'s counter, `header_format_crc`'s header
    /// number.
    count: u16,
}

impl HeaderFormatter {
    /// A formatter of `params`' format, its count at 0.
    ///
    /// Errors: an access code that is not 1 to 64 characters `0` and
    /// `1`; an `ofdm` header shorter than 32 bits or of more OFDM symbols
    /// than carrier lists.
    pub fn new(params: HeaderFormatParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self { params, count: 0 })
    }

    /// The format and its settings.
    pub fn params(&self) -> &HeaderFormatParams {
        &self.params
    }

    /// The header of a payload of `nbytes` bytes
    /// ([`header_nbytes`](HeaderFormatParams::header_nbytes) long). The
    /// length field keeps the low 16 bits of `nbytes` (`crc`, `ofdm`: 12
    /// bits; `ofdm` pads the `crc` header with zeros).
    pub fn format(&mut self, nbytes: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.params.header_nbytes());
        match self.params.format {
            HeaderFormat::Default | HeaderFormat::Counter => {
                let (code, len) = self.params.access_code_bits();
                // GNU Radio 3.10's `header_buffer::add_field64(code, len)`
                // writes the code's low len / 8 bytes, big-endian: a code
                // of a length no multiple of 8 loses its leading bits.
                out.extend_from_slice(&code.to_be_bytes()[8 - len / 8..]);
                let n = nbytes as u16;
                out.extend_from_slice(&n.to_be_bytes());
                out.extend_from_slice(&n.to_be_bytes());
                if self.params.format == HeaderFormat::Counter {
                    out.extend_from_slice(&self.params.bps.to_be_bytes());
                    out.extend_from_slice(&self.count.to_be_bytes());
                    self.count = self.count.wrapping_add(1);
                }
            }
            HeaderFormat::Crc | HeaderFormat::Ofdm => {
                let len = (nbytes & 0x0FFF) as u32;
                let num = self.count as u32;
                let crc = crc_of(len, num);
                let concat = (num << 12) | len;
                out.extend_from_slice(&concat.to_le_bytes()[..3]);
                out.push(crc);
                self.count = (self.count + 1) & 0x0FFF;
                out.resize(self.params.header_nbytes().max(4), 0);
            }
        }
        out
    }
}

/// The CRC-8 of a `crc` header: over its length and number, each as two
/// little-endian bytes.
pub(crate) fn crc_of(len: u32, num: u32) -> u8 {
    crc8(&[len as u8, (len >> 8) as u8, num as u8, (num >> 8) as u8])
}
