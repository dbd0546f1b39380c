//! The OFDM blocks against GNU Radio 3.10: the script
//! `gr_ofdm/reference.py` (run by `/usr/bin/python3`, Debian's
//! `python3-gnuradio`) runs GNU Radio's OFDM blocks with the parameters of
//! its `ofdm_txrx.py` (and a few others) on fixed inputs with tags, and
//! writes inputs, outputs, the tags on both and the parameters; each case
//! here builds the rfgraph block **through the registry** from those
//! parameters, runs it on the same input and compares items and tags:
//! exactly for the allocator, the serializer and the cyclic prefixer,
//! within a small tolerance for synchronisation, estimation and
//! equalization. Without GNU Radio the test skips with one line, except
//! under `CI=true`, where it fails.
//!
//! A property test (no GNU Radio needed) feeds every OFDM block random
//! items with random tags (lengths, offsets, channel taps of any value
//! and type, anywhere): a run ends, never a panic or a hang.

mod common;

use common::cases::registry;
use common::flow::run_block;
use common::gr_reference::{gr_reference, load};

use common::RunBounded;
use num_complex::Complex32;
use rfgraph::{
    Block, BoxError, Flowgraph, Item, MessageOutput, Pmt, Ports, StreamInput, Tag, WorkIo,
};
use rfgraph_blocks::{VectorSink, VectorSource};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// GNU Radio's outputs, written once per test process by
/// `gr_ofdm/reference.py`; `None` when GNU Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    gr_reference("gr_ofdm", "gnuradio.digital")
}

/// A value of the script's JSON: numbers, strings, lists, `{"c32": [[re,
/// im], ...]}` complex vectors and `{"str": s}` strings.
fn pmt(v: &Value) -> Pmt {
    match v {
        Value::Null => Pmt::Null,
        Value::Bool(b) => Pmt::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Pmt::I64(i),
            None => Pmt::F64(n.as_f64().unwrap()),
        },
        Value::String(s) => Pmt::from(s.as_str()),
        Value::Array(items) => Pmt::List(items.iter().map(pmt).collect()),
        Value::Object(o) => {
            if let Some(Value::Array(c)) = o.get("c32") {
                Pmt::VecComplexF32(
                    c.iter()
                        .map(|p| {
                            let p = p.as_array().unwrap();
                            [p[0].as_f64().unwrap() as f32, p[1].as_f64().unwrap() as f32]
                        })
                        .collect(),
                )
            } else if let Some(Value::String(s)) = o.get("str") {
                Pmt::from(s.as_str())
            } else if let Some(Value::Array(t)) = o.get("time") {
                Pmt::Tuple(vec![
                    Pmt::U64(t[0].as_u64().unwrap()),
                    Pmt::F64(t[1].as_f64().unwrap()),
                ])
            } else {
                panic!("unknown value {v}")
            }
        }
    }
}

/// One case of the script.
struct Case {
    dir: PathBuf,
    name: String,
    meta: Value,
}

impl Case {
    fn new(dir: &Path, name: &str) -> Self {
        let path = dir.join(format!("{name}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        Self {
            dir: dir.to_path_buf(),
            name: name.to_string(),
            meta: serde_json::from_str(&text).unwrap(),
        }
    }

    fn params(&self) -> BTreeMap<String, Pmt> {
        self.meta["params"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), pmt(v)))
            .collect()
    }

    fn tags(&self, key: &str) -> Vec<Tag> {
        self.meta[key]
            .as_array()
            .unwrap_or_else(|| panic!("{}: no {key}", self.name))
            .iter()
            .map(|t| Tag::new(t[0].as_u64().unwrap(), t[1].as_str().unwrap(), pmt(&t[2])))
            .collect()
    }

    fn input<T: bytemuck::Pod>(&self) -> Vec<T> {
        load(&self.dir.join(format!("{}.in", self.name)))
    }

    fn output<T: bytemuck::Pod>(&self, port: &str) -> Vec<T> {
        load(&self.dir.join(format!("{}.{port}", self.name)))
    }
}

