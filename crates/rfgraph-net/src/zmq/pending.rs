//! [`Pending`]: a received stream frame being written out to a source's
//! output, as much per call as the output has room for, its tags moved
//! onto the items they were on.

use super::frame::StreamFrame;
use rfgraph::{Item, StreamOutput};

/// A received frame not yet all written out.
pub struct Pending {
    frame: StreamFrame,
    /// GNU Radio items of it already written.
    done: usize,
}

impl Pending {
    /// `frame`, none of it written yet.
    pub fn new(frame: StreamFrame) -> Self {
        Self { frame, done: 0 }
    }

    /// Writes as much as `output` has room for, in whole items of `vlen`
    /// scalars; returns the scalars written and whether all of the frame
    /// is out.
    pub fn write_to<T: Item>(
        &mut self,
        output: &mut StreamOutput<T>,
        vlen: usize,
    ) -> (usize, bool) {
        let item_size = size_of::<T>() * vlen;
        let total = self.frame.payload.len() / item_size;
        let out = output.slice();
        let n = (out.len() / vlen).min(total - self.done);
        let bytes = &self.frame.payload[self.done * item_size..(self.done + n) * item_size];
        bytemuck::cast_slice_mut::<T, u8>(&mut out[..n * vlen]).copy_from_slice(bytes);
        for tag in &self.frame.tags {
            let at = tag.index as usize;
            if (self.done..self.done + n).contains(&at) {
                output.add_tag((at - self.done) * vlen, &tag.key, tag.value.clone());
            }
        }
        self.done += n;
        output.produce(n * vlen);
        (n * vlen, self.done == total)
    }
}
