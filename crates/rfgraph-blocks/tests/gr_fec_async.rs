//! The asynchronous FEC coders and the tagged encoder against GNU Radio
//! 3.10 on the configurations of its `fecapi_async_*`,
//! `fecapi_tagged_*` and `digital/packet/tx_stage2` examples: the script
//! `gr_fec_async/reference.py` (run by `/usr/bin/python3`) runs GNU
//! Radio's blocks (`async_encoder`, `async_decoder`,
//! `extended_async_encoder`, `extended_tagged_encoder`) and writes
//! inputs, outputs and `cases.json`. Each case here builds the rfgraph
//! block **through the registry**, runs it on the same input and
//! compares byte for byte: the coded PDUs, the decoded PDUs, the tagged
//! packets and their length tags, including GNU Radio's quirk of coding
//! only one packet in eight with a `ccsds` tagged encoder (it packs the
//! bits in front of the encoder with no regard for packets). Without GNU
//! Radio the test skips with one line, except under `CI=true`.

mod common;

use common::{RunBounded, WATCHDOG, wait_within};
use proptest::prelude::*;
use rfgraph::registry::Registry;
use rfgraph::{Block, Flowgraph, Pmt, Tag};
use rfgraph_blocks::message::{parse, pdu};
use rfgraph_blocks::{MessageSink, VectorSink, VectorSource};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Runs the reference script once per test process; `None` when GNU
/// Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        if !rfgraph_testkit::gnuradio("gr_fec_async", "gnuradio.fec") {
            return None;
        }
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gr_fec_async");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gr_fec_async/reference.py");
        let out = Command::new(rfgraph_testkit::GNURADIO_PYTHON)
            .arg(&script)
            .arg(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{} failed: {}\n{}",
            script.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        Some(dir)
    })
    .clone()
}

fn load<T: bytemuck::Pod>(path: &Path) -> Vec<T> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    bytes
        .chunks_exact(std::mem::size_of::<T>())
        .map(bytemuck::pod_read_unaligned)
        .collect()
}

fn registry() -> Registry {
    let mut r = Registry::new();
    r.extend(rfgraph_blocks::registry::specs());
    r
}

fn cases(dir: &Path, kind: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("cases.json")).unwrap();
    let all: Vec<Value> = serde_json::from_str(&text).unwrap();
    let some: Vec<Value> = all.into_iter().filter(|c| c["kind"] == kind).collect();
    assert!(!some.is_empty(), "no {kind} cases");
    some
}

fn to_pmt(v: &Value) -> Pmt {
    match v {
        Value::Bool(b) => Pmt::Bool(*b),
        Value::Number(n) => n
            .as_i64()
            .map(Pmt::I64)
            .unwrap_or_else(|| Pmt::F64(n.as_f64().unwrap())),
        Value::String(s) => Pmt::String(s.clone()),
        Value::Array(a) => Pmt::List(a.iter().map(to_pmt).collect()),
        other => panic!("no parameter value: {other}"),
    }
}

fn name(case: &Value) -> &str {
    case["name"].as_str().unwrap()
}

fn try_build(case: &Value) -> Result<Box<dyn Block>, String> {
    let params: BTreeMap<String, Pmt> = case["params"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), to_pmt(v)))
        .collect();
    registry()
        .build(case["block"].as_str().unwrap(), params)
        .map_err(|e| e.to_string())
}

fn build(case: &Value) -> Box<dyn Block> {
    try_build(case).unwrap_or_else(|e| panic!("{}: {e}", name(case)))
}

fn length_tags(key: &str, lengths: &[u64]) -> Vec<Tag> {
    let mut at = 0;
    lengths
        .iter()
        .map(|&n| {
            let t = Tag::new(at, key, Pmt::U64(n));
            at = at.saturating_add(n);
            t
        })
        .collect()
}

/// Runs a tagged encoder on `bits` in packets of `lengths`: its output
/// and length tags (index, value).
fn run_tagged(
    block: Box<dyn Block>,
    key: &str,
    bits: Vec<u8>,
    lengths: &[u64],
) -> (Vec<u8>, Vec<(u64, u64)>) {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(bits).with_tags(length_tags(key, lengths)));
    let b = fg.add_boxed("dut", "fec", block);
    let sink = fg.add(VectorSink::<u8>::new());
    fg.connect(src, "out", b, "in").unwrap();
    fg.connect(b, "out", sink, "in").unwrap();
    let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
    let sink = done.block::<VectorSink<u8>>(sink).unwrap();
    let tags = sink
        .tags()
        .iter()
        .filter(|t| t.key == key)
        .map(|t| (t.index, t.value.as_u64().unwrap()))
        .collect();
    (sink.items().to_vec(), tags)
}

