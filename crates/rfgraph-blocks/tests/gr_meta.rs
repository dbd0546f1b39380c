//! GNU Radio's metadata files, tagged file sink, burst shaper and
//! variable-rate test block against GNU Radio 3.10: the script
//! `gr_meta/reference.py` (run by `/usr/bin/python3`) runs GNU Radio's
//! blocks on fixed inputs and tags and writes what they wrote; each case
//! here builds the rfgraph block **through the registry**, runs it on
//! the same input and compares:
//!
//! - files GNU Radio's `file_meta_sink` wrote play in `file_meta_source`
//!   with the items and tags GNU Radio's own `file_meta_source` reads;
//! - `file_meta_sink` writes GNU Radio's files byte for byte (headers,
//!   extras, segments, detached header files), and GNU Radio's
//!   `file_meta_source` and `parse_file_metadata` read them back;
//! - `tagged_file_sink` writes the files GNU Radio's writes, names and
//!   bytes;
//! - `burst_shaper` and `test_tag_variable_rate` give GNU Radio's items
//!   and tags, `tags_to_pdu` GNU Radio's PDUs and detections.
//!
//! Without GNU Radio these skip with one line, except under `CI=true`.
//! The round trip and the property tests (mutated and truncated headers
//! are errors, never panics) need no GNU Radio.

mod common;

use common::cases::{build_named, json};
use common::flow::run_block;
use common::gr_reference::gr_reference;
use common::gr_reference::run_script;

use common::RunBounded;
use num_complex::Complex32;
use proptest::prelude::*;
use rfgraph::{Flowgraph, Item, Pmt, Tag};
use rfgraph_blocks::file_meta::MetaHeader;
use rfgraph_blocks::gr_pmt;
use rfgraph_blocks::{VectorSink, VectorSource};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// GNU Radio's outputs, written once per test process by
/// `gr_meta/reference.py`; `None` when GNU Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    gr_reference("gr_meta", "gnuradio.blocks, gnuradio.digital, pmt")
}

fn cases(dir: &Path) -> Value {
    json(&dir.join("cases.json"))
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A PMT from GNU Radio's serialized bytes in hex.
fn pmt_hex(hex: &str) -> Pmt {
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    gr_pmt::decode(&bytes).unwrap()
}

/// `[[offset, key, hex], ...]` as tags, offsets times `scale`.
fn tags_of(list: &Value, scale: u64) -> Vec<Tag> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|t| {
            Tag::new(
                t[0].as_u64().unwrap() * scale,
                t[1].as_str().unwrap(),
                pmt_hex(t[2].as_str().unwrap()),
            )
        })
        .collect()
}

/// Tags in a comparable order: GNU Radio's order among tags of one item
/// is its own.
fn sorted(mut tags: Vec<Tag>) -> Vec<Tag> {
    tags.sort_by(|a, b| (a.index, &a.key).cmp(&(b.index, &b.key)));
    tags
}

/// Runs `block` (a source) into a sink of `T`: its items as bytes and
/// its tags.
fn drain<T: Item>(block: Box<dyn rfgraph::Block>) -> Result<(Vec<u8>, Vec<Tag>), String> {
    let mut fg = Flowgraph::new();
    let b = fg.add_boxed("dut", "dut", block);
    let sink = fg.add(VectorSink::<T>::new());
    fg.connect(b, "out", sink, "in").unwrap();
    let done = fg
        .run_bounded(rfgraph::scheduler::Tpb::new())
        .map_err(|e| e.to_string())?;
    let s = done.block::<VectorSink<T>>(sink).unwrap();
    Ok((bytemuck::cast_slice(s.items()).to_vec(), s.tags().to_vec()))
}

/// Runs `items` (raw bytes of `T`) with `tags` into `block` (a sink).
fn feed<T: Item>(bytes: &[u8], tags: Vec<Tag>, block: Box<dyn rfgraph::Block>) {
    let items: Vec<T> = bytes
        .chunks_exact(size_of::<T>())
        .map(bytemuck::pod_read_unaligned)
        .collect();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(items).with_tags(tags));
    let b = fg.add_boxed("dut", "dut", block);
    fg.connect(src, "out", b, "in").unwrap();
    fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
}

