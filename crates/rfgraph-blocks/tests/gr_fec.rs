//! The FEC blocks against GNU Radio 3.10's `gr-fec`: the script
//! `gr_fec/reference.py` (run by `/usr/bin/python3`) runs GNU Radio's
//! coders and blocks on random bits and soft values (clean and noisy) and
//! writes inputs, outputs and `cases.json`, the list of cases with the
//! rfgraph block and parameters of each. Each case here builds that block
//! **through the registry**, runs it on the same input and compares bit
//! for bit: the encoders' coded bits, the decoders' decoded bits (so the
//! same errors at every noise level), tagged packets and their lengths,
//! PDUs and their metadata, the BER. Without GNU Radio the test skips
//! with one line, except under `CI=true`, where it fails.
//!
//! Where GNU Radio's output depends on how its scheduler cut the stream
//! (a streaming Viterbi decoder's last frame, read ahead of; the BER's
//! values per call), the case says what may differ and the rest must
//! match.

mod common;

use common::RunBounded;
use common::cases::{build, cases, length_tags, name, registry};
use common::compare::bit_errors;
use common::flow::{post_all, run_block};
use common::gr_reference::{gr_reference, load};
use proptest::prelude::*;
use rfgraph::{Block, Flowgraph, Item, Pmt, WorkIo};
use rfgraph_blocks::fec::{
    AsyncDecoder, AsyncDecoderParams, AsyncEncoder, AsyncEncoderParams, CcMode, Decoder, Encoder,
    FecCode, FecCodeParams,
};
use rfgraph_blocks::message::{parse, pdu};
use rfgraph_blocks::{VectorSink, VectorSource};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// GNU Radio's outputs, written once per test process by
/// `gr_fec/reference.py`; `None` when GNU Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    gr_reference("gr_fec", "gnuradio.fec")
}

fn check_stream<I: Item + Copy + bytemuck::Pod>(dir: &Path, case: &Value) {
    let n = name(case);
    let input: Vec<I> = load(&dir.join(format!("{n}.in")));
    let want: Vec<u8> = load(&dir.join(format!("{n}.out")));
    let (got, _) = run_block::<I, u8>(build(case), input, Vec::new());
    assert!(!want.is_empty(), "{n}: GNU Radio wrote nothing");
    // A streaming decoder may decode one frame more at the end than GNU
    // Radio's scheduler let it: where its read-ahead stops depends on
    // how GNU Radio cut the stream.
    let slack = case["slack"].as_u64().unwrap_or(0) as usize;
    assert!(
        got.len() >= want.len() && got.len() - want.len() <= slack,
        "{n}: {} items, GNU Radio {}",
        got.len(),
        want.len()
    );
    let ignored = |i: usize| match case.get("ignore") {
        Some(m) => {
            i % m["period"].as_u64().unwrap() as usize >= m["start"].as_u64().unwrap() as usize
        }
        None => false,
    };
    if let Some(i) = (0..want.len()).find(|&i| got[i] != want[i] && !ignored(i)) {
        panic!(
            "{n}: first difference at {i}: ours {}, GNU Radio {}",
            got[i], want[i]
        );
    }
    if let Some(sent) = case["sent"].as_str() {
        let sent: Vec<u8> = load(&dir.join(sent));
        let (ours, theirs) = (
            bit_errors(&got[..want.len()], &sent),
            bit_errors(&want, &sent),
        );
        assert_eq!(ours, theirs, "{n}: bit errors");
        eprintln!(
            "{n}: {ours} bit errors in {} bits, as GNU Radio",
            want.len()
        );
    }
}

#[test]
fn stream_coders_match_gnu_radio_bit_for_bit() {
    let Some(dir) = reference() else { return };
    for case in cases(&dir, "stream") {
        match case["input"].as_str().unwrap() {
            "u8" => check_stream::<u8>(&dir, &case),
            _ => check_stream::<f32>(&dir, &case),
        }
    }
}

