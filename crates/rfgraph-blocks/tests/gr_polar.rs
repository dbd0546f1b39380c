//! The polar codes against GNU Radio 3.10's `gr-fec`: the script
//! `gr_polar/reference.py` (run by `/usr/bin/python3`) asks GNU Radio's
//! configurator for frozen bits (several block sizes, rates and design
//! SNRs) and runs its polar encoders (plain, packed, with frozen ones,
//! systematic) and decoders (successive cancellation, the list decoder
//! with lists of 1 to 32 paths, systematic) in `fec.extended_encoder` /
//! `fec.extended_decoder` on random bits and clean, erased and noisy
//! soft values. Each case here builds the same block **through the
//! registry** and compares bit for bit, so the same decoding errors at
//! every noise level. Without GNU Radio the GNU Radio cases skip with
//! one line, except under `CI=true`, where they fail.

mod common;

use common::cases::{build, cases, check_bits, name, registry};
use common::gr_reference::gr_reference;
use proptest::prelude::*;
use rfgraph::Pmt;
use rfgraph_blocks::fec::polar::frozen_bit_positions;
use rfgraph_blocks::fec::{Decoder, Encoder, FecCode, FecCodeParams};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// GNU Radio's outputs, written once per test process by
/// `gr_polar/reference.py`; `None` when GNU Radio is absent (and not under CI).
fn reference() -> Option<PathBuf> {
    gr_reference("gr_polar", "gnuradio.fec")
}

