//! The LDPC codes in GNU Radio 3.10's framed FEC blocks, against GNU
//! Radio itself, as its examples `fecapi_async_ldpc_encoders`,
//! `fecapi_tagged_ldpc_encoders` and `fecapi_tagged_ldpc_decoders` use
//! them: the script `gr_ldpc_framed/reference.py` (run by
//! `/usr/bin/python3`) runs GNU Radio's `async_encoder` (packed PDUs,
//! whose bits are rounded down to whole bytes, and PDUs of bits),
//! `extended_tagged_encoder`, `extended_tagged_decoder` and
//! `async_decoder` with its three LDPC encoders (`ldpc_encoder_make`,
//! which codes one codeword a frame whatever its size;
//! `ldpc_par_mtrx_encoder` and `ldpc_gen_mtrx_encoder`, frames of whole
//! information words) and their decoders, on frames of one and of
//! several codewords, and writes inputs, outputs and `cases.json`. Each
//! case here builds the rfgraph block **through the registry**, runs it
//! on the same input and compares byte for byte, length tags included.
//! The sizes GNU Radio throws on are errors here (checked without GNU
//! Radio), and random PDUs and packets never panic. Without GNU Radio the
//! comparisons skip with one line, except under `CI=true`.

mod common;

use common::RunBounded;
use common::cases::{build, cases, length_tags, name, registry};
use common::flow::{post_all, run_tagged};
use common::gr_reference::gr_reference;
use proptest::prelude::*;
use rfgraph::{Block, Flowgraph, Pmt, Tag, WorkIo};
use rfgraph_blocks::fec::{AsyncDecoder, AsyncDecoderParams, AsyncEncoder, AsyncEncoderParams};
use rfgraph_blocks::fec::{FecCode, FecCodeParams, ldpc::LdpcParams};
use rfgraph_blocks::message::{parse, pdu};
use rfgraph_blocks::{VectorSink, VectorSource};
use rfgraph_testkit::read_items;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// GNU Radio's outputs, written once per test process by
/// `gr_ldpc_framed/reference.py`; `None` when GNU Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    gr_reference("gr_ldpc_framed", "gnuradio.fec")
}

fn testdata(file: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/ldpc")
        .join(file)
        .display()
        .to_string()
}

#[test]
fn tagged_ldpc_coders_match_gnu_radio_packet_for_packet() {
    let Some(dir) = reference() else { return };
    for case in cases(&dir, "tagged") {
        let n = name(&case);
        let key = case["params"]["lentagname"].as_str().unwrap();
        let inlen: Vec<u64> = read_items(&dir.join(format!("{n}.inlen")));
        let want: Vec<u8> = read_items(&dir.join(format!("{n}.out")));
        let outlen: Vec<u64> = read_items(&dir.join(format!("{n}.outlen")));
        let input = dir.join(format!("{n}.in"));
        let (got, tags) = if case["input"] == "u8" {
            run_tagged(build(&case), key, read_items::<u8>(&input), &inlen)
        } else {
            run_tagged(build(&case), key, read_items::<f32>(&input), &inlen)
        };
        let want_tags: Vec<(u64, u64)> = length_tags(key, &outlen)
            .iter()
            .map(|t| (t.index, t.value.as_u64().unwrap()))
            .collect();
        assert_eq!(tags, want_tags, "{n}: length tags");
        assert_eq!(got, want, "{n}: items");
        eprintln!("{n}: packets of {outlen:?} items, as GNU Radio");
    }
}

/// Posts `pdus` to `block` and gives the data of the PDUs it posts.
fn run_pdus(block: Box<dyn Block>, pdus: Vec<Pmt>) -> Vec<Vec<u8>> {
    let pdus = pdus
        .into_iter()
        .map(|data| pdu(BTreeMap::new(), data))
        .collect();
    post_all(block, pdus)
        .iter()
        .map(|m| match parse(m) {
            Some((_, Pmt::Blob(bytes))) => bytes.clone(),
            _ => panic!("no byte PDU: {m:?}"),
        })
        .collect()
}

