//! [`Regrouped`]: a block that maps whole groups of input items to
//! groups of output items, as its parameters say ([`Groups`]), when both
//! group sizes may change while it runs (GNU Radio's `keep_m_in_n::set_n`,
//! `matrix_interleaver::set_rowsandcols`). Its staging, [`Regroup`], holds
//! a partial input group and an output group that did not fit, so no
//! group has to fit a ring buffer; tags move by the groups' rate.

use crate::spec_util::kind_of;
use rfgraph::params::{ItemKind, ParamSet};
use rfgraph::{
    Block, BoxError, Item, ParamError, Ports, StreamInput, StreamOutput, Tag, TagPolicy, WorkIo,
};

/// Parameters that say how whole groups of `group_in` input items map to
/// groups of `group_out` output items.
pub trait Groups<T>: ParamSet {
    /// Sets the stream item type parameter (to `T`'s).
    fn set_item(&mut self, kind: ItemKind);
    /// Input items per group (at least 1).
    fn group_in(&self) -> usize;
    /// Output items per group (at least 1).
    fn group_out(&self) -> usize;
    /// Maps the whole groups of `input` to as many groups of `output`.
    fn process(&self, input: &[T], output: &mut [T]);
}

/// One input and one output of `T`, mapping whole groups as `P` says;
/// `P` may change while it runs (the items not yet in a whole group start
/// the next group with the new values).
pub struct Regrouped<T: Item, P> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    params: P,
    groups: Regroup<T>,
}

impl<T: Item, P: Groups<T>> Regrouped<T, P> {
    /// The block `params` describe (the item type is `T`'s).
    ///
    /// Errors: a parameter out of its range, or groups that do not fit.
    pub fn new(mut params: P) -> Result<Self, ParamError> {
        if let Some(kind) = kind_of::<T>() {
            params.set_item(kind);
        }
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            params,
            groups: Regroup::new(),
        })
    }
}

impl<T: Item, P: Groups<T>> Block for Regrouped<T, P> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        self.groups
            .work(&mut self.input, &mut self.output, &self.params, io);
        Ok(())
    }
}

/// Input items waiting for the rest of their group, and output items
/// waiting for room.
struct Regroup<T> {
    /// The start of a group whose end has not arrived.
    staged: Vec<T>,
    /// The tags on `staged` (absolute input indices).
    staged_tags: Vec<Tag>,
    /// The absolute input index of `staged[0]`.
    staged_from: u64,
    /// Output items of processed groups not yet written, from `sent` on.
    pending: Vec<T>,
    sent: usize,
}

/// Where a tag on input `index` goes: the group rate applied from the
/// first input (`in_at`) and output (`out_at`) of whole groups.
fn scaled(index: u64, in_at: u64, out_at: u64, gin: usize, gout: usize) -> u64 {
    let rel = u128::from(index - in_at) * gout as u128 / gin as u128;
    out_at.saturating_add(u64::try_from(rel).unwrap_or(u64::MAX))
}

/// Attaches `tag` to `output` at absolute index `at` (never before the
/// output's position).
fn tag_at<T: Item>(output: &StreamOutput<T>, at: u64, tag: &Tag) {
    let offset = at.saturating_sub(output.position());
    output.add_tag(
        usize::try_from(offset).unwrap_or(usize::MAX),
        &tag.key,
        tag.value.clone(),
    );
}

impl<T: Item> Regroup<T> {
    /// Nothing staged or pending.
    fn new() -> Self {
        Self {
            staged: Vec::new(),
            staged_tags: Vec::new(),
            staged_from: 0,
            pending: Vec::new(),
            sent: 0,
        }
    }

    /// Writes what is pending; true when nothing is left.
    fn drain(&mut self, output: &mut StreamOutput<T>) -> bool {
        if self.sent < self.pending.len() {
            let o = output.slice();
            let n = o.len().min(self.pending.len() - self.sent);
            rfgraph::copy_items(&mut o[..n], &self.pending[self.sent..self.sent + n]);
            output.produce(n);
            self.sent += n;
        }
        self.sent == self.pending.len()
    }