/// Runs `block` (1 in, 1 out of `T`) on `bytes` with `tags`.
fn through<T: Item>(
    bytes: &[u8],
    tags: Vec<Tag>,
    block: Box<dyn rfgraph::Block>,
) -> (Vec<T>, Vec<Tag>) {
    let items: Vec<T> = bytes
        .chunks_exact(size_of::<T>())
        .map(bytemuck::pod_read_unaligned)
        .collect();
    run_block(block, items, tags)
}

/// `$body` with `$t` the Rust type of registry item type `$kind`.
macro_rules! typed {
    ($kind:expr, $t:ident => $body:expr) => {
        match $kind {
            "c32" => {
                type $t = Complex32;
                $body
            }
            "f32" => {
                type $t = f32;
                $body
            }
            "i32" => {
                type $t = i32;
                $body
            }
            "i16" => {
                type $t = i16;
                $body
            }
            "u8" => {
                type $t = u8;
                $body
            }
            other => panic!("no type {other}"),
        }
    };
}

struct MetaCase<'a> {
    c: &'a Value,
    name: &'a str,
    kind: &'a str,
    vlen: u64,
    detached: bool,
}

impl<'a> MetaCase<'a> {
    fn of(c: &'a Value) -> Self {
        Self {
            c,
            name: c["name"].as_str().unwrap(),
            kind: c["type"].as_str().unwrap(),
            vlen: c["vlen"].as_u64().unwrap(),
            detached: c["detached"].as_bool().unwrap(),
        }
    }

    fn source_params(&self, path: &Path) -> Vec<(&'static str, Pmt)> {
        vec![
            ("path", Pmt::from(path.to_str().unwrap())),
            ("type", Pmt::from(self.kind)),
            ("vlen", Pmt::I64(self.vlen as i64)),
            ("detached", Pmt::Bool(self.detached)),
        ]
    }

    fn sink_params(&self, path: &Path) -> Vec<(&'static str, Pmt)> {
        let extras: BTreeMap<String, Pmt> = self.c["extras"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e[0].as_str().unwrap().to_string(),
                    pmt_hex(e[1].as_str().unwrap()),
                )
            })
            .collect();
        vec![
            ("path", Pmt::from(path.to_str().unwrap())),
            ("type", Pmt::from(self.kind)),
            ("vlen", Pmt::I64(self.vlen as i64)),
            ("samp_rate", Pmt::F64(self.c["samp_rate"].as_f64().unwrap())),
            ("rel_rate", Pmt::F64(self.c["rel_rate"].as_f64().unwrap())),
            (
                "max_segment_size",
                Pmt::I64(self.c["max_seg"].as_i64().unwrap()),
            ),
            ("extra_dict", Pmt::Map(extras)),
            ("detached", Pmt::Bool(self.detached)),
        ]
    }
}

#[test]
fn files_gnu_radio_wrote_play_with_its_items_and_tags() {
    let Some(dir) = reference() else { return };
    let cases = cases(&dir);
    for c in cases["meta"].as_array().unwrap() {
        let case = MetaCase::of(c);
        let file = dir.join(format!("{}.gr.dat", case.name));
        let block = build_named("file_meta_source", &case.source_params(&file));
        let (bytes, tags) = typed!(case.kind, T => drain::<T>(block))
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let want = read(&dir.join(format!("{}.gr.read.bin", case.name)));
        assert_eq!(bytes, want, "{}: items", case.name);
        assert_eq!(
            bytes,
            read(&dir.join(format!("{}.in", case.name))),
            "{}",
            case.name
        );
        let gr = json(&dir.join(format!("{}.gr.read.json", case.name)));
        assert_eq!(
            sorted(tags),
            sorted(tags_of(&gr["tags"], case.vlen)),
            "{}: tags",
            case.name
        );
    }
}

