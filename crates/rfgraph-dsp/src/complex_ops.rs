//! Element-wise complex arithmetic: magnitude, squared magnitude and conjugate
//! multiplication, as free functions and as [`Kernel`] structs. Owns no state.

use crate::isa::Isa;
use crate::kernel::{Kernel, Ratio};
use crate::simd::{self, Simd};
use num_complex::Complex32;

/// `out[n] = |x[n]|` over `min(x.len(), out.len())` samples (best ISA); returns
/// that count.
pub fn magnitude(x: &[Complex32], out: &mut [f32]) -> usize {
    simd::magnitude(Simd::new(Isa::detect()), x, out);
    x.len().min(out.len())
}

/// `out[n] = |x[n]|²` over `min(x.len(), out.len())` samples (best ISA); returns
/// that count.
pub fn magnitude_squared(x: &[Complex32], out: &mut [f32]) -> usize {
    simd::magnitude_squared(Simd::new(Isa::detect()), x, out);
    x.len().min(out.len())
}

/// `out[n] = a[n] · conj(b[n])` over the shortest of the three slices; returns
/// that count.
pub fn multiply_conjugate(a: &[Complex32], b: &[Complex32], out: &mut [Complex32]) -> usize {
    let n = a.len().min(b.len()).min(out.len());
    for ((o, x), y) in out[..n].iter_mut().zip(a).zip(b) {
        *o = Complex32::new(x.re * y.re + x.im * y.im, x.im * y.re - x.re * y.im);
    }
    n
}

/// Kernel computing `|x|`.
#[derive(Debug, Clone)]
pub struct ComplexToMag {
    simd: Simd,
}

impl ComplexToMag {
    /// On the best ISA of this CPU.
    pub fn new() -> Self {
        Self::with_isa(Isa::detect())
    }

    /// Forced onto `isa` (scalar if the CPU lacks it).
    pub fn with_isa(isa: Isa) -> Self {
        ComplexToMag {
            simd: Simd::new(isa),
        }
    }

    /// Computes `min(input.len(), output.len())` magnitudes; returns `(n, n)`.
    pub fn process(&mut self, input: &[Complex32], output: &mut [f32]) -> (usize, usize) {
        let n = input.len().min(output.len());
        simd::magnitude(self.simd, &input[..n], &mut output[..n]);
        (n, n)
    }
}

impl Default for ComplexToMag {
    fn default() -> Self {
        Self::new()
    }
}

impl Kernel for ComplexToMag {
    type Input = Complex32;
    type Output = f32;

    fn process(&mut self, input: &[Complex32], output: &mut [f32]) -> (usize, usize) {
        ComplexToMag::process(self, input, output)
    }

    /// Stateless.
    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {}
}

/// Kernel computing `|x|²`.
#[derive(Debug, Clone)]
pub struct ComplexToMagSquared {
    simd: Simd,
}

impl ComplexToMagSquared {
    /// On the best ISA of this CPU.
    pub fn new() -> Self {
        Self::with_isa(Isa::detect())
    }

    /// Forced onto `isa` (scalar if the CPU lacks it).
    pub fn with_isa(isa: Isa) -> Self {
        ComplexToMagSquared {
            simd: Simd::new(isa),
        }
    }

    /// Computes `min(input.len(), output.len())` squared magnitudes; returns
    /// `(n, n)`.
    pub fn process(&mut self, input: &[Complex32], output: &mut [f32]) -> (usize, usize) {
        let n = input.len().min(output.len());
        simd::magnitude_squared(self.simd, &input[..n], &mut output[..n]);
        (n, n)
    }
}

impl Default for ComplexToMagSquared {
    fn default() -> Self {
        Self::new()
    }
}

impl Kernel for ComplexToMagSquared {
    type Input = Complex32;
    type Output = f32;

    fn process(&mut self, input: &[Complex32], output: &mut [f32]) -> (usize, usize) {
        ComplexToMagSquared::process(self, input, output)
    }

    /// Stateless.
    fn ratio(&self) -> Ratio {
        Ratio::ONE
    }

    fn reset(&mut self) {}
}

/// Two-input kernel `out = a · conj(b)` (not a [`Kernel`]: it has two inputs).
#[derive(Debug, Clone, Default)]
pub struct MultiplyConjugate;

impl MultiplyConjugate {
    /// A conjugate multiplier.
    pub fn new() -> Self {
        MultiplyConjugate
    }

    /// Multiplies the common prefix of the three slices; returns
    /// `(consumed from each input, produced)`.
    pub fn process(
        &mut self,
        a: &[Complex32],
        b: &[Complex32],
        out: &mut [Complex32],
    ) -> (usize, usize) {
        let n = multiply_conjugate(a, b, out);
        (n, n)
    }
}
