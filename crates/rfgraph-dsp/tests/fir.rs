//! FIR kernels: impulse responses, agreement with a reference convolution,
//! decimating = FIR then keep every M-th, interpolating = zero-stuff then FIR,
//! argument validation.

mod common;

use common::*;
use num_complex::Complex32;
use rfgraph_dsp::filter::{DecimatingFirCcf, FirCcc, FirCcf, FirFff};
use rfgraph_dsp::{Ccc, Ccf, DecimatingFir, DspError, Fff, Fir, InterpolatingFir, Isa, Kernel};

const LENGTHS: [usize; 8] = [1, 2, 5, 8, 13, 31, 64, 67];

fn isas() -> Vec<Isa> {
    let mut v = vec![Isa::Scalar];
    if Isa::Avx2Fma.is_available() {
        v.push(Isa::Avx2Fma);
    }
    v
}

#[test]
fn impulse_response_equals_taps_fff() {
    let mut rng = Rng::new(1);
    for isa in isas() {
        for n in LENGTHS {
            let taps = rng.vec_f32(n);
            let mut fir = Fir::<Fff>::with_isa(&taps, isa).unwrap();
            let mut impulse = vec![0.0f32; n + 10];
            impulse[0] = 1.0;
            let mut out = vec![0.0f32; n + 10];
            assert_eq!(fir.process(&impulse, &mut out), (n + 10, n + 10));
            assert_eq!(&out[..n], &taps[..], "isa {isa:?} n {n}");
            assert!(out[n..].iter().all(|&v| v == 0.0));
        }
    }
}

#[test]
fn impulse_response_equals_taps_ccf() {
    let mut rng = Rng::new(2);
    for isa in isas() {
        for n in LENGTHS {
            let taps = rng.vec_f32(n);
            let mut fir = FirCcf::with_isa(&taps, isa).unwrap();
            // A complex impulse (1 + 2j) must give (1 + 2j) · taps.
            let mut impulse = vec![Complex32::new(0.0, 0.0); n + 5];
            impulse[0] = Complex32::new(1.0, 2.0);
            let mut out = vec![Complex32::new(0.0, 0.0); n + 5];
            fir.process(&impulse, &mut out);
            for k in 0..n {
                assert!(
                    (out[k] - Complex32::new(taps[k], 2.0 * taps[k])).norm() < 1e-6,
                    "isa {isa:?} n {n} k {k}"
                );
            }
            assert!(out[n..].iter().all(|v| v.norm() == 0.0));
        }
    }
}

#[test]
fn impulse_response_equals_taps_ccc() {
    let mut rng = Rng::new(3);
    for isa in isas() {
        for n in LENGTHS {
            let taps = rng.vec_c32(n);
            let mut fir = FirCcc::with_isa(&taps, isa).unwrap();
            let mut impulse = vec![Complex32::new(0.0, 0.0); n + 5];
            impulse[0] = Complex32::new(1.0, 0.0);
            let mut out = vec![Complex32::new(0.0, 0.0); n + 5];
            fir.process(&impulse, &mut out);
            assert_eq!(&out[..n], &taps[..], "isa {isa:?} n {n}");
            // And with a j impulse: j · taps.
            fir.reset();
            impulse[0] = Complex32::new(0.0, 1.0);
            fir.process(&impulse, &mut out);
            for k in 0..n {
                assert!((out[k] - taps[k] * Complex32::new(0.0, 1.0)).norm() < 1e-6);
            }
        }
    }
}

#[test]
fn fir_matches_reference_convolution() {
    let mut rng = Rng::new(4);
    for isa in isas() {
        for n in LENGTHS {
            let x = rng.vec_c32(300);
            let hr = rng.vec_f32(n);
            let hc = rng.vec_c32(n);
            let xr: Vec<f32> = x.iter().map(|v| v.re).collect();

            let mut f = FirFff::with_isa(&hr, isa).unwrap();
            let got = one_shot(&mut f, &xr, xr.len());
            assert!(max_abs_diff_f(&got, &conv_f(&xr, &hr)) < 1e-5);

            let mut f = FirCcf::with_isa(&hr, isa).unwrap();
            let got = one_shot(&mut f, &x, x.len());
            assert!(max_abs_diff_c(&got, &conv_c(&x, &to_c(&hr))) < 1e-5);

            let mut f = FirCcc::with_isa(&hc, isa).unwrap();
            let got = one_shot(&mut f, &x, x.len());
            assert!(max_abs_diff_c(&got, &conv_c(&x, &hc)) < 2e-5);
        }
    }
}

