//! Stream tags: a key and a [`Pmt`] value attached to an absolute item index.
//!
//! This module owns the tag value type, the well-known (SigMF) keys, and the
//! per-edge tag store. The store is only touched when tags exist: an edge that
//! never carries a tag costs one relaxed atomic load per work call.

use crate::pmt::Pmt;
use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Tag keys with a SigMF name. Use these instead of ad-hoc strings.
pub mod keys {
    /// Sample rate in samples per second (`core:sample_rate`).
    pub const SAMPLE_RATE: &str = "core:sample_rate";
    /// Centre frequency in Hz (`core:frequency`).
    pub const FREQUENCY: &str = "core:frequency";
    /// ISO 8601 time of the tagged sample (`core:datetime`).
    pub const DATETIME: &str = "core:datetime";
    /// Free text (`core:comment`).
    pub const COMMENT: &str = "core:comment";
    /// Start of a burst or packet (no SigMF core name; GNU Radio uses `tx_sob`).
    pub const BURST_START: &str = "rfgraph:burst_start";
}

/// A key/value pair attached to the item with absolute index `index`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Tag {
    /// Absolute index of the item on its edge (0 = first item ever written).
    pub index: u64,
    /// The key, a SigMF name where one exists (see [`keys`]).
    pub key: String,
    /// The value.
    pub value: Pmt,
}

impl Tag {
    /// A new tag.
    pub fn new(index: u64, key: impl Into<String>, value: impl Into<Pmt>) -> Self {
        Self {
            index,
            key: key.into(),
            value: value.into(),
        }
    }
}

/// The tags of one edge, kept sorted by index until every reader passed them.
#[derive(Default, Debug)]
#[repr(C)] // `horizon` first: the pre-check reads nothing else
pub(crate) struct TagStore {
    /// Highest tagged index + 1, or 0 when no tag was ever added.
    horizon: AtomicU64,
    /// Sorted by index: the consumed ones leave from the front, and new
    /// ones, whose indices mostly grow, join at the back.
    tags: Mutex<VecDeque<Tag>>,
}

impl TagStore {
    /// Adds a tag, dropping tags that all readers have consumed
    /// (`oldest_unread`). Costs what it drops, plus a binary search: with
    /// dense tags a store holds tens of thousands while a slow reader
    /// lags, and a scan of all of them per tag made propagating one chunk
    /// take about a second per block (found by a review's random graphs).
    pub(crate) fn add(&self, tag: Tag, oldest_unread: u64) {
        let mut tags = self.tags.lock().unwrap_or_else(|e| e.into_inner());
        while tags.front().is_some_and(|t| t.index < oldest_unread) {
            tags.pop_front();
        }
        let at = tags.partition_point(|t| t.index <= tag.index);
        let end = tag.index + 1;
        tags.insert(at, tag);
        self.horizon.fetch_max(end, Ordering::Release);
    }

    /// True when a tag might exist at or after `from` (cheap pre-check).
    #[inline]
    pub(crate) fn may_have_from(&self, from: u64) -> bool {
        self.horizon.load(Ordering::Acquire) > from
    }

    /// Calls `f` for each tag with index in `range`, in index order.
    /// Cheap (one load, inlined) when no tag lies at or after `range.start`.
    #[inline]
    pub(crate) fn for_each_in(&self, range: std::ops::Range<u64>, f: impl FnMut(&Tag)) {
        if range.is_empty() || !self.may_have_from(range.start) {
            return;
        }
        self.for_each_locked(range, f);
    }

    #[cold]
    fn for_each_locked(&self, range: std::ops::Range<u64>, mut f: impl FnMut(&Tag)) {
        let tags = self.tags.lock().unwrap_or_else(|e| e.into_inner());
        let first = tags.partition_point(|t| t.index < range.start);
        for t in tags.range(first..).take_while(|t| t.index < range.end) {
            f(t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_queries_and_pruning() {
        let store = TagStore::default();
        assert!(!store.may_have_from(0));
        store.add(Tag::new(10, "a", 1u64), 0);
        store.add(Tag::new(5, "b", 2u64), 0);
        store.add(Tag::new(20, "c", 3u64), 0);
        let mut seen = vec![];
        store.for_each_in(0..20, |t| seen.push(t.index));
        assert_eq!(seen, vec![5, 10]);
        // Everything below 11 has been read by all readers.
        store.add(Tag::new(30, "d", 4u64), 11);
        let mut seen = vec![];
        store.for_each_in(0..100, |t| seen.push(t.index));
        assert_eq!(seen, vec![20, 30]);
        assert!(!store.may_have_from(31));
    }

    /// Tags added out of order land in index order (equal indices in the
    /// order added), and pruning drops exactly those below the oldest
    /// unread index, however many there are.
    #[test]
    fn out_of_order_adds_and_long_stores_stay_sorted() {
        let store = TagStore::default();
        for i in 0..10_000u64 {
            store.add(Tag::new(i * 2, "even", i), 0);
        }
        store.add(Tag::new(7, "odd", 0u64), 0);
        store.add(Tag::new(7, "odd again", 1u64), 0);
        store.add(Tag::new(3, "early", 2u64), 0);
        let mut seen = vec![];
        store.for_each_in(0..10, |t| seen.push((t.index, t.key.clone())));
        let keys: Vec<_> = seen.iter().map(|(i, k)| format!("{i}{k}")).collect();
        assert_eq!(
            keys,
            [
                "0even",
                "2even",
                "3early",
                "4even",
                "6even",
                "7odd",
                "7odd again",
                "8even"
            ]
        );
        // Everything below 19_000 was read: 500 even tags stay, plus the new one.
        store.add(Tag::new(19_999, "last", 3u64), 19_000);
        let mut count = 0;
        let mut first = None;
        store.for_each_in(0..u64::MAX, |t| {
            first.get_or_insert(t.index);
            count += 1;
        });
        assert_eq!((count, first), (501, Some(19_000)));
    }
}
