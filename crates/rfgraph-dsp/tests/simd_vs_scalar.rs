//! The AVX2+FMA paths agree with the scalar paths within float tolerance, for
//! every kernel with a SIMD loop, over awkward lengths (tails) and offsets.
//! Skipped, with a printed line, on CPUs without AVX2/FMA.

mod common;

use common::*;
use num_complex::Complex32;
use rfgraph_dsp::filter::{DecimatingFirCcc, DecimatingFirCcf, DecimatingFirFff};
use rfgraph_dsp::{
    AmDemod, ArbitraryResampler, Ccc, Ccf, ComplexToMag, ComplexToMagSquared, Fff, Fir,
    InterpolatingFir, Isa, Kernel, Nco, QuadratureDemod, RationalResampler, Rotator, Spectrum,
    SpectrumMode, Window,
};

fn avx2() -> bool {
    if Isa::Avx2Fma.is_available() {
        true
    } else {
        println!("skipping SIMD-vs-scalar comparison: CPU lacks AVX2/FMA");
        false
    }
}

fn both<K: Kernel>(
    make: impl Fn(Isa) -> K,
    input: &[K::Input],
    max_out: usize,
) -> (Vec<K::Output>, Vec<K::Output>)
where
    K::Output: Default + Clone,
{
    let mut s = make(Isa::Scalar);
    let mut v = make(Isa::Avx2Fma);
    (
        one_shot(&mut s, input, max_out),
        one_shot(&mut v, input, max_out),
    )
}

#[test]
fn detect_prefers_avx2_when_available() {
    println!("detected ISA: {}", Isa::detect().name());
    assert!(Isa::Scalar.is_available());
    assert_eq!(Isa::Scalar.resolve(), Isa::Scalar);
    if std::env::var("RFGRAPH_DSP_ISA").is_err() {
        assert_eq!(Isa::detect() == Isa::Avx2Fma, Isa::Avx2Fma.is_available());
    }
    let f = Fir::<Fff>::with_isa(&[1.0], Isa::Avx2Fma).unwrap();
    assert_eq!(f.isa(), Isa::Avx2Fma.resolve());
}

#[test]
fn fir_paths_agree() {
    if !avx2() {
        return;
    }
    let mut rng = Rng::new(51);
    for n in [1usize, 3, 8, 17, 32, 33, 64, 100, 129] {
        let xr = rng.vec_f32(531);
        let xc = rng.vec_c32(531);
        let hr = rng.vec_f32(n);
        let hc = rng.vec_c32(n);
        let (s, v) = both(|i| Fir::<Fff>::with_isa(&hr, i).unwrap(), &xr, xr.len());
        assert!(max_abs_diff_f(&s, &v) < 1e-5, "fff n {n}");
        let (s, v) = both(|i| Fir::<Ccf>::with_isa(&hr, i).unwrap(), &xc, xc.len());
        assert!(max_abs_diff_c(&s, &v) < 1e-5, "ccf n {n}");
        let (s, v) = both(|i| Fir::<Ccc>::with_isa(&hc, i).unwrap(), &xc, xc.len());
        assert!(max_abs_diff_c(&s, &v) < 2e-5, "ccc n {n}");
        let (s, v) = both(
            |i| DecimatingFirFff::with_isa(&hr, 3, i).unwrap(),
            &xr,
            xr.len(),
        );
        assert!(max_abs_diff_f(&s, &v) < 1e-5);
        let (s, v) = both(
            |i| DecimatingFirCcf::with_isa(&hr, 5, i).unwrap(),
            &xc,
            xc.len(),
        );
        assert!(max_abs_diff_c(&s, &v) < 1e-5);
        let (s, v) = both(
            |i| DecimatingFirCcc::with_isa(&hc, 2, i).unwrap(),
            &xc,
            xc.len(),
        );
        assert!(max_abs_diff_c(&s, &v) < 2e-5);
        let (s, v) = both(
            |i| InterpolatingFir::<Ccf>::with_isa(&hr, 3, i).unwrap(),
            &xc,
            xc.len() * 3,
        );
        assert!(max_abs_diff_c(&s, &v) < 1e-5);
    }
}

