//! gr-zeromq's stream-tag header: what a `pass_tags` frame carries
//! before its items.
//!
//! Layout, in the host's byte order (as GNU Radio copies its integers;
//! little-endian on every host it runs on in practice):
//!
//! | field | size |
//! |---|---|
//! | magic `0x5FF0` | u16 |
//! | version `1` | u8 |
//! | offset: the absolute index of the frame's first item | u64 |
//! | tag count | u64 |
//! | per tag: its absolute offset, then its key, value and source id, each a serialized PMT ([`gr_pmt`](crate::gr_pmt::encode)) | u64 + 3 PMTs |
//!
//! A tag written by rfgraph has the source id `#f` (GNU Radio's "none");
//! a source id read is dropped (rfgraph's tags have none).
//!
//! [`decode`] reads untrusted frames: a wrong magic or version, a tag
//! count larger than the frame could hold, a key that is not a symbol or
//! a PMT that does not decode is an error, never a panic or an
//! allocation the frame does not back.

use crate::gr_pmt::{self, DecodeError, EncodeError};
use rfgraph::{Pmt, Tag};

/// The header's first field.
pub const MAGIC: u16 = 0x5FF0;
/// The only version GNU Radio writes.
pub const VERSION: u8 = 1;
/// The header's size without tags.
pub const FIXED_LEN: usize = 2 + 1 + 8 + 8;
/// The fewest bytes a tag takes (its offset and three one-byte PMTs).
const MIN_TAG_LEN: u64 = 8 + 3;

/// Why a frame's header is not usable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// Fewer bytes than the header needs.
    #[error("the frame ({0} bytes) is shorter than its tag header")]
    Truncated(usize),
    /// Not gr-zeromq's magic number.
    #[error("wrong magic {0:#06x} (a frame without tags, or not from gr-zeromq?)")]
    Magic(u16),
    /// A version other than 1.
    #[error("tag header version {0} (only 1 is known)")]
    Version(u8),
    /// More tags than the frame has bytes for.
    #[error("{count} tags cannot fit in the {left} bytes left")]
    TooManyTags {
        /// The count read.
        count: u64,
        /// Bytes after the fixed header.
        left: usize,
    },
    /// A tag's key is not a symbol.
    #[error("a tag key is not a symbol")]
    KeyNotSymbol,
    /// A tag's PMT does not decode.
    #[error("a tag's PMT: {0}")]
    Pmt(#[from] DecodeError),
}

/// A decoded header.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The absolute index, at the sender, of the frame's first item.
    pub offset: u64,
    /// The tags, their offsets as the sender wrote them (absolute).
    pub tags: Vec<Tag>,
    /// The header's length in bytes: the items start here.
    pub len: usize,
}

/// Appends the header for a frame whose first item is `offset`, with
/// `tags` (absolute offsets), to `out`.
pub fn encode(offset: u64, tags: &[Tag], out: &mut Vec<u8>) -> Result<(), EncodeError> {
    out.extend_from_slice(&MAGIC.to_ne_bytes());
    out.push(VERSION);
    out.extend_from_slice(&offset.to_ne_bytes());
    out.extend_from_slice(&(tags.len() as u64).to_ne_bytes());
    for tag in tags {
        out.extend_from_slice(&tag.index.to_ne_bytes());
        gr_pmt::encode_into(&Pmt::String(tag.key.clone()), out)?;
        gr_pmt::encode_into(&tag.value, out)?;
        gr_pmt::encode_into(&Pmt::Bool(false), out)?;
    }
    Ok(())
}

/// The header at the start of `frame`.
pub fn decode(frame: &[u8]) -> Result<Header, HeaderError> {
    let fixed = frame
        .get(..FIXED_LEN)
        .ok_or(HeaderError::Truncated(frame.len()))?;
    let magic = u16::from_ne_bytes([fixed[0], fixed[1]]);
    if magic != MAGIC {
        return Err(HeaderError::Magic(magic));
    }
    if fixed[2] != VERSION {
        return Err(HeaderError::Version(fixed[2]));
    }
    let offset = u64::from_ne_bytes(fixed[3..11].try_into().expect("8 bytes"));
    let count = u64::from_ne_bytes(fixed[11..19].try_into().expect("8 bytes"));
    let left = frame.len() - FIXED_LEN;
    if count.saturating_mul(MIN_TAG_LEN) > left as u64 {
        return Err(HeaderError::TooManyTags { count, left });
    }
    let mut pos = FIXED_LEN;
    let mut tags = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let index_bytes = frame
            .get(pos..pos + 8)
            .ok_or(HeaderError::Truncated(frame.len()))?;
        let index = u64::from_ne_bytes(index_bytes.try_into().expect("8 bytes"));
        pos += 8;
        let mut next = || -> Result<Pmt, HeaderError> {
            let (value, used) = gr_pmt::decode_prefix(&frame[pos..])?;
            pos += used;
            Ok(value)
        };
        let Pmt::String(key) = next()? else {
            return Err(HeaderError::KeyNotSymbol);
        };
        let value = next()?;
        let _source_id = next()?;
        tags.push(Tag { index, key, value });
    }
    Ok(Header {
        offset,
        tags,
        len: pos,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_matches_gnu_radios_layout() {
        let tags = vec![
            Tag::new(12, "rx_freq", 100e6),
            Tag::new(13, "burst", Pmt::Tuple(vec![Pmt::I64(1), Pmt::from("x")])),
        ];
        let mut frame = Vec::new();
        encode(10, &tags, &mut frame).unwrap();
        // The fixed part: f0 5f 01, offset 10, two tags.
        assert_eq!(&frame[..3], &[0xf0, 0x5f, 0x01]);
        assert_eq!(&frame[3..11], &10u64.to_le_bytes());
        assert_eq!(&frame[11..19], &2u64.to_le_bytes());
        // The first tag: offset 12, symbol "rx_freq", double, #f.
        assert_eq!(&frame[19..27], &12u64.to_le_bytes());
        assert_eq!(&frame[27..37], b"\x02\x00\x07rx_freq");
        frame.extend_from_slice(&[1, 2, 3, 4]);
        let header = decode(&frame).unwrap();
        assert_eq!(header.offset, 10);
        assert_eq!(header.tags, tags);
        assert_eq!(&frame[header.len..], &[1, 2, 3, 4]);
    }

    #[test]
    fn refuses_bad_headers() {
        let mut frame = Vec::new();
        encode(0, &[], &mut frame).unwrap();
        assert_eq!(decode(&frame[..10]), Err(HeaderError::Truncated(10)));
        let mut wrong = frame.clone();
        wrong[0] = 0;
        assert!(matches!(decode(&wrong), Err(HeaderError::Magic(_))));
        let mut version = frame.clone();
        version[2] = 2;
        assert_eq!(decode(&version), Err(HeaderError::Version(2)));
        let mut count = frame.clone();
        count[11..19].copy_from_slice(&u64::MAX.to_ne_bytes());
        assert!(matches!(
            decode(&count),
            Err(HeaderError::TooManyTags { .. })
        ));
        // One tag whose key is an integer.
        let mut bad_key = frame.clone();
        bad_key[11..19].copy_from_slice(&1u64.to_ne_bytes());
        bad_key.extend_from_slice(&0u64.to_ne_bytes());
        bad_key.extend_from_slice(&[0x03, 0, 0, 0, 1, 0x06, 0x06]);
        assert_eq!(decode(&bad_key), Err(HeaderError::KeyNotSymbol));
    }
}
