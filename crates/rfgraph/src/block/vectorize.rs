//! Compiling per-item loops for the widest vector instructions the CPU has.
//!
//! Rust builds for the baseline x86-64 ISA (SSE2, four `f32` lanes) unless
//! told otherwise. [`vectorized`] runs a closure inside a function compiled
//! with AVX2 and FMA when the running CPU has them (checked once, cached by
//! `std`), so a loop in the closure is auto-vectorised eight lanes wide
//! without giving up portable binaries. [`Map`](super::map::Map) runs
//! every closure block this way; the benchmark rooflines do the same, so
//! both sides of a comparison get the same code generation.

/// Runs `body`, compiled for AVX2 + FMA when this CPU supports them.
///
/// `body` is inlined into the dispatching function, so loops in it get the
/// wider instructions. Results are identical to a baseline build's: Rust
/// never fuses `a * x + b` into an FMA on its own.
#[inline(always)]
pub fn vectorized<R>(body: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx2_fma() {
            // SAFETY: the CPU supports every feature `run_avx2` enables
            // (checked just above).
            return unsafe { run_avx2(body) };
        }
    }
    body()
}

/// [`AVX2_FMA`]: not yet detected.
#[cfg(target_arch = "x86_64")]
const UNKNOWN: u8 = 0;
/// [`AVX2_FMA`]: this CPU has both.
#[cfg(target_arch = "x86_64")]
const PRESENT: u8 = 1;
/// [`AVX2_FMA`]: this CPU lacks one of them.
#[cfg(target_arch = "x86_64")]
const ABSENT: u8 = 2;

/// Whether this CPU has AVX2 and FMA, detected once: one load and a
/// branch per call (`std`'s cached detection of two features costs a
/// block call several more instructions).
#[cfg(target_arch = "x86_64")]
static AVX2_FMA: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(UNKNOWN);

/// True when this CPU has AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn has_avx2_fma() -> bool {
    match AVX2_FMA.load(std::sync::atomic::Ordering::Relaxed) {
        PRESENT => true,
        ABSENT => false,
        _ => detect_avx2_fma(),
    }
}

/// Detects AVX2 and FMA and remembers the answer in [`AVX2_FMA`].
#[cfg(target_arch = "x86_64")]
#[cold]
#[inline(never)]
fn detect_avx2_fma() -> bool {
    let present =
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma");
    let state = if present { PRESENT } else { ABSENT };
    AVX2_FMA.store(state, std::sync::atomic::Ordering::Relaxed);
    present
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn run_avx2<R>(body: impl FnOnce() -> R) -> R {
    body()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectorized_loop_matches_the_scalar_loop() {
        let input: Vec<f32> = (0..1003).map(|i| i as f32 * 0.37 - 50.0).collect();
        let mut fast = vec![0f32; input.len()];
        vectorized(|| {
            for (o, &x) in fast.iter_mut().zip(&input) {
                *o = 0.999 * x + 0.001;
            }
        });
        let slow: Vec<f32> = input.iter().map(|&x| 0.999 * x + 0.001).collect();
        // Bit-exact: no contraction into FMA.
        assert_eq!(fast, slow);
        assert_eq!(vectorized(|| 41 + 1), 42);
    }

    /// The cached answer is `std`'s, however often it is asked.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_cached_detection_agrees_with_std() {
        let std_says = std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma");
        assert_eq!(detect_avx2_fma(), std_says);
        for _ in 0..3 {
            assert_eq!(has_avx2_fma(), std_says);
        }
    }
}