#[test]
fn async_ldpc_coders_match_gnu_radio_pdu_for_pdu() {
    let Some(dir) = reference() else { return };
    for case in cases(&dir, "pdu") {
        let n = name(&case);
        let inlen: Vec<u64> = read_items(&dir.join(format!("{n}.inlen")));
        let outlen: Vec<u64> = read_items(&dir.join(format!("{n}.outlen")));
        let want: Vec<u8> = read_items(&dir.join(format!("{n}.out")));
        let input = dir.join(format!("{n}.in"));
        let (bytes, floats) = (read_items::<u8>(&input), read_items::<f32>(&input));
        let mut pdus = Vec::new();
        let mut at = 0;
        for &len in &inlen {
            let len = len as usize;
            pdus.push(if case["input"] == "u8" {
                Pmt::Blob(bytes[at..at + len].to_vec())
            } else {
                Pmt::VecF32(floats[at..at + len].to_vec())
            });
            at += len;
        }
        let got = run_pdus(build(&case), pdus);
        assert_eq!(got.len(), outlen.len(), "{n}: PDUs");
        let mut at = 0;
        for (k, data) in got.iter().enumerate() {
            let len = outlen[k] as usize;
            assert_eq!(data[..], want[at..at + len], "{n}: PDU {k}");
            at += len;
        }
        eprintln!("{n}: PDUs of {outlen:?} bytes, as GNU Radio");
    }
}

fn code(code: FecCode, file: &str) -> FecCodeParams {
    FecCodeParams {
        code,
        ldpc: LdpcParams {
            file: testdata(file),
            gap: 2,
            max_iter: 20,
            ..Default::default()
        },
        ..Default::default()
    }
}

fn h42() -> FecCodeParams {
    code(FecCode::LdpcH, "n_0100_k_0042_gap_02.alist")
}

fn g58() -> FecCodeParams {
    code(FecCode::LdpcG, "n_0100_k_0058_gen_matrix.alist")
}

