//! GNU Radio's metadata header (`gr-blocks`' `file_meta_sink` /
//! `file_meta_source`, `parse_file_metadata.py`): what one header holds,
//! reading it from untrusted bytes ([`MetaHeader::decode`]), and the
//! ordered dict the sink writes it from.
//!
//! A metadata file is a run of segments, each a header and then its
//! data; a detached file keeps the headers, one after another, in a
//! file of their own (`<file>.hdr`) and only the data in the file. A
//! header is two serialized PMTs ([`gr_pmt`](crate::gr_pmt)):
//!
//! - a dict of exactly [`HEADER_SIZE`] (149) bytes: `version` (int32 0),
//!   `rx_rate` (double, samples/s), `rx_time` (tuple of uint64 seconds
//!   and double fractional seconds of the segment's first item), `size`
//!   (int32, bytes of an item), `type` (int32, [`file_type`]), `cplx`
//!   (bool), `strt` (uint64: the header's length with its extras, so
//!   where the data starts after the header) and `bytes` (uint64, the
//!   segment's data);
//! - a dict of extras (`strt − 149` bytes): the sink's `extra_dict` and
//!   every stream tag whose key is not one of the above. GNU Radio
//!   writes the empty dict as null (one byte).
//!
//! GNU Radio writes a dict newest entry first, and updating an entry
//! moves it to the front; [`GrDict`] keeps that order so that the sink's
//! headers match GNU Radio's byte for byte.

use crate::gr_pmt::{self, DecodeError, EncodeError};
use rfgraph::Pmt;
use rfgraph::params::ItemKind;
use std::collections::BTreeMap;

/// The length of the fixed header, without its extras
/// (`METADATA_HEADER_SIZE`).
pub const HEADER_SIZE: usize = 149;

/// The header version GNU Radio writes (`METADATA_VERSION`).
pub const VERSION: i64 = 0;

/// GNU Radio's `gr_file_types` and whether the data is complex, for
/// items of `kind`: bytes 0, shorts 1, ints 2, floats 5 (complex:
/// `cplx` true), doubles 6.
pub fn file_type(kind: ItemKind) -> (i64, bool) {
    match kind {
        ItemKind::U8 | ItemKind::I8 => (0, false),
        ItemKind::I16 => (1, false),
        ItemKind::I32 => (2, false),
        ItemKind::F32 => (5, false),
        ItemKind::C32 => (5, true),
        ItemKind::F64 => (6, false),
    }
}

