//! The [`Sample`] trait: the arithmetic a generic kernel (IIR, moving average,
//! DC blocker, AGC) needs from `f32` and `Complex32`, and [`WideSample`], their
//! double-precision twins for recursive state. Owns nothing else.

use core::ops::{Add, AddAssign, Mul, Neg, Sub};
use num_complex::{Complex32, Complex64};

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

/// A [`Sample`] whose recursive (IIR) state is kept in double precision:
/// `f64` for `f32`, [`Complex64`] for [`Complex32`]. Implemented for those two
/// only (sealed).
pub trait WideSample: Sample + private::Sealed {
    /// The double-precision twin.
    type Wide: Copy
        + Default
        + PartialEq
        + core::fmt::Debug
        + Send
        + Sync
        + 'static
        + Add<Output = Self::Wide>
        + Sub<Output = Self::Wide>
        + Mul<f64, Output = Self::Wide>;
    /// Exact conversion to the twin.
    fn widen(self) -> Self::Wide;
    /// Rounds the twin back to `f32` precision.
    fn narrow(wide: Self::Wide) -> Self;
}

mod private {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for num_complex::Complex32 {}
}

impl WideSample for f32 {
    type Wide = f64;
    #[inline]
    fn widen(self) -> f64 {
        self as f64
    }
    #[inline]
    fn narrow(wide: f64) -> f32 {
        wide as f32
    }
}

impl WideSample for Complex32 {
    type Wide = Complex64;
    #[inline]
    fn widen(self) -> Complex64 {
        Complex64::new(self.re as f64, self.im as f64)
    }
    #[inline]
    fn narrow(wide: Complex64) -> Complex32 {
        Complex32::new(wide.re as f32, wide.im as f32)
    }
}
