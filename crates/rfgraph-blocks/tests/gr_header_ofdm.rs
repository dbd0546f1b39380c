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

use common::RunBounded;
use proptest::prelude::*;
use rfgraph::registry::Registry;
use rfgraph::{Block, BoxError, Flowgraph, MessageOutput, Pmt, Ports, Tag, WorkIo};
use rfgraph_blocks::ofdm::CarrierSets;
use rfgraph_blocks::packet::{
    HeaderFormat, HeaderFormatParams, HeaderFormatter, HeaderParser, Parsed,
};
use rfgraph_blocks::{MessageSink, VectorSink, VectorSource};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// GNU Radio's outputs, written once per test process; `None` when GNU
/// Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        rfgraph_testkit::gnuradio_reference(
            "gr_header_ofdm",
            "gnuradio.digital, pmt",
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gr_header_ofdm/reference.py"),
            &Path::new(env!("CARGO_TARGET_TMPDIR")).join("gr_header_ofdm"),
        )
    })
    .clone()
}

// ---- the script's text encoding of messages and tag values ----

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A value as the script writes it (see its docstring).
fn enc(p: &Pmt) -> String {
    match p {
        Pmt::Null => "{}".into(),
        Pmt::Bool(true) => "T".into(),
        Pmt::Bool(false) => "F".into(),
        Pmt::I64(v) => format!("I{v};"),
        Pmt::U64(v) => format!("I{v};"),
        Pmt::String(s) => format!("S{};", hex(s.as_bytes())),
        Pmt::Blob(b) => format!("B{};", hex(b)),
        Pmt::Map(m) => {
            let body: String = m
                .iter()
                .map(|(k, v)| enc(&Pmt::String(k.clone())) + &enc(v))
                .collect();
            format!("{{{body}}}")
        }
        Pmt::Pair(pair) => format!("({}{})", enc(&pair.0), enc(&pair.1)),
        other => panic!("no encoding for {other:?}"),
    }
}

/// Reads one value of the encoding from the front of `s`.
fn dec(s: &mut &str) -> Pmt {
    let unhex = |h: &str| {
        (0..h.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
            .collect::<Vec<u8>>()
    };
    let (head, rest) = s.split_at(1);
    *s = rest;
    let mut until_semicolon = || {
        let end = s.find(';').unwrap();
        let body = &s[..end];
        *s = &s[end + 1..];
        body
    };
    match head {
        "T" => Pmt::Bool(true),
        "F" => Pmt::Bool(false),
        "I" => Pmt::I64(until_semicolon().parse().unwrap()),
        "S" => Pmt::String(String::from_utf8(unhex(until_semicolon())).unwrap()),
        "B" => Pmt::Blob(unhex(until_semicolon())),
        "{" => {
            let mut map = BTreeMap::new();
            while !s.starts_with('}') {
                let Pmt::String(key) = dec(s) else {
                    panic!("a key that is no symbol")
                };
                map.insert(key, dec(s));
            }
            *s = &s[1..];
            Pmt::Map(map)
        }
        "(" => {
            let car = dec(s);
            let cdr = dec(s);
            assert!(s.starts_with(')'));
            *s = &s[1..];
            Pmt::pair(car, cdr)
        }
        other => panic!("unknown value {other}{s}"),
    }
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::to_string)
        .collect()
}

/// Tags as the script writes them; length tags (`packet_len`) as rfgraph
/// writes them (`U64`).
fn load_tags(path: &Path) -> Vec<Tag> {
    lines(path)
        .iter()
        .map(|line| {
            let mut f = line.split('\t');
            let (index, key, value) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
            let mut value = dec(&mut &*value);
            if key == "packet_len" {
                value = Pmt::U64(value.as_u64().unwrap());
            }
            Tag::new(index.parse().unwrap(), key, value)
        })
        .collect()
}

/// Tags as comparable rows, sorted.
fn rows(tags: &[Tag]) -> Vec<(u64, String, String)> {
    let mut rows: Vec<_> = tags
        .iter()
        .map(|t| (t.index, t.key.clone(), enc(&t.value)))
        .collect();
    rows.sort();
    rows
}

// ---- running registry blocks ----

