//! GNU Radio 3.10's UDP datagram headers (`gnuradio/network/
//! packet_headers.h`), byte for byte, and [`parse`], the one function
//! that takes a received datagram apart.
//!
//! GNU Radio copies its header structs into the datagram with `memcpy`,
//! so they are in the host's byte order, little-endian on every machine
//! it is used on; this module writes and reads little-endian whatever
//! the host. The layouts, as `udp_sink` sends them:
//!
//! | type | bytes | layout |
//! |---|---|---|
//! | `none` (0) | 0 | |
//! | `seqnum` (1) | 8 | `u64` sequence number, the first datagram's 1 |
//! | `seq_plus_size` (2) | 16 | `u64` sequence number, `i16` datagram length (GNU Radio writes its `payloadsize`, header included), 6 bytes of struct padding (whatever GNU Radio's stack held; zeros here) |
//!
//! Then the items. A datagram's `payloadsize` counts the header: GNU
//! Radio's sink sends `payloadsize - header` bytes of items in each.
//!
//! Datagrams are untrusted: [`parse`] never panics and never allocates.

use rfgraph::ParamChoice;

/// The header every datagram starts with: `none`, `seqnum` or
/// `seq_plus_size`, or GNU Radio's numbers `0`, `1`, `2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ParamChoice)]
pub enum HeaderType {
    /// No header: items only (GNU Radio's `HEADERTYPE_NONE`, 0).
    #[choice(alias = "0")]
    None,
    /// A 64-bit sequence number, 8 bytes (`HEADERTYPE_SEQNUM`, 1).
    #[choice(alias = "1")]
    Seqnum,
    /// A 64-bit sequence number and a 16-bit length, 16 bytes with
    /// padding (`HEADERTYPE_SEQPLUSSIZE`, 2).
    #[choice(alias = "2")]
    SeqPlusSize,
}

impl HeaderType {
    /// Bytes of the header (GNU Radio's `sizeof` of its struct).
    pub const fn size(self) -> usize {
        match self {
            HeaderType::None => 0,
            HeaderType::Seqnum => 8,
            HeaderType::SeqPlusSize => 16,
        }
    }

    /// GNU Radio's number for the header (`header_type`).
    pub const fn gnuradio(self) -> i32 {
        match self {
            HeaderType::None => 0,
            HeaderType::Seqnum => 1,
            HeaderType::SeqPlusSize => 2,
        }
    }

    /// Writes the header of datagram `seq` whose length, header
    /// included, is `datagram_len` into `out`, which is
    /// [`size`](Self::size) bytes long.
    pub fn write(self, seq: u64, datagram_len: usize, out: &mut [u8]) {
        match self {
            HeaderType::None => {}
            HeaderType::Seqnum => out[..8].copy_from_slice(&seq.to_le_bytes()),
            HeaderType::SeqPlusSize => {
                out[..8].copy_from_slice(&seq.to_le_bytes());
                // GNU Radio stores its `int` payload size into an
                // `int16_t`: the low 16 bits.
                out[8..10].copy_from_slice(&(datagram_len as u16).to_le_bytes());
                out[10..16].fill(0);
            }
        }
    }
}

/// A datagram taken apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame<'a> {
    /// Its sequence number, when the header has one.
    pub seq: Option<u64>,
    /// The items' bytes: a whole number of vectors.
    pub payload: &'a [u8],
}

/// Why a datagram was dropped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    /// Shorter than its header.
    #[error("a {len}-byte datagram is shorter than the {header}-byte `{kind}` header")]
    Short {
        /// The datagram's length.
        len: usize,
        /// The header's length.
        header: usize,
        /// The header's name.
        kind: &'static str,
    },
    /// Its items are not a whole number of vectors.
    #[error("{payload} bytes of items are not a whole number of {vector}-byte vectors")]
    Partial {
        /// Bytes after the header.
        payload: usize,
        /// Bytes of one vector (`itemsize · vlen`).
        vector: usize,
    },
}

/// Takes `datagram` apart as `header` and vectors of `vector` bytes.
///
/// Errors: the datagram is shorter than the header, or the rest is not
/// a whole number of vectors (a `vector` of 0 accepts no items).
pub fn parse(datagram: &[u8], header: HeaderType, vector: usize) -> Result<Frame<'_>, FrameError> {
    let size = header.size();
    let (head, payload) = datagram
        .split_at_checked(size)
        .ok_or_else(|| FrameError::Short {
            len: datagram.len(),
            header: size,
            kind: header.choice_name(),
        })?;
    if payload.len().checked_rem(vector) != Some(0) && !payload.is_empty() {
        return Err(FrameError::Partial {
            payload: payload.len(),
            vector,
        });
    }
    let seq = head
        .first_chunk::<8>()
        .map(|bytes| u64::from_le_bytes(*bytes));
    Ok(Frame { seq, payload })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_gnu_radios_bytes() {
        // Captured from GNU Radio 3.10.5's udp_sink (header 1, then 2,
        // payloadsize 1472): the first datagram's first bytes.
        let mut seqnum = [0u8; 8];
        HeaderType::Seqnum.write(1, 1472, &mut seqnum);
        assert_eq!(seqnum, [1, 0, 0, 0, 0, 0, 0, 0]);
        let mut plus = [0xaau8; 16];
        HeaderType::SeqPlusSize.write(2, 1472, &mut plus);
        assert_eq!(&plus[..10], &[2, 0, 0, 0, 0, 0, 0, 0, 0xc0, 0x05]);
        assert_eq!(&plus[10..], &[0; 6]);
    }

    #[test]
    fn parses_what_it_writes_and_refuses_the_rest() {
        let mut d = vec![0u8; 8 + 16];
        HeaderType::Seqnum.write(7, d.len(), &mut d[..8]);
        let f = parse(&d, HeaderType::Seqnum, 8).unwrap();
        assert_eq!((f.seq, f.payload.len()), (Some(7), 16));
        assert_eq!(parse(&d, HeaderType::None, 8).unwrap().seq, None);
        assert!(matches!(
            parse(&d[..5], HeaderType::Seqnum, 8),
            Err(FrameError::Short { len: 5, .. })
        ));
        assert!(matches!(
            parse(&d[..20], HeaderType::Seqnum, 8),
            Err(FrameError::Partial { payload: 12, .. })
        ));
        assert!(parse(&d, HeaderType::Seqnum, 0).is_err());
        assert!(
            parse(&d[..8], HeaderType::Seqnum, 0)
                .unwrap()
                .payload
                .is_empty()
        );
    }
}
