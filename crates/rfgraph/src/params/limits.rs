//! Upper bounds of the parameters that size an allocation. A flowgraph
//! file is untrusted: `vlen = 1e12` must be an error naming the parameter
//! and the bound, not an abort when the allocator gives up. Each bound is
//! far above what a real radio uses and far below what a machine cannot
//! hold.

/// Items in one vector of a vector stream (`vlen`).
pub const MAX_VLEN: usize = 1 << 20;

/// Taps of a filter, given or designed (rfgraph-dsp's designs stop there too).
pub const MAX_TAPS: usize = 1 << 24;

/// Points of an FFT.
pub const MAX_FFT: usize = 1 << 22;

/// Items of a ring buffer asked for by a file (`buffer_size`,
/// `minoutbuf`, `maxoutbuf`).
pub const MAX_BUFFER_ITEMS: usize = 1 << 28;

/// Ports of a block with a variable number of them.
pub const MAX_PORTS: usize = 1024;

/// Elements of any other vector a block holds (a vector source's values,
/// a lookup table, a delay line).
pub const MAX_ELEMENTS: usize = 1 << 26;

/// A decimation or interpolation factor, samples per symbol, and other
/// rate factors.
pub const MAX_FACTOR: usize = 1 << 20;