#[test]
fn rfgraph_writes_gnu_radios_files_byte_for_byte_and_gnu_radio_reads_them() {
    let Some(dir) = reference() else { return };
    let cases = cases(&dir);
    for c in cases["meta"].as_array().unwrap() {
        let case = MetaCase::of(c);
        let ours = dir.join(format!("{}.rf.dat", case.name));
        let input = read(&dir.join(format!("{}.in", case.name)));
        let block = build_named("file_meta_sink", &case.sink_params(&ours));
        let tags = tags_of(&c["tags"], case.vlen);
        typed!(case.kind, T => feed::<T>(&input, tags, block));
        let gr = dir.join(format!("{}.gr.dat", case.name));
        assert_eq!(read(&ours), read(&gr), "{}: the data file", case.name);
        if case.detached {
            let hdr = |p: &Path| {
                let mut s = p.as_os_str().to_owned();
                s.push(".hdr");
                read(Path::new(&s))
            };
            assert_eq!(hdr(&ours), hdr(&gr), "{}: the header file", case.name);
        }
        // GNU Radio's file_meta_source and parse_file_metadata on ours.
        run_script(
            "gr_meta",
            &[
                dir.as_os_str(),
                "read".as_ref(),
                case.name.as_ref(),
                ours.as_os_str(),
                if case.detached { "true" } else { "false" }.as_ref(),
                case.kind.as_ref(),
                case.vlen.to_string().as_ref(),
            ],
        );
        assert_eq!(
            read(&dir.join(format!("{}.check.bin", case.name))),
            input,
            "{}: items GNU Radio read",
            case.name
        );
        assert_eq!(
            json(&dir.join(format!("{}.check.json", case.name))),
            json(&dir.join(format!("{}.gr.read.json", case.name))),
            "{}: tags and headers GNU Radio read",
            case.name
        );
    }
}

#[test]
fn tagged_file_sink_writes_the_files_gnu_radio_writes() {
    let Some(dir) = reference() else { return };
    let cases = cases(&dir);
    let c = &cases["tagged"];
    let name = c["name"].as_str().unwrap();
    let ours = dir.join(format!("{name}.rf"));
    let _ = std::fs::remove_dir_all(&ours);
    std::fs::create_dir_all(&ours).unwrap();
    let block = build_named(
        "tagged_file_sink",
        &[
            ("type", Pmt::from("f32")),
            ("samp_rate", Pmt::F64(c["samp_rate"].as_f64().unwrap())),
            ("directory", Pmt::from(ours.to_str().unwrap())),
            ("unique_id", Pmt::I64(c["unique_id"].as_i64().unwrap())),
        ],
    );
    let input = read(&dir.join(format!("{name}.in")));
    feed::<f32>(&input, tags_of(&c["tags"], 1), block);
    let list = |d: &Path| {
        let mut names: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    };
    let gr = dir.join(name);
    let names = list(&gr);
    assert_eq!(names.len(), 4, "GNU Radio's files: {names:?}");
    assert_eq!(list(&ours), names);
    for n in &names {
        assert_eq!(read(&ours.join(n)), read(&gr.join(n)), "{n}");
    }
}

/// Registry parameters from the script's JSON (number lists as taps).
fn stream_params(c: &Value) -> Vec<(String, Pmt)> {
    let mut out = vec![("type".to_string(), Pmt::from(c["type"].as_str().unwrap()))];
    for (k, v) in c["params"].as_object().unwrap() {
        let value = match v {
            Value::Bool(b) => Pmt::Bool(*b),
            Value::String(s) => Pmt::from(s.as_str()),
            Value::Number(n) if n.is_i64() => Pmt::I64(n.as_i64().unwrap()),
            Value::Number(n) => Pmt::F64(n.as_f64().unwrap()),
            Value::Array(a) if a.iter().all(Value::is_number) => {
                Pmt::VecF32(a.iter().map(|x| x.as_f64().unwrap() as f32).collect())
            }
            Value::Array(a) => Pmt::VecComplexF32(
                a.iter()
                    .map(|p| [p[0].as_f64().unwrap() as f32, p[1].as_f64().unwrap() as f32])
                    .collect(),
            ),
            other => panic!("{k}: {other}"),
        };
        out.push((k.clone(), value));
    }
    out
}

