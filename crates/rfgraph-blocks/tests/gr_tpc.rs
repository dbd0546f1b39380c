//! The turbo product code against GNU Radio 3.10's `gr-fec`: the script
//! `gr_tpc/reference.py` (run by `/usr/bin/python3`) runs GNU Radio's
//! `tpc_encoder` for five codes (the examples' `[3]`, `[43]`, 26 × 6,
//! B = 9, Q = 3 among them, and one of memory 0) in `fec.extended_encoder`
//! on random bits, and its `tpc_decoder` with each of its five max*
//! operators (linear, max-log, constant, table, exact log-MAP) and 1, 6
//! or 20 iterations in `fec.extended_decoder` on the coded frames with
//! Gaussian noise at three levels. Each case here builds the same block
//! **through the registry** and compares bit for bit, so the decoders
//! make the same errors. GNU Radio's `fec_test` (one point of its BER
//! curve generator) is compared the same way with rfgraph's
//! `BercurveChain`. Malformed definitions are errors, never panics.
//! Without GNU Radio the GNU Radio cases skip with one line, except
//! under `CI=true`, where they fail.

mod common;

use common::cases::{build, cases, check_bits, name, params, registry};
use common::gr_reference::{gr_reference, load};
use proptest::prelude::*;
use rfgraph::ParamSet;
use rfgraph::Pmt;
use rfgraph_blocks::fec::{BercurveChain, Decoder, Encoder, FecCode, FecCodeParams};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// GNU Radio's outputs, written once per test process by
/// `gr_tpc/reference.py`; `None` when GNU Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    gr_reference("gr_tpc", "gnuradio.fec")
}

#[test]
fn encoders_match_gnu_radio_bit_for_bit() {
    let Some(dir) = reference() else { return };
    let cases = cases(&dir, "encode");
    assert!(cases.len() >= 2);
    for case in cases {
        check_bits::<u8>(&dir, &case, build(&case));
    }
}

#[test]
fn decoders_match_gnu_radio_bit_for_bit() {
    let Some(dir) = reference() else { return };
    let mut with_errors = 0;
    let mut types = [0usize; 5];
    for case in cases(&dir, "decode") {
        let got = check_bits::<f32>(&dir, &case, build(&case));
        // The code's own bits: the encoder case of the same code.
        let code = name(&case).split('_').nth(1).unwrap();
        let sent: Vec<u8> = load(&dir.join(format!("enc_{code}.in")));
        let errors = got.iter().zip(&sent).filter(|(a, b)| a != b).count();
        with_errors += (errors > 0) as usize;
        types[case["params"]["decoder_type"].as_u64().unwrap() as usize] += 1;
    }
    // Every max* ran, and the noisy cases do make errors: the comparison
    // covers decisions that went wrong, not only clean ones.
    assert!(types.iter().all(|&n| n >= 5), "{types:?}");
    assert!(with_errors > 10, "{with_errors} cases with errors");
}

/// GNU Radio's `fec_test`, one point of its BER curve generator, and
/// rfgraph's [`BercurveChain`] on the same bytes: the same decoded bytes,
/// noise included (GNU Radio's generator, seeds negative, zero and
/// positive), for the turbo product code (two max* operators), the
/// streaming convolutional code, repetition and no code.
#[test]
fn bercurve_points_match_gnu_radios_fec_test() {
    let Some(dir) = reference() else { return };
    let mut with_errors = 0;
    for case in cases(&dir, "chain") {
        let n = name(&case);
        let fec = FecCodeParams::resolve("t", params(&case)).unwrap_or_else(|e| panic!("{n}: {e}"));
        let esno = case["esno"].as_f64().unwrap() as f32;
        let seed = case["seed"].as_i64().unwrap();
        let mut chain = BercurveChain::new(&fec, "11", esno, seed).unwrap();
        let data: Vec<u8> = load(&dir.join(format!("{n}.in")));
        for part in data.chunks(700) {
            chain.push(part);
        }
        let want: Vec<u8> = load(&dir.join(format!("{n}.out")));
        let got = chain.take_decoded();
        assert!(!want.is_empty(), "{n}: GNU Radio decoded nothing");
        assert_eq!(got.len(), want.len(), "{n}: decoded length");
        if let Some(i) = (0..want.len()).find(|&i| got[i] != want[i]) {
            panic!(
                "{n}: first difference at byte {i}: ours {}, GNU Radio {}",
                got[i], want[i]
            );
        }
        assert_eq!(chain.take_sent(), data, "{n}: sent bytes");
        with_errors += got.iter().zip(&data).any(|(a, b)| a != b) as usize;
    }
    assert!(with_errors >= 5, "{with_errors} points with errors");
}

fn tpc(
    row: Vec<i64>,
    col: Vec<i64>,
    krow: usize,
    kcol: usize,
    b: usize,
    q: usize,
) -> FecCodeParams {
    let mut p = FecCodeParams {
        code: FecCode::Tpc,
        ..Default::default()
    };
    p.tpc.row_poly = row;
    p.tpc.col_poly = col;
    p.tpc.krow = krow;
    p.tpc.kcol = kcol;
    p.tpc.bval = b;
    p.tpc.qval = q;
    p.ldpc.max_iter = 6;
    p
}

