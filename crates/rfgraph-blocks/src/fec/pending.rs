//! [`Pending`]: coded or decoded items a FEC block made and has not
//! written yet, with their tags (offsets in the items). The stream blocks
//! make a whole frame or packet at once and write it as the output has
//! room; while items wait they report work in flight, so the runtime does
//! not finish them before the items are out.

use rfgraph::{Item, Pmt, StreamOutput, WorkIo};

/// Items waiting for output room.
pub(crate) struct Pending<T> {
    items: Vec<T>,
    tags: Vec<(usize, String, Pmt)>,
    sent: usize,
}

impl<T: Item> Pending<T> {
    pub(crate) fn new() -> Self {
        Self {
            items: Vec::new(),
            tags: Vec::new(),
            sent: 0,
        }
    }

    /// True when everything was written.
    pub(crate) fn is_empty(&self) -> bool {
        self.sent == self.items.len()
    }

    /// The buffer to fill with the next items (emptied; the caller makes
    /// sure the last ones were written).
    pub(crate) fn refill(&mut self) -> &mut Vec<T> {
        self.items.clear();
        self.tags.clear();
        self.sent = 0;
        &mut self.items
    }

    /// Attaches a tag to item `offset` of the items being refilled.
    pub(crate) fn tag(&mut self, offset: usize, key: &str, value: Pmt) {
        self.tags.push((offset, key.to_string(), value));
    }

    /// Writes as much as `output` has room for; true when all is out.
    /// Reports work in flight otherwise.
    pub(crate) fn drain(&mut self, output: &mut StreamOutput<T>, io: &mut WorkIo) -> bool {
        if self.sent < self.items.len() {
            let o = output.slice();
            let n = o.len().min(self.items.len() - self.sent);
            rfgraph::copy_items(&mut o[..n], &self.items[self.sent..self.sent + n]);
            for (offset, key, value) in &self.tags {
                if (self.sent..self.sent + n).contains(offset) {
                    output.add_tag(offset - self.sent, key, value.clone());
                }
            }
            output.produce(n);
            self.sent += n;
        }
        let done = self.is_empty();
        if !done {
            io.in_flight();
        }
        done
    }
}