#[test]
fn decimating_equals_fir_then_keep_every_mth() {
    let mut rng = Rng::new(5);
    for isa in isas() {
        for m in [1usize, 2, 3, 4, 7, 10] {
            for n in [1usize, 9, 33, 64] {
                let x = rng.vec_c32(257);
                let taps = rng.vec_f32(n);
                let full = one_shot(&mut FirCcf::with_isa(&taps, isa).unwrap(), &x, x.len());
                let expect: Vec<Complex32> = full.iter().step_by(m).copied().collect();
                let mut d = DecimatingFirCcf::with_isa(&taps, m, isa).unwrap();
                let got = one_shot(&mut d, &x, x.len());
                // The 1:1 FIR and the decimator may sum in different orders.
                assert!(
                    max_abs_diff_c(&got, &expect) < 1e-5,
                    "isa {isa:?} m {m} n {n}"
                );

                let xr: Vec<f32> = x.iter().map(|v| v.im).collect();
                let full = one_shot(
                    &mut Fir::<Fff>::with_isa(&taps, isa).unwrap(),
                    &xr,
                    xr.len(),
                );
                let expect: Vec<f32> = full.iter().step_by(m).copied().collect();
                let got = one_shot(
                    &mut DecimatingFir::<Fff>::with_isa(&taps, m, isa).unwrap(),
                    &xr,
                    xr.len(),
                );
                assert!(max_abs_diff_f(&got, &expect) < 1e-5);

                let tc = rng.vec_c32(n);
                let full = one_shot(&mut Fir::<Ccc>::with_isa(&tc, isa).unwrap(), &x, x.len());
                let expect: Vec<Complex32> = full.iter().step_by(m).copied().collect();
                let got = one_shot(
                    &mut DecimatingFir::<Ccc>::with_isa(&tc, m, isa).unwrap(),
                    &x,
                    x.len(),
                );
                assert!(max_abs_diff_c(&got, &expect) < 2e-5);
            }
        }
    }
}

#[test]
fn decimating_stops_before_next_output_when_output_full() {
    let taps = [1.0f32, 1.0, 1.0];
    let mut d = DecimatingFir::<Fff>::new(&taps, 4).unwrap();
    let x: Vec<f32> = (1..=20).map(|v| v as f32).collect();
    let mut out = [0.0f32; 2];
    // Outputs at input indices 0 and 4; the next output needs index 8, so 8
    // samples are consumed.
    assert_eq!(d.plan(20, 2), (8, 2));
    assert_eq!(d.process(&x, &mut out), (8, 2));
    assert_eq!(out, [1.0, 5.0 + 4.0 + 3.0]);
    assert_eq!(d.process(&x[8..], &mut out), (8, 2));
    assert_eq!(out, [9.0 + 8.0 + 7.0, 13.0 + 12.0 + 11.0]);
    // No output space: only the samples before the next output are consumed.
    assert_eq!(d.process(&x[16..], &mut []), (0, 0));
}

#[test]
fn interpolating_equals_zero_stuffing_then_fir() {
    let mut rng = Rng::new(6);
    for isa in isas() {
        for l in [1usize, 2, 3, 5] {
            for n in [1usize, 7, 24, 40] {
                let x = rng.vec_c32(90);
                let taps = rng.vec_f32(n);
                let mut stuffed = vec![Complex32::new(0.0, 0.0); x.len() * l];
                for (i, v) in x.iter().enumerate() {
                    stuffed[i * l] = *v;
                }
                let expect = conv_c(&stuffed, &to_c(&taps));
                let mut f = InterpolatingFir::<Ccf>::with_isa(&taps, l, isa).unwrap();
                assert_eq!(f.interpolation(), l);
                let got = one_shot(&mut f, &x, x.len() * l);
                assert!(
                    max_abs_diff_c(&got, &expect) < 1e-5,
                    "isa {isa:?} l {l} n {n}"
                );

                let xr: Vec<f32> = x.iter().map(|v| v.re).collect();
                let mut sr = vec![0.0f32; xr.len() * l];
                for (i, v) in xr.iter().enumerate() {
                    sr[i * l] = *v;
                }
                let got = one_shot(
                    &mut InterpolatingFir::<Fff>::with_isa(&taps, l, isa).unwrap(),
                    &xr,
                    xr.len() * l,
                );
                assert!(max_abs_diff_f(&got, &conv_f(&sr, &taps)) < 1e-5);
            }
        }
    }
}

