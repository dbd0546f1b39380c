//! The text encoding in which the packet scripts (`gr_packets`,
//! `gr_header_ofdm`) write messages and tag values, and the cases checked
//! in it: a tagged byte stream, messages in and out, a stream in and
//! messages out.

use super::RunBounded;
use super::cases::build_named;
use super::flow::run_block;
use rfgraph::{
    Block, BlockId, BoxError, Finished, Flowgraph, MessageOutput, Pmt, Ports, Tag, WorkIo,
};
use rfgraph_blocks::{MessageSink, VectorSource};
use std::collections::BTreeMap;
use std::path::Path;

/// A value as the script writes it (see its docstring).
pub fn enc(p: &Pmt) -> String {
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
pub fn dec(s: &mut &str) -> Pmt {
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

pub fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::to_string)
        .collect()
}

/// Tags as the script writes them; length tags (`packet_len`) as
/// rfgraph writes them (`U64`).
pub fn load_tags(path: &Path) -> Vec<Tag> {
    load_tags_keyed(path, "packet_len")
}

/// Tags as the script writes them; length tags of key `len_key` as
/// rfgraph writes them (`U64`).
pub fn load_tags_keyed(path: &Path, len_key: &str) -> Vec<Tag> {
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
pub fn rows(tags: &[Tag]) -> Vec<(u64, String, String)> {
    let mut rows: Vec<_> = tags
        .iter()
        .map(|t| (t.index, t.key.clone(), enc(&t.value)))
        .collect();
    rows.sort();
    rows
}

// ---- running registry blocks ----

/// Case `case` of a tagged byte-stream block: items and tags must equal
/// GNU Radio's.
pub fn stream_case(dir: &Path, case: &str, name: &str, params: &[(&str, Pmt)]) {
    stream_case_keyed(dir, case, name, params, "packet_len");
}

/// [`stream_case`] with length tags of key `len_key`.
pub fn stream_case_keyed(
    dir: &Path,
    case: &str,
    name: &str,
    params: &[(&str, Pmt)],
    len_key: &str,
) {
    let input = std::fs::read(dir.join(format!("{case}.in"))).unwrap();
    let tags = load_tags_keyed(&dir.join(format!("{case}.in_tags")), len_key);
    let want = std::fs::read(dir.join(format!("{case}.out"))).unwrap();
    let want_tags = load_tags_keyed(&dir.join(format!("{case}.out_tags")), len_key);
    let (items, tags) = run_block::<u8, u8>(build_named(name, params), input, tags);
    assert!(!want.is_empty(), "{case}: GNU Radio wrote nothing");
    assert_eq!(items, want, "{case}: items");
    assert_eq!(rows(&tags), rows(&want_tags), "{case}: tags");
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

/// The messages message sink `sink` received in run `done`, each
/// encoded by `encode`.
pub fn received(done: &Finished, sink: BlockId, encode: fn(&Pmt) -> String) -> Vec<String> {
    done.block::<MessageSink>(sink)
        .unwrap()
        .messages()
        .iter()
        .map(encode)
        .collect()
}

/// Case `case` of a message block: what it posts on each of `ports` must
/// equal GNU Radio's.
pub fn message_case(dir: &Path, case: &str, name: &str, params: &[(&str, Pmt)], ports: &[&str]) {
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
    let b = fg.add_boxed("dut", name, build_named(name, params));
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
        let want = lines(&dir.join(format!("{case}.{port}")));
        assert_eq!(received(&done, sink, enc), want, "{case}: port {port}");
    }
}

/// Case `case` of a block from a byte stream (with the tags of
/// `<case>.in_tags`, when there are) to messages on `port`: they must
/// equal GNU Radio's.
pub fn parser_case(dir: &Path, case: &str, name: &str, params: &[(&str, Pmt)], port: &str) {
    let bits = std::fs::read(dir.join(format!("{case}.in"))).unwrap();
    let tags_file = dir.join(format!("{case}.in_tags"));
    let tags = if tags_file.exists() {
        load_tags(&tags_file)
    } else {
        Vec::new()
    };
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(bits).with_tags(tags));
    let b = fg.add_boxed("dut", name, build_named(name, params));
    let sink = fg.add(MessageSink::new());
    fg.connect(src, "out", b, "in").unwrap();
    fg.connect_message(b, port, sink, "in").unwrap();
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    let got = received(&done, sink, enc);
    let want = lines(&dir.join(format!("{case}.{port}")));
    assert!(
        want.iter().any(|m| m.starts_with('{')),
        "{case}: GNU Radio found no header"
    );
    assert_eq!(got, want, "{case}: {port}");
}

/// `protocol_parser` with each of `formats` (name, parameters): case
/// `parser_<name>`'s messages on `info` must equal GNU Radio's.
pub fn protocol_parsers(dir: &Path, formats: Vec<(&str, Vec<(&str, Pmt)>)>) {
    for (name, params) in formats {
        parser_case(
            dir,
            &format!("parser_{name}"),
            "protocol_parser",
            &params,
            "info",
        );
    }
}
