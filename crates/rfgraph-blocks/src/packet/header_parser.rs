//! Parsing GNU Radio's packet headers from hard bits: [`HeaderParser`]
//! runs the state machine of the `header_format_*` objects' `parse`
//! (search for the access code within a threshold, gather the header,
//! check it) one bit at a time, and gives each header's metadata as GNU
//! Radio's dictionary.

use super::header_format::{HeaderFormat, HeaderFormatParams, crc_of};
use super::header_format_ofdm as ofdm;
use rfgraph::{ParamError, ParamSet, Pmt};
use std::collections::BTreeMap;

/// What one parsed header says.
#[derive(Clone, Debug, PartialEq)]
pub enum Parsed {
    /// A header that passed its check, as GNU Radio's metadata
    /// dictionary: `payload symbols` (`default`, `counter`), `bps` and
    /// `counter` (`counter`), or the length in bits and the header number
    /// under the format's key names (`crc`), or the payload length in
    /// complex symbols, the header number and the frame length in OFDM
    /// symbols under theirs (`ofdm`). Integers are `I64`.
    Header(BTreeMap<String, Pmt>),
    /// A header that failed its check (GNU Radio posts `#f`).
    Bad,
}

impl Parsed {
    /// The message GNU Radio's `protocol_parser_b` posts: the dictionary
    /// as a map, or `false`.
    pub fn into_pmt(self) -> Pmt {
        match self {
            Parsed::Header(info) => Pmt::Map(info),
            Parsed::Bad => Pmt::Bool(false),
        }
    }
}

/// Finds and reads headers in a stream of hard bits (one per byte), as
/// GNU Radio's header format objects parse them: for `default` and
/// `counter`, each bit (its LSB) shifts into a 64-bit register until the
/// last access-code-length bits differ from the access code in at most
/// `threshold` places; the next header bits (any non-zero byte a 1) make
/// the header, whose two length copies must agree. `crc` has no access
/// code: every 32 bits are a header whose CRC-8 must match; `ofdm`
/// reads every `header_nbits` bits as one (only the first 32 checked),
/// descrambled with GNU Radio's mask when `scramble_header`. After a
/// header, good or bad, the search starts again with the next bit (the
/// register keeps its bits, as in GNU Radio).
///
/// ```
/// use rfgraph_blocks::packet::{HeaderFormatParams, HeaderFormatter, HeaderParser, Parsed};
/// use rfgraph::Pmt;
/// let params = HeaderFormatParams::default();
/// let header = HeaderFormatter::new(params.clone())?.format(3);
/// let mut parser = HeaderParser::new(params)?;
/// let bits = header.iter().flat_map(|b| (0..8).rev().map(move |k| (b >> k) & 1));
/// let parsed: Vec<Parsed> = bits.filter_map(|bit| parser.push(bit)).collect();
/// let Parsed::Header(info) = &parsed[0] else { panic!() };
/// assert_eq!(info["payload symbols"], Pmt::I64(24));
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct HeaderParser {
    params: HeaderFormatParams,
    code: u64,
    /// The access code's bits in the register: its `code_len` low bits.
    mask: u64,
    /// Header bits after the access code.
    body_bits: usize,
    /// Searching for the access code (`default`, `counter`).
    searching: bool,
    /// What each header bit is XORed with (`ofdm` with
    /// `scramble_header`: GNU Radio's descrambling mask; else empty).
    descramble: Vec<u8>,
    register: u64,
    header: Vec<bool>,
}

impl HeaderParser {
    /// A parser of `params`' format, searching.
    ///
    /// Errors: an access code that is not 1 to 64 characters `0` and `1`.
    pub fn new(params: HeaderFormatParams) -> Result<Self, ParamError> {
        params.validate()?;
        let (code, len) = params.access_code_bits();
        let searching = params.format.has_access_code();
        let descramble = match params.format {
            HeaderFormat::Ofdm if params.scramble_header => {
                ofdm::parse_mask(params.header_nbits(), params.bits_per_header_sym)
            }
            _ => Vec::new(),
        };
        Ok(Self {
            code,
            mask: !0u64 >> (64 - len),
            body_bits: params.header_nbits() - if searching { len } else { 0 },
            searching,
            descramble,
            register: 0,
            header: Vec::new(),
            params,
        })
    }

    /// The format and its settings.
    pub fn params(&self) -> &HeaderFormatParams {
        &self.params
    }

    /// Takes the next bit; a header when it was the header's last.
    pub fn push(&mut self, bit: u8) -> Option<Parsed> {
        if self.searching {
            self.register = (self.register << 1) | (bit & 1) as u64;
            let wrong = ((self.register ^ self.code) & self.mask).count_ones();
            if wrong <= self.params.threshold {
                self.searching = false;
                self.header.clear();
            }
            return None;
        }
        let mask = self.descramble.get(self.header.len()).copied().unwrap_or(0);
        self.header.push(bit ^ mask != 0);
        if self.header.len() < self.body_bits {
            return None;
        }
        let parsed = self.read();
        self.header.clear();
        self.searching = self.params.format.has_access_code();
        Some(parsed)
    }

    /// The `len` header bits from `pos` on, MSB first.
    fn field(&self, pos: usize, len: usize) -> u32 {
        self.header[pos..pos + len]
            .iter()
            .fold(0, |f, &b| (f << 1) | b as u32)
    }

    /// The whole header, checked and read.
    fn read(&self) -> Parsed {
        let int = |v: u32| Pmt::I64(v as i64);
        let mut info = BTreeMap::new();
        match self.params.format {
            HeaderFormat::Default | HeaderFormat::Counter => {
                let len = self.field(0, 16);
                if len != self.field(16, 16) {
                    return Parsed::Bad;
                }
                let bps = match self.params.format {
                    HeaderFormat::Counter => self.field(32, 16),
                    _ => self.params.bps as u32,
                };
                // GNU Radio divides by zero here and dies.
                if bps == 0 {
                    return Parsed::Bad;
                }
                info.insert("payload symbols".to_string(), int(8 * len / bps));
                if self.params.format == HeaderFormat::Counter {
                    info.insert("bps".to_string(), int(bps));
                    info.insert("counter".to_string(), int(self.field(48, 16)));
                }
            }
            HeaderFormat::Crc | HeaderFormat::Ofdm => {
                // GNU Radio reads the first 24 bits byte-swapped: the
                // length's low byte first, then its high nibble under the
                // number's low nibble, then the number's high byte.
                let pkt = (self.field(0, 24)).swap_bytes();
                let len = (pkt >> 8) & 0x0FFF;
                let num = (pkt >> 20) & 0x0FFF;
                if self.field(24, 8) != crc_of(len, num) as u32 {
                    return Parsed::Bad;
                }
                let p = &self.params;
                if p.format == HeaderFormat::Crc {
                    info.insert(p.len_key_name.clone(), int(8 * len));
                    info.insert(p.num_key_name.clone(), int(num));
                } else {
                    let (symbols, frames) =
                        ofdm::payload(&p.occupied_carriers, len, p.bits_per_payload_sym);
                    // In GNU Radio's order: a repeated key keeps the last.
                    info.insert(p.len_key_name.clone(), Pmt::I64(symbols));
                    info.insert(p.num_key_name.clone(), int(num));
                    info.insert(p.frame_key_name.clone(), Pmt::I64(frames));
                }
            }
        }
        Parsed::Header(info)
    }
}