/// Runs registered block `name` with `params` on `input` (with `tags`);
/// what its output `out` wrote, with the tags.
fn run<I: Item, O: Item>(
    name: &str,
    params: BTreeMap<String, Pmt>,
    input: Vec<I>,
    tags: Vec<Tag>,
) -> (Vec<O>, Vec<Tag>) {
    let block = registry()
        .build(name, params)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    run_block(block, input, tags)
}

/// Tags sorted as the script sorts them: by item, then key.
fn sorted(mut tags: Vec<Tag>) -> Vec<Tag> {
    tags.sort_by(|a, b| (a.index, &a.key).cmp(&(b.index, &b.key)));
    tags
}

/// Tag values equal: integers whatever their sign type, vectors within
/// `tol`.
fn same_value(a: &Pmt, b: &Pmt, tol: f32) -> bool {
    let int = |p: &Pmt| match *p {
        Pmt::I64(v) => Some(v as i128),
        Pmt::U64(v) => Some(v as i128),
        _ => None,
    };
    match (a, b) {
        (Pmt::Tuple(x), Pmt::Tuple(y)) => {
            x.len() == y.len()
                && x.iter().zip(y).all(|(p, q)| match (p, q) {
                    (Pmt::F64(p), Pmt::F64(q)) => (p - q).abs() <= 1e-9,
                    _ => p == q,
                })
        }
        (Pmt::VecComplexF32(x), Pmt::VecComplexF32(y)) => {
            x.len() == y.len()
                && x.iter().zip(y).all(|(p, q)| {
                    (Complex32::new(p[0], p[1]) - Complex32::new(q[0], q[1])).norm() <= tol
                })
        }
        _ => match (int(a), int(b)) {
            (Some(x), Some(y)) => x == y,
            _ => a == b,
        },
    }
}

