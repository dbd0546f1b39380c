//! Shared bench helpers: deterministic signals and the ISAs to compare.
#![allow(dead_code)]

use num_complex::Complex32;
use rfgraph_dsp::Isa;

/// Samples per benchmark iteration.
pub const BLOCK: usize = 8192;

pub fn signal_f32(n: usize) -> Vec<f32> {
    let mut s = 0x1234_5678_9abc_def0u64;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        })
        .collect()
}

pub fn signal_c32(n: usize) -> Vec<Complex32> {
    let v = signal_f32(2 * n);
    v.chunks_exact(2)
        .map(|p| Complex32::new(p[0], p[1]))
        .collect()
}

/// Scalar, plus AVX2+FMA when the CPU has it.
pub fn isas() -> Vec<Isa> {
    let mut v = vec![Isa::Scalar];
    if Isa::Avx2Fma.is_available() {
        v.push(Isa::Avx2Fma);
    }
    v
}