#[test]
fn resampler_paths_agree() {
    if !avx2() {
        return;
    }
    let mut rng = Rng::new(52);
    let x = rng.vec_c32(700);
    let taps = rng.vec_f32(45);
    let (s, v) = both(
        |i| RationalResampler::<Ccf>::with_taps(3, 2, &taps, i).unwrap(),
        &x,
        2000,
    );
    assert!(max_abs_diff_c(&s, &v) < 1e-5);
    let proto = rng.vec_f32(200);
    let (s, v) = both(
        |i| ArbitraryResampler::<Ccf>::with_taps(0.77, 16, &proto, i).unwrap(),
        &x,
        2000,
    );
    assert!(max_abs_diff_c(&s, &v) < 1e-5);
}

#[test]
fn rotator_and_nco_paths_agree() {
    if !avx2() {
        return;
    }
    let mut rng = Rng::new(53);
    for len in [0usize, 1, 7, 8, 9, 15, 16, 17, 333] {
        let x = rng.vec_c32(len);
        for f in [0.0, 0.013, -0.31, 0.5] {
            let (s, v) = both(|i| Rotator::with_isa(f, i).unwrap(), &x, len);
            assert!(max_abs_diff_c(&s, &v) < 1e-6, "rotator len {len} f {f}");
            let mut a = Nco::with_isa(f, 0.3, Isa::Scalar).unwrap();
            let mut b = Nco::with_isa(f, 0.3, Isa::Avx2Fma).unwrap();
            let mut oa = vec![Complex32::new(0.0, 0.0); len];
            let mut ob = oa.clone();
            a.generate(&mut oa);
            b.generate(&mut ob);
            assert!(max_abs_diff_c(&oa, &ob) < 1e-6, "nco len {len}");
            assert_eq!(a.phase(), b.phase());
        }
    }
}

#[test]
fn demod_and_magnitude_paths_agree() {
    if !avx2() {
        return;
    }
    let mut rng = Rng::new(54);
    for len in [0usize, 1, 2, 7, 8, 9, 16, 17, 1001] {
        let mut x = rng.vec_c32(len);
        if len > 3 {
            // Exercise the special cases: zeros, axes, negative real parts.
            x[0] = Complex32::new(0.0, 0.0);
            x[1] = Complex32::new(-1.0, 0.0);
            x[2] = Complex32::new(0.0, -2.0);
        }
        let (s, v) = both(|i| QuadratureDemod::with_isa(1.7, i).unwrap(), &x, len);
        assert!(max_abs_diff_f(&s, &v) < 2e-6, "quad demod len {len}");
        // And both agree with f64 atan2.
        let mut prev = Complex32::new(0.0, 0.0);
        for (k, c) in x.iter().enumerate() {
            let z = c * prev.conj();
            let e = 1.7 * (z.im as f64).atan2(z.re as f64);
            assert!((v[k] as f64 - e).abs() < 5e-6, "k {k}: {} vs {e}", v[k]);
            prev = *c;
        }
        let (s, v) = both(ComplexToMag::with_isa, &x, len);
        assert!(max_abs_diff_f(&s, &v) < 1e-6);
        let (s, v) = both(ComplexToMagSquared::with_isa, &x, len);
        assert!(max_abs_diff_f(&s, &v) < 1e-6);
        let (s, v) = both(AmDemod::with_isa, &x, len);
        assert!(max_abs_diff_f(&s, &v) < 1e-6);
    }
}

#[test]
fn spectrum_paths_agree() {
    if !avx2() {
        return;
    }
    let mut rng = Rng::new(55);
    let x = rng.vec_c32(512);
    let (s, v) = both(
        |i| Spectrum::with_isa(128, Window::Hann, SpectrumMode::PowerDb, i).unwrap(),
        &x,
        512,
    );
    assert!(max_abs_diff_f(&s, &v) < 1e-3);
}
