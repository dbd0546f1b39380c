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
        // One slice per call, however many repetitions it spans: a loop
        // that asked for room again would never return once every reader
        // is gone (the room then never runs out), and a stop could not
        // end the block.
        let out = self.output.slice();
        let room = (out.len() as u64).min(total - self.written) as usize;
        let start = self.written;
        let mut filled = 0;
        while filled < room {
            let offset = ((start + filled as u64) % len) as usize;
            let n = (room - filled).min(self.items.len() - offset);
            rfgraph::copy_items(
                &mut out[filled..filled + n],
                &self.items[offset..offset + n],
            );
            filled += n;
        }
        // The tags of every repetition the items spanned.
        let mut tagged = 0;
        while tagged < filled {
            let offset = ((start + tagged as u64) % len) as usize;
            let n = (filled - tagged).min(self.items.len() - offset);
            let first = self.tags.partition_point(|t| (t.index as usize) < offset);
            for t in self.tags[first..]
                .iter()
                .take_while(|t| (t.index as usize) < offset + n)
            {
                self.output
                    .add_tag(tagged + t.index as usize - offset, &t.key, t.value.clone());
            }
            tagged += n;
        }
        self.written += filled as u64;
        self.output.produce(filled);
        if self.written == total {
            io.finish();
        }
        Ok(())
    }
}
