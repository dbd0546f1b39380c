//! One non-finite input sample reaches exactly the outputs a direct-form
//! filter (scipy's `lfilter` over the zero-stuffed stream, then decimated)
//! says it does, for every FIR-style kernel, kind and instruction set: the
//! zeros a kernel adds to line up its taps (SIMD lanes, polyphase phases)
//! must never multiply it (`0 · NaN = NaN`).
//!
//! `tests/reference/nan_reach.txt` holds scipy's answer for fixed cases;
//! the sweep below checks the same rule, computed from each kernel's
//! definition, over many lengths and factors.

mod common;

use common::reference::{Case, parse};
use common::{chunked, one_shot};
use num_complex::Complex32;
use rfgraph_dsp::sample::Sample;
use rfgraph_dsp::{
    ArbitraryResampler, Ccc, Ccf, DecimatingFir, Fff, Fir, FirKind, FreqXlatingFir,
    InterpolatingFir, Isa, Kernel, RationalResampler,
};

const NAN_REACH: &str = include_str!("reference/nan_reach.txt");

fn isas() -> Vec<Isa> {
    [Isa::Scalar, Isa::Avx2Fma]
        .into_iter()
        .filter(|i| i.is_available())
        .collect()
}

/// The tap and sample values for one FIR kind.
trait Values: FirKind {
    fn tap(i: usize) -> Self::Tap;
    fn sample(nan: bool) -> Self::Input;
}

/// Non-zero taps (what they are does not matter, only where).
fn tap_value(i: usize) -> f32 {
    0.5 + 0.01 * (i % 7) as f32
}

impl Values for Fff {
    fn tap(i: usize) -> f32 {
        tap_value(i)
    }
    fn sample(nan: bool) -> f32 {
        if nan { f32::NAN } else { 1.0 }
    }
}

impl Values for Ccf {
    fn tap(i: usize) -> f32 {
        tap_value(i)
    }
    fn sample(nan: bool) -> Complex32 {
        if nan {
            Complex32::new(f32::NAN, 1.0)
        } else {
            Complex32::new(1.0, -0.5)
        }
    }
}

impl Values for Ccc {
    fn tap(i: usize) -> Complex32 {
        Complex32::new(tap_value(i), 0.25 * tap_value(i))
    }
    fn sample(nan: bool) -> Complex32 {
        Ccf::sample(nan)
    }
}

fn taps<K: Values>(n: usize) -> Vec<K::Tap> {
    (0..n).map(K::tap).collect()
}

fn input<K: Values>(len: usize, at: usize) -> Vec<K::Input> {
    (0..len).map(|i| K::sample(i == at)).collect()
}

/// Indices of the non-finite outputs of `make()` over `x`, checked to be the
/// same in one call and in two chunked runs (one splits right at the bad
/// sample, so it sits in the staging buffer for some outputs).
fn reach<Kn: Kernel>(make: impl Fn() -> Kn, x: &[Kn::Input], max_out: usize) -> Vec<usize>
where
    Kn::Output: Sample,
{
    let bad = |y: &[Kn::Output]| -> Vec<usize> {
        (0..y.len()).filter(|&i| !y[i].is_finite_sample()).collect()
    };
    let whole = bad(&one_shot(&mut make(), x, max_out));
    for chunks in [&[1usize, 5, 2][..], &[21, 3, 40]] {
        let parts = bad(&chunked(&mut make(), x, chunks, &[7, 64, 3]));
        assert_eq!(parts, whole, "chunks {chunks:?}");
    }
    whole
}

/// The non-finite outputs of kernel `case` for kind `K` on `isa`, or `None`
/// where the kernel does not exist for `K`.
fn kernel_reach<K: Values>(case: &Case, isa: Isa) -> Option<Vec<usize>>
where
    K::Tap: From<f32>,
{
    let (n, len, at) = (case.count("ntaps"), case.count("len"), case.count("at"));
    let h = taps::<K>(n);
    let x = input::<K>(len, at);
    let cap = 64 * len;
    Some(match case.get("kernel") {
        "fir" => reach(|| Fir::<K>::with_isa(&h, isa).unwrap(), &x, cap),
        "decimating" => {
            let m = case.count("a");
            reach(
                || DecimatingFir::<K>::with_isa(&h, m, isa).unwrap(),
                &x,
                cap,
            )
        }
        "interpolating" => {
            let l = case.count("a");
            reach(
                || InterpolatingFir::<K>::with_isa(&h, l, isa).unwrap(),
                &x,
                cap,
            )
        }
        "rational" => {
            let (l, m) = (case.count("a"), case.count("b"));
            let got = reach(
                || RationalResampler::<K>::with_taps(l, m, &h, isa).unwrap(),
                &x,
                cap,
            );
            // Coprime factors: the GNU Radio reading is the same filter.
            let unreduced = reach(
                || RationalResampler::<K>::with_unreduced_taps(l, m, &h, isa).unwrap(),
                &x,
                cap,
            );
            assert_eq!(got, unreduced);
            got
        }
        "rational_unreduced" => {
            let (l, m) = (case.count("a"), case.count("b"));
            reach(
                || RationalResampler::<K>::with_unreduced_taps(l, m, &h, isa).unwrap(),
                &x,
                cap,
            )
        }
        "arbitrary" => {
            let (rate, nf) = (case.num("a"), case.count("b"));
            reach(
                || ArbitraryResampler::<K>::with_taps(rate, nf, &h, isa).unwrap(),
                &x,
                cap,
            )
        }
        "xlating" => return None,
        other => panic!("unknown kernel {other}"),
    })
}