fn stream_case(dir: &Path, c: &Value, block: &str) {
    let name = c["name"].as_str().unwrap();
    let list = stream_params(c);
    // `test_tag_variable_rate` is `f32` only: no `type`.
    let list: Vec<(&str, Pmt)> = list
        .iter()
        .filter(|(k, _)| block != "test_tag_variable_rate" || k != "type")
        .map(|(k, v)| (k.as_str(), v.clone()))
        .collect();
    let input = read(&dir.join(format!("{name}.in")));
    let want_bytes = read(&dir.join(format!("{name}.out")));
    let want_tags = sorted(tags_of(
        &json(&dir.join(format!("{name}.out.json")))["tags"],
        1,
    ));
    assert!(!want_bytes.is_empty(), "{name}: GNU Radio wrote nothing");
    let tags = tags_of(&c["tags"], 1);
    match c["type"].as_str().unwrap() {
        "f32" => {
            let (got, got_tags) = through::<f32>(&input, tags, build_named(block, &list));
            let got: &[u8] = bytemuck::cast_slice(&got);
            assert_eq!(got, &want_bytes[..], "{name}: items");
            assert_eq!(sorted(got_tags), want_tags, "{name}: tags");
        }
        "c32" => {
            let (got, got_tags) = through::<Complex32>(&input, tags, build_named(block, &list));
            let want: Vec<Complex32> = want_bytes
                .chunks_exact(8)
                .map(bytemuck::pod_read_unaligned)
                .collect();
            assert_eq!(got.len(), want.len(), "{name}: output length");
            for (i, (a, b)) in got.iter().zip(&want).enumerate() {
                assert!(
                    (a - b).norm() <= 1e-6,
                    "{name}: item {i}: ours {a}, GNU Radio {b}"
                );
            }
            assert_eq!(sorted(got_tags), want_tags, "{name}: tags");
        }
        other => panic!("{name}: type {other}"),
    }
}

#[test]
fn burst_shaper_matches_gnu_radio() {
    let Some(dir) = reference() else { return };
    let cases = cases(&dir);
    let mut n = 0;
    for c in cases["streams"].as_array().unwrap() {
        if c["name"].as_str().unwrap().starts_with("burst_shaper") {
            stream_case(&dir, c, "burst_shaper");
            n += 1;
        }
    }
    assert_eq!(n, 3);
}

#[test]
fn test_tag_variable_rate_matches_gnu_radio() {
    let Some(dir) = reference() else { return };
    let cases = cases(&dir);
    let mut n = 0;
    for c in cases["streams"].as_array().unwrap() {
        if c["name"].as_str().unwrap().starts_with("variable_rate") {
            stream_case(&dir, c, "test_tag_variable_rate");
            n += 1;
        }
    }
    assert_eq!(n, 2);
}

#[test]
fn tags_to_pdu_sends_gnu_radios_pdus() {
    let Some(dir) = reference() else { return };
    let cases = cases(&dir);
    let all = cases["tags_to_pdu"].as_array().unwrap();
    assert_eq!(all.len(), 3);
    for c in all {
        let name = c["name"].as_str().unwrap();
        let kind = c["type"].as_str().unwrap();
        let list = stream_params(c);
        let list: Vec<(&str, Pmt)> = list.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
        let input = read(&dir.join(format!("{name}.in")));
        let tags = tags_of(&c["tags"], 1);
        let block = build_named("tags_to_pdu", &list);
        let (pdus, detects) = typed!(kind, T => {
            let items: Vec<T> = input
                .chunks_exact(size_of::<T>())
                .map(bytemuck::pod_read_unaligned)
                .collect();
            let mut fg = Flowgraph::new();
            let src = fg.add(VectorSource::new(items).with_tags(tags));
            let b = fg.add_boxed("dut", "dut", block);
            let pdus = fg.add(rfgraph_blocks::MessageSink::new());
            let dets = fg.add(rfgraph_blocks::MessageSink::new());
            fg.connect(src, "out", b, "in").unwrap();
            fg.connect_message(b, "pdus", pdus, "in").unwrap();
            fg.connect_message(b, "detects", dets, "in").unwrap();
            let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
            let got = |id| done.block::<rfgraph_blocks::MessageSink>(id).unwrap().messages().to_vec();
            (got(pdus), got(dets))
        });
        let want = json(&dir.join(format!("{name}.pdus.json")));
        let decode = |v: &Value| -> Vec<Pmt> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|h| pmt_hex(h.as_str().unwrap()))
                .collect()
        };
        let want_pdus = decode(&want["pdus"]);
        assert!(!want_pdus.is_empty(), "{name}: GNU Radio sent nothing");
        assert_eq!(pdus, want_pdus, "{name}: PDUs");
        assert_eq!(detects, decode(&want["detects"]), "{name}: detections");
    }
}

