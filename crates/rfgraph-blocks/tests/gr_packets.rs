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

use common::RunBounded;
use rfgraph::registry::Registry;
use rfgraph::{Block, BoxError, Flowgraph, MessageOutput, Pmt, Ports, Tag, WorkIo};
use rfgraph_blocks::{MessageSink, VectorSink, VectorSource};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// GNU Radio's outputs, written once per test process by
/// `gr_packets/reference.py`; `None` when GNU Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        rfgraph_testkit::gnuradio_reference(
            "gr_packets",
            "gnuradio.digital, pmt",
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gr_packets/reference.py"),
            &Path::new(env!("CARGO_TARGET_TMPDIR")).join("gr_packets"),
        )
    })
    .clone()
}

// ---- the script's text encoding of messages and tag values ----

/// A value as the script writes it (see its docstring).
fn enc(p: &Pmt) -> String {
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    match p {
        Pmt::Null => "{}".into(),
        Pmt::Bool(true) => "T".into(),
        Pmt::Bool(false) => "F".into(),
        Pmt::I64(v) => format!("I{v};"),
        Pmt::U64(v) => format!("I{v};"),
        Pmt::F64(v) => format!("D{v:?};"),
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
        "D" => Pmt::F64(until_semicolon().parse().unwrap()),
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

/// Tags as the script writes them; length tags (`packet_len`) as
/// rfgraph writes them (`U64`).
fn load_tags(path: &Path) -> Vec<Tag> {
    load_tags_keyed(path, "packet_len")
}

/// Tags as the script writes them; length tags of key `len_key` as
/// rfgraph writes them (`U64`).
fn load_tags_keyed(path: &Path, len_key: &str) -> Vec<Tag> {
    lines(path)
        .iter()
        .map(|line| {
            let mut f = line.split('\t');
            let (index, key, value) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
            let mut value = dec(&mut &*value);
            if key == len_key {
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

fn registry() -> Registry {
    let mut r = Registry::new();
    r.extend(rfgraph_blocks::registry::specs());
    r
}

fn build(name: &str, params: &[(&str, Pmt)]) -> Box<dyn Block> {
    let params: BTreeMap<String, Pmt> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    registry()
        .build(name, params)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Case `case` of a tagged byte-stream block: items and tags must equal
/// GNU Radio's.
fn stream_case(dir: &Path, case: &str, name: &str, params: &[(&str, Pmt)]) {
    stream_case_keyed(dir, case, name, params, "packet_len");
}

/// [`stream_case`] with length tags of key `len_key`.
fn stream_case_keyed(dir: &Path, case: &str, name: &str, params: &[(&str, Pmt)], len_key: &str) {
    let input = std::fs::read(dir.join(format!("{case}.in"))).unwrap();
    let tags = load_tags_keyed(&dir.join(format!("{case}.in_tags")), len_key);
    let want = std::fs::read(dir.join(format!("{case}.out"))).unwrap();
    let want_tags = load_tags_keyed(&dir.join(format!("{case}.out_tags")), len_key);
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(input).with_tags(tags));
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

/// Case `case` of a message block: what it posts on each of `ports` must
/// equal GNU Radio's.
fn message_case(dir: &Path, case: &str, name: &str, params: &[(&str, Pmt)], ports: &[&str]) {
    let messages: Vec<Pmt> = lines(&dir.join(format!("{case}.msgs")))
        .iter()
        .map(|l| dec(&mut l.as_str()))
        .collect();
    assert!(!messages.is_empty(), "{case}: no input");
    let mut fg = Flowgraph::new();
    let src = fg.add(Posts {
        output: MessageOutput::new("out"),
        messages,
    });
    let b = fg.add_boxed("dut", name, build(name, params));
    fg.connect_message(src, "out", b, "in").unwrap();
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
        assert_eq!(got, want, "{case}: port {port}");
    }
}

/// Case `case` of a block from a byte stream (with the tags of
/// `<case>.in_tags`, when there are) to messages on `port`: they must
/// equal GNU Radio's.
fn parser_case(dir: &Path, case: &str, name: &str, params: &[(&str, Pmt)], port: &str) {
    let bits = std::fs::read(dir.join(format!("{case}.in"))).unwrap();
    let tags_file = dir.join(format!("{case}.in_tags"));
    let tags = if tags_file.exists() {
        load_tags(&tags_file)
    } else {
        Vec::new()
    };
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(bits).with_tags(tags));
    let b = fg.add_boxed("dut", name, build(name, params));
    let sink = fg.add(MessageSink::new());
    fg.connect(src, "out", b, "in").unwrap();
    fg.connect_message(b, port, sink, "in").unwrap();
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    let got: Vec<String> = done
        .block::<MessageSink>(sink)
        .unwrap()
        .messages()
        .iter()
        .map(enc)
        .collect();
    let want = lines(&dir.join(format!("{case}.{port}")));
    assert!(
        want.iter().any(|m| m.starts_with('{')),
        "{case}: GNU Radio found no header"
    );
    assert_eq!(got, want, "{case}: {port}");
}

fn s(v: &str) -> Pmt {
    Pmt::from(v)
}

fn u(v: u64) -> Pmt {
    Pmt::U64(v)
}

fn b(v: bool) -> Pmt {
    Pmt::Bool(v)
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
    for (name, params) in formats() {
        parser_case(
            &dir,
            &format!("parser_{name}"),
            "protocol_parser",
            &params,
            "info",
        );
    }
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
