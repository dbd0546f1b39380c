//! The `ofdm` header format (GNU Radio's `digital.header_format_ofdm`)
//! against GNU Radio 3.10: the script `gr_header_ofdm/reference.py` (run
//! by `/usr/bin/python3`) runs GNU Radio's `protocol_formatter_async`,
//! `protocol_formatter_bb` and `protocol_parser_b` with header_format_ofdm
//! objects (`formatter_ofdm.grc`'s, two OFDM symbols of 50 carriers,
//! scrambled, colliding keys) on random packets and headers with bit
//! errors, and writes inputs and outputs; each case here builds the
//! rfgraph block **through the registry**, runs it on the same input and
//! compares items, tags and messages exactly. Without GNU Radio the test
//! skips with one line, except under `CI=true`, where it fails. A
//! proptest feeds the parser random bits and mutated headers.

mod common;

use common::cases::{registry, s, u};
use common::gr_reference::gr_reference;
use common::pmt_text::{lines, message_case, protocol_parsers, stream_case};

use proptest::prelude::*;
use rfgraph::Pmt;
use rfgraph_blocks::ofdm::CarrierSets;
use rfgraph_blocks::packet::{
    HeaderFormat, HeaderFormatParams, HeaderFormatter, HeaderParser, Parsed,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// GNU Radio's outputs, written once per test process by
/// `gr_header_ofdm/reference.py`; `None` when GNU Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    gr_reference("gr_header_ofdm", "gnuradio.digital, pmt")
}

/// `protocol_formatter_async`: what it posts on `header` and `payload`
/// must be GNU Radio's.
fn formatter_async_case(dir: &Path, case: &str, params: &[(&str, Pmt)]) {
    let ports = ["header", "payload"];
    for port in ports {
        let want = lines(&dir.join(format!("{case}.{port}")));
        assert!(!want.is_empty(), "{case}: GNU Radio posted nothing");
    }
    message_case(dir, case, "protocol_formatter_async", params, &ports);
}

fn carriers(lists: &[std::ops::Range<i64>]) -> Pmt {
    Pmt::List(
        lists
            .iter()
            .map(|r| Pmt::List(r.clone().map(Pmt::I64).collect()))
            .collect(),
    )
}

/// One list of carriers.
fn one(r: std::ops::Range<i64>) -> Pmt {
    carriers(std::slice::from_ref(&r))
}

/// `formatter_ofdm.grc`'s carriers: 48 of 64, DC and pilots left out.
fn example_carriers() -> Pmt {
    let Pmt::List(lists) = carriers(&[-26..-21, -20..-7, -6..0, 1..7, 8..21, 22..27]) else {
        unreachable!()
    };
    let all: Vec<Pmt> = lists
        .into_iter()
        .flat_map(|l| match l {
            Pmt::List(v) => v,
            _ => unreachable!(),
        })
        .collect();
    Pmt::List(vec![Pmt::List(all)])
}

/// The script's formats, as registry parameters.
fn formats() -> Vec<(&'static str, Vec<(&'static str, Pmt)>)> {
    let ofdm = |occupied: Pmt,
                n_syms: u64,
                keys: [&str; 3],
                header_bits: u64,
                payload_bits: u64,
                scramble: bool| {
        vec![
            ("format", s("ofdm")),
            ("occupied_carriers", occupied),
            ("n_syms", u(n_syms)),
            ("len_key_name", s(keys[0])),
            ("frame_key_name", s(keys[1])),
            ("num_key_name", s(keys[2])),
            ("bits_per_header_sym", u(header_bits)),
            ("bits_per_payload_sym", u(payload_bits)),
            ("scramble_header", Pmt::Bool(scramble)),
        ]
    };
    let two = || carriers(&[0..20, 20..50, 0..5]);
    vec![
        (
            "example",
            ofdm(
                example_carriers(),
                1,
                ["packet_len", "frame_len", "packet_num"],
                1,
                2,
                false,
            ),
        ),
        (
            "two_syms",
            ofdm(two(), 2, ["len", "frames", "num"], 1, 3, false),
        ),
        (
            "scrambled",
            ofdm(
                example_carriers(),
                1,
                ["packet_len", "frame_len", "packet_num"],
                2,
                1,
                true,
            ),
        ),
        ("same_keys", ofdm(two(), 2, ["k", "k", "num"], 1, 5, false)),
    ]
}

