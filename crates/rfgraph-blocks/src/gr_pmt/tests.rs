//! The codec against bytes GNU Radio 3.10 wrote (`pmt.serialize_str`),
//! and its refusals. Live comparisons with GNU Radio and property tests
//! are in `tests/gr_pmt.rs`.

use super::*;
use rfgraph::Pmt;
use rfgraph::pmt::Uniform;
use std::collections::BTreeMap;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn map(entries: &[(&str, Pmt)]) -> Pmt {
    Pmt::Map(
        entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect::<BTreeMap<_, _>>(),
    )
}

/// (GNU Radio's bytes, the value): each must decode to the value and
/// the value encode to the bytes.
fn gnuradio_cases() -> Vec<(&'static str, Pmt)> {
    vec![
        ("00", Pmt::Bool(true)),
        ("01", Pmt::Bool(false)),
        ("06", Pmt::Null),
        ("0d0000010000000000", Pmt::I64(1 << 40)),
        ("0300000001", Pmt::I64(1)),
        ("0b0000000000000005", Pmt::U64(5)),
        (
            "053ff00000000000004000000000000000",
            Pmt::Complex([1.0, 2.0]),
        ),
        (
            "0a080000000201003f80000040000000",
            Pmt::VecF32(vec![1.0, 2.0]),
        ),
        (
            "0a0a0000000101003f80000040000000",
            Pmt::VecComplexF32(vec![[1.0, 2.0]]),
        ),
        ("0a00000000030100010203", Pmt::Blob(vec![1, 2, 3])),
        ("0a00000000000100", Pmt::Blob(vec![])),
        (
            "0a03000000020100ffff0002",
            Pmt::Uniform(Uniform::I16(vec![-1, 2])),
        ),
        (
            "0a090000000201003ff00000000000004000000000000000",
            Pmt::Uniform(Uniform::F64(vec![1.0, 2.0])),
        ),
        (
            "080000000203000000010300000002",
            Pmt::List(vec![Pmt::I64(1), Pmt::I64(2)]),
        ),
        (
            "0c00000002030000000102000178",
            Pmt::Tuple(vec![Pmt::I64(1), Pmt::from("x")]),
        ),
        ("07020001610300000001", Pmt::pair("a", Pmt::I64(1))),
        (
            "090702000161030000000109070200016204400000000000000006",
            map(&[("a", Pmt::I64(1)), ("b", Pmt::F64(2.0))]),
        ),
        // A PDU with empty metadata: GNU Radio writes the empty dict as null.
        (
            "07060a000000000201000102",
            Pmt::pair(Pmt::Null, Pmt::Blob(vec![1, 2])),
        ),
    ]
}

#[test]
fn matches_the_bytes_gnu_radio_writes_both_ways() {
    for (bytes, value) in gnuradio_cases() {
        assert_eq!(decode(&hex(bytes)).unwrap(), value, "{bytes}");
        assert_eq!(encode(&value).unwrap(), hex(bytes), "{value:?}");
    }
}

#[test]
fn reads_gnu_radio_lists_and_dicts_in_any_order() {
    // pmt.list2(1, 2): a chain of pairs ending in null.
    let list = decode(&hex("07030000000107030000000206")).unwrap();
    assert_eq!(list, Pmt::List(vec![Pmt::I64(1), Pmt::I64(2)]));
    // GNU Radio wrote `b` before `a` (its insertion order reversed).
    let reversed = "090702000162044000000000000000090702000161030000000106";
    assert_eq!(
        decode(&hex(reversed)).unwrap(),
        map(&[("a", Pmt::I64(1)), ("b", Pmt::F64(2.0))])
    );
}

#[test]
fn writes_the_values_gnu_radio_lacks_as_their_nearest() {
    assert_eq!(
        encode(&Pmt::F32(0.5)).unwrap(),
        encode(&Pmt::F64(0.5)).unwrap()
    );
    assert_eq!(encode(&Pmt::I64(i64::MIN)).unwrap()[0], 0x0d);
    assert_eq!(encode(&Pmt::Map(BTreeMap::new())).unwrap(), vec![0x06]);
    let long = "x".repeat(70_000);
    assert_eq!(
        encode(&Pmt::from(long.as_str())),
        Err(EncodeError::SymbolTooLong(70_000))
    );
}

#[test]
fn refuses_what_the_bytes_do_not_back() {
    // A vector claiming 4 billion elements in 5 bytes.
    assert!(matches!(
        decode(&hex("08ffffffff")),
        Err(DecodeError::LengthExceedsFrame { .. })
    ));
    // A symbol longer than the frame.
    assert!(matches!(
        decode(&hex("02ffff6162")),
        Err(DecodeError::LengthExceedsFrame { .. })
    ));
    // A uniform vector of c64 claiming more than is there.
    assert!(matches!(
        decode(&hex("0a0b0000000201003ff0")),
        Err(DecodeError::LengthExceedsFrame { .. })
    ));
    assert_eq!(decode(&hex("04000000")), Err(DecodeError::Truncated(4)));
    assert_eq!(decode(&hex("0606")), Err(DecodeError::Trailing(1)));
    assert!(matches!(
        decode(&hex("0e")),
        Err(DecodeError::UnknownType { byte: 0x0e, at: 0 })
    ));
    assert_eq!(
        decode(&hex("0a0c000000000100")),
        Err(DecodeError::UnknownElement(0x0c))
    );
    // A dict keyed by an integer.
    assert!(matches!(
        decode(&hex("0907030000000103000000010606")),
        Err(DecodeError::KeyNotSymbol(_))
    ));
}

#[test]
fn refuses_nesting_beyond_the_limit_but_not_long_chains() {
    // Tuples of one, nested: the limit, then one more.
    let nested = |depth: usize| {
        let mut bytes = Vec::new();
        for _ in 0..depth {
            bytes.extend_from_slice(&hex("0c00000001"));
        }
        bytes.push(0x06);
        bytes
    };
    assert!(decode(&nested(MAX_DEPTH)).is_ok());
    assert_eq!(decode(&nested(MAX_DEPTH + 1)), Err(DecodeError::TooDeep));
    // A list of 100,000 items is a chain, not nesting.
    let mut chain = Vec::new();
    for _ in 0..100_000 {
        chain.extend_from_slice(&hex("0701"));
    }
    chain.push(0x06);
    assert_eq!(
        decode(&chain).unwrap(),
        Pmt::List(vec![Pmt::Bool(false); 100_000])
    );
}

#[test]
fn round_trips_every_kind_rfgraph_has() {
    let values = vec![
        Pmt::Uniform(Uniform::I8(vec![-128, 127])),
        Pmt::Uniform(Uniform::U16(vec![65_535])),
        Pmt::Uniform(Uniform::U32(vec![u32::MAX])),
        Pmt::Uniform(Uniform::I32(vec![i32::MIN])),
        Pmt::Uniform(Uniform::U64(vec![u64::MAX])),
        Pmt::Uniform(Uniform::I64(vec![i64::MIN])),
        Pmt::Uniform(Uniform::C64(vec![[1.5, -2.5]])),
        Pmt::pair(map(&[("k", Pmt::from("v"))]), Pmt::VecF32(vec![0.25])),
        Pmt::pair("a", Pmt::pair("b", Pmt::I64(3))),
        Pmt::List(vec![]),
        Pmt::Tuple(vec![]),
        map(&[("nested", map(&[("x", Pmt::List(vec![Pmt::Null]))]))]),
    ];
    for value in values {
        let bytes = encode(&value).unwrap();
        assert_eq!(decode(&bytes).unwrap(), value, "{bytes:02x?}");
    }
}
