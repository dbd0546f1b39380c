//! GNU Radio's PMT serialization: rfgraph's codec against the bytes a
//! live GNU Radio writes (`pmt.serialize_str`, through Debian's Python),
//! and property tests: every value rfgraph writes reads back equal, and
//! no byte string (random, or a valid one mutated) makes the decoder
//! panic or allocate past what it was given.

use proptest::prelude::*;
use rfgraph::Pmt;
use rfgraph::pmt::Uniform;
use rfgraph_blocks::gr_pmt::{decode, encode};
use std::collections::BTreeMap;

fn map(entries: &[(&str, Pmt)]) -> Pmt {
    Pmt::Map(
        entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

/// Each value as GNU Radio's Python builds it, and as rfgraph holds it.
/// (GNU Radio writes a dict in the reverse of its insertion order, so the
/// Python side adds keys in reverse to match rfgraph's key order.)
fn cases() -> Vec<(&'static str, Pmt)> {
    vec![
        ("pmt.PMT_T", Pmt::Bool(true)),
        ("pmt.PMT_F", Pmt::Bool(false)),
        ("pmt.PMT_NIL", Pmt::Null),
        ("pmt.from_long(7)", Pmt::I64(7)),
        ("pmt.from_long(-7)", Pmt::I64(-7)),
        ("pmt.from_long(1 << 40)", Pmt::I64(1 << 40)),
        ("pmt.from_long(-(1 << 40))", Pmt::I64(-(1 << 40))),
        ("pmt.from_uint64(2**64 - 1)", Pmt::U64(u64::MAX)),
        ("pmt.from_double(-1.25e-300)", Pmt::F64(-1.25e-300)),
        (
            "pmt.from_complex(complex(0.5, -2))",
            Pmt::Complex([0.5, -2.0]),
        ),
        ("pmt.intern('rx_freq')", Pmt::from("rx_freq")),
        ("pmt.intern('')", Pmt::from("")),
        (
            "pmt.init_u8vector(3, [0, 1, 255])",
            Pmt::Blob(vec![0, 1, 255]),
        ),
        (
            "pmt.init_s8vector(2, [-128, 127])",
            Pmt::Uniform(Uniform::I8(vec![-128, 127])),
        ),
        (
            "pmt.init_u16vector(2, [0, 65535])",
            Pmt::Uniform(Uniform::U16(vec![0, 65535])),
        ),
        (
            "pmt.init_s16vector(2, [-2, 3])",
            Pmt::Uniform(Uniform::I16(vec![-2, 3])),
        ),
        (
            "pmt.init_u32vector(1, [4000000000])",
            Pmt::Uniform(Uniform::U32(vec![4_000_000_000])),
        ),
        (
            "pmt.init_s32vector(2, [-5, 6])",
            Pmt::Uniform(Uniform::I32(vec![-5, 6])),
        ),
        (
            "pmt.init_u64vector(1, [2**63])",
            Pmt::Uniform(Uniform::U64(vec![1 << 63])),
        ),
        (
            "pmt.init_s64vector(1, [-2**62])",
            Pmt::Uniform(Uniform::I64(vec![-(1 << 62)])),
        ),
        (
            "pmt.init_f32vector(2, [0.5, -1.5])",
            Pmt::VecF32(vec![0.5, -1.5]),
        ),
        (
            "pmt.init_f64vector(1, [1e100])",
            Pmt::Uniform(Uniform::F64(vec![1e100])),
        ),
        (
            "pmt.init_c32vector(1, [complex(1, -1)])",
            Pmt::VecComplexF32(vec![[1.0, -1.0]]),
        ),
        (
            "pmt.init_c64vector(1, [complex(2, 3)])",
            Pmt::Uniform(Uniform::C64(vec![[2.0, 3.0]])),
        ),
        ("pmt.init_f32vector(0, [])", Pmt::VecF32(vec![])),
        (
            "pmt.to_pmt([1, 'x', 2.5])",
            Pmt::List(vec![Pmt::I64(1), Pmt::from("x"), Pmt::F64(2.5)]),
        ),
        (
            "pmt.to_pmt((1, 2.5))",
            Pmt::Tuple(vec![Pmt::I64(1), Pmt::F64(2.5)]),
        ),
        (
            "pmt.cons(pmt.intern('a'), pmt.from_long(1))",
            Pmt::pair("a", Pmt::I64(1)),
        ),
        (
            "pmt.dict_add(pmt.dict_add(pmt.make_dict(), pmt.intern('b'), pmt.intern('x')), pmt.intern('a'), pmt.from_long(1))",
            map(&[("a", Pmt::I64(1)), ("b", Pmt::from("x"))]),
        ),
        (
            "pmt.cons(pmt.dict_add(pmt.make_dict(), pmt.intern('len'), pmt.from_long(2)), pmt.init_u8vector(2, [7, 8]))",
            Pmt::pair(map(&[("len", Pmt::I64(2))]), Pmt::Blob(vec![7, 8])),
        ),
        (
            "pmt.to_pmt(([1, (2, 'y')], 1j))",
            Pmt::Tuple(vec![
                Pmt::List(vec![
                    Pmt::I64(1),
                    Pmt::Tuple(vec![Pmt::I64(2), Pmt::from("y")]),
                ]),
                Pmt::Complex([0.0, 1.0]),
            ]),
        ),
    ]
}

#[test]
fn matches_the_bytes_of_gnu_radios_serialize_str() {
    if !rfgraph_testkit::gnuradio("gr_pmt vs pmt.serialize_str", "pmt") {
        return;
    }
    let cases = cases();
    let script = format!(
        "import pmt\nfor v in [{}]:\n    print(pmt.serialize_str(v).hex())\n",
        cases
            .iter()
            .map(|(py, _)| *py)
            .collect::<Vec<_>>()
            .join(", ")
    );
    let out = std::process::Command::new(rfgraph_testkit::GNURADIO_PYTHON)
        .args(["-c", &script])
        .output()
        .expect("run GNU Radio's python");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), cases.len());
    for ((python, value), hex) in cases.iter().zip(&lines) {
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        assert_eq!(encode(value).unwrap(), bytes, "encoding {python}");
        assert_eq!(&decode(&bytes).unwrap(), value, "decoding {python}");
    }
}

