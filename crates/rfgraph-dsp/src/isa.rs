//! Instruction-set selection for the hot loops. Owns CPU feature detection and
//! the process-wide default; it must never pick an ISA the CPU lacks.
//!
//! Kernels resolve their [`Isa`] once, at construction, and keep it in their
//! struct, so the per-call cost of dispatch is one predictable branch.

use std::sync::OnceLock;

/// Which implementation of the SIMD-accelerated loops a kernel uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Isa {
    /// Portable Rust; the reference implementation.
    Scalar,
    /// x86-64 AVX2 with FMA (8 × f32 lanes).
    Avx2Fma,
}

impl Isa {
    /// The best ISA this CPU supports, detected once per process.
    ///
    /// Setting the environment variable `RFGRAPH_DSP_ISA=scalar` before the first
    /// call forces [`Isa::Scalar`] process-wide (useful to benchmark the fallback).
    pub fn detect() -> Isa {
        static DETECTED: OnceLock<Isa> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            let forced_scalar = std::env::var("RFGRAPH_DSP_ISA")
                .map(|v| v.eq_ignore_ascii_case("scalar"))
                .unwrap_or(false);
            if !forced_scalar && Isa::Avx2Fma.is_available() {
                Isa::Avx2Fma
            } else {
                Isa::Scalar
            }
        })
    }

    /// Whether this CPU can run `self`.
    pub fn is_available(self) -> bool {
        match self {
            Isa::Scalar => true,
            Isa::Avx2Fma => avx2_fma_available(),
        }
    }

    /// `self` if the CPU supports it, otherwise [`Isa::Scalar`].
    pub fn resolve(self) -> Isa {
        if self.is_available() {
            self
        } else {
            Isa::Scalar
        }
    }

    /// Short lower-case name (`"scalar"`, `"avx2+fma"`).
    pub fn name(self) -> &'static str {
        match self {
            Isa::Scalar => "scalar",
            Isa::Avx2Fma => "avx2+fma",
        }
    }
}

impl Default for Isa {
    fn default() -> Self {
        Isa::detect()
    }
}

#[cfg(target_arch = "x86_64")]
fn avx2_fma_available() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
}

#[cfg(not(target_arch = "x86_64"))]
fn avx2_fma_available() -> bool {
    false
}
