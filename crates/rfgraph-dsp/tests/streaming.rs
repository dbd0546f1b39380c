//! Property tests: for every streaming kernel, feeding the input in random
//! chunk sizes with random output capacities gives exactly the output of one
//! call over the whole input.

mod common;

use common::{Rng as TestRng, chunked, one_shot};
use num_complex::Complex32;
use proptest::prelude::*;
use rfgraph_dsp::{
    Agc, ArbitraryResampler, BiquadCascade, Ccc, Ccf, DcBlocker, DecimatingFir, Deemphasis, Fff,
    Fir, FreqXlatingFir, InterpolatingFir, Isa, Kernel, MovingAverage, QuadratureDemod,
    RationalResampler, Rotator,
};

fn isa(scalar: bool) -> Isa {
    if scalar { Isa::Scalar } else { Isa::detect() }
}

/// Asserts chunked == one-shot for kernels built by `make`.
fn check<K: Kernel>(
    make: impl Fn() -> K,
    input: &[K::Input],
    max_out: usize,
    chunks: &[usize],
    caps: &[usize],
) where
    K::Output: Default + Clone + PartialEq + core::fmt::Debug,
{
    let whole = one_shot(&mut make(), input, max_out);
    let parts = chunked(&mut make(), input, chunks, caps);
    assert_eq!(parts, whole);
    // reset() brings the kernel back to its initial state.
    let mut k = make();
    let _ = chunked(&mut k, input, chunks, caps);
    k.reset();
    assert_eq!(one_shot(&mut k, input, max_out), whole);
}

fn chunks() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(1usize..70, 1..12)
}

fn caps() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0usize..90, 1..12)
}

