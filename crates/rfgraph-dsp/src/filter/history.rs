//! Streaming history for FIR-style kernels. Owns the rule that lets a filter read
//! its input in place: a window ending at input index `i` lies entirely in the
//! caller's slice when `i >= len`, and otherwise in a small staging buffer that
//! holds the saved history followed by the first input samples. Allocates only
//! when constructed or resized (new taps), never while filtering.

use crate::filter::FirKind;
use crate::simd::Simd;

/// The last `len` input samples of a stream plus a staging buffer of `2 len`.
#[derive(Debug, Clone)]
pub(crate) struct History<T> {
    saved: Vec<T>,
    staging: Vec<T>,
}

impl<T: Copy + Default> History<T> {
    /// History for windows of `window` samples (keeps `window - 1`).
    pub(crate) fn new(window: usize) -> Self {
        let len = window.saturating_sub(1);
        History {
            saved: vec![T::default(); len],
            staging: vec![T::default(); 2 * len],
        }
    }

    /// Number of samples kept.
    pub(crate) fn len(&self) -> usize {
        self.saved.len()
    }

    /// Keeps history for windows of `window` samples from now on: the most
    /// recent samples stay, a longer history starts with zeros before them
    /// (a filter whose taps change keeps its past input).
    pub(crate) fn resize(&mut self, window: usize) {
        let len = window.saturating_sub(1);
        let (h, k) = (self.saved.len(), len.min(self.saved.len()));
        let mut saved = vec![T::default(); len];
        saved[len - k..].copy_from_slice(&self.saved[h - k..]);
        self.saved = saved;
        self.staging = vec![T::default(); 2 * len];
    }

    /// Zeroes the history.
    pub(crate) fn reset(&mut self) {
        self.saved.fill(T::default());
    }

    /// Copies history then `input[..min(input.len(), len)]` into the staging
    /// buffer and returns the filled part. A window ending at input index
    /// `i < min(input.len(), len)` is `staged[i..i + len + 1]`.
    pub(crate) fn stage(&mut self, input: &[T]) -> &[T] {
        let h = self.saved.len();
        let k = input.len().min(h);
        self.staging[..h].copy_from_slice(&self.saved);
        self.staging[h..h + k].copy_from_slice(&input[..k]);
        &self.staging[..h + k]
    }

    /// Appends `consumed` (the input samples now used up) to the history.
    pub(crate) fn advance(&mut self, consumed: &[T]) {
        let h = self.saved.len();
        let c = consumed.len();
        if c >= h {
            self.saved.copy_from_slice(&consumed[c - h..]);
        } else if c > 0 {
            self.saved.copy_within(c.., 0);
            self.saved[h - c..].copy_from_slice(consumed);
        }
    }
}

/// The window of `h + 1` samples ending at input index `i`, taken from the
/// staged buffer (`i < h`) or from the input itself.
#[inline]
pub(crate) fn window<'a, T>(staged: &'a [T], input: &'a [T], h: usize, i: usize) -> &'a [T] {
    if i < h {
        &staged[i..i + h + 1]
    } else {
        &input[i - h..i + 1]
    }
}

/// Filters the windows ending at input indices `first + j * stride`,
/// `j < out.len()`; every such index must be `< input.len()`.
pub(crate) fn filter_strided<K: FirKind>(
    simd: Simd,
    taps: &K::Prepared,
    history: &mut History<K::Input>,
    input: &[K::Input],
    first: usize,
    stride: usize,
    out: &mut [K::Output],
) {
    let count = out.len();
    if count == 0 {
        return;
    }
    let h = history.len();
    let in_staging = if first >= h {
        0
    } else {
        ((h - first - 1) / stride + 1).min(count)
    };
    if in_staging > 0 {
        let staged = history.stage(input);
        K::filter(simd, taps, &staged[first..], &mut out[..in_staging], stride);
    }
    if in_staging < count {
        let i0 = first + in_staging * stride;
        K::filter(simd, taps, &input[i0 - h..], &mut out[in_staging..], stride);
    }
}

/// Filters the windows ending at input indices `0..out.len()` (all `<
/// input.len()`) with the streaming 1:1 kernel.
pub(crate) fn filter_contiguous<K: FirKind>(
    simd: Simd,
    taps: &K::Prepared,
    history: &mut History<K::Input>,
    input: &[K::Input],
    out: &mut [K::Output],
) {
    let count = out.len();
    if count == 0 {
        return;
    }
    let h = history.len();
    let in_staging = h.min(count);
    if in_staging > 0 {
        let staged = history.stage(input);
        K::filter_stream(simd, taps, staged, &mut out[..in_staging]);
    }
    if in_staging < count {
        K::filter_stream(simd, taps, &input[in_staging - h..], &mut out[in_staging..]);
    }
}