#[test]
fn interpolating_long_input_crosses_internal_chunks() {
    let mut rng = Rng::new(7);
    let x = rng.vec_c32(2500);
    let taps = rng.vec_f32(29);
    let l = 3;
    let mut stuffed = vec![Complex32::new(0.0, 0.0); x.len() * l];
    for (i, v) in x.iter().enumerate() {
        stuffed[i * l] = *v;
    }
    let expect = conv_c(&stuffed, &to_c(&taps));
    for isa in isas() {
        let mut f = InterpolatingFir::<Ccf>::with_isa(&taps, l, isa).unwrap();
        let got = one_shot(&mut f, &x, x.len() * l);
        assert!(max_abs_diff_c(&got, &expect) < 1e-5, "isa {isa:?}");
    }
}

#[test]
fn interpolating_needs_room_for_whole_input_samples() {
    let mut f = InterpolatingFir::<Fff>::new(&[1.0, 1.0, 1.0], 3).unwrap();
    let mut out = [0.0f32; 5];
    assert_eq!(f.process(&[1.0, 2.0], &mut out), (1, 3));
    assert_eq!(&out[..3], &[1.0, 1.0, 1.0]);
}

#[test]
fn empty_slices_are_fine() {
    let mut f = FirFff::new(&[1.0, 2.0]).unwrap();
    assert_eq!(f.process(&[], &mut []), (0, 0));
    assert_eq!(f.process(&[1.0], &mut []), (0, 0));
    let mut d = DecimatingFir::<Ccf>::new(&[1.0, 2.0], 3).unwrap();
    assert_eq!(d.process(&[], &mut []), (0, 0));
    let mut i = InterpolatingFir::<Ccc>::new(&[Complex32::new(1.0, 0.0)], 2).unwrap();
    assert_eq!(
        Kernel::process(&mut i, &[Complex32::new(1.0, 0.0)], &mut []),
        (0, 0)
    );
}

#[test]
fn invalid_arguments_are_errors() {
    assert_eq!(FirFff::new(&[]).unwrap_err(), DspError::EmptyTaps);
    assert!(matches!(
        FirFff::new(&[1.0, f32::NAN]),
        Err(DspError::InvalidSpec(_))
    ));
    assert!(DecimatingFir::<Fff>::new(&[1.0], 0).is_err());
    assert!(InterpolatingFir::<Fff>::new(&[1.0], 0).is_err());
    // Absurd factors are rejected instead of allocating.
    assert!(InterpolatingFir::<Fff>::new(&[1.0], 1 << 30).is_err());
    assert!(FirCcc::new(&[Complex32::new(f32::INFINITY, 0.0)]).is_err());
}

#[test]
fn accessors() {
    let f = FirFff::with_isa(&[1.0, 2.0, 3.0], Isa::Scalar).unwrap();
    assert_eq!(f.taps(), &[1.0, 2.0, 3.0]);
    assert_eq!(f.num_taps(), 3);
    assert_eq!(f.isa(), Isa::Scalar);
    let d = DecimatingFir::<Fff>::new(&[1.0], 5).unwrap();
    assert_eq!(d.decimation(), 5);
    assert_eq!(d.taps(), &[1.0]);
    assert_eq!(<Fff as rfgraph_dsp::FirKind>::NAME, "fff");
}

/// A non-finite sample reaches only the outputs whose window holds it, on
/// every instruction set: the taps' alignment padding must not multiply
/// it (0 · ∞ is NaN) into outputs past the filter's span.
#[test]
fn a_non_finite_sample_reaches_only_the_outputs_whose_window_holds_it() {
    let isas = [Isa::Scalar, Isa::Avx2Fma]
        .into_iter()
        .filter(|isa| isa.is_available());
    for isa in isas {
        for ntaps in [1usize, 2, 3, 5, 8, 9] {
            // Sample 0 is infinite; output k sees samples k - ntaps + 1..=k.
            let n = 40;
            let x: Vec<f32> = (0..n)
                .map(|i| if i == 0 { f32::INFINITY } else { i as f32 })
                .collect();
            let xc: Vec<Complex32> = x.iter().map(|&v| Complex32::new(v, 1.0)).collect();
            let finite_from = ntaps;
            let mut real = Fir::<Fff>::with_isa(&vec![0.5; ntaps], isa).unwrap();
            let mut y = vec![0.0f32; n];
            real.process(&x, &mut y);
            assert!(
                y[finite_from..].iter().all(|v| v.is_finite()),
                "fff {isa:?} {ntaps}: {y:?}"
            );
            let mut cf = Fir::<Ccf>::with_isa(&vec![0.5; ntaps], isa).unwrap();
            let mut yc = vec![Complex32::default(); n];
            cf.process(&xc, &mut yc);
            assert!(
                yc[finite_from..].iter().all(|v| v.is_finite()),
                "ccf {isa:?} {ntaps}: {yc:?}"
            );
            let mut cc =
                Fir::<Ccc>::with_isa(&vec![Complex32::new(0.5, 0.25); ntaps], isa).unwrap();
            cc.process(&xc, &mut yc);
            assert!(
                yc[finite_from..].iter().all(|v| v.is_finite()),
                "ccc {isa:?} {ntaps}: {yc:?}"
            );
        }
    }
}