fn build(name: &str, params: &[(&str, Pmt)]) -> Box<dyn Block> {
    let mut r = Registry::new();
    r.extend(rfgraph_blocks::registry::specs());
    let params: BTreeMap<String, Pmt> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    r.build(name, params)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Posts a list of messages on `out`, then finishes.
struct Posts {
    output: MessageOutput,
    messages: Vec<Pmt>,
}

impl Block for Posts {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_output(&mut self.output)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        for m in self.messages.drain(..) {
            self.output.post(m);
        }
        io.finish();
        Ok(())
    }
}

/// `protocol_formatter_async`: what it posts on `header` and `payload`
/// must be GNU Radio's.
fn formatter_async_case(dir: &Path, case: &str, params: &[(&str, Pmt)]) {
    let messages: Vec<Pmt> = lines(&dir.join(format!("{case}.msgs")))
        .iter()
        .map(|l| dec(&mut l.as_str()))
        .collect();
    let mut fg = Flowgraph::new();
    let src = fg.add(Posts {
        output: MessageOutput::new("out"),
        messages,
    });
    let name = "protocol_formatter_async";
    let b = fg.add_boxed("dut", name, build(name, params));
    fg.connect_message(src, "out", b, "in").unwrap();
    let ports = ["header", "payload"];
    let sinks: Vec<_> = ports
        .iter()
        .map(|port| {
            let sink = fg.add(MessageSink::new());
            fg.connect_message(b, port, sink, "in").unwrap();
            sink
        })
        .collect();
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    for (port, sink) in ports.iter().zip(sinks) {
        let got: Vec<String> = done
            .block::<MessageSink>(sink)
            .unwrap()
            .messages()
            .iter()
            .map(enc)
            .collect();
        let want = lines(&dir.join(format!("{case}.{port}")));
        assert!(!want.is_empty(), "{case}: GNU Radio posted nothing");
        assert_eq!(got, want, "{case}: port {port}");
    }
}

/// `protocol_formatter`: items and tags must be GNU Radio's.
fn formatter_case(dir: &Path, case: &str, params: &[(&str, Pmt)]) {
    let input = std::fs::read(dir.join(format!("{case}.in"))).unwrap();
    let tags = load_tags(&dir.join(format!("{case}.in_tags")));
    let want: Vec<u8> = rfgraph_testkit::read_items(&dir.join(format!("{case}.out")));
    let want_tags = load_tags(&dir.join(format!("{case}.out_tags")));
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(input).with_tags(tags));
    let name = "protocol_formatter";
    let b = fg.add_boxed("dut", name, build(name, params));
    let sink = fg.add(VectorSink::<u8>::new());
    fg.connect(src, "out", b, "in").unwrap();
    fg.connect(b, "out", sink, "in").unwrap();
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    let sink = done.block::<VectorSink<u8>>(sink).unwrap();
    assert!(!want.is_empty(), "{case}: GNU Radio wrote nothing");
    assert_eq!(sink.items(), want, "{case}: items");
    assert_eq!(rows(sink.tags()), rows(&want_tags), "{case}: tags");
}

/// `protocol_parser`: the messages on `info` must be GNU Radio's.
fn parser_case(dir: &Path, case: &str, params: &[(&str, Pmt)]) {
    let bits = std::fs::read(dir.join(format!("{case}.in"))).unwrap();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(bits));
    let name = "protocol_parser";
    let b = fg.add_boxed("dut", name, build(name, params));
    let sink = fg.add(MessageSink::new());
    fg.connect(src, "out", b, "in").unwrap();
    fg.connect_message(b, "info", sink, "in").unwrap();
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    let got: Vec<String> = done
        .block::<MessageSink>(sink)
        .unwrap()
        .messages()
        .iter()
        .map(enc)
        .collect();
    let want = lines(&dir.join(format!("{case}.info")));
    assert!(
        want.iter().any(|m| m.starts_with('{')),
        "{case}: GNU Radio found no header"
    );
    assert_eq!(got, want, "{case}: info");
}

fn s(v: &str) -> Pmt {
    Pmt::from(v)
}

fn u(v: u64) -> Pmt {
    Pmt::U64(v)
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
        formatter_case(&dir, &format!("formatter_{name}"), &params);
    }
}

#[test]
fn ofdm_headers_parse_as_gnu_radio_parses_them() {
    let Some(dir) = reference() else { return };
    for (name, params) in formats() {
        parser_case(&dir, &format!("parser_{name}"), &params);
    }
}

#[test]
fn ofdm_formats_gnu_radio_cannot_run_are_refused() {
    let mut r = Registry::new();
    r.extend(rfgraph_blocks::registry::specs());
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
