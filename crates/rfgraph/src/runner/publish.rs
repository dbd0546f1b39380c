//! Publishing after a call: each input's consumption, once the tags of
//! the items it consumed were propagated to the outputs, then each
//! output's production, so tags always reach readers no later than their
//! items.
//!
//! The one place a runner publishes positions. It must never publish an
//! input's position before the tags of the items it consumed were
//! propagated, nor an output's items before the tags that belong to them
//! were added.

use super::{BlockRunner, InputEdge, OutputEdge};
use crate::block::TagPolicy;
use crate::buffer::positions::EdgePositions;
use crate::tag::Tag;

impl InputEdge {
    /// Publishes the reader's staged position unless the items it
    /// consumed since the last publication may carry tags (`None`: they
    /// must be propagated first, see `BlockRunner::publish_tagged`);
    /// returns how many items that was.
    #[inline(always)]
    fn publish_untagged(&mut self) -> Option<u64> {
        let now = self.edge.slot().staged();
        if now == self.last {
            return Some(0);
        }
        let words = self.edge.words();
        if words.may_have_tags(self.last..now) {
            return None;
        }
        self.edge.slot().publish(words, now);
        let consumed = now - self.last;
        self.last = now;
        Some(consumed)
    }
}

impl OutputEdge {
    /// Publishes the writer's staged position; returns how many items it
    /// moved since the last publication.
    #[inline(always)]
    fn publish(&mut self) -> u64 {
        let words = self.edge.words();
        let now = words.staged_write();
        if now == self.last {
            return 0;
        }
        words.publish_write_at(now);
        let produced = now - self.last;
        self.last = now;
        produced
    }
}

/// Copies the tags on `range` of `input` to every output, with indices
/// scaled by `policy` (none are copied under [`TagPolicy::Manual`]).
#[inline(never)]
fn propagate_tags(
    input: &EdgePositions,
    range: std::ops::Range<u64>,
    policy: TagPolicy,
    outputs: &[OutputEdge],
) {
    if let TagPolicy::Propagate {
        interpolation,
        decimation,
    } = policy
    {
        input.for_each_tag(range, &mut |t: &Tag| {
            let index = scaled_index(t.index, interpolation, decimation);
            for out in outputs {
                out.edge.words().add_tag(Tag { index, ..t.clone() });
            }
        });
    }
}

/// `index × interpolation / decimation` without overflow (rates are
/// positive: the flowgraph checks them), saturating at `u64::MAX`.
fn scaled_index(index: u64, interpolation: u64, decimation: u64) -> u64 {
    let scaled = u128::from(index) * u128::from(interpolation) / u128::from(decimation.max(1));
    u64::try_from(scaled).unwrap_or(u64::MAX)
}

impl BlockRunner {
    /// After `work` and handlers: propagates the tags of consumed items to
    /// the outputs and publishes each input's consumption, then publishes
    /// the outputs, so tags always precede their items. Returns the items
    /// consumed and produced. Consumed items that may carry tags take the
    /// out-of-line [`publish_tagged`](Self::publish_tagged), so that the
    /// common case calls nothing.
    #[inline(always)]
    pub(super) fn publish(&mut self) -> (u64, u64) {
        // Most blocks have at most one input and one output: those are
        // published without a loop.
        let consumed = match &mut self.inputs[..] {
            [] => 0,
            [input] => match input.publish_untagged() {
                Some(consumed) => consumed,
                None => return self.publish_tagged(0),
            },
            inputs => {
                let mut consumed = 0;
                for input in inputs {
                    match input.publish_untagged() {
                        Some(n) => consumed += n,
                        None => return self.publish_tagged(consumed),
                    }
                }
                consumed
            }
        };
        (consumed, self.publish_outputs())
    }

    /// [`publish`](Self::publish) from the first input whose consumed items
    /// may carry tags (the inputs before it are published, `consumed` of
    /// their items).
    #[inline(never)]
    #[cold]
    fn publish_tagged(&mut self, mut consumed: u64) -> (u64, u64) {
        for input in &mut self.inputs {
            let now = input.edge.slot().staged();
            if now != input.last {
                let words = input.edge.words();
                if words.may_have_tags(input.last..now) {
                    propagate_tags(words, input.last..now, self.tag_policy, &self.outputs);
                }
                input.edge.slot().publish(words, now);
                consumed += now - input.last;
                input.last = now;
            }
        }
        (consumed, self.publish_outputs())
    }

    /// Publishes every output's staged items; returns how many there were.
    #[inline(always)]
    fn publish_outputs(&mut self) -> u64 {
        match &mut self.outputs[..] {
            [] => 0,
            [output] => output.publish(),
            outputs => outputs.iter_mut().map(OutputEdge::publish).sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::scaled_index;

    #[test]
    fn tag_indices_scale_without_overflow() {
        assert_eq!(scaled_index(10, 3, 2), 15);
        assert_eq!(scaled_index(7, 1, 4), 1);
        // index × interpolation exceeds u64 but the result fits.
        assert_eq!(scaled_index(u64::MAX / 2, 4, 8), u64::MAX / 4);
        assert_eq!(scaled_index(u64::MAX, 2, 1), u64::MAX);
    }
}
