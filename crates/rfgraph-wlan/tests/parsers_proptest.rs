//! The parsers of what comes off the air, fed mutated input: a MAC
//! header from any bytes (a frame whose FCS happens to match can hold
//! anything), a SIGNAL field from any 24 bits. Never a panic; what they
//! accept is consistent.

use proptest::prelude::*;
use rfgraph_wlan::burst::Signal;
use rfgraph_wlan::mac;
use rfgraph_wlan::rate::Rate;
use rfgraph_wlan::signal::{parse_signal, signal_bits};

/// A real data frame, then cut, grown and with bytes overwritten.
fn mutated_frame() -> impl Strategy<Value = Vec<u8>> {
    (
        0usize..64,
        prop::collection::vec((0usize..64, any::<u8>()), 0..8),
        prop::collection::vec(any::<u8>(), 0..16),
    )
        .prop_map(|(cut, writes, tail)| {
            let [a1, a2, a3] = [[0x42; 6], [0x23; 6], [0xff; 6]];
            let mut m = mac::data_frame(9, a1, a2, a3, b"payload bytes");
            for (at, b) in writes {
                if let Some(x) = m.get_mut(at) {
                    *x = b;
                }
            }
            m.truncate(cut);
            m.extend(tail);
            m
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_mac_header_parses_from_any_bytes_within_them(
        bytes in prop_oneof![mutated_frame(), prop::collection::vec(any::<u8>(), 0..64)],
    ) {
        if let Some(h) = mac::parse(&bytes) {
            prop_assert!(h.header_len <= bytes.len(), "{h:?} from {} bytes", bytes.len());
            prop_assert_eq!(h.frame_control, u16::from_le_bytes([bytes[0], bytes[1]]));
        }
    }

    #[test]
    fn a_signal_field_from_any_bits_is_one_that_encodes_back(
        bits in prop::array::uniform24(0u8..2),
    ) {
        if let Ok(s) = parse_signal(&bits) {
            prop_assert!((1..=4095).contains(&s.length));
            prop_assert_eq!(signal_bits(s), bits);
        }
    }

    #[test]
    fn a_signal_field_with_one_bit_flipped_is_refused(
        rate in 0usize..8,
        length in 1usize..=4095,
        flip in 0usize..17,
    ) {
        let mut bits = signal_bits(Signal { rate: Rate::ALL[rate], length });
        bits[flip] ^= 1;
        // Even parity over bits 0…16 catches every single flip.
        prop_assert!(parse_signal(&bits).is_err());
    }
}

/// A value of any `Pmt` kind a message or tag could carry instead.
fn any_value() -> impl Strategy<Value = rfgraph::Pmt> {
    use rfgraph::Pmt;
    prop_oneof![
        Just(Pmt::Null),
        any::<u64>().prop_map(Pmt::U64),
        any::<i64>().prop_map(Pmt::I64),
        any::<f32>().prop_map(Pmt::F32),
        any::<bool>().prop_map(Pmt::Bool),
        prop::collection::vec(any::<u8>(), 0..8).prop_map(Pmt::Blob),
        prop::collection::vec(any::<[f32; 2]>(), 0..70).prop_map(Pmt::VecComplexF32),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// A `wlan_burst` tag or frame PDU with any one field replaced by any
    /// value: read back or refused, never a panic, and a burst length
    /// read is one a SIGNAL field can hold.
    #[test]
    fn burst_tags_and_frame_pdus_with_a_field_replaced_never_panic(
        field in 0usize..8,
        value in any_value(),
    ) {
        use rfgraph::Pmt;
        use rfgraph_wlan::block::{BurstMeta, frame_pdu};
        use rfgraph_wlan::burst::{Decoded, Header};
        let meta = BurstMeta {
            seq: 1,
            start: 2,
            cfo: 0.0,
            header: Header {
                signal: Signal { rate: Rate::Qpsk12, length: 100 },
                channel: [num_complex::Complex32::new(1.0, 0.0); 64],
                snr_db: 20.0,
            },
        };
        let frame = Decoded {
            seq: 1, start: 2, rate: Rate::Bpsk12, length: 28, mpdu: vec![8, 0],
            fcs_ok: true, snr_db: 20.0, cfo_hz: 0.0,
        };
        let replace = |p: Pmt| -> Pmt {
            let mut p = p;
            let map = match &mut p {
                Pmt::Map(m) => m,
                Pmt::Pair(pair) => match &mut pair.0 { Pmt::Map(m) => m, _ => unreachable!() },
                _ => unreachable!(),
            };
            let key = map.keys().nth(field % map.len()).cloned().expect("a key");
            map.insert(key, value.clone());
            p
        };
        if let Some(m) = BurstMeta::from_pmt(&replace(meta.to_pmt())) {
            prop_assert!((1..=4095).contains(&m.header.signal.length));
        }
        let _ = frame_pdu::from_pdu(&replace(frame_pdu::to_pdu(&frame)));
    }
}