// ---- without GNU Radio ----

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gr_meta_local");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Writes `items` (f32, `vlen` 3) with `tags` through the sink and reads
/// them back through the source.
fn round_trip(name: &str, detached: bool, tags: Vec<Tag>) -> (Vec<f32>, Vec<f32>, Vec<Tag>) {
    let path = scratch(name);
    let items: Vec<f32> = (0..300).map(|i| i as f32 * 0.5).collect();
    let sink = build_named(
        "file_meta_sink",
        &[
            ("path", Pmt::from(path.to_str().unwrap())),
            ("type", Pmt::from("f32")),
            ("vlen", Pmt::I64(3)),
            ("samp_rate", Pmt::F64(100.0)),
            ("max_segment_size", Pmt::I64(30)),
            ("detached", Pmt::Bool(detached)),
            ("unbuffered", Pmt::Bool(true)),
        ],
    );
    feed::<f32>(bytemuck::cast_slice(&items), tags, sink);
    let source = build_named(
        "file_meta_source",
        &[
            ("path", Pmt::from(path.to_str().unwrap())),
            ("type", Pmt::from("f32")),
            ("vlen", Pmt::I64(3)),
            ("detached", Pmt::Bool(detached)),
        ],
    );
    let (bytes, got_tags) = drain::<f32>(source).unwrap();
    let got = bytes
        .chunks_exact(4)
        .map(bytemuck::pod_read_unaligned)
        .collect();
    (items, got, got_tags)
}

#[test]
fn what_the_sink_writes_the_source_plays_with_its_segments_as_tags() {
    for detached in [false, true] {
        let tags = vec![
            Tag::new(45, "rx_rate", Pmt::F64(200.0)),
            Tag::new(60, "custom", Pmt::from("hello")),
        ];
        let (sent, got, tags) = round_trip(&format!("rt_{detached}"), detached, tags);
        assert_eq!(got, sent);
        let at = |key: &str| -> Vec<u64> {
            tags.iter()
                .filter(|t| t.key == key)
                .map(|t| t.index)
                .collect()
        };
        // Segments of 30 vectors (90 items) from 0, split at the tags'
        // vectors 15 and 20.
        assert_eq!(at("rx_rate"), vec![0, 45, 60, 150, 240]);
        assert_eq!(at("custom"), vec![60, 150, 240]);
        let rate_at = |i: u64| {
            tags.iter()
                .find(|t| t.key == "rx_rate" && t.index == i)
                .map(|t| t.value.clone())
        };
        assert_eq!(rate_at(0), Some(Pmt::F64(100.0)));
        assert_eq!(rate_at(45), Some(Pmt::F64(200.0)));
        // The split after 30 vectors at 200/s moves rx_time on by 0.15 s.
        let time = tags
            .iter()
            .find(|t| t.key == "rx_time" && t.index == 150)
            .unwrap();
        assert_eq!(
            time.value,
            Pmt::Tuple(vec![Pmt::U64(0), Pmt::F64(30.0 / 200.0)])
        );
    }
}

#[test]
fn a_tag_the_header_cannot_hold_fails_the_run() {
    let path = scratch("bad_time.dat");
    let sink = build_named(
        "file_meta_sink",
        &[
            ("path", Pmt::from(path.to_str().unwrap())),
            ("type", Pmt::from("f32")),
        ],
    );
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(vec![0f32; 10]).with_tags(vec![Tag::new(
        3,
        "rx_time",
        Pmt::from("noon"),
    )]));
    let b = fg.add_boxed("dut", "dut", sink);
    fg.connect(src, "out", b, "in").unwrap();
    let err = fg
        .run_bounded(rfgraph::scheduler::Tpb::new())
        .err()
        .expect("an rx_time that is no time must fail");
    assert!(err.to_string().contains("rx_time"), "{err}");
}

