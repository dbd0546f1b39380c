//! gr-zeromq stream frames: items in the host's byte order, after a tag
//! header ([`tag_header`](crate::tag_header::encode)) when `pass_tags` is on.
//! Building one for a sink and taking one apart for a source are pure
//! functions here, so the untrusted half is testable on its own.
//!
//! Offsets here count GNU Radio items: whole vectors of `vlen` scalars.

use super::pool::FramePool;
use crate::gr_pmt::EncodeError;
use crate::tag_header::{self, HeaderError};
use bytes::Bytes;
use rfgraph::Tag;

/// A received frame, taken apart.
#[derive(Debug)]
pub struct StreamFrame {
    /// The items' bytes (a whole number of items).
    pub payload: Bytes,
    /// The tags, their offsets relative to the frame's first item.
    pub tags: Vec<Tag>,
}

/// Why a received frame is dropped.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// Its tag header is unusable.
    #[error("{0}")]
    Header(#[from] HeaderError),
    /// Its items are not a whole number of items.
    #[error("{bytes} bytes of items are not a whole number of {item_size}-byte items")]
    Partial {
        /// The payload's length.
        bytes: usize,
        /// One item's size.
        item_size: usize,
    },
    /// A tag before the frame's first item or after its last.
    #[error("a tag at offset {tag} lies outside the frame's items {first}..{end}")]
    TagOutside {
        /// The tag's offset.
        tag: u64,
        /// The frame's first item.
        first: u64,
        /// One past its last.
        end: u64,
    },
    /// A frame with no part at all.
    #[error("an empty message")]
    Empty,
}

/// The frame a sink sends: `items` (whose first is item `first` of the
/// stream), after a header with `tags` (absolute offsets) when
/// `pass_tags`, built in a buffer from `pool`.
pub fn build_in(
    pool: &FramePool,
    items: &[u8],
    first: u64,
    tags: &[Tag],
    pass_tags: bool,
) -> Result<Bytes, EncodeError> {
    let header = if pass_tags {
        tag_header::FIXED_LEN + 64 * tags.len()
    } else {
        0
    };
    let mut frame = pool.take(header + items.len());
    if pass_tags {
        tag_header::encode(first, tags, &mut frame)?;
    }
    frame.extend_from_slice(items);
    Ok(pool.seal(frame))
}

/// [`build_in`] a buffer of its own.
pub fn build(
    items: &[u8],
    first: u64,
    tags: &[Tag],
    pass_tags: bool,
) -> Result<Bytes, EncodeError> {
    build_in(&FramePool::default(), items, first, tags, pass_tags)
}

/// Takes apart the data frame of a received message (its last part; a
/// PUB key comes before it) of `item_size`-byte items.
pub fn parse(frame: Bytes, pass_tags: bool, item_size: usize) -> Result<StreamFrame, FrameError> {
    let (payload, first, mut tags) = if pass_tags {
        let header = tag_header::decode(&frame)?;
        (frame.slice(header.len..), header.offset, header.tags)
    } else {
        (frame, 0, Vec::new())
    };
    if item_size == 0 || !payload.len().is_multiple_of(item_size) {
        return Err(FrameError::Partial {
            bytes: payload.len(),
            item_size,
        });
    }
    let end = first.saturating_add((payload.len() / item_size) as u64);
    for tag in &mut tags {
        if tag.index < first || tag.index >= end {
            return Err(FrameError::TagOutside {
                tag: tag.index,
                first,
                end,
            });
        }
        tag.index -= first;
    }
    Ok(StreamFrame { payload, tags })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_with_relative_tags() {
        let items: Vec<u8> = (0..16).collect();
        let tags = [Tag::new(101, "k", 1i64)];
        let frame = build(&items, 100, &tags, true).unwrap();
        let parsed = parse(frame, true, 8).unwrap();
        assert_eq!(&parsed.payload[..], &items[..]);
        assert_eq!(parsed.tags, vec![Tag::new(1, "k", 1i64)]);
        let plain = parse(build(&items, 0, &[], false).unwrap(), false, 8).unwrap();
        assert_eq!(&plain.payload[..], &items[..]);
    }

    #[test]
    fn drops_partial_items_and_stray_tags() {
        let items = [0u8; 12];
        assert!(matches!(
            parse(build(&items, 0, &[], false).unwrap(), false, 8),
            Err(FrameError::Partial {
                bytes: 12,
                item_size: 8
            })
        ));
        let stray = build(&[0u8; 8], 5, &[Tag::new(6, "k", 1i64)], true).unwrap();
        assert!(matches!(
            parse(stray, true, 8),
            Err(FrameError::TagOutside { tag: 6, .. })
        ));
    }
}
