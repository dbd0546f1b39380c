//! The streaming-kernel contract shared by every kernel in this crate. Owns the
//! [`Kernel`] trait only; it must never grow runtime concepts (tags, ports).

/// A streaming DSP kernel: consumes items from `input`, writes items into
/// `output`, and keeps whatever state it needs between calls.
///
/// Contract for every implementation:
///
/// * `process` never allocates, never panics on any input/output length
///   (including empty slices), and returns `(consumed, produced)` with
///   `consumed <= input.len()` and `produced <= output.len()`. Items of `input`
///   past `consumed` were not looked at and must be passed again next call.
/// * Splitting one input stream into any sequence of calls yields the same output
///   stream as one call over the whole input (with enough output space).
/// * `reset` returns the kernel to its just-constructed state (history cleared,
///   phase zeroed) without allocating.
pub trait Kernel {
    /// Input item type.
    type Input: Copy;
    /// Output item type.
    type Output: Copy;

    /// Processes as much of `input` as fits into `output`; returns
    /// `(consumed, produced)`.
    fn process(&mut self, input: &[Self::Input], output: &mut [Self::Output]) -> (usize, usize);

    /// The fewest input items with which `process` is sure to make
    /// progress (given [`min_output`](Self::min_output) free items): a
    /// whole frame for block transforms, a decimation group for decimators.
    fn min_input(&self) -> usize {
        1
    }

    /// The fewest output items `process` needs room for to make progress.
    fn min_output(&self) -> usize {
        1
    }

    /// Clears all history and state.
    fn reset(&mut self);
}