fn compare_tags(case: &str, got: Vec<Tag>, want: Vec<Tag>, tol: f32) {
    let (got, want) = (sorted(got), sorted(want));
    let show = |t: &[Tag]| {
        t.iter()
            .map(|t| format!("{}:{}", t.index, t.key))
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(
        show(&got),
        show(&want),
        "{case}: tags (ours, then GNU Radio's)"
    );
    for (g, w) in got.iter().zip(&want) {
        assert!(
            same_value(&g.value, &w.value, tol),
            "{case}: tag {}:{}: ours {:?}, GNU Radio {:?}",
            g.index,
            g.key,
            g.value,
            w.value
        );
    }
}

/// Complex in, complex out: items and tags must equal GNU Radio's
/// exactly (`tags`: whether to compare tags).
fn exact(dir: &Path, case: &str, name: &str, tags: bool) {
    let c = Case::new(dir, case);
    let want: Vec<Complex32> = c.output("out");
    let (got, got_tags) =
        run::<Complex32, Complex32>(name, c.params(), c.input(), c.tags("in_tags"));
    assert!(!want.is_empty(), "{case}: GNU Radio wrote nothing");
    assert_eq!(got.len(), want.len(), "{case}: output length");
    if let Some(i) = got.iter().zip(&want).position(|(a, b)| a != b) {
        panic!(
            "{case}: first difference at {i}: ours {:?}, GNU Radio {:?}",
            got[i], want[i]
        );
    }
    if tags {
        compare_tags(case, got_tags, c.tags("out_tags"), 0.0);
    }
}

#[test]
fn cyclic_prefixer_matches_gnu_radio_exactly() {
    let Some(dir) = reference() else { return };
    for case in ["cp_txrx", "cp_rolloff", "cp_list"] {
        exact(&dir, case, "ofdm_cyclic_prefixer", true);
    }
    // A continuous stream: GNU Radio's tags there depend on how its
    // scheduler splits the stream; the items do not.
    for case in ["cp_stream", "cp_stream_list"] {
        exact(&dir, case, "ofdm_cyclic_prefixer", false);
    }
}

#[test]
fn carrier_allocator_matches_gnu_radio_exactly() {
    let Some(dir) = reference() else { return };
    for case in [
        "alloc_txrx",
        "alloc_defaults",
        "alloc_unshifted",
        "alloc_shifted16",
    ] {
        exact(&dir, case, "ofdm_carrier_allocator", true);
    }
}

#[test]
fn serializer_matches_gnu_radio_exactly() {
    let Some(dir) = reference() else { return };
    for case in [
        "ser_header",
        "ser_payload",
        "ser_offset_shifted",
        "ser_offset_unshifted",
    ] {
        exact(&dir, case, "ofdm_serializer", true);
    }
}

/// GNU Radio's serializer never finishes without a length key, so the
/// stream form is checked against the frame form: frames of one symbol
/// each, whose set of carriers the stream form cycles through.
#[test]
fn serializer_stream_form_reads_what_the_frame_form_reads() {
    let occupied = Pmt::List(vec![
        Pmt::List(vec![Pmt::I64(1), Pmt::I64(-2)]),
        Pmt::List(vec![Pmt::I64(3)]),
        Pmt::List(vec![Pmt::I64(4), Pmt::I64(5), Pmt::I64(-5)]),
    ]);
    let n = 16;
    let input: Vec<Complex32> = (0..n * 9)
        .map(|i| Complex32::new(i as f32, -(i as f32)))
        .collect();
    let params = |key: &str| {
        BTreeMap::from([
            ("fft_len".to_string(), Pmt::U64(n as u64)),
            ("occupied_carriers".to_string(), occupied.clone()),
            ("len_tag_key".to_string(), Pmt::from(key)),
            ("symbols_skipped".to_string(), Pmt::U64(1)),
        ])
    };
    let (stream, tags) = run::<Complex32, Complex32>(
        "ofdm_serializer",
        params(""),
        input.clone(),
        vec![Tag::new(3 * n as u64, "foo", Pmt::I64(1))],
    );
    // The same as frames of three symbols (three frames start with list
    // 1, so the stream's cycle 1, 2, 0 repeats frame by frame).
    let frames = (0..3).map(|f| Tag::new(3 * n as u64 * f, "len", Pmt::U64(3)));
    let (framed, _) =
        run::<Complex32, Complex32>("ofdm_serializer", params("len"), input, frames.collect());
    assert_eq!(stream, framed);
    assert_eq!(stream.len(), 18);
    assert_eq!(
        tags.iter()
            .map(|t| (t.index, t.key.as_str()))
            .collect::<Vec<_>>(),
        [(6, "foo")]
    );
}

/// Runs `ofdm_sync_sc_cfb` with `case`'s parameters on its input.
fn run_sync(c: &Case) -> (Vec<f32>, Vec<u8>) {
    let block = registry()
        .build("ofdm_sync_sc_cfb", c.params())
        .unwrap_or_else(|e| panic!("{}: {e}", c.name));
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(c.input::<Complex32>()));
    let b = fg.add_boxed("dut", "ofdm_sync_sc_cfb", block);
    let freq = fg.add(VectorSink::<f32>::new());
    let detect = fg.add(VectorSink::<u8>::new());
    fg.connect(src, "out", b, "in").unwrap();
    fg.connect(b, "freq_offset", freq, "in").unwrap();
    fg.connect(b, "detect", detect, "in").unwrap();
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    (
        done.block::<VectorSink<f32>>(freq)
            .unwrap()
            .items()
            .to_vec(),
        done.block::<VectorSink<u8>>(detect)
            .unwrap()
            .items()
            .to_vec(),
    )
}

