//! The in-place pass: decides which outputs become views of their block's
//! input ring, so that 1:1 blocks transform items where they lie instead
//! of copying them into a ring of their own.
//!
//! An output qualifies when its port asks for it
//! ([`OutputPort::in_place_of`](crate::port::OutputPort::in_place_of)),
//! the named input is connected, can hand out writable items, has the same
//! item type, and is the *only* reader of its edge (another reader would
//! see items change under it). Chains of such blocks all reuse the first
//! ring, which is therefore made as large as the largest edge of the chain.
//! Whether the ring really is host memory is checked when it is built.

use super::Flowgraph;

/// One connected output and the stream edges (indices) that read it.
pub(crate) type OutputGroup = ((usize, usize), Vec<usize>);

/// For each output group, the group whose ring it reuses, if any.
pub(crate) fn plan(fg: &mut Flowgraph, groups: &[OutputGroup]) -> Vec<Option<usize>> {
    groups
        .iter()
        .map(|&((block, port), _)| reused_group(fg, groups, block, port))
        .collect()
}

fn reused_group(
    fg: &mut Flowgraph,
    groups: &[OutputGroup],
    block: usize,
    port: usize,
) -> Option<usize> {
    let (input, item) = {
        let ports = fg.blocks[block].block.ports();
        let out = &ports.outputs[port];
        (out.in_place_of()?, out.item_type())
    };
    {
        let ports = fg.blocks[block].block.ports();
        let inp = ports.inputs.get(input)?;
        if !inp.supports_in_place() || inp.item_type() != item {
            return None;
        }
    }
    let feeding = fg
        .streams
        .iter()
        .position(|e| e.dst == block && e.dst_port == input)?;
    let e = &fg.streams[feeding];
    groups
        .iter()
        .position(|(key, edges)| *key == (e.src, e.src_port) && edges.len() == 1)
}

/// How much larger a chunk may be on an edge of an in-place chain than on
/// an ordinary edge, as a fraction. The scheduler's chunk size budgets one
/// call's working set, an input chunk plus an output chunk (together 3/4
/// of L1 under `chain`); a block transforming items where they lie
/// touches a single buffer, so a larger chunk fits the same cache and
/// saves calls per item. 7/3 makes that buffer 7/8 of L1 and leaves the
/// rest to the runtime's own words and the blocks' state. Measured on
/// 32 KiB L1 (saxpy, 1 block on 1 core, alternating runs): 12 KiB → 24
/// KiB chunks took 7.5e9 to 8.6e9 items/s; once block calls touched fewer
/// lines, 28 KiB ran 3–4 % faster than 24 KiB (1.01e10 against 9.7e9);
/// 32 KiB spills L1.
const IN_PLACE_CHUNK_FACTOR: (usize, usize) = (7, 3);

/// The chunk cap of each group's edge given the scheduler's `chunk` (none:
/// uncapped): `chunk` for ordinary edges, [`IN_PLACE_CHUNK_FACTOR`] of
/// it for every edge of an in-place chain (its owner included: the block
/// that fills the shared ring touches only it).
pub(crate) fn chunk_bytes(reuses: &[Option<usize>], chunk: Option<usize>) -> Vec<Option<usize>> {
    (0..reuses.len())
        .map(|g| {
            let in_chain = reuses[g].is_some() || reuses.contains(&Some(g));
            chunk.map(|c| {
                if in_chain {
                    let (times, per) = IN_PLACE_CHUNK_FACTOR;
                    c * times / per
                } else {
                    c
                }
            })
        })
        .collect()
}

/// How many reuse steps separate each group from the group that owns its
/// memory (0 for owners). Building in this order creates every ring before
/// the views of it.
pub(crate) fn depths(reuses: &[Option<usize>]) -> Vec<usize> {
    (0..reuses.len()).map(|g| walk(reuses, g).1).collect()
}

/// The group that owns the memory group `g` reuses (itself if none).
pub(crate) fn owner(reuses: &[Option<usize>], g: usize) -> usize {
    walk(reuses, g).0
}

/// Follows `g`'s reuse chain: its owner and the number of steps to it.
fn walk(reuses: &[Option<usize>], mut g: usize) -> (usize, usize) {
    let mut steps = 0;
    while let Some(prev) = reuses[g] {
        g = prev;
        steps += 1;
        assert!(steps <= reuses.len(), "in-place chains are acyclic");
    }
    (g, steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depths_and_owners_follow_chains() {
        // 0 owns; 1 reuses 0; 2 reuses 1; 3 stands alone; 4 reuses 3.
        let reuses = vec![None, Some(0), Some(1), None, Some(3)];
        assert_eq!(depths(&reuses), vec![0, 1, 2, 0, 1]);
        assert_eq!(owner(&reuses, 2), 0);
        assert_eq!(owner(&reuses, 4), 3);
        assert_eq!(owner(&reuses, 3), 3);
        // Listed out of order: still resolved.
        let reuses = vec![Some(1), Some(2), None];
        assert_eq!(depths(&reuses), vec![2, 1, 0]);
    }

    #[test]
    fn chain_edges_get_larger_chunks() {
        // 0 owns, 1 reuses 0; 2 stands alone.
        let reuses = vec![None, Some(0), None];
        assert_eq!(
            chunk_bytes(&reuses, Some(12288)),
            vec![Some(28672), Some(28672), Some(12288)]
        );
        assert_eq!(chunk_bytes(&reuses, None), vec![None; 3]);
    }
}
