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

use common::RunBounded;
use common::cases::{build, cases, length_tags, name, registry};
use common::flow::{post_all, run_tagged};
use common::gr_reference::{gr_reference, load};
use proptest::prelude::*;
use rfgraph::{Block, Flowgraph, Pmt};
use rfgraph_blocks::message::{parse, pdu};
use rfgraph_blocks::{VectorSink, VectorSource};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// GNU Radio's outputs, written once per test process by
/// `gr_fec_async/reference.py`; `None` when GNU Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    gr_reference("gr_fec_async", "gnuradio.fec")
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

/// Posts `pdus` to `block` and gives the PDUs it posts.
fn run_pdus(block: Box<dyn Block>, pdus: Vec<Pmt>) -> Vec<Pmt> {
    let pdus = pdus
        .into_iter()
        .enumerate()
        .map(|(k, data)| {
            let meta: BTreeMap<String, Pmt> = [("k".to_string(), Pmt::I64(k as i64))].into();
            pdu(meta, data)
        })
        .collect();
    post_all(block, pdus)
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