#[test]
fn schmidl_cox_sync_matches_gnu_radio() {
    let Some(dir) = reference() else { return };
    for case in ["sync_txrx", "sync_low_threshold", "sync_even"] {
        let c = Case::new(&dir, case);
        let (freq, detect) = run_sync(&c);
        let want_freq: Vec<f32> = c.output("out0");
        let want_detect: Vec<u8> = c.output("out1");
        // GNU Radio's detector leaves the last items unjudged depending on
        // how its buffers split the stream: up to 2 · cp_len of them.
        let slack = 2 * c.meta["params"]["cp_len"].as_u64().unwrap() as usize;
        assert!(
            detect.len().abs_diff(want_detect.len()) <= slack && freq.len() == detect.len(),
            "{case}: {} and {} outputs, GNU Radio {}",
            freq.len(),
            detect.len(),
            want_detect.len()
        );
        let n = detect.len().min(want_detect.len());
        let flags = |d: &[u8]| {
            d.iter()
                .enumerate()
                .filter(|(_, f)| **f != 0)
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        };
        let got = flags(&detect[..n]);
        assert_eq!(got, flags(&want_detect[..n]), "{case}: detections");
        let starts = c.meta["starts"].as_array().unwrap();
        assert_eq!(got.len(), starts.len(), "{case}: one detection per burst");
        let worst = (0..n)
            .map(|i| ((freq[i] - want_freq[i]).abs(), i))
            .fold((0.0f32, 0), |a, b| if b.0 > a.0 { b } else { a });
        assert!(
            worst.0 < 1e-3,
            "{case}: freq_offset differs by {} at {}: ours {}, GNU Radio {}",
            worst.0,
            worst.1,
            freq[worst.1],
            want_freq[worst.1]
        );
    }
}

#[test]
fn channel_estimation_matches_gnu_radio() {
    let Some(dir) = reference() else { return };
    for case in [
        "chanest_txrx",
        "chanest_max_offset",
        "chanest_one_symbol",
        "chanest_one_full_symbol",
        "chanest_forced",
    ] {
        let c = Case::new(&dir, case);
        let (got, tags) =
            run::<Complex32, Complex32>("ofdm_chanest", c.params(), c.input(), c.tags("in_tags"));
        // The data symbols pass as they are.
        let want: Vec<Complex32> = c.output("out");
        assert_eq!(got.len(), want.len(), "{case}: data symbols");
        if let Some(i) = got.iter().zip(&want).position(|(a, b)| a != b) {
            panic!("{case}: item {i}: ours {}, GNU Radio {}", got[i], want[i]);
        }
        compare_tags(case, tags, c.tags("out_tags"), 1e-5);
    }
    // The optional output of the taps.
    let c = Case::new(&dir, "chanest_txrx");
    let block = registry().build("ofdm_chanest", c.params()).unwrap();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(c.input::<Complex32>()));
    let b = fg.add_boxed("dut", "ofdm_chanest", block);
    let (out, taps) = (
        fg.add(VectorSink::<Complex32>::new()),
        fg.add(VectorSink::<Complex32>::new()),
    );
    fg.connect(src, "out", b, "in").unwrap();
    fg.connect(b, "out", out, "in").unwrap();
    fg.connect(b, "taps", taps, "in").unwrap();
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    let got = done.block::<VectorSink<Complex32>>(taps).unwrap().items();
    let want: Vec<Complex32> = c.output("taps");
    assert_eq!(got.len(), want.len(), "chanest_txrx: taps");
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!((g - w).norm() <= 1e-5, "chanest_txrx: tap {i}: {g} vs {w}");
    }
}

/// Complex in, complex out: items and tag values within `tol` of GNU
/// Radio's, the tags at the same places.
fn close(dir: &Path, case: &str, name: &str, tol: f32) {
    let c = Case::new(dir, case);
    let want: Vec<Complex32> = c.output("out");
    let (got, got_tags) =
        run::<Complex32, Complex32>(name, c.params(), c.input(), c.tags("in_tags"));
    assert!(!want.is_empty(), "{case}: GNU Radio wrote nothing");
    assert_eq!(got.len(), want.len(), "{case}: output length");
    let (worst, at) = got
        .iter()
        .zip(&want)
        .map(|(a, b)| (a - b).norm())
        .enumerate()
        .fold((0.0f32, 0), |w, (i, d)| if d > w.0 { (d, i) } else { w });
    assert!(
        worst <= tol,
        "{case}: largest difference {worst} at {at}: ours {}, GNU Radio {}",
        got[at],
        want[at]
    );
    compare_tags(case, got_tags, c.tags("out_tags"), tol);
}

