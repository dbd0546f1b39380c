//! `VectorSource`: plays a vector (optionally repeated) with its tags.

use rfgraph::{Block, BoxError, Item, Ports, StreamOutput, Tag, WorkIo};

/// Writes the items of a vector, `repeat` times, attaching tags at their
/// indices (relative to each repetition), then finishes.
pub struct VectorSource<T: Item> {
    output: StreamOutput<T>,
    items: Vec<T>,
    tags: Vec<Tag>,
    repeat: u64,
    /// Items written in total.
    written: u64,
}

impl<T: Item> VectorSource<T> {
    /// Plays `items` once.
    pub fn new(items: Vec<T>) -> Self {
        Self {
            output: StreamOutput::new("out"),
            items,
            tags: Vec::new(),
            repeat: 1,
            written: 0,
        }
    }

    /// Attaches `tags`; their `index` is relative to the vector's start.
    pub fn with_tags(mut self, mut tags: Vec<Tag>) -> Self {
        tags.sort_by_key(|t| t.index);
        self.tags = tags;
        self
    }

    /// Plays the vector `times` times.
    pub fn repeat(mut self, times: u64) -> Self {
        self.repeat = times;
        self
    }
}

impl<T: Item> Block for VectorSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let len = self.items.len() as u64;
        let total = len * self.repeat;
        while self.written < total {
            let out = self.output.slice();
            if out.is_empty() {
                return Ok(());
            }
            let offset = (self.written % len) as usize;
            let n = out.len().min(self.items.len() - offset);
            rfgraph::copy_items(out, &self.items[offset..offset + n]);
            let first = self.tags.partition_point(|t| (t.index as usize) < offset);
            for t in self.tags[first..]
                .iter()
                .take_while(|t| (t.index as usize) < offset + n)
            {
                self.output
                    .add_tag(t.index as usize - offset, &t.key, t.value.clone());
            }
            self.output.produce(n);
            self.written += n as u64;
        }
        io.finish();
        Ok(())
    }
}