#[test]
fn the_examples_code_has_gnu_radios_sizes_and_decodes_clean_frames() {
    let p = tpc(vec![3], vec![43], 26, 6, 9, 3);
    let mut enc = Encoder::new(&p, "t").unwrap();
    assert_eq!((enc.input_size(), enc.output_size()), (144, 288));
    assert_eq!(enc.rate(), 0.5);
    let bits: Vec<u8> = (0..144u32).map(|i| ((i * 29) >> 3) as u8 & 1).collect();
    let mut coded = vec![0; 288];
    enc.encode(&bits, &mut coded);
    let soft: Vec<f32> = coded.iter().map(|&b| 2.0 * b as f32 - 1.0).collect();
    for dt in 0..5 {
        let mut q = p.clone();
        q.tpc.decoder_type = dt;
        let mut dec = Decoder::new(&q, "t").unwrap();
        assert_eq!((dec.input_size(), dec.output_size()), (288, 144));
        let mut out = vec![9; 144];
        dec.decode_float(&soft, &mut out);
        assert_eq!(out, bits, "decoder_type {dt}");
    }
}

/// Definitions that make GNU Radio's coders misbehave are errors naming
/// the parameter.
#[test]
fn malformed_definitions_are_errors() {
    let r = registry();
    let base = |row: Vec<i64>, col: Vec<i64>, krow: i64, kcol: i64, b: i64, q: i64| {
        let list = |v: Vec<i64>| Pmt::List(v.into_iter().map(Pmt::I64).collect());
        BTreeMap::from([
            ("code".to_string(), Pmt::String("tpc".into())),
            ("row_poly".to_string(), list(row)),
            ("col_poly".to_string(), list(col)),
            ("krow".to_string(), Pmt::I64(krow)),
            ("kcol".to_string(), Pmt::I64(kcol)),
            ("bval".to_string(), Pmt::I64(b)),
            ("qval".to_string(), Pmt::I64(q)),
        ])
    };
    let err = |m: BTreeMap<String, Pmt>, block: &str| match r.build(block, m) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    };
    assert!(
        r.build("extended_encoder", base(vec![3], vec![43], 26, 6, 9, 3))
            .is_ok()
    );
    for block in ["extended_encoder", "extended_decoder"] {
        let e = err(base(vec![3, 5], vec![43], 26, 6, 9, 3), block);
        assert!(e.contains("row_poly"), "{e}");
        let e = err(base(vec![3], vec![1], 26, 6, 9, 3), block);
        assert!(e.contains("col_poly"), "{e}");
        let e = err(base(vec![3], vec![], 26, 6, 9, 3), block);
        assert!(e.contains("col_poly"), "{e}");
        let e = err(base(vec![-3], vec![43], 26, 6, 9, 3), block);
        assert!(e.contains("row_poly"), "{e}");
        let e = err(base(vec![1 << 20], vec![43], 26, 6, 9, 3), block);
        assert!(e.contains("row_poly"), "{e}");
        let e = err(base(vec![3], vec![43], 0, 6, 0, 0), block);
        assert!(e.contains("krow"), "{e}");
        let e = err(base(vec![3], vec![43], 26, -6, 0, 0), block);
        assert!(e.contains("kcol"), "{e}");
        let e = err(base(vec![3], vec![43], 26, 6, 27, 0), block);
        assert!(e.contains("bval"), "{e}");
        let e = err(base(vec![3], vec![43], 4, 3, 2, 10), block);
        assert!(e.contains("qval"), "{e}");
        let e = err(base(vec![3], vec![43], 4096, 4096, 0, 0), block);
        assert!(e.contains("krow"), "{e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any definition builds or is refused, never panics; any soft
    /// input (NaN, infinities, zeros) decodes without a panic.
    #[test]
    fn any_definition_and_input_is_safe(
        row in proptest::collection::vec(-4i64..200, 0..3),
        col in proptest::collection::vec(-4i64..200, 0..3),
        krow in 0usize..40,
        kcol in 0usize..40,
        b in 0usize..50,
        q in 0usize..200,
        dt in -2i64..7,
        iters in 0usize..4,
        soft in proptest::collection::vec(
            prop_oneof![Just(f32::NAN), Just(f32::INFINITY), Just(f32::NEG_INFINITY),
                        Just(0.0f32), -4.0f32..4.0],
            1..300,
        ),
    ) {
        let mut p = tpc(row, col, krow, kcol, b, q);
        p.tpc.decoder_type = dt;
        p.ldpc.max_iter = iters;
        if let Ok(mut dec) = Decoder::new(&p, "p") {
            let input: Vec<f32> = soft.iter().cycle().take(dec.input_size()).copied().collect();
            let mut out = vec![0; dec.output_size()];
            dec.decode_float(&input, &mut out);
            dec.decode_float(&input, &mut out);
            prop_assert!(out.iter().all(|&b| b <= 1));
        }
        if let Ok(mut enc) = Encoder::new(&p, "p") {
            let input: Vec<u8> = (0..enc.input_size()).map(|i| (i * 7 % 5) as u8).collect();
            let mut out = vec![9; enc.output_size()];
            enc.encode(&input, &mut out);
            prop_assert!(out.iter().all(|&b| b <= 1));
        }
    }
}
