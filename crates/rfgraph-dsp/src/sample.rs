//! The [`Sample`] trait: the arithmetic a generic kernel (IIR, moving average,
//! DC blocker, AGC) needs from `f32` and `Complex32`. Owns nothing else.

use core::ops::{Add, AddAssign, Mul, Neg, Sub};
use num_complex::Complex32;

/// A real or complex `f32` sample.
pub trait Sample:
    Copy
    + Default
    + PartialEq
    + core::fmt::Debug
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + AddAssign
    + Sub<Output = Self>
    + Neg<Output = Self>
    + Mul<f32, Output = Self>
{
    /// Zero.
    const ZERO: Self;
    /// Magnitude `|x|`.
    fn magnitude(self) -> f32;
    /// Whether every component is finite.
    fn is_finite_sample(self) -> bool;
}

impl Sample for f32 {
    const ZERO: Self = 0.0;
    #[inline]
    fn magnitude(self) -> f32 {
        self.abs()
    }
    #[inline]
    fn is_finite_sample(self) -> bool {
        self.is_finite()
    }
}

impl Sample for Complex32 {
    const ZERO: Self = Complex32::new(0.0, 0.0);
    #[inline]
    fn magnitude(self) -> f32 {
        self.norm()
    }
    #[inline]
    fn is_finite_sample(self) -> bool {
        self.re.is_finite() && self.im.is_finite()
    }
}
