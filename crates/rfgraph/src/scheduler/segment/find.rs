//! Which runs of blocks become data-parallel segments.

use crate::runner::BlockRunner;

/// The runs of blocks (partitioner slots, in stream order) worth running
/// data-parallel: maximal chains of runners that offer
/// [`BlockRunner::parallel_in_place`], each the only reader of the one
/// before, whose blocks `part_of` spreads over two or more workers.
pub(crate) fn find(runners: &[BlockRunner], part_of: &[usize]) -> Vec<Vec<usize>> {
    let slot_of: std::collections::HashMap<usize, usize> = runners
        .iter()
        .enumerate()
        .map(|(s, r)| (r.index(), s))
        .collect();
    let eligible: Vec<bool> = runners
        .iter()
        .map(|r| r.parallel_in_place().is_some())
        .collect();
    // The eligible block right after slot `s` in a segment.
    let next = |s: usize| -> Option<usize> {
        let readers: Vec<usize> = runners[s].downstream().collect();
        match readers[..] {
            [reader] => slot_of.get(&reader).copied().filter(|&n| eligible[n]),
            _ => None,
        }
    };
    let mut has_prev = vec![false; runners.len()];
    for s in (0..runners.len()).filter(|&s| eligible[s]) {
        if let Some(n) = next(s) {
            has_prev[n] = true;
        }
    }
    let mut segments = Vec::new();
    for start in (0..runners.len()).filter(|&s| eligible[s] && !has_prev[s]) {
        let mut members = vec![start];
        while let Some(n) = next(*members.last().expect("non-empty")) {
            members.push(n);
        }
        let first = part_of[start];
        if members.iter().any(|&m| part_of[m] != first) {
            segments.push(members);
        }
    }
    segments
}