/// `Σ_k h[k]·x[n−k]`, the samples before the stream zeros.
fn fir_at(x: &[f32], h: &[f32], n: usize) -> f32 {
    (0..h.len().min(n + 1)).map(|k| h[k] * x[n - k]).sum()
}

#[test]
fn new_taps_keep_the_input_history() {
    let mut rng = Rng::new(21);
    let x = rng.vec_f32(200);
    for isa in isas() {
        for (before, after) in [(9usize, 5usize), (7, 7), (5, 12)] {
            let (h1, h2) = (rng.vec_f32(before), rng.vec_f32(after));
            let (m, split) = (3usize, 99usize);
            // The old filter kept (at least) its last `before − 1` samples:
            // an output from `split` on whose new window reaches no further
            // back is the plain convolution with the new taps.
            let covered = |n: usize| n + before >= split + after;
            let mut f = Fir::<Fff>::with_isa(&h1, isa).unwrap();
            let mut out = vec![0.0f32; x.len()];
            f.process(&x[..split], &mut out[..split]);
            f.set_taps(&h2).unwrap();
            f.process(&x[split..], &mut out[split..]);
            for n in (0..x.len()).filter(|&n| n < split || covered(n)) {
                let want = fir_at(&x, if n < split { &h1 } else { &h2 }, n);
                assert!(
                    (out[n] - want).abs() < 1e-5,
                    "{isa:?} {before}->{after} n {n}"
                );
            }
            // Decimating: the same at every m-th input, the phase kept.
            let mut d = DecimatingFir::<Fff>::with_isa(&h1, m, isa).unwrap();
            let mut out = vec![0.0f32; x.len()];
            let (c, p) = d.process(&x[..split], &mut out);
            assert_eq!(c, split);
            d.set_taps(&h2).unwrap();
            let (_, q) = d.process(&x[split..], &mut out[p..]);
            assert_eq!(p + q, x.len().div_ceil(m));
            for (k, &y) in out[..p + q].iter().enumerate() {
                let n = k * m;
                if n < split || covered(n) {
                    let want = fir_at(&x, if n < split { &h1 } else { &h2 }, n);
                    assert!(
                        (y - want).abs() < 1e-5,
                        "{isa:?} decim {before}->{after} k {k}"
                    );
                }
            }
        }
    }
    let mut f = Fir::<Fff>::new(&[1.0]).unwrap();
    assert!(f.set_taps(&[]).is_err());
    assert!(f.set_taps(&[f32::NAN]).is_err());
    assert_eq!(f.taps(), &[1.0], "a refused change leaves the taps");
}

#[test]
fn an_interpolator_with_new_taps_keeps_its_history() {
    let x: Vec<f32> = (1..=40).map(|v| v as f32).collect();
    let (h1, h2) = ([1.0f32, 0.5, 0.25, 0.125], [2.0f32, -1.0, 0.5, 0.25]);
    let l = 2;
    let mut f = InterpolatingFir::<Fff>::new(&h1, l).unwrap();
    let mut out = vec![0.0f32; x.len() * l];
    f.process(&x[..20], &mut out[..40]);
    f.set_taps(&h2).unwrap();
    f.process(&x[20..], &mut out[40..]);
    // Output n·L + p = Σ_j h[p + j·L]·x[n − j]: with phases as long as
    // before, the new taps see the whole history.
    for n in 0..x.len() {
        let h = if n < 20 { &h1 } else { &h2 };
        for p in 0..l {
            let want: f32 = (0..2)
                .filter(|&j| j <= n)
                .map(|j| h[p + j * l] * x[n - j])
                .sum();
            assert_eq!(out[n * l + p], want, "n {n} p {p}");
        }
    }
}
