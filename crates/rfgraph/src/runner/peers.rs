//! The block's stream neighbours as schedulers see them: the blocks it
//! reads from and writes to, which of them run on its thread (their edges
//! then send no signals), and whether it may run data-parallel.
//!
//! Declarations made before the run: nothing here runs the block, moves a
//! position or wakes anyone.

use super::BlockRunner;
use crate::block::TagPolicy;
use crate::block::stateless::ParallelInPlace;
use std::sync::Arc;

impl BlockRunner {
    /// Indices of the blocks this block reads from, one per connected input.
    pub fn upstream(&self) -> impl Iterator<Item = usize> + '_ {
        self.inputs.iter().map(|i| i.writer)
    }

    /// Indices of the blocks reading this block's outputs.
    pub fn downstream(&self) -> impl Iterator<Item = usize> + '_ {
        self.outputs.iter().flat_map(|o| o.readers.iter().copied())
    }

    /// Declares which stream peers run on the same thread as this block
    /// (`same_thread(peer)`): edges between such blocks then send no
    /// signal at all, so the scheduler takes over: after this block makes
    /// progress (or finishes) it must run those peers again. Only for
    /// schedulers that poll blocks on one thread; call before running, on
    /// both ends of each edge.
    ///
    /// Returns true when *every* stream peer is on the same thread.
    pub fn mark_same_thread_peers(&mut self, same_thread: impl Fn(usize) -> bool) -> bool {
        let mut all = true;
        for out in &self.outputs {
            for (reader, &block) in out.readers.iter().enumerate() {
                let same = same_thread(block);
                out.edge.words().set_same_thread(reader, same);
                all &= same;
            }
        }
        for input in &self.inputs {
            if let Some(root) = input.frees_space_of {
                input
                    .edge
                    .words()
                    .set_root_writer_same_thread(input.reader, same_thread(root));
            }
        }
        self.local_peers = self
            .downstream()
            .chain(self.upstream())
            .chain(self.space_roots())
            .filter(|&b| same_thread(b))
            .collect();
        self.local_peers.sort_unstable();
        self.local_peers.dedup();
        all && self.inputs.iter().all(|i| same_thread(i.writer))
    }

    /// The first writers of the memory this block reads in place, whose
    /// space it frees (see [`InputEdge::frees_space_of`]).
    ///
    /// [`InputEdge::frees_space_of`]: super::InputEdge::frees_space_of
    pub(crate) fn space_roots(&self) -> impl Iterator<Item = usize> + '_ {
        self.inputs.iter().filter_map(|i| i.frees_space_of)
    }

    /// The blocks declared to run on this block's thread that must run
    /// after it moves: stream peers, and the first writer of memory it
    /// reads in place (see [`mark_same_thread_peers`](Self::mark_same_thread_peers)).
    pub fn local_peers(&self) -> &[usize] {
        &self.local_peers
    }

    /// The block's shareable arithmetic when it may run data-parallel: it
    /// offers one (see [`Block::parallel_in_place`]), has exactly one
    /// stream input and one output, no message ports, propagates tags 1:1,
    /// and the flowgraph made its output an in-place view of its input.
    ///
    /// [`Block::parallel_in_place`]: crate::Block::parallel_in_place
    pub(crate) fn parallel_in_place(&self) -> Option<Arc<dyn ParallelInPlace>> {
        let ([input], [output]) = (&self.inputs[..], &self.outputs[..]) else {
            return None;
        };
        let plain = self.message_inputs.is_empty()
            && self.group.is_none()
            && self.feeds.is_empty()
            && matches!(
                self.tag_policy,
                TagPolicy::Propagate {
                    interpolation: 1,
                    decimation: 1
                }
            );
        let in_place = input
            .edge
            .words()
            .passes_to(input.reader)
            .is_some_and(|next| std::ptr::eq(next, output.edge.words()));
        if plain && in_place {
            self.block.parallel_in_place()
        } else {
            None
        }
    }
}
