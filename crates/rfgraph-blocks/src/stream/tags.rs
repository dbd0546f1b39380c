//! Moving tags by hand for blocks whose items do not map to outputs by a
//! fixed rate (delays, skips, multiplexers): [`forward`] re-attaches the
//! tags of consumed input items at the output positions the block chose.

use rfgraph::{Item, StreamInput, StreamOutput};

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