fn signal(seed: u64, n: usize) -> Vec<Complex32> {
    TestRng::new(seed).vec_c32(n)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn fir_streaming(seed in any::<u64>(), n in 0usize..500, ntaps in 1usize..80,
                     ch in chunks(), cp in caps(), scalar in any::<bool>()) {
        let x = signal(seed, n);
        let xr: Vec<f32> = x.iter().map(|v| v.re).collect();
        let mut rng = TestRng::new(seed ^ 1);
        let hr = rng.vec_f32(ntaps);
        let hc = rng.vec_c32(ntaps);
        check(|| Fir::<Fff>::with_isa(&hr, isa(scalar)).unwrap(), &xr, n, &ch, &cp);
        check(|| Fir::<Ccf>::with_isa(&hr, isa(scalar)).unwrap(), &x, n, &ch, &cp);
        check(|| Fir::<Ccc>::with_isa(&hc, isa(scalar)).unwrap(), &x, n, &ch, &cp);
    }

    #[test]
    fn decimating_fir_streaming(seed in any::<u64>(), n in 0usize..500, ntaps in 1usize..70, m in 1usize..9,
                                ch in chunks(), cp in caps(), scalar in any::<bool>()) {
        let x = signal(seed, n);
        let xr: Vec<f32> = x.iter().map(|v| v.im).collect();
        let mut rng = TestRng::new(seed ^ 2);
        let hr = rng.vec_f32(ntaps);
        let hc = rng.vec_c32(ntaps);
        check(|| DecimatingFir::<Fff>::with_isa(&hr, m, isa(scalar)).unwrap(), &xr, n, &ch, &cp);
        check(|| DecimatingFir::<Ccf>::with_isa(&hr, m, isa(scalar)).unwrap(), &x, n, &ch, &cp);
        check(|| DecimatingFir::<Ccc>::with_isa(&hc, m, isa(scalar)).unwrap(), &x, n, &ch, &cp);
    }

    #[test]
    fn interpolating_fir_streaming(seed in any::<u64>(), n in 0usize..300, ntaps in 1usize..50, l in 1usize..6,
                                   ch in chunks(), cp in caps()) {
        let x = signal(seed, n);
        let hr = TestRng::new(seed ^ 3).vec_f32(ntaps);
        check(|| InterpolatingFir::<Ccf>::new(&hr, l).unwrap(), &x, n * l, &ch, &cp);
    }

    #[test]
    fn rational_resampler_streaming(seed in any::<u64>(), n in 0usize..400, ntaps in 1usize..60,
                                    l in 1usize..7, m in 1usize..7, ch in chunks(), cp in caps(),
                                    scalar in any::<bool>()) {
        let x = signal(seed, n);
        let hr = TestRng::new(seed ^ 4).vec_f32(ntaps);
        let max_out = n * l / m + 2;
        check(|| RationalResampler::<Ccf>::with_taps(l, m, &hr, isa(scalar)).unwrap(), &x, max_out, &ch, &cp);
        let xr: Vec<f32> = x.iter().map(|v| v.re).collect();
        check(|| RationalResampler::<Fff>::with_taps(l, m, &hr, isa(scalar)).unwrap(), &xr, max_out, &ch, &cp);
    }

    #[test]
    fn rational_resampler_default_design_streaming(seed in any::<u64>(), n in 0usize..300,
                                                   l in 1usize..5, m in 1usize..5, ch in chunks(), cp in caps()) {
        let x = signal(seed, n);
        check(|| RationalResampler::<Ccf>::new(l, m).unwrap(), &x, n * l / m + 2, &ch, &cp);
    }

    #[test]
    fn arbitrary_resampler_streaming(seed in any::<u64>(), n in 0usize..400, rate in 0.2f64..3.0,
                                     nf in 1usize..33, ntaps in 1usize..200, ch in chunks(), cp in caps(),
                                     scalar in any::<bool>()) {
        let x = signal(seed, n);
        let proto = TestRng::new(seed ^ 5).vec_f32(ntaps);
        let max_out = (n as f64 * rate) as usize + 3;
        check(|| ArbitraryResampler::<Ccf>::with_taps(rate, nf, &proto, isa(scalar)).unwrap(), &x, max_out, &ch, &cp);
    }

    #[test]
    fn rotator_streaming(seed in any::<u64>(), n in 0usize..600, f in -0.5f64..0.5,
                         ch in chunks(), cp in caps(), scalar in any::<bool>()) {
        let x = signal(seed, n);
        check(|| Rotator::with_isa(f, isa(scalar)).unwrap(), &x, n, &ch, &cp);
    }

    #[test]
    fn quadrature_demod_streaming(seed in any::<u64>(), n in 0usize..600, gain in -5.0f32..5.0,
                                  ch in chunks(), cp in caps(), scalar in any::<bool>()) {
        let x = signal(seed, n);
        check(|| QuadratureDemod::with_isa(gain, isa(scalar)).unwrap(), &x, n, &ch, &cp);
    }

    #[test]
    fn moving_average_streaming(seed in any::<u64>(), n in 0usize..600, len in 1usize..40,
                                ch in chunks(), cp in caps()) {
        let x = signal(seed, n);
        let xr: Vec<f32> = x.iter().map(|v| v.re).collect();
        check(|| MovingAverage::<f32>::average(len).unwrap(), &xr, n, &ch, &cp);
        check(|| MovingAverage::<Complex32>::new(len, 0.5).unwrap(), &x, n, &ch, &cp);
    }

    #[test]
    fn freq_xlating_streaming(seed in any::<u64>(), n in 0usize..500, ntaps in 1usize..40, m in 1usize..6,
                              f in -0.5f64..0.5, ch in chunks(), cp in caps()) {
        let x = signal(seed, n);
        let mut rng = TestRng::new(seed ^ 6);
        let hr = rng.vec_f32(ntaps);
        let hc = rng.vec_c32(ntaps);
        check(|| FreqXlatingFir::<Ccf>::new(&hr, m, f).unwrap(), &x, n, &ch, &cp);
        check(|| FreqXlatingFir::<Ccc>::new(&hc, m, f).unwrap(), &x, n, &ch, &cp);
    }

    #[test]
    fn small_iir_kernels_streaming(seed in any::<u64>(), n in 0usize..400, ch in chunks(), cp in caps()) {
        let x = signal(seed, n);
        let xr: Vec<f32> = x.iter().map(|v| v.re).collect();
        check(|| BiquadCascade::<f32>::butterworth_lowpass(3, 1.0, 0.1).unwrap(), &xr, n, &ch, &cp);
        check(|| BiquadCascade::<Complex32>::butterworth_highpass(2, 1.0, 0.05).unwrap(), &x, n, &ch, &cp);
        check(|| Deemphasis::new(48_000.0, Deemphasis::TAU_50US).unwrap(), &xr, n, &ch, &cp);
        check(|| DcBlocker::<Complex32>::new(0.99).unwrap(), &x, n, &ch, &cp);
        check(|| Agc::<Complex32>::new(1e-3, 1.0, 1.0, 100.0).unwrap(), &x, n, &ch, &cp);
    }
}