    /// Runs `groups` on what `input` holds: pending output first, then
    /// the staged group, then whole groups straight from the ring; a
    /// partial group is staged, a group without room is kept pending.
    /// While output is pending the block reports work in flight, so that
    /// it is not finished before writing it.
    fn work(
        &mut self,
        input: &mut StreamInput<T>,
        output: &mut StreamOutput<T>,
        groups: &impl Groups<T>,
        io: &mut WorkIo,
    ) {
        let (gin, gout) = (groups.group_in(), groups.group_out());
        if !self.drain(output) {
            io.in_flight();
            return;
        }
        if !self.staged.is_empty() {
            let start = input.position();
            let i = input.slice();
            let take = gin.saturating_sub(self.staged.len()).min(i.len());
            self.staged.extend_from_slice(&i[..take]);
            self.keep_tags(input, start..start + take as u64);
            input.consume(take);
            let whole = self.staged.len() / gin * gin;
            if whole > 0 {
                self.pending.clear();
                self.pending.resize(whole / gin * gout, T::zeroed());
                self.sent = 0;
                groups.process(&self.staged[..whole], &mut self.pending);
                let (in_at, out_at) = (self.staged_from, output.position());
                let end = in_at + whole as u64;
                for t in self.staged_tags.iter().filter(|t| t.index < end) {
                    tag_at(output, scaled(t.index, in_at, out_at, gin, gout), t);
                }
                self.staged_tags.retain(|t| t.index >= end);
                self.staged.drain(..whole);
                self.staged_from = end;
                if !self.drain(output) {
                    io.in_flight();
                    return;
                }
            }
            if !self.staged.is_empty() {
                return;
            }
        }
        // Whole groups with room: straight through.
        let start = input.position();
        let i = input.slice();
        let o = output.slice();
        let n = (i.len() / gin).min(o.len() / gout);
        if n > 0 {
            groups.process(&i[..n * gin], &mut o[..n * gout]);
            let (in_at, out_at) = (start, output.position());
            for t in input.tags() {
                if (start..start + (n * gin) as u64).contains(&t.index) {
                    tag_at(output, scaled(t.index, in_at, out_at, gin, gout), &t);
                }
            }
            input.consume(n * gin);
            output.produce(n * gout);
        }
        // What cannot pass whole: a group without room for all its
        // output goes pending, a partial group is staged.
        let start = input.position();
        let available = input.slice().len();
        if available >= gin {
            if output.free() == 0 {
                return;
            }
            self.pending.clear();
            self.pending.resize(gout, T::zeroed());
            self.sent = 0;
            groups.process(&input.slice()[..gin], &mut self.pending);
            let out_at = output.position();
            for t in input.tags() {
                if (start..start + gin as u64).contains(&t.index) {
                    tag_at(output, scaled(t.index, start, out_at, gin, gout), &t);
                }
            }
            input.consume(gin);
            if !self.drain(output) {
                io.in_flight();
            }
        } else if available > 0 {
            self.staged_from = start;
            self.staged.extend_from_slice(&input.slice()[..available]);
            self.keep_tags(input, start..start + available as u64);
            input.consume(available);
        }
    }

    /// Keeps the tags of the last slice on `range` with the staged items.
    fn keep_tags(&mut self, input: &StreamInput<T>, range: std::ops::Range<u64>) {
        if range.is_empty() {
            return;
        }
        self.staged_tags.extend(
            input
                .tags()
                .into_iter()
                .filter(|t| range.contains(&t.index)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::scaled;

    #[test]
    fn tags_scale_by_the_group_rate_from_the_first_group() {
        // keep 2 of 5: input 7 is item 2 of group 1, output 2 + 2·2/5.
        assert_eq!(scaled(7, 0, 0, 5, 2), 2);
        assert_eq!(scaled(107, 100, 40, 5, 2), 42);
        assert_eq!(scaled(u64::MAX, 0, 0, 1, 2), u64::MAX);
    }
}
