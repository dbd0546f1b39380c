//! Comparing rfgraph's outputs with GNU Radio's: the distance between
//! two samples, the first item where two outputs differ, bit errors.

use num_complex::Complex32;
use rfgraph::Item;

/// A sample type of the cases: `f32` or `Complex32`.
pub trait Sample: Item + std::fmt::Debug {
    /// How far apart `a` and `b` are.
    fn dist(a: Self, b: Self) -> f32;
}

impl Sample for f32 {
    fn dist(a: f32, b: f32) -> f32 {
        (a - b).abs()
    }
}

impl Sample for Complex32 {
    fn dist(a: Complex32, b: Complex32) -> f32 {
        (a - b).norm()
    }
}

/// Panics, naming case `n`, at the first item where `got` differs from
/// GNU Radio's `want` (both at least `want.len()` long).
pub fn first_difference<T: PartialEq + std::fmt::Display>(n: &str, got: &[T], want: &[T]) {
    if let Some(i) = (0..want.len()).find(|&i| got[i] != want[i]) {
        panic!(
            "{n}: first difference at {i}: ours {}, GNU Radio {}",
            got[i], want[i]
        );
    }
}

/// How many of `bits` differ from the bits `sent`.
pub fn bit_errors(bits: &[u8], sent: &[u8]) -> usize {
    bits.iter().zip(sent).filter(|(a, b)| a != b).count()
}