/// Why bytes are not a usable metadata header.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MetaError {
    /// Fewer bytes than the header (or its extras) needs.
    #[error("the header is truncated: {need} bytes needed, {have} there")]
    Truncated {
        /// Bytes needed.
        need: u64,
        /// Bytes there.
        have: u64,
    },
    /// The header or its extras are no GNU Radio PMT.
    #[error("the header is no GNU Radio PMT: {0}")]
    Pmt(#[from] DecodeError),
    /// The header or its extras are a PMT but not a dict.
    #[error("the {0} are not a PMT dict")]
    NotADict(&'static str),
    /// A key GNU Radio's `file_meta_source` needs is missing.
    #[error("the header has no `{0}`")]
    Missing(&'static str),
    /// A value of the wrong type or out of range.
    #[error("the header's `{key}` is {value:?}: {why}")]
    BadValue {
        /// The key.
        key: &'static str,
        /// The value found.
        value: Pmt,
        /// What it should be.
        why: &'static str,
    },
}

/// One header as read: what GNU Radio's `file_meta_source` uses of it
/// (`rx_rate`, `rx_time`, `size`, `bytes`, `strt`, the extras) and the
/// descriptive rest, which it ignores and which may therefore be absent.
#[derive(Clone, Debug, PartialEq)]
pub struct MetaHeader {
    /// `version`, when present.
    pub version: Option<i64>,
    /// `rx_rate`: samples per second.
    pub rx_rate: f64,
    /// `rx_time`, as stored (GNU Radio writes a tuple of uint64 seconds
    /// and double fractional seconds, and passes any value on as a tag).
    pub rx_time: Pmt,
    /// `size`: bytes of one item.
    pub item_size: u64,
    /// `type` ([`file_type`]), when present.
    pub file_type: Option<i64>,
    /// `cplx`, when present.
    pub complex: Option<bool>,
    /// `strt`: bytes of the header with its extras (149 when absent).
    pub start: u64,
    /// `bytes`: bytes of data in the segment.
    pub bytes: u64,
    /// The extras dict.
    pub extras: BTreeMap<String, Pmt>,
}

impl MetaHeader {
    /// The header at the start of `bytes` (its 149 bytes, then its
    /// extras) and the bytes it took (`strt`).
    ///
    /// Errors: too few bytes, bytes that are no PMT dict, a missing
    /// `rx_rate`, `rx_time`, `size` or `bytes`, a value of the wrong
    /// type, a `size` of 0, `bytes` that are no whole number of items,
    /// a `strt` below 149. Never panics, and allocates no more than
    /// `bytes` backs.
    pub fn decode(bytes: &[u8]) -> Result<(Self, usize), MetaError> {
        let mut header = Self::decode_fixed(bytes)?;
        let start = usize::try_from(header.start).unwrap_or(usize::MAX);
        let extras = bytes.get(HEADER_SIZE..start).ok_or(MetaError::Truncated {
            need: header.start,
            have: bytes.len() as u64,
        })?;
        header.extras = decode_extras(extras)?;
        Ok((header, start))
    }

    /// The fixed part: the first 149 bytes of `bytes` (extras left
    /// empty; they are the next [`extra_len`](Self::extra_len) bytes).
    ///
    /// Errors: as [`decode`](Self::decode), but for the extras.
    pub fn decode_fixed(bytes: &[u8]) -> Result<Self, MetaError> {
        let fixed = bytes.get(..HEADER_SIZE).ok_or(MetaError::Truncated {
            need: HEADER_SIZE as u64,
            have: bytes.len() as u64,
        })?;
        // As GNU Radio's `deserialize_str`: the first PMT of the 149 bytes.
        let (dict, _) = gr_pmt::decode_prefix(fixed)?;
        let Pmt::Map(mut dict) = dict else {
            return Err(MetaError::NotADict("header"));
        };
        let mut take = |key: &'static str| dict.remove(key).ok_or(MetaError::Missing(key));
        let rx_rate = to_double("rx_rate", take("rx_rate")?)?;
        let rx_time = take("rx_time")?;
        let item_size = to_uint64("size", take("size")?)?;
        let bytes_field = to_uint64("bytes", take("bytes")?)?;
        let start = match dict.remove("strt") {
            Some(v) => to_uint64("strt", v)?,
            None => HEADER_SIZE as u64,
        };
        let version = dict
            .remove("version")
            .map(|v| to_long("version", v))
            .transpose()?;
        let file_type = dict
            .remove("type")
            .map(|v| to_long("type", v))
            .transpose()?;
        let complex = match dict.remove("cplx") {
            Some(Pmt::Bool(b)) => Some(b),
            Some(value) => {
                return Err(MetaError::BadValue {
                    key: "cplx",
                    value,
                    why: "not a bool",
                });
            }
            None => None,
        };
        if item_size == 0 {
            return Err(MetaError::BadValue {
                key: "size",
                value: Pmt::U64(0),
                why: "an item of no bytes",
            });
        }
        if !bytes_field.is_multiple_of(item_size) {
            return Err(MetaError::BadValue {
                key: "bytes",
                value: Pmt::U64(bytes_field),
                why: "not a whole number of items",
            });
        }
        if start < HEADER_SIZE as u64 {
            return Err(MetaError::BadValue {
                key: "strt",
                value: Pmt::U64(start),
                why: "shorter than the 149-byte header",
            });
        }
        Ok(Self {
            version,
            rx_rate,
            rx_time,
            item_size,
            file_type,
            complex,
            start,
            bytes: bytes_field,
            extras: BTreeMap::new(),
        })
    }

    /// Bytes of extras after the fixed 149.
    pub fn extra_len(&self) -> u64 {
        self.start - HEADER_SIZE as u64
    }

    /// Items of `item_size` bytes in the segment.
    pub fn items(&self) -> u64 {
        self.bytes / self.item_size
    }

    /// The tags GNU Radio's `file_meta_source` puts on a segment's first
    /// item: `rx_rate`, `rx_time`, then each extra.
    pub fn tags(&self) -> Vec<(String, Pmt)> {
        let mut tags = vec![
            ("rx_rate".to_string(), Pmt::F64(self.rx_rate)),
            ("rx_time".to_string(), self.rx_time.clone()),
        ];
        tags.extend(self.extras.iter().map(|(k, v)| (k.clone(), v.clone())));
        tags
    }
}

/// The extras dict from its bytes (null, GNU Radio's empty dict, is
/// none; no bytes at all, too).
///
/// Errors: bytes that are no PMT, or no dict.
pub fn decode_extras(bytes: &[u8]) -> Result<BTreeMap<String, Pmt>, MetaError> {
    if bytes.is_empty() {
        return Ok(BTreeMap::new());
    }
    match gr_pmt::decode_prefix(bytes)?.0 {
        Pmt::Map(map) => Ok(map),
        Pmt::Null => Ok(BTreeMap::new()),
        _ => Err(MetaError::NotADict("extras")),
    }
}

fn to_double(key: &'static str, value: Pmt) -> Result<f64, MetaError> {
    value.as_f64().ok_or(MetaError::BadValue {
        key,
        value,
        why: "not a number",
    })
}

fn to_uint64(key: &'static str, value: Pmt) -> Result<u64, MetaError> {
    value.as_u64().ok_or(MetaError::BadValue {
        key,
        value,
        why: "not a non-negative integer",
    })
}

fn to_long(key: &'static str, value: Pmt) -> Result<i64, MetaError> {
    match value {
        Pmt::I64(v) => Ok(v),
        Pmt::U64(v) if i64::try_from(v).is_ok() => Ok(v as i64),
        value => Err(MetaError::BadValue {
            key,
            value,
            why: "not an integer",
        }),
    }
}

/// A PMT dict as GNU Radio holds it: newest entry first, an update
/// moving its entry to the front (`pmt::dict_add`).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct GrDict {
    entries: Vec<(String, Pmt)>,
}

impl GrDict {
    /// Adds or replaces `key`, at the front.
    pub(crate) fn add(&mut self, key: &str, value: Pmt) {
        self.entries.retain(|(k, _)| k != key);
        self.entries.insert(0, (key.to_string(), value));
    }

    pub(crate) fn get(&self, key: &str) -> Option<&Pmt> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub(crate) fn contains(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The serialized dict, in GNU Radio's order.
    pub(crate) fn encode(&self) -> Result<Vec<u8>, EncodeError> {
        let mut out = Vec::new();
        gr_pmt::encode_dict_into(self.entries.iter().map(|(k, v)| (k.as_str(), v)), &mut out)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header as GNU Radio 3.10's `file_meta_sink` wrote it (float
    /// items at 1 kHz, a segment of 3 items, extras `{e1: 1.5}`).
    const GNU_RADIO: &str = "0907020004737472740b00000000000000a6090702000562797465730b000000000000000c090702000463706c78010907020004747970650300000005090702000473697a650300000004090702000772785f74696d650c000000020b0000000000000000040000000000000000090702000772785f7261746504408f400000000000090702000776657273696f6e03000000000609070200026531043ff800000000000006";

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn reads_what_gnu_radio_wrote() {
        let bytes = hex(GNU_RADIO);
        let (h, used) = MetaHeader::decode(&bytes).unwrap();
        assert_eq!(used, bytes.len());
        assert_eq!(h.rx_rate, 1000.0);
        assert_eq!(h.rx_time, Pmt::Tuple(vec![Pmt::U64(0), Pmt::F64(0.0)]));
        assert_eq!((h.item_size, h.bytes, h.items()), (4, 12, 3));
        assert_eq!(
            (h.version, h.file_type, h.complex),
            (Some(0), Some(5), Some(false))
        );
        assert_eq!(h.start, 166);
        assert_eq!(h.extras.get("e1"), Some(&Pmt::F64(1.5)));
    }

    #[test]
    fn writes_what_gnu_radio_wrote() {
        let mut d = GrDict::default();
        d.add("version", Pmt::I64(0));
        d.add("rx_rate", Pmt::F64(1000.0));
        d.add("rx_time", Pmt::Tuple(vec![Pmt::U64(0), Pmt::F64(0.0)]));
        d.add("size", Pmt::I64(4));
        d.add("type", Pmt::I64(5));
        d.add("cplx", Pmt::Bool(false));
        d.add("strt", Pmt::U64(0));
        d.add("bytes", Pmt::U64(0));
        // An update moves the entry to the front, as `pmt::dict_add`.
        d.add("bytes", Pmt::U64(12));
        d.add("strt", Pmt::U64(166));
        let mut extras = GrDict::default();
        extras.add("e1", Pmt::F64(1.5));
        let mut bytes = d.encode().unwrap();
        assert_eq!(bytes.len(), HEADER_SIZE);
        bytes.extend(extras.encode().unwrap());
        assert_eq!(bytes, hex(GNU_RADIO));
    }

    #[test]
    fn refuses_what_cannot_be_a_header() {
        let bytes = hex(GNU_RADIO);
        assert!(matches!(
            MetaHeader::decode(&bytes[..100]),
            Err(MetaError::Truncated {
                need: 149,
                have: 100
            })
        ));
        assert!(matches!(
            MetaHeader::decode(&bytes[..160]),
            Err(MetaError::Truncated {
                need: 166,
                have: 160
            })
        ));
        let mut not_dict = vec![0x06];
        not_dict.resize(HEADER_SIZE, 0);
        assert_eq!(
            MetaHeader::decode(&not_dict),
            Err(MetaError::NotADict("header"))
        );
    }
}
