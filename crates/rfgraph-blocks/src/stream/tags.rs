//! Moving tags by hand: [`forward`] re-attaches the tags of consumed
//! input items at the output positions the block chose, for blocks whose
//! items do not map to outputs by a fixed rate (delays, skips,
//! multiplexers); [`pass_through`] copies items one to one and lets the
//! block drop or rewrite their tags (tag gates, length scalers).

use rfgraph::{Item, Pmt, StreamInput, StreamOutput};

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