/// The noisy cases correct what GNU Radio corrects: equal bit error
/// counts, and fewer errors than the channel made at 4 dB.
#[test]
fn viterbi_decoder_corrects_what_gnu_radio_corrects() {
    let Some(dir) = reference() else { return };
    let mut seen = 0;
    for case in cases(&dir, "stream") {
        let n = name(&case);
        let (Some(sent), true) = (case["sent"].as_str(), n.ends_with("4db")) else {
            continue;
        };
        let input: Vec<f32> = load(&dir.join(format!("{n}.in")));
        let sent: Vec<u8> = load(&dir.join(sent));
        let want: Vec<u8> = load(&dir.join(format!("{n}.out")));
        let (got, _) = run_block::<f32, u8>(build(&case), input.clone(), Vec::new());
        let ours = bit_errors(&got[..want.len()], &sent);
        assert_eq!(ours, bit_errors(&want, &sent), "{n}");
        assert!(
            ours * 100 < want.len(),
            "{n}: {ours} errors in {} bits",
            want.len()
        );
        seen += 1;
    }
    assert_eq!(seen, 4, "one 4 dB case per mode");
}

fn check_tagged<I: Item + Copy + bytemuck::Pod>(dir: &Path, case: &Value) {
    let n = name(case);
    let key = case["params"]["lentagname"].as_str().unwrap();
    let input: Vec<I> = load(&dir.join(format!("{n}.in")));
    let inlen: Vec<u64> = load(&dir.join(format!("{n}.inlen")));
    let want: Vec<u8> = load(&dir.join(format!("{n}.out")));
    let outlen: Vec<u64> = load(&dir.join(format!("{n}.outlen")));
    let (got, tags) = run_block::<I, u8>(build(case), input, length_tags(key, &inlen));
    let lengths: Vec<u64> = tags
        .iter()
        .filter(|t| t.key == key)
        .map(|t| t.value.as_u64().unwrap())
        .collect();
    // GNU Radio punctures after its tagged encoder, whose length tags
    // then still count the unpunctured bits: ours count what the packet
    // holds.
    let kept = |pat: &str| {
        (
            pat.bytes().filter(|&c| c == b'1').count() as u64,
            pat.len() as u64,
        )
    };
    let outlen: Vec<u64> = match case["params"]["puncpat"].as_str() {
        Some(pat) if pat != "11" && case["block"] == "extended_tagged_encoder" => {
            let (k, size) = kept(pat);
            outlen.iter().map(|&n| n * k / size).collect()
        }
        _ => outlen,
    };
    assert_eq!(lengths, outlen, "{n}: packet lengths");
    assert_eq!(got, want, "{n}: items");
    // Each length tag sits on its packet's first item.
    let starts: Vec<u64> = tags
        .iter()
        .filter(|t| t.key == key)
        .map(|t| t.index)
        .collect();
    assert_eq!(
        starts,
        length_tags(key, &outlen)
            .iter()
            .map(|t| t.index)
            .collect::<Vec<_>>()
    );
}

#[test]
fn tagged_coders_match_gnu_radio_packet_for_packet() {
    let Some(dir) = reference() else { return };
    for case in cases(&dir, "tagged") {
        match case["input"].as_str().unwrap() {
            "u8" => check_tagged::<u8>(&dir, &case),
            _ => check_tagged::<f32>(&dir, &case),
        }
    }
}

fn check_pdus(dir: &Path, case: &Value) {
    let n = name(case);
    let inlen: Vec<u64> = load(&dir.join(format!("{n}.inlen")));
    let outlen: Vec<u64> = load(&dir.join(format!("{n}.outlen")));
    let want: Vec<u8> = load(&dir.join(format!("{n}.out")));
    let data = |k: usize| -> Pmt {
        let (a, b) = (
            inlen[..k].iter().sum::<u64>() as usize,
            inlen[..=k].iter().sum::<u64>() as usize,
        );
        if case["input"] == "u8" {
            Pmt::Blob(load::<u8>(&dir.join(format!("{n}.in")))[a..b].to_vec())
        } else {
            Pmt::VecF32(load::<f32>(&dir.join(format!("{n}.in")))[a..b].to_vec())
        }
    };
    let pdus = (0..inlen.len())
        .map(|k| {
            let meta: BTreeMap<String, Pmt> = [("n".to_string(), Pmt::I64(inlen[k] as i64))].into();
            pdu(meta, data(k))
        })
        .collect();
    let got = post_all(build(case), pdus);
    assert_eq!(got.len(), outlen.len(), "{n}: PDUs");
    let mut at = 0;
    for (k, msg) in got.iter().enumerate() {
        let (meta, data) = parse(msg).unwrap();
        let Pmt::Blob(bytes) = data else {
            panic!("{n}: PDU {k} holds {data:?}")
        };
        let len = outlen[k] as usize;
        assert_eq!(bytes[..], want[at..at + len], "{n}: PDU {k}");
        at += len;
        assert_eq!(
            meta.get("n"),
            Some(&Pmt::I64(inlen[k] as i64)),
            "{n}: metadata"
        );
        let iterations = case["iterations"].as_f64().map(Pmt::F64);
        assert_eq!(
            meta.get("iterations"),
            iterations.as_ref(),
            "{n}: iterations"
        );
    }
}