#[test]
fn frame_equalizer_matches_gnu_radio() {
    let Some(dir) = reference() else { return };
    for case in [
        "eq_simpledfe",
        "eq_simpledfe_qpsk",
        "eq_simpledfe_soft",
        "eq_static",
        "eq_fixed",
        "eq_fixed_tsb",
    ] {
        close(&dir, case, "ofdm_frame_equalizer", 1e-4);
    }
}

/// A small configuration of each OFDM block (`fft_len` 8), by registry
/// name, with the keys the random tags use.
fn small_blocks() -> Vec<(&'static str, Vec<(&'static str, Pmt)>)> {
    let ints = |v: &[i64]| Pmt::List(v.iter().map(|&i| Pmt::I64(i)).collect());
    let sets = |v: &[&[i64]]| Pmt::List(v.iter().map(|s| ints(s)).collect());
    let complex = |v: &[f32]| Pmt::VecF32(v.to_vec());
    let n = || ("fft_len", Pmt::U64(8));
    let occupied = || ("occupied_carriers", sets(&[&[1, 2, -1], &[3, -3]]));
    let s = |v: &str| Pmt::from(v);
    vec![
        (
            "ofdm_cyclic_prefixer",
            vec![
                n(),
                ("cp_len", ints(&[2, 3])),
                ("rolloff", Pmt::U64(2)),
                ("len_tag_key", s("len")),
            ],
        ),
        (
            "ofdm_cyclic_prefixer",
            vec![n(), ("cp_len", Pmt::U64(3)), ("len_tag_key", s(""))],
        ),
        (
            "ofdm_carrier_allocator",
            vec![
                n(),
                occupied(),
                ("pilot_carriers", sets(&[&[0], &[-2]])),
                (
                    "pilot_symbols",
                    Pmt::List(vec![complex(&[1.0]), complex(&[-1.0])]),
                ),
                ("sync_words", Pmt::List(vec![complex(&[1.0; 8])])),
                ("len_tag_key", s("len")),
            ],
        ),
        (
            "ofdm_serializer",
            vec![
                n(),
                occupied(),
                ("len_tag_key", s("len")),
                ("packet_len_tag_key", s("plen")),
                ("carr_offset_key", s("coff")),
            ],
        ),
        (
            "ofdm_serializer",
            vec![
                n(),
                occupied(),
                ("len_tag_key", s("")),
                ("symbols_skipped", Pmt::U64(3)),
            ],
        ),
        (
            "ofdm_sync_sc_cfb",
            vec![n(), ("cp_len", Pmt::U64(2)), ("threshold", Pmt::F64(0.5))],
        ),
        (
            "ofdm_chanest",
            vec![
                (
                    "sync_symbol1",
                    complex(&[0.0, 1.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0]),
                ),
                ("sync_symbol2", complex(&[])),
                ("n_data_symbols", Pmt::U64(2)),
            ],
        ),
        (
            "ofdm_chanest",
            vec![
                (
                    "sync_symbol1",
                    complex(&[0.0, 1.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0]),
                ),
                (
                    "sync_symbol2",
                    complex(&[0.0, 1.0, 1.0, -1.0, 0.0, -1.0, 1.0, 0.0]),
                ),
                ("max_carr_offset", Pmt::I64(4)),
            ],
        ),
        (
            "ofdm_frame_equalizer",
            vec![
                n(),
                ("equalizer", s("simpledfe")),
                ("constellation", s("qpsk")),
                occupied(),
                ("pilot_carriers", sets(&[&[-2]])),
                ("pilot_symbols", Pmt::List(vec![complex(&[1.0])])),
                ("cp_len", Pmt::U64(2)),
                ("len_tag_key", s("len")),
                ("propagate_channel_state", Pmt::Bool(true)),
            ],
        ),
        (
            "ofdm_frame_equalizer",
            vec![
                n(),
                ("equalizer", s("static")),
                ("occupied_carriers", Pmt::List(vec![])),
                ("pilot_carriers", sets(&[&[]])),
                ("pilot_symbols", Pmt::List(vec![complex(&[])])),
                ("len_tag_key", s("")),
                ("fixed_frame_len", Pmt::U64(2)),
            ],
        ),
    ]
}

