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

    /// Output items per input item. A rate-changing wrapper (the block
    /// around the kernel) moves stream tags by it, so every kernel states
    /// it; there is no default to forget.
    fn ratio(&self) -> Ratio;

    /// Clears all history and state.
    fn reset(&mut self);
}

/// A kernel's output items per input item, as `interpolation / decimation`
/// in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    /// Output items per `decimation` input items.
    pub interpolation: u64,
    /// Input items per `interpolation` output items.
    pub decimation: u64,
}

impl Ratio {
    /// One output per input.
    pub const ONE: Ratio = Ratio {
        interpolation: 1,
        decimation: 1,
    };

    /// `interpolation / decimation`, reduced; a zero term counts as one.
    pub fn new(interpolation: u64, decimation: u64) -> Self {
        let (i, d) = (interpolation.max(1), decimation.max(1));
        let g = gcd(i, d);
        Self {
            interpolation: i / g,
            decimation: d / g,
        }
    }

    /// The closest fraction to a positive `ratio` with a denominator of at
    /// most 2^20 (continued fractions), for kernels whose ratio is not
    /// rational (arbitrary resamplers). Non-finite or non-positive ratios
    /// give [`ONE`](Self::ONE).
    pub fn approximate(ratio: f64) -> Self {
        const MAX_DENOMINATOR: u64 = 1 << 20;
        if !(ratio.is_finite() && ratio > 0.0) {
            return Self::ONE;
        }
        // Convergents h/k of the continued fraction of `ratio`.
        let (mut h0, mut h1, mut k0, mut k1) = (0u64, 1u64, 1u64, 0u64);
        let mut x = ratio;
        loop {
            let a = x.floor();
            if a > u32::MAX as f64 {
                break;
            }
            let a = a as u64;
            let (h2, k2) = (a * h1 + h0, a * k1 + k0);
            if k2 > MAX_DENOMINATOR || h2 > u64::MAX / 2 {
                break;
            }
            (h0, h1, k0, k1) = (h1, h2, k1, k2);
            let frac = x - a as f64;
            if frac < 1e-12 {
                break;
            }
            x = 1.0 / frac;
        }
        if k1 == 0 || h1 == 0 {
            // Below 1 / 2^20 or above 2^32: clamp to the representable end.
            return if ratio < 1.0 {
                Self::new(1, MAX_DENOMINATOR)
            } else {
                Self::new(u32::MAX as u64, 1)
            };
        }
        Self::new(h1, k1)
    }

    /// The ratio as a float.
    pub fn as_f64(self) -> f64 {
        self.interpolation as f64 / self.decimation as f64
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::Ratio;

    #[test]
    fn ratios_reduce_and_approximate() {
        assert_eq!(Ratio::new(6, 4), Ratio::new(3, 2));
        assert_eq!(Ratio::new(0, 5), Ratio::new(1, 5));
        assert_eq!(Ratio::approximate(0.75), Ratio::new(3, 4));
        assert_eq!(Ratio::approximate(48_000.0 / 240_000.0), Ratio::new(1, 5));
        let r = Ratio::approximate(std::f64::consts::PI);
        assert!((r.as_f64() - std::f64::consts::PI).abs() < 1e-9);
        assert!(r.decimation <= 1 << 20);
        assert_eq!(Ratio::approximate(f64::NAN), Ratio::ONE);
        assert_eq!(Ratio::approximate(1e-9), Ratio::new(1, 1 << 20));
    }
}
