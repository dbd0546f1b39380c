//! The packet blocks against GNU Radio 3.10: the script
//! `gr_packets/reference.py` (run by `/usr/bin/python3`, Debian's
//! `python3-gnuradio`) runs GNU Radio's CRC, protocol formatter and
//! protocol parser blocks on random packets (lengths 0 and 1 among them,
//! corrupted CRCs, headers with bit errors below and above the
//! threshold) and writes inputs and outputs; each case here builds the
//! rfgraph block of the same name **through the registry**, runs it on
//! the same input and compares items, tags and messages exactly. Without
//! GNU Radio the test skips with one line, except under `CI=true`, where
//! it fails.

mod common;

use common::cases::{b, s, u};
use common::gr_reference::gr_reference;
use common::pmt_text::{
    message_case, parser_case, protocol_parsers, stream_case, stream_case_keyed,
};

use rfgraph::Pmt;
use std::path::PathBuf;

/// GNU Radio's outputs, written once per test process by
/// `gr_packets/reference.py`; `None` when GNU Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    gr_reference("gr_packets", "gnuradio.digital, pmt")
}

/// The header formats of the script's cases, as registry parameters.
fn formats() -> Vec<(&'static str, Vec<(&'static str, Pmt)>)> {
    vec![
        ("default", vec![("format", s("default"))]),
        (
            "default_bps2",
            vec![("format", s("default")), ("threshold", u(2)), ("bps", u(2))],
        ),
        (
            "default_short_code",
            vec![
                ("format", s("default")),
                ("access_code", s("1110001011")),
                ("threshold", u(1)),
                ("bps", u(3)),
            ],
        ),
        ("counter", vec![("format", s("counter")), ("bps", u(2))]),
        (
            "counter_thr",
            vec![
                ("format", s("counter")),
                ("access_code", s("111110011010101100111000")),
                ("threshold", u(3)),
                ("bps", u(4)),
            ],
        ),
        ("crc", vec![("format", s("crc"))]),
        (
            "crc_keys",
            vec![
                ("format", s("crc")),
                ("len_key_name", s("len")),
                ("num_key_name", s("num")),
            ],
        ),
    ]
}

/// Formats whose access code's length is no multiple of 8, for the
/// formatters only.
fn formatter_only() -> Vec<(&'static str, Vec<(&'static str, Pmt)>)> {
    vec![
        (
            "default_62bit",
            vec![(
                "access_code",
                s("10101100110111011010010011100010111100101000110000100000111111"),
            )],
        ),
        (
            "counter_4bit",
            vec![
                ("format", s("counter")),
                ("access_code", s("1011")),
                ("bps", u(5)),
            ],
        ),
    ]
}

#[test]
fn crc32_matches_gnu_radio() {
    let Some(dir) = reference() else { return };
    let d = &dir;
    stream_case(d, "crc32_gen_packed", "crc32", &[]);
    stream_case(
        d,
        "crc32_gen_unpacked",
        "crc32",
        &[("packed", b(false)), ("lengthtagname", s("packet_len"))],
    );
    stream_case(
        d,
        "crc32_gen_unpacked_wide",
        "crc32",
        &[("packed", b(false))],
    );
    stream_case(d, "crc32_check_packed", "crc32", &[("check", b(true))]);
    stream_case(
        d,
        "crc32_check_unpacked",
        "crc32",
        &[("check", b(true)), ("packed", b(false))],
    );
}

#[test]
fn crc32_async_matches_gnu_radio() {
    let Some(dir) = reference() else { return };
    message_case(&dir, "crc32_async_gen", "crc32_async", &[], &["out"]);
    message_case(
        &dir,
        "crc32_async_check",
        "crc32_async",
        &[("check", b(true))],
        &["out"],
    );
}

#[test]
fn protocol_formatters_match_gnu_radio() {
    let Some(dir) = reference() else { return };
    for (name, params) in formats().into_iter().chain(formatter_only()) {
        message_case(
            &dir,
            &format!("formatter_async_{name}"),
            "protocol_formatter_async",
            &params,
            &["header", "payload"],
        );
        stream_case(
            &dir,
            &format!("formatter_{name}"),
            "protocol_formatter",
            &params,
        );
    }
}

#[test]
fn protocol_parser_matches_gnu_radio() {
    let Some(dir) = reference() else { return };
    protocol_parsers(&dir, formats());
}

/// The `packet_header_default` settings of the script's cases.
fn packet_headers() -> Vec<(&'static str, Vec<(&'static str, Pmt)>)> {
    let header = |len: u64, len_key: &str, num_key: &str, bits: u64| {
        vec![
            ("header_len", u(len)),
            ("len_tag_key", s(len_key)),
            ("num_tag_key", s(num_key)),
            ("bits_per_byte", u(bits)),
        ]
    };
    vec![
        ("hdr_default", header(32, "packet_len", "packet_num", 1)),
        ("hdr_bpb2", header(16, "packet_len", "packet_num", 2)),
        ("hdr_bpb6", header(8, "packet_len", "num", 6)),
        ("hdr_bpb8", header(4, "packet_len", "packet_num", 8)),
        ("hdr_short", header(5, "packet_len", "packet_num", 1)),
        ("hdr_cut_crc", header(28, "packet_len", "packet_num", 1)),
        ("hdr_no_num", header(40, "len", "", 1)),
        ("hdr_padded", header(48, "packet_len", "packet_num", 3)),
    ]
}

#[test]
fn packet_header_blocks_match_gnu_radio() {
    let Some(dir) = reference() else { return };
    for (name, params) in packet_headers() {
        let len_key = params[1].1.as_str().unwrap().to_string();
        // The generator's output length tags are read back as U64 under
        // "packet_len" only: compare them under the case's key too.
        stream_case_keyed(
            &dir,
            &format!("headergenerator_{name}"),
            "packet_headergenerator",
            &params,
            &len_key,
        );
        parser_case(
            &dir,
            &format!("headerparser_{name}"),
            "packet_headerparser",
            &params,
            "header_data",
        );
    }
}