/// A tag key the blocks above read, or another.
fn tag_key(pick: u8) -> &'static str {
    [
        "len",
        "plen",
        "coff",
        "ofdm_sync_carr_offset",
        "ofdm_sync_chan_taps",
        "other",
    ][pick as usize % 6]
}

/// A tag value of any type and size.
fn tag_value(pick: u8, number: i64, len: usize) -> Pmt {
    match pick % 9 {
        0 | 1 => Pmt::I64(number),
        2 => Pmt::U64(number.unsigned_abs()),
        3 => Pmt::U64(u64::MAX - number.unsigned_abs()),
        4 => Pmt::I64(i64::MIN + number.abs()),
        5 => Pmt::VecComplexF32(vec![[number as f32, f32::NAN]; len]),
        6 => Pmt::F64(number as f64 / 3.0),
        7 => Pmt::from("x"),
        _ => Pmt::Null,
    }
}

/// Runs `name` with `params` on `input` with `tags` under a watchdog;
/// every stream output goes to a sink.
fn run_any(name: &str, params: &[(&str, Pmt)], input: Vec<Complex32>, tags: Vec<Tag>) {
    let params: BTreeMap<String, Pmt> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let registry = registry();
    let spec = registry.get(name).unwrap();
    let outputs: Vec<&str> = spec.outputs.iter().map(|p| p.name).collect();
    let block = registry
        .build(name, params)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(input).with_tags(tags));
    let b = fg.add_boxed("dut", name, block);
    fg.connect(src, "out", b, "in").unwrap();
    for port in outputs {
        let sink = match port {
            "freq_offset" => fg.add(VectorSink::<f32>::new()),
            "detect" => fg.add(VectorSink::<u8>::new()),
            _ => fg.add(VectorSink::<Complex32>::new()),
        };
        fg.connect(b, port, sink, "in").unwrap();
    }
    if let Err(e) = fg.run_bounded(rfgraph::scheduler::Single::new()) {
        panic!("{name}: {e}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1500))]

    /// Random items, random tags anywhere: every block ends its run.
    #[test]
    fn random_items_and_tags_never_break_a_block(
        which in 0usize..10,
        samples in proptest::collection::vec((0u8..8, -4i8..4), 0..400),
        tags in proptest::collection::vec((0usize..400, 0u8..6, 0u8..9, -40i64..40, 0usize..12), 0..16),
    ) {
        let blocks = small_blocks();
        let (name, params) = &blocks[which % blocks.len()];
        let input: Vec<Complex32> = samples
            .iter()
            .map(|&(kind, v)| match kind {
                0 => Complex32::new(0.0, 0.0),
                1 => Complex32::new(f32::NAN, 1.0),
                2 => Complex32::new(f32::INFINITY, -1.0),
                3 => Complex32::new(1e30, -1e30),
                _ => Complex32::new(f32::from(v), f32::from(v) / 2.0),
            })
            .collect();
        let tags = tags
            .iter()
            .filter(|t| t.0 < input.len().max(1))
            .map(|&(at, key, value, number, len)| {
                Tag::new(at as u64, tag_key(key), tag_value(value, number, if len > 9 { 8 } else { len }))
            })
            .collect();
        run_any(name, params, input, tags);
    }
}

/// Answers every header that arrives (`per_header` items) with the next
/// message, as the header parser of `ofdm_txrx.py`'s receiver does.
struct Responder {
    input: StreamInput<Complex32>,
    output: MessageOutput,
    per_header: usize,
    messages: std::collections::VecDeque<Pmt>,
    seen: usize,
    sent: usize,
    /// Use the messages again and again.
    cycle: bool,
}

impl Block for Responder {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .message_output(&mut self.output)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let n = self.input.slice().len();
        self.input.consume(n);
        self.seen += n;
        while self.seen >= (self.sent + 1) * self.per_header {
            let Some(m) = self.messages.pop_front() else {
                break;
            };
            if self.cycle {
                self.messages.push_back(m.clone());
            }
            self.output.post(m);
            self.sent += 1;
        }
        Ok(())
    }
}