#[test]
fn ofdm_headers_format_as_gnu_radio_formats_them() {
    let Some(dir) = reference() else { return };
    for (name, params) in formats() {
        formatter_async_case(&dir, &format!("formatter_async_{name}"), &params);
        stream_case(
            &dir,
            &format!("formatter_{name}"),
            "protocol_formatter",
            &params,
        );
    }
}

#[test]
fn ofdm_headers_parse_as_gnu_radio_parses_them() {
    let Some(dir) = reference() else { return };
    protocol_parsers(&dir, formats());
}

#[test]
fn ofdm_formats_gnu_radio_cannot_run_are_refused() {
    let r = registry();
    let with = |carriers: Pmt, n_syms: u64| {
        let params: BTreeMap<String, Pmt> = [
            ("format".to_string(), s("ofdm")),
            ("occupied_carriers".to_string(), carriers),
            ("n_syms".to_string(), u(n_syms)),
        ]
        .into();
        r.build("protocol_parser", params)
            .err()
            .map(|e| e.to_string())
    };
    // More OFDM symbols than carrier lists; a header under 32 bits; a
    // first list without carriers.
    let e = with(one(0..40), 2).expect("refused");
    assert!(e.contains("n_syms"), "{e}");
    let e = with(one(0..31), 1).expect("refused");
    assert!(e.contains("at least 32 bits"), "{e}");
    let e = with(carriers(&[0..0, 0..40]), 2).expect("refused");
    assert!(e.contains("first list"), "{e}");
    assert!(with(one(0..32), 1).is_none());
}

fn ofdm_params() -> impl Strategy<Value = HeaderFormatParams> {
    (
        prop::collection::vec(0usize..60, 1..4),
        1usize..4,
        1u8..=8,
        1u16..=20,
        any::<bool>(),
    )
        .prop_filter_map(
            "a header GNU Radio can run",
            |(sizes, n_syms, header_bits, payload_bits, scramble)| {
                let occupied =
                    CarrierSets(sizes.iter().map(|&n| (0..n as i64).collect()).collect());
                let params = HeaderFormatParams {
                    format: HeaderFormat::Ofdm,
                    occupied_carriers: occupied,
                    n_syms,
                    bits_per_header_sym: header_bits,
                    bits_per_payload_sym: payload_bits,
                    scramble_header: scramble,
                    ..Default::default()
                };
                HeaderParser::new(params.clone()).ok().map(|_| params)
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Random bytes (not only bits) parse without a panic, one result
    /// per whole header.
    #[test]
    fn random_input_never_panics(params in ofdm_params(), bits in prop::collection::vec(any::<u8>(), 0..2000)) {
        let mut parser = HeaderParser::new(params.clone())?;
        let n = bits.iter().filter_map(|&b| parser.push(b)).count();
        prop_assert_eq!(n, bits.len() / params.header_nbits());
    }

    /// An unscrambled header, padded to its bits, reads back its length
    /// and number; with flips it reads as anything but a panic.
    #[test]
    fn formatted_headers_parse_back(params in ofdm_params(), lens in prop::collection::vec(0usize..10_000, 1..5), flips in prop::collection::vec(0usize..400, 0..3)) {
        let params = HeaderFormatParams { scramble_header: false, ..params };
        let nbits = params.header_nbits();
        let mut formatter = HeaderFormatter::new(params.clone())?;
        let mut parser = HeaderParser::new(params.clone())?;
        for (num, &len) in lens.iter().enumerate() {
            let header = formatter.format(len);
            prop_assert_eq!(header.len(), nbits / 8);
            let mut bits: Vec<u8> = header.iter().flat_map(|b| (0..8).rev().map(move |k| (b >> k) & 1)).collect();
            bits.resize(nbits, 0);
            for f in &flips {
                bits[f % nbits] ^= 1;
            }
            let parsed: Vec<Parsed> = bits.iter().filter_map(|&b| parser.push(b)).collect();
            prop_assert_eq!(parsed.len(), 1);
            if flips.is_empty() {
                let Parsed::Header(info) = &parsed[0] else {
                    return Err(TestCaseError::fail("a good header failed"));
                };
                prop_assert_eq!(&info["packet_num"], &Pmt::I64(num as i64));
                let bits = 8 * (len & 0xFFF) as i64;
                let bps = i64::from(params.bits_per_payload_sym);
                prop_assert_eq!(&info["packet_len"], &Pmt::I64((bits + bps - 1) / bps));
            }
        }
    }
}
