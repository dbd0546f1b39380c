//! Property tests: untrusted bits never panic the decoders, and the
//! demodulator reports nothing whose parity does not check, whatever it
//! is fed (random magnitudes, and real bursts with random damage).

use proptest::prelude::*;
use rfgraph_radio::modes::crc::syndrome;
use rfgraph_radio::modes::decode::cpr::{self, CprFrame};
use rfgraph_radio::modes::frame::parse_hex;
use rfgraph_radio::modes::{
    DemodRate, Demodulator, Message, RawFrame, Tracker, cu8_magnitudes, decode_fields,
};
use std::path::PathBuf;

fn recording() -> Vec<u16> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/adsb/modes1-part1.cu8");
    let bytes = std::fs::read(path).expect("the test recording");
    let mut m = vec![0u16; bytes.len() / 2];
    cu8_magnitudes(&bytes, &mut m);
    m
}

/// Every frame's parity checks for what it claims to be.
fn all_check(frames: &[RawFrame]) -> Result<(), TestCaseError> {
    for f in frames {
        let s = syndrome(f.data());
        match f.df() {
            17 | 18 => prop_assert_eq!(s, 0, "{}", f.hex()),
            11 => prop_assert!(s < 80, "{}", f.hex()),
            0 | 4 | 5 | 16 | 20 | 21 => prop_assert_eq!(s, f.address, "{}", f.hex()),
            other => prop_assert!(false, "DF{} reported: {}", other, f.hex()),
        }
        prop_assert!(f.bits == 56 || f.bits == 112);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn fields_of_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..20)) {
        let _ = decode_fields(&bytes);
    }

    #[test]
    fn tracker_takes_any_frame(
        bytes in proptest::array::uniform14(any::<u8>()),
        bits in any::<u8>(),
        sample in any::<u64>(),
        address in any::<u32>(),
        power in any::<f32>(),
    ) {
        let mut t = Tracker::new(2.0e6).with_receiver(52.0, 4.0);
        let f = RawFrame { sample, power, address, bytes, bits, corrected: 0 };
        let m = t.process(&f);
        // What it prints reads back.
        let text = serde_json::to_string(&m).unwrap();
        let back: Message = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(back.hex, m.hex);
        let _ = t.table();
    }

    #[test]
    fn message_text_of_any_kind(text in ".{0,200}") {
        let _ = serde_json::from_str::<Message>(&text);
        let _ = parse_hex(&text);
    }

    #[test]
    fn cpr_of_any_fields(
        a in any::<(bool, u32, u32)>(),
        b in any::<(bool, u32, u32)>(),
        reference in any::<(f64, f64)>(),
    ) {
        let e = CprFrame { odd: false, lat: a.1 % 131_072, lon: a.2 % 131_072 };
        let o = CprFrame { odd: true, lat: b.1 % 131_072, lon: b.2 % 131_072 };
        if let Some((lat, lon)) = cpr::global_airborne(e, o, a.0) {
            prop_assert!((-90.0..=90.0).contains(&lat) && (-180.0..180.0).contains(&lon));
        }
        let _ = cpr::global_surface(e, o, b.0, reference);
        let _ = cpr::local(e, b.0, reference);
    }

    #[test]
    fn random_magnitudes_yield_only_checked_frames(
        m in proptest::collection::vec(any::<u16>(), 0..5000),
        rate in prop_oneof![Just(2.0e6), Just(2.4e6)],
    ) {
        let mut d = Demodulator::new(DemodRate::from_hz(rate).unwrap());
        let mut out = Vec::new();
        d.push(&m, &mut out);
        d.finish(&mut out);
        all_check(&out)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Real bursts with random samples overwritten, scaled or cut: still
    /// nothing unchecked, and no panic.
    #[test]
    fn damaged_recording_yields_only_checked_frames(
        start in 0usize..170_000,
        len in 1usize..8000,
        damage in proptest::collection::vec((0usize..8000, any::<u16>()), 0..200),
        gain in 1u32..4,
    ) {
        let real = recording();
        let end = (start + len).min(real.len());
        let mut m: Vec<u16> = real[start..end].iter().map(|&x| (u32::from(x) * gain).min(65535) as u16).collect();
        for (at, v) in damage {
            if let Some(x) = m.get_mut(at) {
                *x = v;
            }
        }
        let mut d = Demodulator::new(DemodRate::Msps2);
        let mut out = Vec::new();
        d.push(&m, &mut out);
        d.finish(&mut out);
        all_check(&out)?;
    }
}