#[test]
fn tagged_encoders_match_gnu_radio_packet_for_packet() {
    let Some(dir) = reference() else { return };
    for case in cases(&dir, "tagged") {
        let n = name(&case);
        let key = case["params"]["lentagname"].as_str().unwrap();
        let input: Vec<u8> = load(&dir.join(format!("{n}.in")));
        let inlen: Vec<u64> = load(&dir.join(format!("{n}.inlen")));
        let want: Vec<u8> = load(&dir.join(format!("{n}.out")));
        let outlen: Vec<u64> = load(&dir.join(format!("{n}.outlen")));
        let (got, tags) = run_tagged(build(&case), key, input, &inlen);
        let want_tags: Vec<(u64, u64)> = length_tags(key, &outlen)
            .iter()
            .map(|t| (t.index, t.value.as_u64().unwrap()))
            .collect();
        assert_eq!(tags, want_tags, "{n}: length tags");
        assert_eq!(got, want, "{n}: items");
        eprintln!(
            "{n}: {} packets in, {} out, as GNU Radio",
            inlen.len(),
            outlen.len()
        );
    }
}

fn wait_for_messages(handle: &rfgraph::FlowgraphHandle, block: rfgraph::BlockId, n: u64) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while handle.stats()[block.0].messages_handled < n {
        assert!(Instant::now() < deadline, "the messages never arrived");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Posts `pdus` to `block` and gives the PDUs it posts.
fn run_pdus(block: Box<dyn Block>, pdus: Vec<Pmt>) -> Vec<Pmt> {
    let mut fg = Flowgraph::new();
    let b = fg.add_boxed("dut", "fec", block);
    let sink = fg.add(MessageSink::new());
    fg.connect_message(b, "out", sink, "in").unwrap();
    let running = fg.start(rfgraph::scheduler::Tpb::new()).unwrap();
    let handle = running.handle();
    let n = pdus.len() as u64;
    for (k, data) in pdus.into_iter().enumerate() {
        let meta: BTreeMap<String, Pmt> = [("k".to_string(), Pmt::I64(k as i64))].into();
        handle.post(b, "in", pdu(meta, data)).unwrap();
    }
    wait_for_messages(&handle, sink, n);
    handle.stop();
    let done = wait_within(running, WATCHDOG).unwrap();
    done.block::<MessageSink>(sink).unwrap().messages().to_vec()
}

#[test]
fn async_coders_match_gnu_radio_pdu_for_pdu() {
    let Some(dir) = reference() else { return };
    for case in cases(&dir, "pdu") {
        let n = name(&case);
        let inlen: Vec<u64> = load(&dir.join(format!("{n}.inlen")));
        let outlen: Vec<u64> = load(&dir.join(format!("{n}.outlen")));
        let want: Vec<u8> = load(&dir.join(format!("{n}.out")));
        let mut pdus = Vec::new();
        let mut at = 0;
        for &len in &inlen {
            let len = len as usize;
            pdus.push(if case["input"] == "u8" {
                Pmt::Blob(load::<u8>(&dir.join(format!("{n}.in")))[at..at + len].to_vec())
            } else {
                Pmt::VecF32(load::<f32>(&dir.join(format!("{n}.in")))[at..at + len].to_vec())
            });
            at += len;
        }
        let got = run_pdus(build(&case), pdus);
        assert_eq!(got.len(), outlen.len(), "{n}: PDUs");
        let mut at = 0;
        for (k, msg) in got.iter().enumerate() {
            let (meta, data) = parse(msg).unwrap();
            let Pmt::Blob(bytes) = data else {
                panic!("{n}: PDU {k} holds {data:?}")
            };
            let len = outlen[k] as usize;
            assert_eq!(bytes[..], want[at..at + len], "{n}: PDU {k}");
            assert_eq!(meta.get("k"), Some(&Pmt::I64(k as i64)), "{n}: metadata");
            at += len;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A `ccsds` tagged encoder on random packets (lengths of any value,
    /// packet starts off the packer's bytes, a stream cut anywhere): it
    /// codes, or stops with an error, never panics or hangs.
    #[test]
    fn packed_tagged_encoder_never_panics(
        lengths in prop::collection::vec(prop_oneof![0u64..300, Just(u64::MAX), 1000u64..5000], 1..10),
        cut in 0usize..3000, mode in 0usize..4,
    ) {
        let params: BTreeMap<String, Pmt> = [
            ("code", Pmt::from("ccsds")),
            ("frame_size", Pmt::U64(256)),
            ("mode", Pmt::from(["terminated", "truncated", "tailbiting", "streaming"][mode])),
            ("lentagname", Pmt::from("pkt")),
            ("mtu", Pmt::U64(40)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let b = registry().build("extended_tagged_encoder", params).unwrap();
        let total: u64 = lengths.iter().map(|&n| n.min(3000)).sum::<u64>().min(cut as u64);
        let mut fg = Flowgraph::new();
        let tags = length_tags("pkt", &lengths).into_iter().filter(|t| t.index < total.max(1)).collect();
        let src = fg.add(VectorSource::new((0..total).map(|i| (i % 3 == 0) as u8).collect::<Vec<u8>>()).with_tags(tags));
        let dut = fg.add_boxed("dut", "extended_tagged_encoder", b);
        let sink = fg.add(VectorSink::<u8>::new());
        fg.connect(src, "out", dut, "in").unwrap();
        fg.connect(dut, "out", sink, "in").unwrap();
        if let Err(e) = fg.run_bounded(rfgraph::scheduler::Tpb::new()) {
            let e = e.to_string();
            prop_assert!(e.contains("MTU") || e.contains("length tag"), "{e}");
        }
    }
}
