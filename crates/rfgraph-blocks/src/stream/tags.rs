//! Moving tags by hand: [`forward`] re-attaches the tags of consumed
//! input items at the output positions the block chose, for blocks whose
//! items do not map to outputs by a fixed rate (delays, skips,
//! multiplexers); [`Segments`] does the same for blocks that copy many
//! short runs in one call (muxes), reading each input's tags once;
//! [`pass_through`] copies items one to one and lets the block drop or
//! rewrite their tags (tag gates, length scalers).

use rfgraph::{Item, Pmt, StreamInput, StreamOutput, Tag};

/// Attaches to `output` every tag of `input`'s last slice whose item
/// index `i` lies in `consumed` (absolute indices), at the output offset
/// `to(i)` (relative to the output's position before this call's
/// `produce`); a tag whose item `to` maps to `None` is dropped.
pub(crate) fn forward<I: Item, O: Item>(
    input: &StreamInput<I>,
    consumed: std::ops::Range<u64>,
    output: &StreamOutput<O>,
    to: impl Fn(u64) -> Option<usize>,
) {
    if consumed.is_empty() {
        return;
    }
    for t in input.tags() {
        if consumed.contains(&t.index)
            && let Some(offset) = to(t.index)
        {
            output.add_tag(offset, &t.key, t.value);
        }
    }
}

/// The runs of items a turn-taking block copied in one call: run `r`
/// took `len` items of input `input` from absolute index `first` and
/// wrote them to output `output` at offset `at`. Runs of one input come
/// in index order. [`Segments::forward`] then moves every input's tags
/// with one pass over them, so a call that copies thousands of short
/// runs costs no more per tag than one long copy.
#[derive(Default)]
pub(crate) struct Segments {
    runs: Vec<Run>,
}

#[derive(Clone, Copy)]
struct Run {
    input: usize,
    output: usize,
    first: u64,
    len: usize,
    at: usize,
}

impl Segments {
    /// Forgets the runs of the previous call.
    pub(crate) fn clear(&mut self) {
        self.runs.clear();
    }

    /// Records a run: `len` items of input `input` from absolute index
    /// `first`, written to output `output` at offset `at`.
    pub(crate) fn push(&mut self, input: usize, first: u64, len: usize, output: usize, at: usize) {
        self.runs.push(Run {
            input,
            output,
            first,
            len,
            at,
        });
    }

    /// Attaches each tag of `inputs[k]`'s last slice that lies in a run
    /// of input `k` to that run's output, at the item's new offset.
    pub(crate) fn forward<T: Item>(
        &self,
        inputs: &[&StreamInput<T>],
        outputs: &[&StreamOutput<T>],
    ) {
        if self.runs.is_empty() {
            return;
        }
        let mut of_input: Vec<Run> = Vec::new();
        for (k, input) in inputs.iter().enumerate() {
            of_input.clear();
            of_input.extend(self.runs.iter().filter(|r| r.input == k));
            if of_input.is_empty() {
                continue;
            }
            for t in input.tags() {
                if let Some(r) = run_holding(&of_input, &t) {
                    let offset = r.at + (t.index - r.first) as usize;
                    outputs[r.output].add_tag(offset, &t.key, t.value);
                }
            }
        }
    }
}

/// The run (of runs sorted by `first`) holding `tag`'s item, if any.
fn run_holding<'a>(runs: &'a [Run], tag: &Tag) -> Option<&'a Run> {
    let after = runs.partition_point(|r| r.first <= tag.index);
    let r = runs[..after].last()?;
    (tag.index < r.first + r.len as u64).then_some(r)
}

/// Copies as many items as `input` holds and `output` has room for, with
/// the tags on them that `retag` keeps, at the same offsets; then
/// consumes and produces those items. `retag(key, value)` gives the
/// value the tag goes out with, or `None` to drop it.
pub(crate) fn pass_through<T: Item>(
    input: &mut StreamInput<T>,
    output: &mut StreamOutput<T>,
    mut retag: impl FnMut(&str, Pmt) -> Option<Pmt>,
) {
    let start = input.position();
    let i = input.slice();
    let o = output.slice();
    let n = i.len().min(o.len());
    rfgraph::copy_items(&mut o[..n], &i[..n]);
    for t in input.tags() {
        if t.index >= start
            && t.index < start + n as u64
            && let Some(value) = retag(&t.key, t.value)
        {
            output.add_tag((t.index - start) as usize, &t.key, value);
        }
    }
    input.consume(n);
    output.produce(n);
}