/// The frequency-translating FIR (complex input only).
fn xlating_reach<K>(case: &Case, isa: Isa) -> Vec<usize>
where
    K: Values<Input = Complex32, Output = Complex32>,
{
    let (n, len, at, m) = (
        case.count("ntaps"),
        case.count("len"),
        case.count("at"),
        case.count("a"),
    );
    let h = taps::<K>(n);
    let x = input::<K>(len, at);
    reach(
        || FreqXlatingFir::<K>::with_isa(&h, m, 0.1, isa).unwrap(),
        &x,
        len,
    )
}

#[test]
fn one_nan_reaches_exactly_the_outputs_lfilter_says() {
    let cases = parse(NAN_REACH);
    assert!(cases.len() >= 40);
    for case in &cases {
        let expect = case.indices();
        for isa in isas() {
            let label = format!("{} on {}", case.label(), isa.name());
            if case.get("kernel") == "xlating" {
                assert_eq!(xlating_reach::<Ccf>(case, isa), expect, "ccf {label}");
                assert_eq!(xlating_reach::<Ccc>(case, isa), expect, "ccc {label}");
                continue;
            }
            assert_eq!(
                kernel_reach::<Fff>(case, isa).unwrap(),
                expect,
                "fff {label}"
            );
            assert_eq!(
                kernel_reach::<Ccf>(case, isa).unwrap(),
                expect,
                "ccf {label}"
            );
            assert_eq!(
                kernel_reach::<Ccc>(case, isa).unwrap(),
                expect,
                "ccc {label}"
            );
        }
    }
}

/// The repro: a one-tap, no-decimation filter turns one NaN into
/// exactly one NaN output (it used to give 8, the SIMD lane padding).
#[test]
fn one_tap_decimating_fir_passes_one_nan_as_one_nan() {
    for isa in isas() {
        let x = input::<Fff>(32, 5);
        let mut d = DecimatingFir::<Fff>::with_isa(&[1.0], 1, isa).unwrap();
        let y = one_shot(&mut d, &x, 32);
        let bad: Vec<usize> = (0..y.len()).filter(|&i| !y[i].is_finite()).collect();
        assert_eq!(bad, [5], "{}", isa.name());
        assert!(y.iter().enumerate().all(|(i, &v)| i == 5 || v == 1.0));
    }
}

/// Outputs `k` of "zero-stuff by `l`, filter with `ntaps` taps, keep every
/// `m`-th" whose window holds input sample `at`: `0 <= k·m − at·l < ntaps`.
fn lti_reach(ntaps: usize, l: usize, m: usize, len: usize, at: usize) -> Vec<usize> {
    let outputs = (len * l).div_ceil(m);
    (0..outputs)
        .filter(|&k| (k * m).checked_sub(at * l).is_some_and(|d| d < ntaps))
        .collect()
}

fn sweep<K: Values>()
where
    K::Tap: From<f32>,
{
    let (len, at) = (40, 13);
    let x = input::<K>(len, at);
    for isa in isas() {
        for ntaps in 1..=19 {
            let h = taps::<K>(ntaps);
            for f in 1..=9 {
                let dec = reach(
                    || DecimatingFir::<K>::with_isa(&h, f, isa).unwrap(),
                    &x,
                    len,
                );
                assert_eq!(dec, lti_reach(ntaps, 1, f, len, at), "decim {ntaps} / {f}");
                let int = reach(
                    || InterpolatingFir::<K>::with_isa(&h, f, isa).unwrap(),
                    &x,
                    len * f,
                );
                assert_eq!(int, lti_reach(ntaps, f, 1, len, at), "interp {ntaps} x {f}");
                for m in [1, 2, 3, 4, 6, 7] {
                    let r = reach(
                        || RationalResampler::<K>::with_unreduced_taps(f, m, &h, isa).unwrap(),
                        &x,
                        len * f,
                    );
                    assert_eq!(r, lti_reach(ntaps, f, m, len, at), "{ntaps} taps {f}/{m}");
                }
            }
        }
    }
}

#[test]
fn nan_reach_follows_the_direct_form_for_any_length_and_factor() {
    sweep::<Fff>();
    sweep::<Ccf>();
    sweep::<Ccc>();
}