#[test]
fn a_new_path_closes_the_old_file_and_starts_the_new_one_with_a_header() {
    use rfgraph::Block;
    use rfgraph_blocks::{FileMetaSink, FileMetaSinkParams, FileMetaSource, FileMetaSourceParams};
    let (a, b) = (scratch("switch_a.dat"), scratch("switch_b.dat"));
    let mut sink = FileMetaSink::<f32>::new(FileMetaSinkParams {
        samp_rate: 50.0,
        ..FileMetaSinkParams::new(a.to_str().unwrap())
    })
    .unwrap();
    sink.init().unwrap();
    rfgraph::params::apply(&mut sink, "path", Pmt::from(b.to_str().unwrap())).unwrap();
    // A file that cannot be created is refused; the sink writes on.
    assert!(rfgraph::params::apply(&mut sink, "path", Pmt::from("/nonexistent/x.dat")).is_err());
    assert_eq!(sink.params().path, b.to_str().unwrap());
    sink.finishing();
    sink.deinit().unwrap();
    for p in [&a, &b] {
        let bytes = read(p);
        let (h, used) = MetaHeader::decode(&bytes).unwrap();
        assert_eq!(
            (used, h.rx_rate, h.bytes),
            (bytes.len(), 50.0, 0),
            "{}",
            p.display()
        );
    }
    // The source moves to a new file the same way.
    let mut source =
        FileMetaSource::<f32>::new(FileMetaSourceParams::new(a.to_str().unwrap())).unwrap();
    source.init().unwrap();
    rfgraph::params::apply(&mut source, "path", Pmt::from(b.to_str().unwrap())).unwrap();
    assert!(rfgraph::params::apply(&mut source, "path", Pmt::from("/nonexistent/x.dat")).is_err());
    assert_eq!(source.params().path, b.to_str().unwrap());
}

/// A valid file rfgraph wrote: f32, two segments, extras.
fn valid_file() -> &'static [u8] {
    static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BYTES.get_or_init(|| {
        let path = scratch("valid.dat");
        let sink = build_named(
            "file_meta_sink",
            &[
                ("path", Pmt::from(path.to_str().unwrap())),
                ("type", Pmt::from("f32")),
                (
                    "extra_dict",
                    Pmt::Map([("k".to_string(), Pmt::I64(1))].into()),
                ),
            ],
        );
        feed::<f32>(
            bytemuck::cast_slice(&[1f32, 2.0, 3.0, 4.0, 5.0]),
            vec![Tag::new(2, "rx_rate", Pmt::F64(8.0))],
            sink,
        );
        read(&path)
    })
}

/// `valid_file` with `flips` applied and cut to `cut` bytes.
fn mutate(flips: &[(prop::sample::Index, u8)], cut: prop::sample::Index) -> Vec<u8> {
    let mut bytes = valid_file().to_vec();
    for (at, b) in flips {
        let i = at.index(bytes.len());
        bytes[i] = *b;
    }
    bytes.truncate(cut.index(bytes.len() + 1));
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn mutated_or_truncated_headers_are_errors_not_panics(
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..8),
        cut in any::<prop::sample::Index>(),
    ) {
        let bytes = mutate(&flips, cut);
        if let Ok((h, used)) = MetaHeader::decode(&bytes) {
            prop_assert!(used <= bytes.len());
            prop_assert!(h.item_size > 0);
        }
    }

    #[test]
    fn random_bytes_are_no_header(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = MetaHeader::decode(&bytes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_source_fails_cleanly_on_mutated_files(
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in any::<prop::sample::Index>(),
    ) {
        let path = scratch(&format!("mutated_{}.dat", std::process::id()));
        let file = mutate(&flips, cut);
        std::fs::write(&path, &file).unwrap();
        let source = build_named(
            "file_meta_source",
            &[("path", Pmt::from(path.to_str().unwrap())), ("type", Pmt::from("f32"))],
        );
        match drain::<f32>(source) {
            Ok((bytes, _)) => prop_assert!(bytes.len() <= file.len()),
            Err(e) => prop_assert!(!e.contains("panicked"), "{}", e),
        }
    }
}