#[test]
fn async_coders_match_gnu_radio_pdu_for_pdu() {
    let Some(dir) = reference() else { return };
    for case in cases(&dir, "pdu") {
        check_pdus(&dir, &case);
    }
}

#[test]
fn ber_matches_gnu_radio() {
    let Some(dir) = reference() else { return };
    for case in cases(&dir, "ber") {
        let n = name(&case);
        let a: Vec<u8> = load(&dir.join(format!("{n}.in0")));
        let b: Vec<u8> = load(&dir.join(format!("{n}.in1")));
        let want: Vec<f32> = load(&dir.join(format!("{n}.out")));
        let mut fg = Flowgraph::new();
        let s0 = fg.add(VectorSource::new(a));
        let s1 = fg.add(VectorSource::new(b));
        let ber = fg.add_boxed("ber", "ber", build(&case));
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(s0, "out", ber, "in0").unwrap();
        fg.connect(s1, "out", ber, "in1").unwrap();
        fg.connect(ber, "out", sink, "in").unwrap();
        let done = fg.run_bounded(rfgraph::scheduler::Tpb::new()).unwrap();
        let got = done
            .block::<VectorSink<f32>>(sink)
            .unwrap()
            .items()
            .to_vec();
        // One value per call: how many depends on how the input arrived;
        // the last one covers both whole streams.
        assert_eq!(got.last(), want.last(), "{n}");
        if case["params"]["test_mode"] == true {
            assert_eq!(got, want, "{n}: a test writes one value");
        }
    }
}

/// Decoded Mbit/s of the K = 7 Viterbi decoder on frames of 2048 bits
/// (run with `--release -- --ignored --nocapture`; reports, never
/// asserts, a speed: the best of several batches, as other work shares
/// the machine).
#[test]
#[ignore]
fn viterbi_throughput() {
    let p = FecCodeParams::cc(2048, CcMode::Terminated);
    let mut dec = Decoder::new(&p, "bench").unwrap();
    let soft: Vec<u8> = (0..dec.input_size())
        .map(|i| (i * 97 % 256) as u8)
        .collect();
    let mut out = vec![0u8; dec.output_size()];
    let frames = 500;
    let best = (0..8)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..frames {
                dec.decode_uchar(&soft, &mut out);
            }
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    eprintln!(
        "Viterbi K=7 r=1/2: {:.1} Mbit/s decoded",
        (frames * 2048) as f64 / best / 1e6
    );
}

