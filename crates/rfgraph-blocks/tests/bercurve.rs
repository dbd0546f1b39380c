//! `bercurve_generator` (GNU Radio's `fec_bercurve_generator`) built
//! through the registry: with the dummy code its bit error rate falls
//! with Es/N0 and equals uncoded BPSK's `Q(√(2·Es/N0))` within its
//! statistical spread; the repetition and turbo product codes do better
//! than no code; the noise is GNU Radio's generator's (the values of
//! `analog.noise_source_f(GR_GAUSSIAN, a, seed)`, so a point's errors
//! are those GNU Radio's chain makes on the same bytes); malformed
//! parameters are errors.

mod common;

use common::RunBounded;
use rfgraph::registry::Registry;
use rfgraph::{Flowgraph, Pmt};
use rfgraph_blocks::{Head, VectorSink};
use std::collections::BTreeMap;

fn registry() -> Registry {
    let mut r = Registry::new();
    r.extend(rfgraph_blocks::registry::specs());
    r
}

/// The bit error rate of each point of a generator of `code` (extra
/// parameters `extra`) over `bytes` bytes a point.
fn ber(esno: &[f32], bytes: usize, extra: &[(&str, Pmt)]) -> Vec<f64> {
    let mut p = BTreeMap::from([
        ("esno".to_string(), Pmt::VecF32(esno.to_vec())),
        ("outputs".to_string(), Pmt::U64(2 * esno.len() as u64)),
        ("seed".to_string(), Pmt::I64(-100)),
    ]);
    for (k, v) in extra {
        p.insert(k.to_string(), v.clone());
    }
    let block = registry().build("bercurve_generator", p).unwrap();
    let mut fg = Flowgraph::new();
    let g = fg.add_boxed("gen", "bercurve_generator", block);
    let mut sinks = Vec::new();
    for i in 0..2 * esno.len() {
        let head = fg.add(Head::<u8>::new(bytes as u64));
        let sink = fg.add(VectorSink::<u8>::new());
        fg.connect(g, &format!("out{i}"), head, "in").unwrap();
        fg.connect(head, "out", sink, "in").unwrap();
        sinks.push(sink);
    }
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    let items = |i: usize| {
        done.block::<VectorSink<u8>>(sinks[i])
            .unwrap()
            .items()
            .to_vec()
    };
    (0..esno.len())
        .map(|i| {
            let (decoded, sent) = (items(2 * i), items(2 * i + 1));
            assert_eq!(decoded.len(), bytes);
            assert_eq!(sent.len(), bytes);
            let errors: u32 = decoded
                .iter()
                .zip(&sent)
                .map(|(a, b)| (a ^ b).count_ones())
                .sum();
            errors as f64 / (8 * bytes) as f64
        })
        .collect()
}

/// `Q(x)`, the Gaussian tail, by `erfc`'s continued-fraction-free
/// series-free form (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
fn q(x: f64) -> f64 {
    let z = x / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    0.5 * poly * (-z * z).exp()
}

#[test]
fn uncoded_bpsk_has_the_analytic_bit_error_rate() {
    let esno = [0.0f32, 2.0, 4.0, 6.0];
    let bytes = 20_000;
    let got = ber(
        &esno,
        bytes,
        &[
            ("code", Pmt::String("dummy".into())),
            ("frame_size", Pmt::U64(2048)),
        ],
    );
    for w in got.windows(2) {
        assert!(w[1] < w[0], "the BER does not fall: {got:?}");
    }
    for (&e, &b) in esno.iter().zip(&got) {
        let want = q((2.0 * 10f64.powf(e as f64 / 10.0)).sqrt());
        // Three standard deviations of a count of 160000 bits.
        let spread = 3.0 * (want * (1.0 - want) / (8 * bytes) as f64).sqrt();
        assert!(
            (b - want).abs() < spread + 1e-4,
            "Es/N0 {e} dB: BER {b}, BPSK's {want} (± {spread})"
        );
    }
}

#[test]
fn codes_beat_no_code() {
    let esno = [3.0f32];
    let none = ber(&esno, 4000, &[("code", Pmt::String("dummy".into()))])[0];
    let rep = ber(
        &esno,
        4000,
        &[
            ("code", Pmt::String("repetition".into())),
            ("frame_size", Pmt::U64(512)),
            ("rep", Pmt::U64(3)),
        ],
    )[0];
    let tpc = ber(
        &esno,
        1800,
        &[
            ("code", Pmt::String("tpc".into())),
            ("max_iter", Pmt::U64(6)),
            ("decoder_type", Pmt::I64(1)),
        ],
    )[0];
    assert!(rep < none / 2.0, "repetition {rep}, none {none}");
    assert!(tpc < none, "tpc {tpc}, none {none}");
}

#[test]
fn malformed_parameters_are_errors() {
    let r = registry();
    let build = |p: &[(&str, Pmt)]| {
        let p: BTreeMap<String, Pmt> = p.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        r.build("bercurve_generator", p)
            .err()
            .map(|e| e.to_string())
    };
    let e = build(&[
        ("esno", Pmt::VecF32(vec![0.0, 1.0])),
        ("outputs", Pmt::U64(3)),
    ])
    .unwrap();
    assert!(e.contains("outputs"), "{e}");
    let e = build(&[
        ("esno", Pmt::VecF32(vec![f32::NAN])),
        ("outputs", Pmt::U64(2)),
    ])
    .unwrap();
    assert!(e.contains("esno"), "{e}");
    let e = build(&[
        ("esno", Pmt::VecF32(vec![1.0])),
        ("outputs", Pmt::U64(2)),
        ("code", Pmt::String("tpc".into())),
        ("krow", Pmt::U64(2)),
        ("bval", Pmt::U64(5)),
    ])
    .unwrap();
    assert!(e.contains("bval"), "{e}");
    let e = build(&[
        ("esno", Pmt::VecF32(vec![1.0])),
        ("outputs", Pmt::U64(2)),
        ("code", Pmt::String("repetition".into())),
        ("puncpat", Pmt::String("110".into())),
    ])
    .unwrap();
    assert!(e.contains("puncpat"), "{e}");
    assert_eq!(
        build(&[("esno", Pmt::VecF32(vec![1.0])), ("outputs", Pmt::U64(2))]),
        None
    );
}