/// Values rfgraph writes and reads back exactly: everything but what
/// GNU Radio's format folds (an `F32` is written as a double, an empty
/// map as null, a pair ending in null or an empty map is a list).
fn canonical() -> impl Strategy<Value = Pmt> {
    let finite = || any::<f64>().prop_filter("finite", |f| f.is_finite());
    let leaf = prop_oneof![
        Just(Pmt::Null),
        any::<bool>().prop_map(Pmt::Bool),
        any::<i64>().prop_map(Pmt::I64),
        any::<u64>().prop_map(Pmt::U64),
        finite().prop_map(Pmt::F64),
        (finite(), finite()).prop_map(|(a, b)| Pmt::Complex([a, b])),
        "[a-z_:]{0,12}".prop_map(Pmt::String),
        prop::collection::vec(any::<u8>(), 0..16).prop_map(Pmt::Blob),
        prop::collection::vec(any::<i16>(), 0..8).prop_map(|v| Pmt::Uniform(Uniform::I16(v))),
        prop::collection::vec(any::<u64>(), 0..8).prop_map(|v| Pmt::Uniform(Uniform::U64(v))),
        prop::collection::vec(-1e6f32..1e6, 0..8).prop_map(Pmt::VecF32),
        prop::collection::vec((-1e6f32..1e6, -1e6f32..1e6), 0..8)
            .prop_map(|v| Pmt::VecComplexF32(v.into_iter().map(|(a, b)| [a, b]).collect())),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Pmt::List),
            prop::collection::vec(inner.clone(), 0..6).prop_map(Pmt::Tuple),
            prop::collection::btree_map("[a-z]{1,6}", inner.clone(), 1..5)
                .prop_map(|m: BTreeMap<String, Pmt>| Pmt::Map(m)),
            (inner.clone(), inner.clone())
                .prop_filter("a pair ending in null is a list", |(_, cdr)| {
                    !matches!(cdr, Pmt::Null | Pmt::Pair(_))
                        && !matches!(cdr, Pmt::Map(m) if m.is_empty())
                })
                .prop_map(|(car, cdr)| Pmt::pair(car, cdr)),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn what_rfgraph_writes_reads_back_equal(value in canonical()) {
        let bytes = encode(&value).unwrap();
        prop_assert_eq!(decode(&bytes).unwrap(), value);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let _ = decode(&bytes);
    }

    #[test]
    fn mutated_values_never_panic(
        value in canonical(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut bytes = encode(&value).unwrap();
        for (at, byte) in flips {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        let _ = decode(&bytes);
        let _ = decode(&bytes[..cut.index(bytes.len() + 1)]);
    }
}