/// A message from the script's JSON: a length, `false`, or a map.
fn message(m: &Value) -> Pmt {
    match m {
        Value::Bool(false) => Pmt::Bool(false),
        Value::Number(n) => Pmt::I64(n.as_i64().unwrap()),
        Value::Object(o) => Pmt::Map(o.iter().map(|(k, v)| (k.clone(), pmt(v))).collect()),
        other => panic!("message {other}"),
    }
}

#[test]
fn header_payload_demux_matches_gnu_radio() {
    let Some(dir) = reference() else { return };
    for case in ["hpd_ofdm", "hpd_items", "hpd_gi_items"] {
        let c = Case::new(&dir, case);
        let p = &c.meta["params"];
        let (ips, pad) = (
            p["items_per_symbol"].as_u64().unwrap() as usize,
            p["header_padding"].as_u64().unwrap() as usize,
        );
        let header_len = p["header_len"].as_u64().unwrap() as usize;
        let per_header = (header_len + 2 * (pad / ips)) * ips + 2 * (pad % ips);
        let block = registry()
            .build("header_payload_demux", c.params())
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(c.input::<Complex32>()).with_tags(c.tags("in_tags")));
        let hpd = fg.add_boxed("dut", "header_payload_demux", block);
        fg.connect(src, "out", hpd, "in").unwrap();
        if let Some(trigger) = c.meta["trigger"].as_array() {
            let t: Vec<u8> = trigger.iter().map(|v| v.as_u64().unwrap() as u8).collect();
            let trig = fg.add(VectorSource::new(t));
            fg.connect(trig, "out", hpd, "trigger").unwrap();
        }
        let responder = fg.add(Responder {
            input: StreamInput::new("in"),
            output: MessageOutput::new("out"),
            per_header,
            messages: c.meta["messages"]
                .as_array()
                .unwrap()
                .iter()
                .map(message)
                .collect(),
            seen: 0,
            sent: 0,
            cycle: false,
        });
        let (hdr, pay) = (
            fg.add(VectorSink::<Complex32>::new()),
            fg.add(VectorSink::<Complex32>::new()),
        );
        fg.connect(hpd, "out_hdr", hdr, "in").unwrap();
        fg.connect(hpd, "out_hdr", responder, "in").unwrap();
        fg.connect(hpd, "out_payload", pay, "in").unwrap();
        fg.connect_message(responder, "out", hpd, "header_data")
            .unwrap();
        let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
        for (port, sink) in [("out_hdr", hdr), ("out_payload", pay)] {
            let sink = done.block::<VectorSink<Complex32>>(sink).unwrap();
            let want: Vec<Complex32> = c.output(port);
            assert_eq!(sink.items(), want.as_slice(), "{case}: {port}");
            compare_tags(
                &format!("{case} {port}"),
                sink.tags().to_vec(),
                c.tags(&format!("{port}_tags")),
                0.0,
            );
        }
    }
}