fn code(code: u8, mode: u8, frame_size: usize, rep: usize) -> FecCodeParams {
    let mode = [
        CcMode::Streaming,
        CcMode::Terminated,
        CcMode::Tailbiting,
        CcMode::Truncated,
    ][mode as usize % 4];
    FecCodeParams {
        code: [
            FecCode::Dummy,
            FecCode::Repetition,
            FecCode::Cc,
            FecCode::Ccsds,
        ][code as usize % 4],
        frame_size,
        rep,
        mode,
        padding: frame_size.is_multiple_of(2),
        polys: vec![109, -79],
        ..Default::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Random PDUs of any length (empty, odd, past the MTU), soft values
    /// of any size (NaN, infinities) and messages that are no PDU: the
    /// message blocks code, decode or refuse with an error, never panic.
    #[test]
    fn async_blocks_never_panic(
        c in 0u8..4, mode in 0u8..4, fs in 1usize..80, rep in 1usize..5,
        packed in any::<bool>(), rev in any::<bool>(), mtu in 1usize..20,
        pdus in prop::collection::vec(
            (prop::collection::vec(any::<u8>(), 0..200),
             prop::collection::vec(prop_oneof![any::<f32>(), -3.0f32..3.0], 0..400)),
            1..5),
        junk in any::<bool>(),
    ) {
        let fec = code(c, mode, if c == 3 { fs * 8 } else { fs }, rep);
        let mut io = WorkIo::default();
        if let Ok(mut enc) = AsyncEncoder::new(AsyncEncoderParams {
            fec: fec.clone(), packed, rev_unpack: rev, rev_pack: !rev, mtu,
        }) {
            for (bytes, _) in &pdus {
                let _ = enc.handle_message("in", pdu(BTreeMap::new(), Pmt::Blob(bytes.clone())), &mut io);
            }
            let _ = enc.handle_message("in", Pmt::U64(3), &mut io);
        }
        if let Ok(mut dec) = AsyncDecoder::new(AsyncDecoderParams {
            fec, packed, rev_pack: rev, mtu,
        }) {
            for (_, floats) in &pdus {
                let _ = dec.handle_message("in", pdu(BTreeMap::new(), Pmt::VecF32(floats.clone())), &mut io);
            }
            if junk {
                let _ = dec.handle_message("in", pdu(BTreeMap::new(), Pmt::Blob(vec![1])), &mut io);
            }
        }
    }

    /// Any frame size a tagged or message block may set, including 0 and
    /// past the constructed one: the coders code within their buffers.
    #[test]
    fn coders_take_any_frame_size(
        c in 0u8..4, mode in 0u8..4, fs in 1usize..64, rep in 1usize..4,
        sizes in prop::collection::vec(0usize..100, 1..6),
        soft in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        let fec = code(c, mode, if c == 3 { fs * 8 } else { fs }, rep);
        if let Ok(mut enc) = Encoder::new(&fec, "prop") {
            for &n in &sizes {
                enc.set_frame_size(n);
                let input = vec![1u8; enc.input_size()];
                let mut out = vec![0u8; enc.output_size()];
                enc.encode(&input, &mut out);
            }
        }
        if let Ok(mut dec) = Decoder::new(&fec, "prop") {
            for &n in &sizes {
                dec.set_frame_size(n);
                let need = dec.input_size() + dec.history();
                let input: Vec<u8> = soft.iter().copied().cycle().take(need).chain(std::iter::repeat(0)).take(need).collect();
                let mut out = vec![0u8; dec.output_size()];
                dec.decode_uchar(&input, &mut out);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Tagged streams with random, empty, truncated and oversized packets
    /// (length tags of any value, a stream cut mid-packet): the tagged
    /// blocks decode or stop with an error naming the MTU, never panic or
    /// hang.
    #[test]
    fn tagged_blocks_never_panic(
        mode in 0u8..3, lengths in prop::collection::vec(prop_oneof![0u64..300, Just(u64::MAX), 1000u64..5000], 1..6),
        cut in 0usize..2000, decoder in any::<bool>(), punc in any::<bool>(),
    ) {
        let mode = ["terminated", "truncated", "tailbiting"][mode as usize];
        let block = if decoder { "extended_tagged_decoder" } else { "extended_tagged_encoder" };
        let params: BTreeMap<String, Pmt> = [
            ("code", Pmt::from("cc")),
            ("frame_size", Pmt::U64(256)),
            ("mode", Pmt::from(mode)),
            ("lentagname", Pmt::from("pkt")),
            ("mtu", Pmt::U64(40)),
            ("puncpat", Pmt::from(if punc { "1101" } else { "11" })),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let b = registry().build(block, params).unwrap();
        let total: u64 = lengths.iter().map(|&n| n.min(3000)).sum::<u64>().min(cut as u64);
        let mut fg = Flowgraph::new();
        let sink = fg.add(VectorSink::<u8>::new());
        let dut = fg.add_boxed("dut", block, b);
        let tags = length_tags("pkt", &lengths).into_iter().filter(|t| t.index < total.max(1)).collect();
        let src = if decoder {
            fg.add(VectorSource::new(vec![0.5f32; total as usize]).with_tags(tags))
        } else {
            fg.add(VectorSource::new(vec![1u8; total as usize]).with_tags(tags))
        };
        fg.connect(src, "out", dut, "in").unwrap();
        fg.connect(dut, "out", sink, "in").unwrap();
        match fg.run_bounded(rfgraph::scheduler::Tpb::new()) {
            Ok(_) => {}
            Err(e) => prop_assert!(e.to_string().contains("MTU"), "{e}"),
        }
    }
}