#[test]
fn configurator_chooses_gnu_radios_frozen_bits() {
    let Some(dir) = reference() else { return };
    for case in cases(&dir, "configurator") {
        let got = frozen_bit_positions(
            case["block_size"].as_i64().unwrap(),
            case["num_info_bits"].as_i64().unwrap(),
            case["design_snr"].as_f64().unwrap(),
        )
        .unwrap();
        let want: Vec<usize> = case["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(got, want, "{}", name(&case));
    }
}

#[test]
fn encoders_match_gnu_radio_bit_for_bit() {
    let Some(dir) = reference() else { return };
    for case in cases(&dir, "encode") {
        check_bits::<u8>(&dir, &case, build(&case));
    }
}

#[test]
fn decoders_match_gnu_radio_bit_for_bit() {
    let Some(dir) = reference() else { return };
    let mut with_errors = 0;
    for case in cases(&dir, "decode") {
        check_bits::<f32>(&dir, &case, build(&case));
        with_errors += (case["errors"].as_u64().unwrap() > 0) as usize;
    }
    // The noisy cases do make errors: the comparison covers decisions
    // that went wrong, not only clean ones.
    assert!(with_errors > 20, "{with_errors} cases with errors");
}

fn polar(code: FecCode, n: usize, k: usize, positions: Vec<i64>) -> FecCodeParams {
    let mut p = FecCodeParams {
        code,
        ..Default::default()
    };
    p.polar.block_size = n;
    p.polar.num_info_bits = k;
    p.polar.frozen_bit_positions = positions;
    p
}

#[test]
fn clean_blocks_decode_with_every_decoder() {
    let positions: Vec<i64> = frozen_bit_positions(128, 64, 0.0)
        .unwrap()
        .into_iter()
        .map(|p| p as i64)
        .collect();
    let bits: Vec<u8> = (0..64u32).map(|i| ((i * 37) >> 2) as u8 & 1).collect();
    for code in [FecCode::Polar, FecCode::PolarList, FecCode::PolarSystematic] {
        let p = polar(code, 128, 64, positions.clone());
        let mut enc = Encoder::new(&p, "t").unwrap();
        let mut dec = Decoder::new(&p, "t").unwrap();
        let mut coded = vec![0; enc.output_size()];
        enc.encode(&bits, &mut coded);
        let soft: Vec<f32> = coded.iter().map(|&b| 2.0 * b as f32 - 1.0).collect();
        let mut out = vec![9; dec.output_size()];
        dec.decode_float(&soft, &mut out);
        assert_eq!(out, bits, "{code:?}");
        if code == FecCode::PolarSystematic {
            // Systematic: the information bits are in the codeword.
            let info: Vec<usize> = (0..128)
                .filter(|i| !positions.contains(&(*i as i64)))
                .collect();
            let rev = |i: usize| i.reverse_bits() >> (usize::BITS - 7);
            let seen: Vec<u8> = info.iter().map(|&i| coded[rev(i)]).collect();
            assert_eq!(seen, bits);
        }
    }
}

/// Definitions GNU Radio refuses are errors naming the parameter.
#[test]
fn malformed_definitions_are_errors() {
    let r = registry();
    let base = |n: i64, k: i64, positions: Vec<i64>| {
        let mut m = BTreeMap::new();
        m.insert("code".to_string(), Pmt::String("polar".into()));
        m.insert("block_size".to_string(), Pmt::I64(n));
        m.insert("num_info_bits".to_string(), Pmt::I64(k));
        m.insert(
            "frozen_bit_positions".to_string(),
            Pmt::List(positions.into_iter().map(Pmt::I64).collect()),
        );
        m
    };
    let err = |m: BTreeMap<String, Pmt>, block: &str| match r.build(block, m) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    };
    let e = err(base(12, 4, (0..8).collect()), "extended_encoder");
    assert!(e.contains("block_size") && e.contains("power of 2"), "{e}");
    let e = err(base(8, 9, vec![]), "extended_decoder");
    assert!(e.contains("num_info_bits"), "{e}");
    let e = err(base(8, 4, vec![0, 2, 1, 4]), "extended_encoder");
    assert!(e.contains("frozen_bit_positions"), "{e}");
    let e = err(base(8, 4, vec![0, 1, 2]), "extended_decoder");
    assert!(e.contains("frozen_bit_positions"), "{e}");
    let mut list = base(8, 4, vec![0, 1, 2, 4]);
    list.insert("code".to_string(), Pmt::String("polar_list".into()));
    list.insert("max_list_size".to_string(), Pmt::I64(3));
    let e = err(list, "extended_decoder");
    assert!(e.contains("max_list_size"), "{e}");
    let mut packed = base(16, 4, vec![0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 12, 16]);
    packed.insert("is_packed".to_string(), Pmt::Bool(true));
    assert!(r.build("extended_encoder", packed).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any definition builds or is refused, never panics; any soft
    /// input (NaN, infinities, zeros) decodes without a panic.
    #[test]
    fn any_definition_and_input_is_safe(
        power in 0u32..8,
        odd in 0usize..3,
        k in 0usize..300,
        positions in proptest::collection::vec(-2i64..300, 0..300),
        values in proptest::collection::vec(-1i64..4, 0..8),
        list in 1usize..10,
        code in 0usize..3,
        soft in proptest::collection::vec(
            prop_oneof![Just(f32::NAN), Just(f32::INFINITY), Just(0.0f32), -4.0f32..4.0],
            1..300,
        ),
    ) {
        let n = (1usize << power) + odd;
        let code = [FecCode::Polar, FecCode::PolarList, FecCode::PolarSystematic][code];
        let mut p = polar(code, n, k, positions);
        p.polar.frozen_bit_values = values;
        p.polar.max_list_size = list;
        if let Ok(mut dec) = Decoder::new(&p, "p") {
            let input: Vec<f32> = soft.iter().cycle().take(dec.input_size()).copied().collect();
            let mut out = vec![0; dec.output_size()];
            dec.decode_float(&input, &mut out);
            dec.decode_float(&input, &mut out);
            prop_assert!(out.iter().all(|&b| b <= 3));
        }
        if let Ok(mut enc) = Encoder::new(&p, "p") {
            let input: Vec<u8> = (0..enc.input_size()).map(|i| (i % 2) as u8).collect();
            let mut out = vec![0; enc.output_size()];
            enc.encode(&input, &mut out);
        }
    }
}

/// Sorted frozen positions from the configurator build every coder.
#[test]
fn configurator_positions_build_every_coder() {
    for (n, k) in [(2usize, 1usize), (8, 4), (64, 63), (1024, 1)] {
        let positions: Vec<i64> = frozen_bit_positions(n as i64, k as i64, 0.0)
            .unwrap()
            .into_iter()
            .map(|p| p as i64)
            .collect();
        for code in [FecCode::Polar, FecCode::PolarList, FecCode::PolarSystematic] {
            let p = polar(code, n, k, positions.clone());
            assert!(Encoder::new(&p, "t").is_ok(), "{n} {k} {code:?}");
            assert!(Decoder::new(&p, "t").is_ok(), "{n} {k} {code:?}");
        }
    }
}
