//! [`Packets`]: the packets of a tagged stream (a length tag on each
//! packet's first item) read one at a time, with their other tags, for
//! the tagged FEC blocks. Items outside packets are dropped (GNU Radio's
//! tagged stream blocks fail there). A packet's length is checked before
//! anything is gathered: the tag is untrusted input.

use rfgraph::{BoxError, Item, Pmt, StreamInput, Tag};

/// One packet: its items and its other tags (offsets in the packet).
pub(crate) struct Packet<T> {
    pub(crate) items: Vec<T>,
    pub(crate) tags: Vec<(usize, String, Pmt)>,
}

/// Reads packets marked by length tags of `key`.
pub(crate) struct Packets<T> {
    key: String,
    /// The packet being gathered and how many items it still lacks.
    current: Option<(Packet<T>, usize)>,
}

impl<T: Item> Packets<T> {
    pub(crate) fn new(key: &str) -> Self {
        Self {
            key: key.to_string(),
            current: None,
        }
    }

    /// Reads `input` up to the end of the next packet and returns it once
    /// complete. `check` sees each packet's length first and may refuse
    /// it (an error stops the block). Empty packets are skipped.
    pub(crate) fn read(
        &mut self,
        input: &mut StreamInput<T>,
        check: impl Fn(usize) -> Result<(), BoxError>,
    ) -> Result<Option<Packet<T>>, BoxError> {
        let start = input.position();
        let len = input.slice().len();
        let mut tags = input.tags();
        tags.sort_by_key(|t| t.index);
        let mut at = 0;
        // Length tags before `cursor` in `tags` are used up.
        let mut cursor = 0;
        while at < len {
            let pos = start + at as u64;
            if self.current.is_none() {
                let next = tags[cursor..].iter().position(|t| {
                    t.index >= pos && t.key == self.key && t.value.as_u64().is_some()
                });
                let Some(j) = next.map(|j| j + cursor) else {
                    at = len;
                    break;
                };
                let tag = &tags[j];
                if tag.index > pos {
                    at = (tag.index - start) as usize;
                    continue;
                }
                cursor = j + 1;
                let n = tag.value.as_u64().unwrap_or(0);
                let n = usize::try_from(n).map_err(|_| format!("packet length {n} too large"))?;
                check(n)?;
                if n == 0 {
                    // Nothing to code; the next packet may start here.
                    continue;
                }
                let packet = Packet {
                    items: Vec::with_capacity(n),
                    tags: Vec::new(),
                };
                self.current = Some((packet, n));
            }
            let Some((packet, left)) = &mut self.current else {
                break;
            };
            let n = (*left).min(len - at);
            let base = packet.items.len();
            packet.items.extend_from_slice(&input.slice()[at..at + n]);
            for t in tags_in(&tags, pos, n) {
                if t.key != self.key {
                    let offset = base + (t.index - pos) as usize;
                    packet.tags.push((offset, t.key.clone(), t.value.clone()));
                }
            }
            *left -= n;
            at += n;
            if *left == 0 {
                input.consume(at);
                return Ok(self.current.take().map(|(p, _)| p));
            }
        }
        input.consume(at);
        Ok(None)
    }
}

/// The tags on `n` items from `pos`.
fn tags_in(tags: &[Tag], pos: u64, n: usize) -> impl Iterator<Item = &Tag> {
    tags.iter()
        .filter(move |t| t.index >= pos && t.index < pos + n as u64)
}