/// A message the header demodulator might send, good or bad.
fn random_message(pick: u8, a: i64, b: i64) -> Pmt {
    let map = |entries: &[(&str, Pmt)]| {
        Pmt::Map(
            entries
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    };
    match pick % 7 {
        0 | 1 => Pmt::I64(a),
        2 => Pmt::Bool(false),
        3 => map(&[("len", Pmt::I64(a)), ("payload_offset", Pmt::I64(b))]),
        4 => map(&[("len", Pmt::U64(u64::MAX)), ("x", Pmt::Null)]),
        5 => map(&[("len", Pmt::from("x"))]),
        _ => Pmt::Null,
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// Random items, triggers, tags and header messages: the demux ends
    /// its run, never a panic or a hang.
    #[test]
    fn random_bursts_and_messages_never_break_the_demux(
        config in 0usize..3,
        len in 0usize..600,
        triggers in proptest::collection::vec(0usize..600, 0..8),
        tags in proptest::collection::vec((0usize..600, 0u8..6, 0u8..9, -40i64..40), 0..12),
        messages in proptest::collection::vec((0u8..7, -3i64..12, -3i64..3), 1..6),
    ) {
        let configs: [&[(&str, Pmt)]; 3] = [
            &[("header_len", Pmt::U64(1)), ("items_per_symbol", Pmt::U64(8)), ("guard_interval", Pmt::U64(2)),
              ("length_tag_key", Pmt::from("len")), ("special_tags", Pmt::List(vec![Pmt::from("plen")])),
              ("timing_tag_key", Pmt::from("coff"))],
            &[("header_len", Pmt::U64(2)), ("items_per_symbol", Pmt::U64(4)), ("guard_interval", Pmt::U64(0)),
              ("header_padding", Pmt::U64(3)), ("output_symbols", Pmt::Bool(false)),
              ("length_tag_key", Pmt::from("len")), ("trigger_tag_key", Pmt::from("other"))],
            &[("header_len", Pmt::U64(1)), ("items_per_symbol", Pmt::U64(2)), ("guard_interval", Pmt::U64(1)),
              ("header_padding", Pmt::U64(2)), ("length_tag_key", Pmt::from("len"))],
        ];
        let params: BTreeMap<String, Pmt> = configs[config]
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        let p = |k: &str| params.get(k).and_then(Pmt::as_u64).unwrap_or(0) as usize;
        let (ips, pad) = (p("items_per_symbol"), p("header_padding"));
        let per_header = (p("header_len") + 2 * (pad / ips)) * ips + 2 * (pad % ips);
        let input: Vec<Complex32> = (0..len).map(|i| Complex32::new(i as f32, 1.0)).collect();
        let mut trigger = vec![0u8; len];
        for &t in triggers.iter().filter(|&&t| t < len) {
            trigger[t] = 1;
        }
        let tags: Vec<Tag> = tags
            .iter()
            .filter(|t| t.0 < len.max(1))
            .map(|&(at, key, value, number)| Tag::new(at as u64, tag_key(key), tag_value(value, number, 3)))
            .collect();
        let block = registry().build("header_payload_demux", params.clone()).unwrap();
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(input).with_tags(tags));
        let hpd = fg.add_boxed("dut", "header_payload_demux", block);
        fg.connect(src, "out", hpd, "in").unwrap();
        if config != 1 {
            let trig = fg.add(VectorSource::new(trigger));
            fg.connect(trig, "out", hpd, "trigger").unwrap();
        }
        let responder = fg.add(Responder {
            input: StreamInput::new("in"),
            output: MessageOutput::new("out"),
            per_header,
            messages: messages.iter().map(|&(k, a, b)| random_message(k, a, b)).collect(),
            seen: 0,
            sent: 0,
            cycle: true,
        });
        let pay = fg.add(VectorSink::<Complex32>::new());
        fg.connect(hpd, "out_hdr", responder, "in").unwrap();
        fg.connect(hpd, "out_payload", pay, "in").unwrap();
        fg.connect_message(responder, "out", hpd, "header_data").unwrap();
        if let Err(e) = fg.run_bounded(rfgraph::scheduler::Tpb::new()) {
            panic!("header_payload_demux: {e}");
        }
    }
}