/// GNU Radio's matrix coders throw on a frame of no whole number of
/// information words (its message handler or block then stops): here
/// the PDU or packet is an error that names the sizes, and the tagged
/// blocks refuse an MTU of no whole number of words, as GNU Radio's
/// constructors throw (`8 · 1500` bits are no multiple of 42).
#[test]
fn sizes_gnu_radio_throws_on_are_errors() {
    let mut io = WorkIo::default();
    let mut enc = AsyncEncoder::new(AsyncEncoderParams {
        fec: h42(),
        packed: true,
        mtu: 1512,
        ..Default::default()
    })
    .unwrap();
    let e = enc.encode(&[0u8; 20]).unwrap_err().to_string();
    assert!(e.contains("160 bits") && e.contains("42"), "{e}");
    assert_eq!(enc.encode(&[0u8; 21]).unwrap().len(), 50);
    let msg = pdu(BTreeMap::new(), Pmt::Blob(vec![1; 10]));
    assert!(enc.handle_message("in", msg, &mut io).is_err());
    let mut bits = AsyncEncoder::new(AsyncEncoderParams {
        fec: g58(),
        mtu: 1508,
        ..Default::default()
    })
    .unwrap();
    assert!(bits.encode(&[1u8; 57]).is_err());
    assert_eq!(bits.encode(&[1u8; 116]).unwrap().len(), 200);
    // GNU Radio sizes a G-matrix PDU of 100 values as trunc(100 · 0.58)
    // = 57 bits, and its bit flip decoder throws.
    let mut dec = AsyncDecoder::new(AsyncDecoderParams {
        fec: g58(),
        mtu: 1508,
        ..Default::default()
    })
    .unwrap();
    assert!(dec.decode(&[0.5; 100]).is_err());
    let mut dec = AsyncDecoder::new(AsyncDecoderParams {
        fec: h42(),
        mtu: 1512,
        ..Default::default()
    })
    .unwrap();
    assert_eq!(dec.decode(&[0.5; 300]).unwrap().len(), 126);
    assert!(dec.decode(&[0.5; 150]).is_err());
    for block in ["extended_tagged_encoder", "extended_tagged_decoder"] {
        let params = |mtu: i64| -> BTreeMap<String, Pmt> {
            [
                ("code", Pmt::from("ldpc_h")),
                ("file", Pmt::String(testdata("n_0100_k_0042_gap_02.alist"))),
                ("gap", Pmt::I64(2)),
                ("lentagname", Pmt::from("len")),
                ("mtu", Pmt::I64(mtu)),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
        };
        let e = registry().build(block, params(1500)).err().unwrap();
        assert!(e.to_string().contains("mtu"), "{block}: {e}");
        let b = registry().build(block, params(1512)).unwrap();
        // A packet of 50 bits (or 50 values, 21 bits) is no whole word.
        let failed = if block == "extended_tagged_encoder" {
            let mut fg = Flowgraph::new();
            let src =
                fg.add(VectorSource::new(vec![1u8; 92]).with_tags(length_tags("len", &[42, 50])));
            let dut = fg.add_boxed("dut", block, b);
            let sink = fg.add(VectorSink::<u8>::new());
            fg.connect(src, "out", dut, "in").unwrap();
            fg.connect(dut, "out", sink, "in").unwrap();
            fg.run_bounded(rfgraph::scheduler::Tpb::new()).err()
        } else {
            let mut fg = Flowgraph::new();
            let src = fg.add(
                VectorSource::new(vec![1.0f32; 150]).with_tags(length_tags("len", &[100, 50])),
            );
            let dut = fg.add_boxed("dut", block, b);
            let sink = fg.add(VectorSink::<u8>::new());
            fg.connect(src, "out", dut, "in").unwrap();
            fg.connect(dut, "out", sink, "in").unwrap();
            fg.run_bounded(rfgraph::scheduler::Tpb::new()).err()
        };
        let e = failed.unwrap_or_else(|| panic!("{block}: ran")).to_string();
        assert!(e.contains("42-bit information words"), "{block}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Random PDUs through the LDPC asynchronous coders (any size,
    /// packed or not; soft values of any kind): a coded PDU or an error,
    /// never a panic.
    #[test]
    fn async_ldpc_coders_never_panic(
        which in 0usize..3, packed in any::<bool>(),
        sizes in prop::collection::vec(0usize..300, 1..6),
        x in prop_oneof![Just(f32::NAN), Just(f32::INFINITY), -4.0f32..4.0],
    ) {
        let fec = [
            code(FecCode::Ldpc, "n_0100_k_0042_gap_02.alist"),
            h42(),
            g58(),
        ][which].clone();
        let mut enc = AsyncEncoder::new(AsyncEncoderParams {
            fec: fec.clone(), packed, mtu: 40, ..Default::default()
        }).unwrap();
        let mut dec = AsyncDecoder::new(AsyncDecoderParams {
            fec, packed, mtu: 40, ..Default::default()
        }).unwrap();
        for &n in &sizes {
            let data: Vec<u8> = (0..n).map(|i| (i * 37 % 251) as u8 & if packed { 255 } else { 1 }).collect();
            if let Ok(coded) = enc.encode(&data) {
                prop_assert!(coded.len() <= 8 * 40 * 3);
            }
            let soft: Vec<f32> = (0..n).map(|i| if i % 3 == 0 { x } else { i as f32 - 100.0 }).collect();
            let _ = dec.decode(&soft);
        }
    }

    /// Random packets through the LDPC tagged coders (lengths of any
    /// value, a stream cut anywhere): they code, or stop with an error
    /// that says why, never panic or hang.
    #[test]
    fn tagged_ldpc_coders_never_panic(
        which in 0usize..3, decoder in any::<bool>(),
        lengths in prop::collection::vec(prop_oneof![0u64..300, Just(u64::MAX), 1000u64..5000], 1..8),
        cut in 0usize..2000,
    ) {
        let (code, file, mtu) = [
            ("ldpc", "n_0100_k_0042_gap_02.alist", 42),
            ("ldpc_h", "n_0100_k_0042_gap_02.alist", 42),
            ("ldpc_g", "n_0100_k_0058_gen_matrix.alist", 58),
        ][which];
        let block = if decoder { "extended_tagged_decoder" } else { "extended_tagged_encoder" };
        let params: BTreeMap<String, Pmt> = [
            ("code", Pmt::from(code)),
            ("file", Pmt::String(testdata(file))),
            ("gap", Pmt::I64(2)),
            ("max_iter", Pmt::I64(5)),
            ("lentagname", Pmt::from("pkt")),
            ("mtu", Pmt::I64(mtu)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let b = registry().build(block, params).unwrap();
        let total = lengths.iter().map(|&n| n.min(3000)).sum::<u64>().min(cut as u64);
        let tags: Vec<Tag> = length_tags("pkt", &lengths).into_iter().filter(|t| t.index < total.max(1)).collect();
        let mut fg = Flowgraph::new();
        let src = if decoder {
            fg.add(VectorSource::new((0..total).map(|i| (i % 5) as f32 - 2.0).collect::<Vec<f32>>()).with_tags(tags))
        } else {
            fg.add(VectorSource::new((0..total).map(|i| (i % 3 == 0) as u8).collect::<Vec<u8>>()).with_tags(tags))
        };
        let dut = fg.add_boxed("dut", block, b);
        let sink = fg.add(VectorSink::<u8>::new());
        fg.connect(src, "out", dut, "in").unwrap();
        fg.connect(dut, "out", sink, "in").unwrap();
        if let Err(e) = fg.run_bounded(rfgraph::scheduler::Tpb::new()) {
            let e = e.to_string();
            prop_assert!(e.contains("MTU") || e.contains("information words") || e.contains("too large"), "{e}");
        }
    }
}
